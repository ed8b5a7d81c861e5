#!/usr/bin/env bash
# Issue #24: what the board page costs the browser's main thread on a big board, the page of
# BEFORE (a git ref; its web/ is taken with `git archive`) beside the page of this work tree,
# in one run on this machine (bench/browser/board_bench.py). Prints a table, writes
# bench/results/raw/browser-board.json.
#
#   bench/browser.sh                              3 x 1,000 cards, before = main
#   BEFORE=ca26305 CARDS=3000 ROUNDS=5 bench/browser.sh
#
# Needs Debian's Chromium and Playwright for Python (`swift test --filter BoardBrowserTests`
# installs it into .build/python-tools/playwright/ once). Only loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

BEFORE=${BEFORE:-main}
COLUMNS=${COLUMNS:-3}
CARDS=${CARDS:-1000}
ROUNDS=${ROUNDS:-3}
RAW=${RAW:-bench/results/raw}

swift build --product corkboard
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/before"
git archive "$BEFORE" web | tar -x -C "$work/before"

PYTHONPATH="$root/.build/python-tools/playwright/site-packages" python3 bench/browser/board_bench.py \
  --corkboard "$root/.build/debug/corkboard" \
  --web-root "$work/before/web" --label "before ($BEFORE)" --web-root "$root/web" --label "after" \
  --columns "$COLUMNS" --cards "$CARDS" --rounds "$ROUNDS" --output "$work/output"
mkdir -p "$RAW"
cp "$work/output/summary.json" "$RAW/browser-board.json"
echo "figures in $RAW/browser-board.json"
