#!/usr/bin/env bash
# Issues #13 and #26: committed moves/s on one board and on 100 boards with clients over 1 and
# 3 Corkboard nodes sharing one PostgreSQL database, side by side in one run, in rounds
# (CLUSTER_ROUNDS, default 3) whose order alternates:
#   1. direct: clients spread round-robin over the nodes (every node serves every board; the
#      nodes race for a board's row), and the delay from a commit to its delivery on another node;
#   2. balanced: every client through nginx with the example's configuration
#      (examples/scale-out/nginx.conf, its upstream pointed at the nodes), in front of one node,
#      then of three: board affinity sends a board's clients to one node; the proxy's own cost
#      is in both.
# Starts a throwaway PostgreSQL cluster (Debian's `postgresql`, default durability: fsync and
# synchronous_commit on) and nginx (Debian's `nginx`) on free loopback ports, as the `postgres`
# user when run as root, and removes them afterwards. Extra arguments go to both
# `corkboard bench cluster` runs (e.g. --moves 20000 --clients 96); JSON records go to
# bench/results/raw/cluster-{direct,balanced}-{1,3}-rN.json unless CLUSTER_JSON=0.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${CORKBOARD_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bin/initdb" ] || { echo "PostgreSQL server binaries not found: apt-get install -y postgresql" >&2; exit 1; }
nginx=${CORKBOARD_NGINX:-/usr/sbin/nginx}
[ -x "$nginx" ] || { echo "nginx not found: apt-get install -y nginx" >&2; exit 1; }

folder=$(mktemp -d /tmp/corkboard-bench-pg-XXXXXX)
as_owner() { if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=postgres --regid=postgres --clear-groups -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres: "$folder"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  as_owner "$bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap cleanup EXIT

as_owner "$bin/initdb" -D "$folder/data" -U corkboard --auth=trust -E UTF8 --no-locale >/dev/null
# pg_ctl's daemon would hold this script's output open; its log goes to a file instead.
as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $folder -c max_connections=100" start >/dev/null
"$bin/createdb" -h 127.0.0.1 -p "$port" -U corkboard bench
database="postgres://corkboard@127.0.0.1:$port/bench"

swift build -c release --product corkboard ${CORKBOARD_SCRATCH:+--scratch-path "$CORKBOARD_SCRATCH"} >/dev/null
corkboard="${CORKBOARD_SCRATCH:-.build}/release/corkboard"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (fsync on, synchronous_commit on)"
json() { [ "${CLUSTER_JSON:-1}" = 0 ] || echo "--json bench/results/raw/cluster-$1.json"; }


node_ports=()
for i in 1 2 3; do
  node_port=$(free_port)
  "$corkboard" serve --store postgres --database-url "$database" --host 127.0.0.1 --port "$node_port" --no-demo \
    --web-root '' --log-level warning >"$folder/node$i.log" 2>&1 &
  pids+=($!)
  node_ports+=("$node_port")
done
for node_port in "${node_ports[@]}"; do
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$node_port/readyz" >/dev/null && break; sleep 0.2; done
  curl -fs "http://127.0.0.1:$node_port/readyz" >/dev/null || { echo "a node on port $node_port did not start" >&2; exit 1; }
done
# nginx with the example's configuration: its upstream servers become the given nodes, its
# listen line a loopback port; the rest (affinity, timeouts, headers) is the example's as it is.
start_balancer() { # name port node-ports...
  local name=$1 listen=$2
  shift 2
  mkdir -p "$folder/$name"
  python3 - examples/scale-out/nginx.conf "$folder/$name/nginx.conf" "$folder/$name" "$listen" "$@" <<'PY'
import os, re, sys
source, target, prefix, listen, *nodes = sys.argv[1:]
text = open(source).read()
servers = [line for line in text.splitlines() if re.match(r"\s*server\s+corkboard-\d+:8080", line)]
assert servers, "no upstream servers in the example"
options = servers[0].split(":8080", 1)[1]
text = text.replace(servers[0], "\n".join(f"        server 127.0.0.1:{port}{options}" for port in nodes))
for line in servers[1:]:
    text = text.replace(line + "\n", "")
text = re.sub(r"listen\s+80;", f"listen 127.0.0.1:{listen};", text)
text = text.replace("error_log /dev/stderr notice;", f"error_log {prefix}/error.log warn;\npid {prefix}/nginx.pid;\ndaemon off;")
text = text.replace("access_log /dev/stdout;", "access_log off;")
for temp in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]:
    text = text.replace("http {", f"http {{\n    {temp}_temp_path {prefix}/{temp};", 1)
if os.geteuid() == 0:
    text = "user root;\n" + text
open(target, "w").write(text)
PY
  "$nginx" -c "$folder/$name/nginx.conf" -p "$folder/$name" &
  pids+=($!)
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$listen/readyz" >/dev/null && break; sleep 0.2; done
}
# The same proxy in front of one node and in front of three: the difference is the nodes'.
one_port=$(free_port)
three_port=$(free_port)
start_balancer one "$one_port" "${node_ports[0]}"
start_balancer three "$three_port" "${node_ports[@]}"
echo "nginx $("$nginx" -v 2>&1 | sed 's/.*nginx\///') on 127.0.0.1:$one_port (node 1) and 127.0.0.1:$three_port (nodes ${node_ports[*]})"

# Rounds in alternating order: on this shared machine a later run is often slower whatever it
# measures (the database grows, the disk's other users), so 1 node first, then 3 nodes first.
rounds=${CLUSTER_ROUNDS:-3}
for round in $(seq "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="1 3"; else order="3 1"; fi
  for nodes in $order; do
    echo "== round $round, direct, $nodes node(s): clients round-robin over the nodes"
    # shellcheck disable=SC2046
    "$corkboard" bench cluster --database-url "$database" --nodes "$nodes" --boards 1,100 $(json "direct-$nodes-r$round") "$@"
  done
  for nodes in $order; do
    echo "== round $round, through nginx in front of $nodes node(s)"
    if [ "$nodes" = 1 ]; then balancer=$one_port; else balancer=$three_port; fi
    # shellcheck disable=SC2046
    "$corkboard" bench cluster --urls "ws://127.0.0.1:$balancer/ws" --behind "$nodes" --nodes 1 --boards 1,100 \
      $(json "balanced-$nodes-r$round") "$@"
  done
done
for i in 1 2 3; do
  echo "node $i: $(curl -fs "http://127.0.0.1:${node_ports[$((i - 1))]}/metrics" | grep -E '^corkboard_ops_committed_total ' || echo 'no commits')"
done
