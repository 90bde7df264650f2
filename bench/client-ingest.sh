#!/usr/bin/env bash
# Benchmark: how many SSE chunks per second the probe's client ingests from a server that is not the
# bottleneck — nginx (Debian's package, installed here when missing) serving static SSE bodies of 256 and
# 1024 vLLM-style chunks — at concurrency 1, 8, 64 and 256. Writes probe/target/benchmark-client-ingest.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes="256 1024"
# shellcheck source=bench/nginx-sse.sh
. bench/nginx-sse.sh

./mvnw -q -B -Pbench install -pl model,sim,probe -am -DskipTests=false \
  -Dtest=ClientIngestBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dbench.url="http://127.0.0.1:$port"
cat probe/target/benchmark-client-ingest.json
