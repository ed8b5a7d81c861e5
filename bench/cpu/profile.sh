#!/usr/bin/env bash
# Issue #36: where a server's CPU goes per delivery and per join, on bench/cpu/workload.py's
# fixed workloads (a 3 × 50 board). One server process per run, started here, stopped after.
#
#   bench/cpu/profile.sh callgrind SERVER          instructions per delivery and per join
#   bench/cpu/profile.sh perf SERVER               perf's shares (cpu-clock) + user/system time
#
# SERVER: corkboard (the release build's `corkboard serve --store memory`, built if missing;
# CORKBOARD=path runs another build of it, e.g. a copy kept from before a change) or uws
# (bench/peers/uws, after `bench/peers/build.sh uws`).
#
# callgrind: four runs under valgrind's callgrind, whose counts are the same whatever the
# machine's load: joins ×JOINS_SMALL and ×JOINS_LARGE, fan-out to MEMBERS members with
# MOVES_SMALL and MOVES_LARGE moves. Per join = the difference of the two join runs over the
# difference of joins; per delivery = the difference of the fan-out runs over MEMBERS × the
# difference of moves (startup, joins and shutdown cancel out). Keeps the callgrind.out files
# in OUT (callgrind_annotate them for the functions).
# perf: one run of each workload at the large size with `perf record -e cpu-clock -g` on
# the server (software clock: no hardware counters in this sandbox) and /proc/PID/stat's
# user and system ticks around it; prints perf report by shared object and the top symbols.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
mode=${1:?usage: profile.sh callgrind|perf corkboard|uws}
server=${2:?usage: profile.sh callgrind|perf corkboard|uws}
JOINS_SMALL=${JOINS_SMALL:-200}
JOINS_LARGE=${JOINS_LARGE:-1000}
MEMBERS=${MEMBERS:-500}
MOVES_SMALL=${MOVES_SMALL:-20}
MOVES_LARGE=${MOVES_LARGE:-120}
OUT=${OUT:-$root/.build/cpu-profile/$server}
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"
export PYTHONPATH=$root/bench/peers/.venv/uws
scratch=$(mktemp -d)

server_command() {
    case "$server" in
    corkboard)
        local bin=${CORKBOARD:-}
        if [ -z "$bin" ]; then
            bin="$(swift build -c release --show-bin-path)/corkboard"
            [ -x "$bin" ] || swift build -c release --product corkboard >&2
        fi
        if [ "$mode" = callgrind ]; then
            # Valgrind 3.19 cannot read the DWARF 5 Swift 6 writes ("unhandled dwarf2 abbrev
            # form code 0x25", then it gives up): a copy without debug information keeps the
            # symbol table, which is all callgrind needs for functions.
            objcopy --strip-debug "$bin" "$scratch/corkboard"
            bin=$scratch/corkboard
        fi
        echo "$bin serve --port 0 --no-demo --store memory --log-level warning --max-connections 0 --web-root $root/web --data $scratch/data" ;;
    # The interpreter itself, not `env` or pyenv's python3 shim: valgrind does not follow an
    # exec (PYTHONPATH is exported below).
    uws) echo "$(python3 -c 'import sys; print(sys.executable)') $root/bench/peers/uws/server.py --port 0" ;;
    *) echo "unknown server $server (corkboard or uws)" >&2; exit 64 ;;
    esac
}

pid=""
stop() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        # SIGINT: both servers exit normally on it (Corkboard gracefully, Python with a
        # KeyboardInterrupt), so valgrind writes its counts; it dies on SIGTERM unwritten.
        kill -INT "$pid"
        for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    pid=""
}
trap 'stop; rm -rf "$scratch"' EXIT

# start [wrapper...]: the server (under the wrapper), sets pid and port.
start() {
    rm -rf "$scratch/data"
    : >"$scratch/log"
    # shellcheck disable=SC2046
    "$@" $(server_command) >"$scratch/log" 2>&1 &
    pid=$!
    port=""
    for _ in $(seq 1200); do
        port=$(grep -m1 -o 'listening on [a-z]*://[^ ]*' "$scratch/log" 2>/dev/null | sed 's/.*://' || true)
        [ -n "$port" ] && break
        kill -0 "$pid" 2>/dev/null || { cat "$scratch/log" >&2; echo "$server exited before listening" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$port" ] || { echo "$server did not listen within 120 s" >&2; exit 1; }
}

workload() { python3 bench/cpu/workload.py --port "$port" "$@" >&2; }

case "$mode" in
callgrind)
    command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
    total() { # callgrind.out file → total instructions
        awk '/^summary:/ {print $2; exit} /^totals:/ {print $2; exit}' "$1"
    }
    # See park_main.c: without it valgrind crashes as soon as Corkboard's main thread parks.
    cc -shared -fPIC -O2 -o "$scratch/park_main.so" bench/cpu/park_main.c
    run() { # name, workload args...
        local name=$1
        shift
        start env LD_PRELOAD="$scratch/park_main.so" valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out.$name" --trace-children=no
        workload "$@"
        stop
        total "$OUT/callgrind.out.$name"
    }
    js=$(run joins-$JOINS_SMALL joins --joins "$JOINS_SMALL")
    jl=$(run joins-$JOINS_LARGE joins --joins "$JOINS_LARGE")
    fs=$(run fanout-$MOVES_SMALL fanout --members "$MEMBERS" --moves "$MOVES_SMALL")
    fl=$(run fanout-$MOVES_LARGE fanout --members "$MEMBERS" --moves "$MOVES_LARGE")
    echo "$server: instructions (callgrind Ir)"
    echo "  joins $JOINS_SMALL: $js   joins $JOINS_LARGE: $jl"
    echo "  fanout $MEMBERS x $MOVES_SMALL: $fs   fanout $MEMBERS x $MOVES_LARGE: $fl"
    awk -v a="$js" -v b="$jl" -v n=$((JOINS_LARGE - JOINS_SMALL)) 'BEGIN {printf "  per join:     %.0f instructions\n", (b - a) / n}'
    awk -v a="$fs" -v b="$fl" -v n=$((MEMBERS * (MOVES_LARGE - MOVES_SMALL))) 'BEGIN {printf "  per delivery: %.0f instructions\n", (b - a) / n}'
    echo "  callgrind files: $OUT (callgrind_annotate --inclusive=no FILE | head -40)" ;;
perf)
    command -v perf >/dev/null || { echo "perf is missing (apt-get install linux-perf)" >&2; exit 1; }
    ticks=$(getconf CLK_TCK)
    for which in joins fanout; do
        start
        if [ "$which" = joins ]; then args=(joins --joins "$JOINS_LARGE"); else args=(fanout --members "$MEMBERS" --moves "$MOVES_LARGE"); fi
        read -r u0 s0 < <(awk '{print $14, $15}' "/proc/$pid/stat")
        perf record -e cpu-clock -F 999 -g -p "$pid" -o "$OUT/perf.$which.data" 2>/dev/null &
        perf_pid=$!
        sleep 1
        workload "${args[@]}"
        read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
        kill -INT "$perf_pid"
        wait "$perf_pid" || true
        stop
        echo "== $server $which: server CPU user $(( (u1 - u0) * 1000 / ticks )) ms, system $(( (s1 - s0) * 1000 / ticks )) ms"
        # (head closes the pipe early: no pipefail for these two)
        (set +o pipefail
            perf report -i "$OUT/perf.$which.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -8
            perf report -i "$OUT/perf.$which.data" --no-children --sort dso,sym --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -30)
    done ;;
*) echo "usage: profile.sh callgrind|perf corkboard|uws" >&2; exit 64 ;;
esac
