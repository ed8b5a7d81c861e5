#!/usr/bin/env bash
# Issue #37: what an asynchronous standby loses when the primary dies. RUNS times (default 10),
# the failover of PrimaryFailoverTests with `synchronous_standby_names` left empty: a primary and
# a streaming standby on loopback (throwaway clusters from Tests/TestSupport/PostgresCluster.swift,
# fsync off on both: only what had not reached the standby can go), two `corkboard serve` nodes
# given both hosts with target_session_attrs=read-write, four writers committing moves (one in
# flight each) until 300 are acknowledged; then every process of the primary is SIGKILLed at
# once and the standby promoted. Each run prints how many acknowledged moves the promoted log
# lacks (docs/storage.md, "Losing the primary: a synchronous standby").
#
#   bench/failover-async.sh            10 runs
#   RUNS=3 bench/failover-async.sh
#
# Needs Debian's `postgresql` (initdb, pg_basebackup, pg_ctl); builds the tests in .build.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-10}

swift build --build-tests >/dev/null
lost_total=0
acknowledged_total=0
for run in $(seq "$runs"); do
  line=$(CORKBOARD_MEASURE_ASYNC_FAILOVER=1 swift test --skip-build \
    --filter 'PrimaryFailoverTests/measureWhatAnAsynchronousStandbyLoses' 2>&1 | grep '^asynchronous standby:' || true)
  [ -n "$line" ] || { echo "run $run: no measurement (run the filter above by hand to see why)" >&2; exit 1; }
  echo "run $run: ${line#asynchronous standby: }"
  acknowledged=$(sed -E 's/^asynchronous standby: ([0-9]+) commits.*/\1/' <<<"$line")
  lost=$(sed -E 's/.* ([0-9]+) of them missing.*/\1/' <<<"$line")
  acknowledged_total=$((acknowledged_total + acknowledged))
  lost_total=$((lost_total + lost))
done
echo "$runs runs: $lost_total of $acknowledged_total acknowledged moves missing from the promoted logs"
