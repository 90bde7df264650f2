#!/usr/bin/env bash
# Benchmark: SSE chunks per second ingested through `./headroom probe` (every request written to requests.jsonl and
# requests.csv, metrics accumulated as requests end) from nginx serving static 256- and 1024-chunk bodies, at
# concurrency 1, 8, 64 and 256; each point 10 s after a 2-s warm-up, three times (the median is reported), with the
# client's CPU over the measured window and the process's peak RSS. Writes target/benchmark-cli-ingest.json.
# BENCH_REPEATS, BENCH_SECONDS and BENCH_CONCURRENCY override the defaults; HEADROOM_JAVA_OPTS is passed through.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes="256 1024"
# shellcheck source=bench/nginx-sse.sh
. bench/nginx-sse.sh
./headroom --version >/dev/null   # build the jar first, outside the measurement

repeats="${BENCH_REPEATS:-3}"
seconds="${BENCH_SECONDS:-10}"
mkdir -p target
out=target/benchmark-cli-ingest.json
rows=()
for chunks in $sizes; do
  for c in ${BENCH_CONCURRENCY:-1 8 64 256}; do
    for rep in $(seq "$repeats"); do
      dir="$work/run-$chunks-$c-$rep"
      /usr/bin/time -f "%e %M" -o "$work/time.txt" ./headroom probe --url "http://127.0.0.1:$port/s$chunks" \
        --model bench --concurrency "$c" --duration "${seconds}s" --warmup 2s --isl 16 --osl "$chunks" \
        --no-metrics --no-report --out "$dir" --format json > "$work/summary.json" 2> "$work/stderr.txt" \
        || { cat "$work/stderr.txt" >&2; exit 1; }
      read -r elapsed rss_kb < "$work/time.txt"
      row="$(python3 - "$work/summary.json" "$chunks" "$c" "$rep" "$rss_kb" "$elapsed" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
chunks, c, rep, rss_kb, elapsed = sys.argv[2:]
cl = s["client"]
print(json.dumps({"chunks": int(chunks), "concurrency": int(c), "repeat": int(rep),
    "chunks_per_s": round(s["metrics"]["output_tokens_per_s"]), "completed": s["counts"]["completed"],
    "failed": s["counts"]["failed"], "cpu_util": cl["cpu_util"], "cpu_max": cl["cpu_max"],
    "scheduling_delay_p99_ms": cl["scheduling_delay_ms"]["p99"], "client_bound": cl["client_bound"],
    "peak_rss_mb": round(int(rss_kb) / 1024), "process_s": float(elapsed)}))
PY
)"
      echo "$row" >&2
      rows+=("$row")
      rm -rf "$dir"
    done
  done
done
python3 - "$out" "$(nproc)" "${rows[@]}" <<'PY'
import json, statistics, sys
out, cores, rows = sys.argv[1], int(sys.argv[2]), [json.loads(r) for r in sys.argv[3:]]
points = []
for key in sorted({(r["chunks"], r["concurrency"]) for r in rows}):
    runs = [r for r in rows if (r["chunks"], r["concurrency"]) == key]
    med = statistics.median(r["chunks_per_s"] for r in runs)
    points.append({"chunks": key[0], "concurrency": key[1], "chunks_per_s_median": med,
        "chunks_per_s": [r["chunks_per_s"] for r in runs],
        "cpu_cores_median": round(statistics.median(r["cpu_util"] * cores for r in runs), 2),
        "peak_rss_mb_max": max(r["peak_rss_mb"] for r in runs),
        "failed": sum(r["failed"] for r in runs), "runs": runs})
json.dump({"benchmark": "cli-ingest", "server": "nginx static SSE", "cores": cores, "points": points},
          open(out, "w"), indent=1)
for p in points:
    print(f'{p["chunks"]:>5} chunks  c={p["concurrency"]:<4} {p["chunks_per_s_median"]:>10,.0f} chunks/s  '
          f'{p["cpu_cores_median"]:.2f} cores  peak RSS {p["peak_rss_mb_max"]} MB  failed {p["failed"]}')
print(out)
PY
