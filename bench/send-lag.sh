#!/usr/bin/env bash
# Benchmark: how late open-loop sends leave (send lag = actual − intended send time) through `./headroom probe`,
# Poisson arrivals, against nginx serving static SSE bodies: 500 and 1,172 req/s (300k chunks/s) with 256-chunk
# answers, 1,000 and 2,000 req/s with 16-chunk answers, each 20 s after a 10-s warm-up, three times (medians
# reported), with the client's CPU. Writes target/benchmark-send-lag.json. BENCH_POINTS ("rate:chunks ..."),
# BENCH_REPEATS, BENCH_SECONDS and BENCH_WARMUP override the defaults.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes="16 256"
# shellcheck source=bench/nginx-sse.sh
. bench/nginx-sse.sh
./headroom --version >/dev/null

repeats="${BENCH_REPEATS:-3}"
seconds="${BENCH_SECONDS:-20}"
# A cold JVM cannot send 2,000 requests/s in its first seconds (the JIT has not compiled the client yet): it falls
# behind, opens thousands of connections and catches up after about 6 s. The warm-up leaves that out, as for every
# metric; BENCH_WARMUP=2 shows it.
warmup="${BENCH_WARMUP:-10}"
mkdir -p target
rows=()
for point in ${BENCH_POINTS:-"500:256" "1172:256" "1000:16" "2000:16"}; do
  point="${point/:/ }"
  read -r rate chunks <<< "$point"
  for rep in $(seq "$repeats"); do
    dir="$work/run-$rate-$rep"
    ./headroom probe --url "http://127.0.0.1:$port/s$chunks" --model bench --rate "$rate" --arrival poisson \
      --duration "${seconds}s" --warmup "${warmup}s" --isl 16 --osl "$chunks" --seed "$rep" --no-metrics --no-report \
      --out "$dir" --format json > "$work/summary.json" 2> "$work/stderr.txt" || { cat "$work/stderr.txt" >&2; exit 1; }
    row="$(python3 - "$work/summary.json" "$rate" "$chunks" "$rep" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
rate, chunks, rep = sys.argv[2:]
c = s["client"]; lag = c["send_lag_ms"]
print(json.dumps({"rate": float(rate), "chunks": int(chunks), "repeat": int(rep),
    "offered_rate": round((s["counts"]["completed"] + s["counts"]["failed"]) / s["window_s"], 1),
    "send_lag_p50_ms": lag["p50"], "send_lag_p99_ms": lag["p99"], "send_lag_p999_ms": lag["p999"],
    "send_lag_max_ms": lag["max"], "scheduling_delay_p99_ms": c["scheduling_delay_ms"]["p99"],
    "cpu_util": c["cpu_util"], "client_bound": c["client_bound"], "failed": s["counts"]["failed"]}))
PY
)"
    echo "$row" >&2
    rows+=("$row")
    rm -rf "$dir"
  done
done
python3 - target/benchmark-send-lag.json "$(nproc)" "${rows[@]}" <<'PY'
import json, statistics, sys
out, cores, rows = sys.argv[1], int(sys.argv[2]), [json.loads(r) for r in sys.argv[3:]]
points = []
for rate in sorted({r["rate"] for r in rows}):
    runs = [r for r in rows if r["rate"] == rate]
    med = lambda k: statistics.median(r[k] for r in runs)
    points.append({"rate": rate, "chunks": runs[0]["chunks"], "send_lag_p50_ms": med("send_lag_p50_ms"),
        "send_lag_p99_ms": med("send_lag_p99_ms"), "send_lag_p999_ms": med("send_lag_p999_ms"),
        "cpu_cores": round(med("cpu_util") * cores, 2), "runs": runs})
json.dump({"benchmark": "send-lag", "server": "nginx static SSE", "cores": cores, "points": points}, open(out, "w"),
          indent=1)
for p in points:
    print(f'{p["rate"]:>6.0f} req/s ({p["chunks"]} chunks): send lag p50 {p["send_lag_p50_ms"]:.3f} ms, '
          f'p99 {p["send_lag_p99_ms"]:.3f} ms, p99.9 {p["send_lag_p999_ms"]:.3f} ms; {p["cpu_cores"]} cores (medians)')
print(out)
PY
