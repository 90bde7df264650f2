#!/usr/bin/env bash
# Benchmark: how many SSE chunks per second the probe's client ingests from a server that is not the
# bottleneck — nginx (Debian's package, installed here when missing) serving static SSE bodies of 256 and
# 1024 vLLM-style chunks — at concurrency 1, 8, 64 and 256. Writes probe/target/benchmark-client-ingest.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
port="${BENCH_PORT:-18089}"

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "installing nginx (Debian package nginx-light)..." >&2
  if [ "$(id -u)" -eq 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
  "${apt_get[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -qq nginx-light >/dev/null
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

work="$(mktemp -d)"
trap '"$nginx_bin" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/html/s256/v1/chat" "$work/html/s1024/v1/chat" "$work/logs"

# One response body per size: role chunk, N content chunks (the last with finish_reason), usage, [DONE].
make_body() {
  local n="$1" out="$2"
  awk -v n="$n" 'BEGIN {
    head = "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"bench\",\"choices\":";
    printf "%s[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n", head;
    for (i = 1; i <= n; i++) {
      fr = (i == n) ? "\"length\"" : "null";
      printf "%s[{\"index\":0,\"delta\":{\"content\":\" tok\"},\"logprobs\":null,\"finish_reason\":%s}]}\n\n", head, fr;
    }
    printf "%s[],\"usage\":{\"prompt_tokens\":16,\"total_tokens\":%d,\"completion_tokens\":%d}}\n\n", head, n + 16, n;
    printf "data: [DONE]\n\n";
  }' > "$out"
}
make_body 256 "$work/html/s256/v1/chat/completions"
make_body 1024 "$work/html/s1024/v1/chat/completions"

cat > "$work/nginx.conf" <<CONF
worker_processes 1;
error_log $work/logs/error.log warn;
pid $work/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$port;
    root $work/html;
    # The probe POSTs; nginx's static module answers POST with 405, so serve the file for it instead.
    location ~ /v1/chat/completions\$ {
      default_type text/event-stream;
      error_page 405 =200 \$uri;
    }
  }
}
CONF
chmod -R a+rX "$work"   # nginx workers run as an unprivileged user
"$nginx_bin" -p "$work" -c "$work/nginx.conf"

./mvnw -q -B -Pbench install -pl model,sim,probe -am -DskipTests=false \
  -Dtest=ClientIngestBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dbench.url="http://127.0.0.1:$port"
cat probe/target/benchmark-client-ingest.json
