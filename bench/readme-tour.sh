#!/usr/bin/env bash
# Re-measures the simulator figures the README's tour and docs/planning.md quote, after a change to the simulator's
# terms (a refit, docs/benchmarks.md "Simulator fidelity"): each step's output goes to target/readme-tour/NN-name.txt
# and its run directory under target/readme-tour/runs/. The real-time session search (about 5 min) runs only with
# TOUR_REAL_SEARCH=1. Nothing here asserts: the figures are for a person to copy into the docs they came from.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./headroom --version >/dev/null
out=target/readme-tour
rm -rf "$out"
mkdir -p "$out/runs"
plan=(--forecast configs/plan/forecast.yaml --catalog configs/plan/catalog.yaml)

step() { # step NAME COMMAND...: runs one command into NAME.txt (stdout and stderr), timed
  local name=$1
  shift
  echo "== $name: $*" >&2
  local start=$SECONDS
  "$@" --out "$out/runs/$name" > "$out/$name.txt" 2>&1 || { cat "$out/$name.txt" >&2; exit 1; }
  echo "   $((SECONDS - start)) s" | tee -a "$out/$name.txt" >&2
}

step 01-probe ./headroom probe --concurrency 8 --duration 20s
step 02-search ./headroom search --virtual --slo "ttft:p95<300ms"
session=(--turns 4 --turn-isl 256 --turn-osl 128 --system-prompt-tokens 1000 --think-time exp:2s)
step 03-sessions ./headroom probe --sessions 64 "${session[@]}" --duration 30s
step 04-session-search-virtual ./headroom search --virtual --objective max-concurrency --load-unit sessions \
  "${session[@]}" --slo "ttft:p95<300ms" --min 8
if [ "${TOUR_REAL_SEARCH:-0}" = 1 ]; then
  step 05-session-search ./headroom search --objective max-concurrency --load-unit sessions \
    "${session[@]}" --slo "ttft:p95<300ms" --min 8
fi
step 06-calibrate ./headroom calibrate --virtual
twin="$out/runs/06-calibrate/calibration.yaml"
point=(--concurrency 32 --isl 2000 --osl 400 --requests 320)
step 07-twin-point ./headroom probe --virtual --profile "$twin" "${point[@]}"
step 08-simulator-point ./headroom probe --virtual "${point[@]}"
step 09-plan-twin ./headroom plan "${plan[@]}" --option h100 --capacity-model "h100=$twin" --verify
# The worked example's measured capacities (configs/plan/capacities.yaml says how they were searched).
for hw in h100-sxm l40s; do
  step "10-chat-$hw" ./headroom search --virtual --objective max-rate --sim-hardware "$hw" \
    --slo 'ttft:p95<300ms' --slo 'itl:p99<100ms' --isl 512 --osl 256
  step "11-rag-$hw" ./headroom search --virtual --objective max-rate --sim-hardware "$hw" \
    --slo 'ttft:p95<2s' --slo 'itl:p99<150ms' --isl 4096 --osl 256 --min 0.1 --probe-duration 3600s
done
step 12-plan ./headroom plan "${plan[@]}" --capacity configs/plan/capacities.yaml --policy configs/plan/policy.yaml
step 13-compare ./headroom compare "${plan[@]}" --capacity configs/plan/capacities.yaml \
  --policy configs/plan/policy.yaml
step 14-verify ./headroom plan "${plan[@]}" --capacity configs/plan/capacities.yaml --policy configs/plan/policy.yaml \
  --verify
step 15-stock-h100 ./headroom plan "${plan[@]}" --option h100 --capacity-model h100=stock
step 16-stock-l40s ./headroom plan "${plan[@]}" --option l40s --capacity-model l40s=stock --verify
echo "outputs: $out" >&2
