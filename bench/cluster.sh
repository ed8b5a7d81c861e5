#!/usr/bin/env bash
# Issues #13, #26 and #37: committed moves/s with clients over 1 and 3 Corkboard nodes sharing
# one PostgreSQL database, and on one SQLite node, side by side in one run, in rounds
# (CLUSTER_ROUNDS, default 3) whose order alternates:
#   1. direct: for each board shape of CLUSTER_SHAPES (boards:clients, default "1:48 100:100
#      1000:3000": one hot board, 100 boards with a client each, 1,000 boards with three),
#      clients spread round-robin over the nodes (every node serves every board; the nodes race
#      for a board's row), the delay from a commit to its delivery on another node, and
#      PostgreSQL's WAL flushes (`pg_stat_wal.wal_sync`) during the run: per second of the
#      moves and per 1,000 commits (board creation, one flush a board, taken off);
#   2. SQLite (CLUSTER_SQLITE=0 skips it): the same shapes on one `--store sqlite` node;
#   3. balanced (CLUSTER_BALANCED=0 skips it): every client through nginx with the example's
#      configuration (examples/scale-out/nginx.conf, its upstream pointed at the nodes), in
#      front of one node, then of three: board affinity sends a board's clients to one node;
#      the proxy's own cost is in both.
# CLUSTER_BASELINE=path/to/corkboard-bench runs another build (say the release before a change)
# beside this one in every direct and SQLite step, in alternating order: a before and after
# in one sitting. A build from before 0.28 has its benchmarks in `corkboard bench`: give its
# `corkboard` instead, run_bench finds them there. The direct steps' nodes are started by the
# bench itself (`corkboard-bench serve`, the server with the test WebSockets added).
# Starts a throwaway PostgreSQL cluster (Debian's `postgresql`, default durability: fsync and
# synchronous_commit on) and nginx (Debian's `nginx`) on free loopback ports, as the `postgres`
# user when run as root, and removes them afterwards. Extra arguments go to every
# `corkboard-bench cluster` run (e.g. --moves 20000); JSON records go to
# bench/results/raw/cluster-*.json unless CLUSTER_JSON=0.
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

for product in corkboard corkboard-bench; do
  swift build -c release --product "$product" ${CORKBOARD_SCRATCH:+--scratch-path "$CORKBOARD_SCRATCH"} >/dev/null
done
corkboard="${CORKBOARD_SCRATCH:-.build}/release/corkboard"
bench="${CORKBOARD_SCRATCH:-.build}/release/corkboard-bench"
# A benchmark of build $1: `corkboard-bench X`, or `corkboard bench X` in a build before 0.28.
run_bench() { # build subcommand [args...]
  local build=$1
  shift
  if [ "$(basename "$build")" = corkboard ]; then "$build" bench "$@"; else "$build" "$@"; fi
}
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

psql_bench() { psql -h 127.0.0.1 -p "$port" -U corkboard -d bench -Atc "$1"; }
builds=("$bench")
[ -n "${CLUSTER_BASELINE:-}" ] && builds=("$CLUSTER_BASELINE" "$bench")
label() { if [ "$1" = "$bench" ]; then echo "this build"; else echo "baseline"; fi; }
read -r -a shapes <<<"${CLUSTER_SHAPES:-1:48 100:100 1000:3000}"
# One `corkboard-bench cluster` run of one shape, with the WAL flushes PostgreSQL made meanwhile.
direct() { # build nodes boards clients json-name [args...]
  local build=$1 nodes=$2 boards=$3 clients=$4 name=$5
  shift 5
  local before after output fresh
  # A database of its own: runs do not slow down as one database fills up, nor reach the
  # nodes' board limit.
  fresh="run$((++runs))"
  "$bin/createdb" -h 127.0.0.1 -p "$port" -U corkboard "$fresh"
  before=$(psql_bench "SELECT wal_sync FROM pg_stat_wal")
  # shellcheck disable=SC2046
  output=$(run_bench "$build" cluster --database-url "${database%/bench}/$fresh" --nodes "$nodes" --boards "$boards" \
    --clients "$clients" $(json "$name") "$@")
  after=$(psql_bench "SELECT wal_sync FROM pg_stat_wal")
  echo "$output" | grep -v '^cluster:' | sed "s/^/  [$(label "$build")] /"
  python3 - "$output" "$((after - before))" "$boards" "${moves:-10000}" <<'PY'
import re, sys
output, syncs, boards, moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rate = float(re.search(r"([0-9.]+) committed/s", output).group(1))
during = max(0, syncs - boards)
print(f"    WAL flushes: {syncs} in the run, {during} during the moves: {during / (moves / rate):.0f}/s, "
      f"{1000 * during / moves:.0f} per 1,000 commits")
PY
}
moves=10000
runs=0
for ((i = 1; i <= $#; i++)); do [ "${!i}" = --moves ] && { j=$((i + 1)); moves=${!j}; }; done

# SQLite nodes, one per build, each on a data folder of its own.
sqlite_ports=()
for build in "${builds[@]}"; do
  sqlite_port=$(free_port)
  mkdir -p "$folder/sqlite-$sqlite_port"
  "$build" serve --store sqlite --data "$folder/sqlite-$sqlite_port" --host 127.0.0.1 --port "$sqlite_port" --no-demo \
    --web-root '' --log-level warning >"$folder/sqlite-$sqlite_port.log" 2>&1 &
  pids+=($!)
  sqlite_ports+=("$sqlite_port")
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$sqlite_port/readyz" >/dev/null && break; sleep 0.2; done
done

# Rounds in alternating order: on this shared machine a later run is often slower whatever it
# measures (the database grows, the disk's other users), so 1 node first, then 3 nodes first,
# and the baseline first, then this build first.
rounds=${CLUSTER_ROUNDS:-3}
for round in $(seq "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="1 3" builds_order=("${builds[@]}"); else
    order="3 1"
    builds_order=()
    for ((b = ${#builds[@]} - 1; b >= 0; b--)); do builds_order+=("${builds[$b]}"); done
  fi
  for shape in "${shapes[@]}"; do
    boards=${shape%%:*} clients=${shape##*:}
    for nodes in $order; do
      echo "== round $round, direct, $nodes node(s), $boards board(s) × $clients client(s) in all"
      for build in "${builds_order[@]}"; do
        direct "$build" "$nodes" "$boards" "$clients" "direct-$nodes-$boards-$(label "$build" | tr ' ' -)-r$round" "$@"
      done
    done
    if [ "${CLUSTER_SQLITE:-1}" != 0 ]; then
      echo "== round $round, SQLite, 1 node, $boards board(s) × $clients client(s) in all"
      for build in "${builds_order[@]}"; do
        for b in "${!builds[@]}"; do [ "${builds[$b]}" = "$build" ] && sqlite_port=${sqlite_ports[$b]}; done
        # shellcheck disable=SC2046
        run_bench "$build" cluster --urls "ws://127.0.0.1:$sqlite_port/ws" --nodes 1 --boards "$boards" --clients "$clients" \
          $(json "sqlite-$boards-$(label "$build" | tr ' ' -)-r$round") "$@" | grep -v '^cluster:' | sed "s/^/  [$(label "$build")] SQLite: /"
      done
    fi
  done
  [ "${CLUSTER_BALANCED:-1}" = 0 ] && continue
  for nodes in $order; do
    echo "== round $round, through nginx in front of $nodes node(s)"
    if [ "$nodes" = 1 ]; then balancer=$one_port; else balancer=$three_port; fi
    # shellcheck disable=SC2046
    "$bench" cluster --urls "ws://127.0.0.1:$balancer/ws" --behind "$nodes" --nodes 1 --boards 1,100 \
      $(json "balanced-$nodes-r$round") "$@"
  done
done
for i in 1 2 3; do
  echo "node $i: $(curl -fs "http://127.0.0.1:${node_ports[$((i - 1))]}/metrics" | grep -E '^corkboard_ops_committed_total ' || echo 'no commits')"
done
