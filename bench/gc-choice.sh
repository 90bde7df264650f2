#!/usr/bin/env bash
# The launcher's GC, measured: the README's first command (closed loop, 8 users, 20 s) and an open loop (20 req/s,
# 15 s) against the embedded simulator under ZGC, G1 and Parallel, twice each; prints each run's client line
# (send lag, scheduling delay, timing error, GC pause, verdict). About 5 minutes. docs/benchmarks.md has the figures.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mktemp -d)"
for rep in 1 2; do
  for gc in -XX:+UseZGC -XX:+UseG1GC -XX:+UseParallelGC; do
    for mode in closed open; do
      if [ "$mode" = closed ]; then args=(--concurrency 8 --duration 20s); else args=(--rate 20 --duration 15s); fi
      line="$(HEADROOM_JAVA_OPTS="$gc" "$here/headroom" probe "${args[@]}" --no-report \
        --out "$out/$rep-${gc#-XX:+Use}-$mode" 2>/dev/null | grep '^client:')"
      echo "$rep ${gc#-XX:+Use} $mode :: $line"
    done
  done
done
rm -rf "$out"
