#!/usr/bin/env bash
# Issue #13's benchmark: committed moves/s on one board with clients spread over 1 and 3
# Corkboard nodes sharing one PostgreSQL database, and the delay from a commit to its delivery
# on another node. Starts a throwaway PostgreSQL cluster (Debian's `postgresql`, default
# durability: fsync and synchronous_commit on) on a free loopback port, as the `postgres` user
# when run as root, and removes it afterwards. Extra arguments go to `corkboard bench cluster`
# (e.g. --moves 20000 --clients 96 --json bench/results/raw/cluster.json).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${CORKBOARD_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bin/initdb" ] || { echo "PostgreSQL server binaries not found: apt-get install -y postgresql" >&2; exit 1; }

folder=$(mktemp -d /tmp/corkboard-bench-pg-XXXXXX)
as_owner() { if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=postgres --regid=postgres --clear-groups -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres: "$folder"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  as_owner "$bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap cleanup EXIT

as_owner "$bin/initdb" -D "$folder/data" -U corkboard --auth=trust -E UTF8 --no-locale >/dev/null
# pg_ctl's daemon would hold this script's output open; its log goes to a file instead.
as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $folder -c max_connections=100" start >/dev/null
"$bin/createdb" -h 127.0.0.1 -p "$port" -U corkboard bench

swift build -c release --product corkboard ${CORKBOARD_SCRATCH:+--scratch-path "$CORKBOARD_SCRATCH"} >/dev/null
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (fsync on, synchronous_commit on)"
"${CORKBOARD_SCRATCH:-.build}/release/corkboard" bench cluster --database-url "postgres://corkboard@127.0.0.1:$port/bench" "$@"
