#!/usr/bin/env bash
# Benchmark: memory over a long run. One `headroom probe` of BENCH_MINUTES (30) minutes in a 256 MB heap
# (-Xmx256m, ZGC) against nginx serving static 256-chunk SSE bodies: 64 closed-loop users with a 100-ms think
# time (about 600 requests/s, 150k chunks/s, so more than a million requests in 30 minutes), every request written
# to requests.jsonl and requests.csv. Samples the process's RSS every minute; reads the heap after each collection
# from the GC log. Runs a copy of the jar, so the tree can be rebuilt meanwhile. Writes target/benchmark-long-run.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes="256"
# shellcheck source=bench/nginx-sse.sh
. bench/nginx-sse.sh
./headroom --version >/dev/null
required=25
# shellcheck source=.mvn/find-java.sh
. .mvn/find-java.sh
java="$(find_java)"
cp cli/target/headroom.jar "$work/headroom.jar"

minutes="${BENCH_MINUTES:-30}"
heap="${BENCH_HEAP:-256m}"
mkdir -p target
"$java" -XX:+UseZGC "-Xmx$heap" "-Xlog:gc:file=$work/gc.log" -jar "$work/headroom.jar" probe \
  --url "http://127.0.0.1:$port/s256" --model bench --concurrency 64 --think-time 100ms --duration "${minutes}m" \
  --warmup 10s --isl 16 --osl 256 --no-metrics --no-report --out "$work/run" --format json \
  > "$work/summary.json" 2> "$work/stderr.txt" &
pid=$!
samples=()
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
  sleep 60
  kill -0 "$pid" 2>/dev/null || break
  rss_kb="$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)"
  bytes="$(stat -c %s "$work/run/requests.jsonl" 2>/dev/null || echo 0)"
  samples+=("$(( $(date +%s) - start )) $rss_kb $bytes")
  echo "t=$(( $(date +%s) - start ))s rss=$((rss_kb / 1024))MB requests.jsonl=$((bytes / 1048576))MB" >&2
done
wait "$pid" || { cat "$work/stderr.txt" >&2; exit 1; }
lines="$(wc -l < "$work/run/requests.jsonl")"
python3 - target/benchmark-long-run.json "$work/summary.json" "$work/gc.log" "$lines" "$heap" "${samples[@]}" <<'PY'
import json, re, sys
out, summary, gclog, lines, heap = sys.argv[1:6]
samples = [dict(zip(("t_s", "rss_mb", "jsonl_mb"), (int(a), round(int(b) / 1024), round(int(c) / 1048576))))
           for a, b, c in (s.split() for s in sys.argv[6:])]
s = json.load(open(summary))
after, before = [], []
for line in open(gclog):
    m = re.search(r"Collection \(.*?\)\s+(\d+)M\(\d+%\)->(\d+)M", line) or \
        re.search(r"Pause.*?(\d+)M->(\d+)M", line)
    if m:
        before.append(int(m.group(1))); after.append(int(m.group(2)))
rss = [x["rss_mb"] for x in samples]
res = {"benchmark": "long-run", "heap": heap, "requests_jsonl_lines": int(lines),
       "completed": s["counts"]["completed"], "failed": s["counts"]["failed"], "window_s": s["window_s"],
       "chunks_per_s": round(s["metrics"]["output_tokens_per_s"]), "client_bound": s["client"]["client_bound"],
       "rss_mb_first_minute": rss[0] if rss else None, "rss_mb_max": max(rss) if rss else None,
       "rss_mb_last": rss[-1] if rss else None, "heap_mb_after_gc_max": max(after) if after else None,
       "heap_mb_after_gc_median": sorted(after)[len(after) // 2] if after else None,
       "heap_mb_before_gc_max": max(before) if before else None, "collections": len(after), "samples": samples}
json.dump(res, open(out, "w"), indent=1)
print({k: v for k, v in res.items() if k != "samples"})
print(out)
PY
