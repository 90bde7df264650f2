# Sourced by the benchmarks: starts nginx (Debian's nginx-light, installed when missing) on 127.0.0.1:$port serving
# static OpenAI-style SSE bodies of each size in $sizes (role chunk, N content chunks, usage, [DONE]) at
# http://127.0.0.1:$port/s<N>/v1/chat/completions; stops it and removes its files on exit.
port="${BENCH_PORT:-${port:-18089}}"
sizes="${sizes:-256 1024}"

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "installing nginx (Debian package nginx-light)..." >&2
  if [ "$(id -u)" -eq 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
  "${apt_get[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -qq nginx-light >/dev/null
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

work="$(mktemp -d)"
trap '"$nginx_bin" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/logs"

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
for n in $sizes; do
  mkdir -p "$work/html/s$n/v1/chat" "$work/html/s$n/v1/models"
  make_body "$n" "$work/html/s$n/v1/chat/completions"
  echo '{"object":"list","data":[{"id":"bench","object":"model"}]}' > "$work/html/s$n/v1/models/index.json"
done

cat > "$work/nginx.conf" <<CONF
worker_processes 1;
error_log $work/logs/error.log warn;
pid $work/nginx.pid;
events { worker_connections 8192; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$port backlog=4096;
    root $work/html;
    # The probe POSTs; nginx's static module answers POST with 405, so serve the file for it instead.
    location ~ /v1/chat/completions\$ {
      default_type text/event-stream;
      error_page 405 =200 \$uri;
    }
    location ~ /v1/models/?\$ {
      default_type application/json;
      try_files \$uri/index.json =404;
    }
  }
}
CONF
chmod -R a+rX "$work"   # nginx workers run as an unprivileged user
"$nginx_bin" -p "$work" -c "$work/nginx.conf"
