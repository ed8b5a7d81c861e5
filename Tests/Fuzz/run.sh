#!/usr/bin/env bash
# Builds the libFuzzer targets of Tests/Fuzz and runs each for a bounded time.
#
#   Tests/Fuzz/run.sh [seconds-per-target] [target...]
#   Tests/Fuzz/run.sh --build-only
#
# Each target is compiled with `swiftc -sanitize=fuzzer,address` against the project's own
# module sources (compiled here with the same instrumentation, one module at a time, into
# .build-fuzz/), so Package.swift and normal builds know nothing of libFuzzer. Every target
# starts from its committed seeds (Tests/Fuzz/corpus/<target>/) and grows a working corpus in
# .build-fuzz/corpus/<target>/ (not committed). A crash, leak, timeout or failed invariant
# stops that target; the script goes on with the others, prints where each reproducer is and
# exits 1. Replay one: `.build-fuzz/bin/<target> <file>`.
#
# Environment: FUZZ_RSS_MB (memory limit per target, default 2048), FUZZ_OPT (default -O).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$root/.build-fuzz
seconds=60
build_only=false
targets=()
for argument in "$@"; do
    case $argument in
        --build-only) build_only=true ;;
        ''|*[!0-9]*) targets+=("$argument") ;;
        *) seconds=$argument ;;
    esac
done
all_targets=(HTTPRequestFuzz WebSocketFrameFuzz WebSocketDeflateFuzz ClientMessageFuzz BoardEngineFuzz ArchiveImportFuzz)
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# Inputs longer than this are not generated: every parser's interesting states are reachable
# in a few KiB (the targets shrink their size limits when the input asks them to).
max_len() {
    case $1 in
        WebSocketDeflateFuzz) echo 16384 ;;
        *) echo 8192 ;;
    esac
}

# Instrumentation: coverage for libFuzzer, AddressSanitizer for memory errors. `assert`s stay
# on (-assert-config Debug) so the model's internal consistency checks trap too.
opt=${FUZZ_OPT:--O}
sanitize=(-sanitize=fuzzer,address)
common=(-swift-version 6 -package-name corkboard -g "$opt" -assert-config Debug -I "$out/modules"
        -I "$root/Sources/CZlib" -I "$root/Sources/COpenSSL")

mkdir -p "$out/modules" "$out/objects" "$out/bin"

# swift-log (Sockets and HTTP log through it) comes from the package's pinned checkout.
logging_sources() {
    local checkout=$out/checkouts/swift-log
    if [ ! -d "$checkout/Sources/Logging" ]; then
        echo "== resolving packages for swift-log's sources" >&2
        swift package resolve --scratch-path "$out" >&2
    fi
    find "$checkout/Sources/Logging" -name '*.swift' | sort
}

# compile_module NAME INSTRUMENT SOURCES...: one whole-module object and its .swiftmodule,
# rebuilt only when a source is newer than the object.
compile_module() {
    local name=$1 instrument=$2
    shift 2
    local object=$out/objects/$name.o
    local newest
    newest=$(ls -t "$@" "$object" 2>/dev/null | head -1 || true)
    if [ -f "$object" ] && [ "$newest" = "$object" ] && [ -z "${rebuilt_any:-}" ]; then return; fi
    echo "== compiling module $name"
    local flags=("${common[@]}")
    [ "$instrument" = yes ] && flags+=("${sanitize[@]}")
    swiftc "${flags[@]}" -parse-as-library -wmo -module-name "$name" \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
        -c -o "$object" "$@"
    # A module's dependants must be recompiled after it.
    rebuilt_any=yes
}

module_sources() { find "$root/Sources/$1" -name '*.swift' | sort; }

build() {
    rebuilt_any=
    mapfile -t logging < <(logging_sources)
    compile_module Logging no "${logging[@]}"
    local module
    for module in Sockets HTTP WebSocket WebSocketDeflate CorkboardModel CorkboardWire CorkboardStore; do
        mapfile -t sources < <(module_sources "$module")
        compile_module "$module" yes "${sources[@]}"
    done
    local target
    for target in "${targets[@]}"; do
        local binary=$out/bin/$target
        local sources=("$root/Tests/Fuzz/$target/main.swift" "$root/Tests/Fuzz/Common/"*.swift)
        local newest
        newest=$(ls -t "${sources[@]}" "$out/objects/"*.o "$binary" 2>/dev/null | head -1 || true)
        if [ -f "$binary" ] && [ "$newest" = "$binary" ]; then continue; fi
        echo "== linking $target"
        swiftc "${common[@]}" "${sanitize[@]}" -parse-as-library -module-name "$target" \
            "${sources[@]}" "$out/objects/"*.o -lz -lssl -lcrypto -o "$binary" 2>&1 \
            | { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
        [ -x "$binary" ] || { echo "linking $target failed" >&2; exit 2; }
    done
}

build
$build_only && exit 0

# libFuzzer reports crashes itself: Swift's own backtracer would only slow it down (and can
# outlive the process it reports on).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
found=()
summary=()
for target in "${targets[@]}"; do
    corpus=$out/corpus/$target
    artifacts=$out/artifacts/$target/
    mkdir -p "$corpus" "$artifacts"
    log=$out/logs/$target.log
    mkdir -p "$(dirname "$log")"
    echo "== fuzzing $target for ${seconds}s (log: $log)"
    set +e
    "$out/bin/$target" "$corpus" "$root/Tests/Fuzz/corpus/$target" \
        -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
        -artifact_prefix="$artifacts" -print_final_stats=1 >"$log" 2>&1
    status=$?
    set -e
    stats=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1 || true)
    runs=$(grep -E 'stat::number_of_executed_units' "$log" | awk '{s+=$2} END {print s+0}')
    speed=$(grep -E 'stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -1)
    summary+=("$target: $runs runs, ${speed:-?} exec/s; last status: ${stats:-none}")
    if [ $status -ne 0 ]; then
        reproducers=$(ls "$artifacts" 2>/dev/null | sed "s|^|$artifacts|" | tr '\n' ' ')
        found+=("$target (exit $status): ${reproducers:-see $log}")
        echo "!! $target failed; reproducer(s): ${reproducers:-none written, see $log}"
        grep -E 'ERROR: |Fatal error|SUMMARY' "$log" | head -5 || true
    fi
done

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
if [ ${#found[@]} -gt 0 ]; then
    echo
    echo "== FOUND (replay with .build-fuzz/bin/<target> <file>)"
    printf '%s\n' "${found[@]}"
    exit 1
fi
echo "no crash found"
