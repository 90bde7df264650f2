#!/usr/bin/env bash
# Benchmark: the wall time of `./headroom configure` over 4 GPUs (H100, H200, A100-80GB and L40S at their list
# prices) x TP 1,2,4,8 x 4 batch caps = 64 configurations, each a max-rate search on the virtual clock (tolerance 5 %,
# at most 20 probes), for Llama-3.1-70B at 1024 -> 256 tokens under ttft:p95<1s and itl:p99<50ms, and again for
# Llama-3.1-8B at 512 -> 256 under ttft:p95<500ms and itl:p99<50ms. Writes target/benchmark-configure.json.
# BENCH_THREADS overrides the searches run at once (default: the machine's cores), BENCH_TOLERANCE each search's
# tolerance (default 0.05), BENCH_MODELS the models run (default: both).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./headroom --version >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/catalog.yaml" <<'YAML'
options:
  - {name: h100, hardware: h100-sxm}
  - {name: h200, hardware: h200}
  - {name: a100, hardware: a100-80gb}
  - {name: l40s, hardware: l40s}
YAML
threads=()
[ -n "${BENCH_THREADS:-}" ] && threads=(--threads "$BENCH_THREADS")
tolerance="${BENCH_TOLERANCE:-0.05}"
models="${BENCH_MODELS:-llama-3.1-70b llama-3.1-8b}"
mkdir -p target
rows=()
for point in "llama-3.1-70b 1024 256 ttft:p95<1s" "llama-3.1-8b 512 256 ttft:p95<500ms"; do
  read -r model isl osl ttft <<< "$point"
  [[ " $models " == *" $model "* ]] || continue
  dir="$work/$model"
  start=$(date +%s.%N)
  ./headroom configure --sim-model "$model" --isl "$isl" --osl "$osl" --slo "$ttft" --slo 'itl:p99<50ms' \
    --catalog "$work/catalog.yaml" --tp 1,2,4,8 --max-num-seqs 32,64,128,256 --tolerance "$tolerance" \
    "${threads[@]}" --no-report \
    --out "$dir" --format json > "$dir.json" 2> "$work/stderr.txt" || { cat "$work/stderr.txt" >&2; exit 1; }
  end=$(date +%s.%N)
  rows+=("$(python3 - "$dir.json" "$model" "$start" "$end" "$tolerance" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(json.dumps({"model": sys.argv[2], "tolerance": float(sys.argv[5]), "configurations": r["configurations"], "pruned": r["pruned_count"],
                  "searched": r["searched"], "seconds": round(float(sys.argv[4]) - float(sys.argv[3]), 1),
                  "cheapest": r["cheapest"], "cheapest_per_gpu": r["cheapest_per_gpu"]}))
PY
)")
  echo "${rows[-1]}"
done
printf '{"benchmark": "configure", "cores": %s, "runs": [%s]}\n' "$(nproc)" "$(IFS=,; echo "${rows[*]}")" \
  > target/benchmark-configure.json
echo "wrote target/benchmark-configure.json"
