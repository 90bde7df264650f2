#!/usr/bin/env bash
# Benchmark: `--workers` against nginx serving static SSE bodies (bench/nginx-sse.sh) on loopback. Ingest (chunks/s)
# at 64 users x 256-chunk answers with no workers and with 1, 2 and 4 local workers; open-loop send lag at 2,000 req/s
# of 256-chunk answers with 1 and 2 workers; for each, the coordinator process's own CPU (utime + stime from /proc,
# children excluded) over its life; the send-lag points warm up 30 s (BENCH_LAG_WARMUP): three JVMs compiling at once on
# two cores lag for their first 20 s. Writes target/benchmark-workers.json. BENCH_SECONDS (10) and BENCH_WORKERS
# override the defaults. Everything shares the machine's cores with nginx: read the figures as this machine's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes="256"
# shellcheck source=bench/nginx-sse.sh
. bench/nginx-sse.sh
./headroom --version >/dev/null   # build the jar first, outside the measurement
seconds="${BENCH_SECONDS:-10}"
mkdir -p target
out=target/benchmark-workers.json
tck="$(getconf CLK_TCK)"
rows=()

# Runs ./headroom probe with the given arguments; prints one JSON row.
run() {
  local kind="$1" workers="$2"; shift 2
  local dir="$work/run-$kind-$workers" args=()
  [ "$workers" != 0 ] && args=(--workers "$workers")
  local start; start="$(date +%s.%N)"
  ./headroom probe --url "http://127.0.0.1:$port/s256" --model bench --isl 16 --osl 256 --no-metrics --no-report \
    --out "$dir" --format json "${args[@]}" "$@" > "$work/summary.json" 2> "$work/stderr.txt" &
  local pid=$! ticks=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ -r "/proc/$pid/stat" ]; then
      ticks="$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo "$ticks")"
    fi
    sleep 0.5
  done
  wait "$pid" || { cat "$work/stderr.txt" >&2; exit 1; }
  local end; end="$(date +%s.%N)"
  python3 - "$work/summary.json" "$kind" "$workers" "$ticks" "$tck" "$start" "$end" "$(nproc)" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
kind, workers, ticks, tck, start, end, cores = sys.argv[2:]
c = s["client"]; lag = c["send_lag_ms"]
w = s.get("workers", {})
print(json.dumps({"kind": kind, "workers": int(workers),
    "chunks_per_s": round(s["metrics"]["output_tokens_per_s"]), "completed": s["counts"]["completed"],
    "failed": s["counts"]["failed"], "offered_rate": round((s["counts"]["completed"] + s["counts"]["failed"]) / s["window_s"], 1),
    "send_lag_p50_ms": lag["p50"], "send_lag_p99_ms": lag["p99"], "send_lag_p999_ms": lag["p999"],
    "busiest_worker_cpu_util": c["cpu_util"], "client_bound": c["client_bound"],
    "coordinator_cpu_cores": round(int(ticks) / int(tck) / (float(end) - float(start)), 2),
    "process_s": round(float(end) - float(start), 1),
    "clock_error_max_ms": w.get("clock_error_max_ms"), "degraded": w.get("degraded")}))
PY
}

for n in ${BENCH_WORKERS-0 1 2 4}; do
  row="$(run ingest "$n" --concurrency 64 --duration "${seconds}s" --warmup 2s)"; echo "$row" >&2; rows+=("$row")
done
for n in 1 2; do
  row="$(run send-lag "$n" --rate 2000 --arrival poisson --duration "${seconds}s" --warmup "${BENCH_LAG_WARMUP:-30}s" --seed 1)"
  echo "$row" >&2; rows+=("$row")
done
python3 - "$out" "$(nproc)" "${rows[@]}" <<'PY'
import json, sys
out, cores, rows = sys.argv[1], int(sys.argv[2]), [json.loads(r) for r in sys.argv[3:]]
json.dump({"benchmark": "workers", "server": "nginx static SSE", "cores": cores, "runs": rows}, open(out, "w"), indent=1)
for r in rows: print(r)
PY
