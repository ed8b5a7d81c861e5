#!/usr/bin/env bash
# Issue #11: every scenario against Corkboard and against the peer servers (bench/peers/),
# one server at a time, on this machine, in one run. Writes bench/results/raw/*.json, then
# bench/results/{results.json,README.md,fanout.svg} and prints the goals with their ratios.
#
#   bench/compare.sh                     everything (about 20-30 minutes on 2 cores)
#   SERVERS="corkboard node-ws" bench/compare.sh
#   SCENARIOS="fanout ops" bench/compare.sh
#   SCENARIOS="cpu joins" bench/compare.sh     the server CPU on a fixed workload and for joins (issue #36)
#   MAX_CLIENTS=10000 OPS_MOVES=20000 MEMORY_CONNECTIONS=10000 bench/compare.sh
#
# Only loopback; each server is started fresh for each scenario (memory figures need a
# server that has not served anything yet) and stopped after it. Corkboard is the production
# `corkboard serve`, but for `echo`, which needs the test WebSocket /ws/echo: that one is
# `corkboard-bench serve` (the same server, options and code, with the test WebSockets added).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# corkboard-sqlite: Corkboard on its embedded store at default durability, for `ops` only.
SERVERS=${SERVERS:-"corkboard corkboard-sqlite hummingbird flyingfox node-ws uws"}
SCENARIOS=${SCENARIOS:-"memory memory-deflate fanout ops echo presence cpu joins"}
# 18,000: past where Corkboard and uWebSockets stop (a lower cap stops both at it), and within
# a hard limit of 20,000 descriptors for the server and for the bench.
MAX_CLIENTS=${MAX_CLIENTS:-18000}
STEP=${STEP:-500}
LIMIT_MS=${LIMIT_MS:-250}
OPS_MOVES=${OPS_MOVES:-20000}
MEMORY_CONNECTIONS=${MEMORY_CONNECTIONS:-10000}
# cpu: CPU_STEPS steps of CPU_STEP clients, CPU_MOVES moves each; joins: JOINS clients, JOINS_AT_ONCE at a time.
CPU_STEPS=${CPU_STEPS:-3}
CPU_STEP=${CPU_STEP:-1000}
CPU_MOVES=${CPU_MOVES:-300}
JOINS=${JOINS:-3000}
JOINS_AT_ONCE=${JOINS_AT_ONCE:-50}
RAW=${RAW:-bench/results/raw}

# 18,000 connections on each side need more descriptors than the usual 1,024.
ulimit -n "$(ulimit -Hn)"

echo "== building Corkboard and its benchmarks (release)"
swift build -c release --product corkboard >/dev/null
swift build -c release --product corkboard-bench >/dev/null
corkboard="$(swift build -c release --show-bin-path)/corkboard"
bench="$(swift build -c release --show-bin-path)/corkboard-bench"
peer_kinds=""
case " $SERVERS " in *" hummingbird "*|*" flyingfox "*) peer_kinds="swift" ;; esac
case " $SERVERS " in *" node-ws "*) peer_kinds="$peer_kinds node" ;; esac
case " $SERVERS " in *" uws "*) peer_kinds="$peer_kinds uws" ;; esac
if [ -n "$peer_kinds" ]; then
    echo "== building the peers:$peer_kinds (release)"
    # shellcheck disable=SC2086
    bench/peers/build.sh $peer_kinds >/dev/null
    case " $peer_kinds " in *" swift "*) peers="$(swift build -c release --package-path bench/peers --show-bin-path)" ;; esac
fi

server_command() { # server scenario
    case "$1" in
    corkboard)
        local binary=$corkboard
        [ "$2" = echo ] && binary=$bench
        echo "$binary serve --port 0 --no-demo --store memory --log-level warning --max-connections 0 --web-root $root/web --data $scratch/data" ;;
    corkboard-sqlite) echo "$corkboard serve --port 0 --no-demo --store sqlite --log-level warning --max-connections 0 --web-root $root/web --data $scratch/data" ;;
    hummingbird) echo "$peers/hummingbird-peer --port 0" ;;
    flyingfox)   echo "$peers/flyingfox-peer --port 0" ;;
    node-ws)     echo "node $root/bench/peers/node/server.js --port 0" ;;
    uws)         echo "env PYTHONPATH=$root/bench/peers/.venv/uws python3 $root/bench/peers/uws/server.py --port 0" ;;
    *) echo "unknown server $1" >&2; exit 64 ;;
    esac
}

server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
scratch=$(mktemp -d)
trap 'stop_server; rm -rf "$scratch"' EXIT

# Starts server $1 for scenario $2, sets server_pid and port (read from its "listening on …:PORT" line).
start_server() {
    rm -rf "$scratch/data"
    local log="$scratch/server.log"
    # Emptied here, not by the background job's redirection: the loop below could otherwise
    # read the previous server's "listening" line (and port) before that job truncates it.
    : >"$log"
    # shellcheck disable=SC2046
    $(server_command "$1" "$2") >"$log" 2>&1 &
    server_pid=$!
    port=""
    for _ in $(seq 200); do
        port=$(grep -m1 -o 'listening on [a-z]*://[^ ]*' "$log" 2>/dev/null | sed 's/.*://' || true)
        [ -n "$port" ] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; echo "$1 exited before listening" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$port" ] || { echo "$1 did not listen within 20 s" >&2; exit 1; }
}

mkdir -p "$RAW"
for server in $SERVERS; do
    for scenario in $SCENARIOS; do
        [ "$scenario" = presence ] && [ "$server" != corkboard ] && continue   # the peers have no presence
        [ "$server" = corkboard-sqlite ] && [ "$scenario" != ops ] && continue
        start_server "$server" "$scenario"
        url="ws://127.0.0.1:$port"
        out="$RAW/$server-$scenario.json"
        echo "== $server: $scenario (pid $server_pid, port $port)"
        common=(--url "$url" --server "$server" --json "$out")
        # The server's CPU (fanout, cpu, joins) and memory are read from /proc/PID: the pid is the
        # server's own process (uws: `env` execs python3, so it is the interpreter running uWS).
        case "$scenario" in
        memory)         "$bench" memory "${common[@]}" --pid "$server_pid" --connections "$MEMORY_CONNECTIONS" ;;
        memory-deflate) "$bench" memory "${common[@]}" --pid "$server_pid" --connections "$MEMORY_CONNECTIONS" --deflate ;;
        fanout)         "$bench" fanout "${common[@]}" --pid "$server_pid" --step "$STEP" --max-clients "$MAX_CLIENTS" --limit "$LIMIT_MS" ;;
        ops)            "$bench" ops "${common[@]}" --moves "$OPS_MOVES" ;;
        echo)           "$bench" ws-echo --url "$url" --server "$server" --json "$out" ;;
        presence)       "$bench" presence "${common[@]}" ;;
        cpu)            "$bench" cpu "${common[@]}" --pid "$server_pid" --steps "$CPU_STEPS" --step "$CPU_STEP" --moves "$CPU_MOVES" ;;
        joins)          "$bench" joins "${common[@]}" --pid "$server_pid" --joins "$JOINS" --concurrency "$JOINS_AT_ONCE" ;;
        *) echo "unknown scenario $scenario" >&2; exit 64 ;;
        esac || echo "!! $server $scenario failed (exit $?); the report leaves it out"
        stop_server
    done
done

machine="$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); $(swift --version 2>/dev/null | head -1); node $(node --version 2>/dev/null || echo none); run $(date -u +%Y-%m-%dT%H:%MZ), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== report"
"$bench" report --raw "$RAW" --out bench/results --machine "$machine"
