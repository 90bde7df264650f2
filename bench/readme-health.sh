#!/usr/bin/env bash
# Benchmark: the client's verdict on itself for the README's first command (8 closed-loop users against the embedded
# simulator), run BENCH_REPEATS times (default 5) one after the other, with the scheduling delay p99, the send lag p99
# and the machine's load average before each run. Whether an idle machine reads `ok` is a timing figure, so it lives
# here and in docs/benchmarks.md, not in a unit test. Writes target/benchmark-readme-health.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./headroom --version >/dev/null
command=$(grep -m1 '^\./headroom probe ' README.md | sed 's/[[:space:]]*#.*//')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p target
rows=()
for rep in $(seq "${BENCH_REPEATS:-5}"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  # shellcheck disable=SC2086 # the README's command, split into words as a shell would
  $command --out "$work/run-$rep" --no-report --format json > "$work/summary.json" 2> "$work/stderr.txt" \
    || { cat "$work/stderr.txt" >&2; exit 1; }
  row="$(python3 - "$work/summary.json" "$rep" "$load" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); c = s["client"]
print(json.dumps({"repeat": int(sys.argv[2]), "load_average_1m": float(sys.argv[3]),
    "scheduling_delay_p99_ms": c["scheduling_delay_ms"]["p99"], "send_lag_p99_ms": c["send_lag_ms"]["p99"],
    "timing_error_ms": c["timing_error_ms"], "gc_pause_max_ms": c["gc_pause_max_ms"],
    "client_bound": c["client_bound"], "warnings": c["warnings"]}))
PY
)"
  echo "$row" >&2
  rows+=("$row")
done
python3 - target/benchmark-readme-health.json "$command" "${rows[@]}" <<'PY'
import json, sys
out, command, rows = sys.argv[1], sys.argv[2], [json.loads(r) for r in sys.argv[3:]]
ok = sum(not r["client_bound"] for r in rows)
json.dump({"benchmark": "readme-health", "command": command, "runs": rows, "ok": ok}, open(out, "w"), indent=1)
for r in rows:
    print(f'run {r["repeat"]}: load {r["load_average_1m"]:.2f}, scheduling delay p99 {r["scheduling_delay_p99_ms"]:.2f} ms,'
          f' send lag p99 {r["send_lag_p99_ms"]:.2f} ms, {"CLIENT-BOUND" if r["client_bound"] else "ok"}')
print(f"{ok} of {len(rows)} runs ok")
PY
