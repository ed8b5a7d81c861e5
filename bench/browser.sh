#!/usr/bin/env bash
# Issue #24: what the board page costs the browser's main thread on a big board, the page of
# BEFORE (git refs, space-separated; each one's web/ is taken with `git archive`) beside the
# page of this work tree, in one run on this machine (bench/browser/board_bench.py): a board of
# COLUMNS x CARDS (pick-up, placeholder, drop, remote move, a keyboard step while carrying) and
# one of WIDE_COLUMNS x WIDE_CARDS (a column drag, per frame; WIDE_COLUMNS=0 leaves it out).
# Prints a table, writes bench/results/browser/$NAME.json (default browser-board).
#
#   bench/browser.sh                              3 x 1,000 cards and 30 x 30, before = main
#   BEFORE="main page-scale" ROUNDS=3 bench/browser.sh
#   BEFORE=page-scale CARDS=3333 ROUNDS=2 NAME=browser-board-10k bench/browser.sh
#
# Needs Debian's Chromium and Playwright for Python (`swift test --filter BoardBrowserTests`
# installs it into .build/python-tools/playwright/ once). Only loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

BEFORE=${BEFORE:-main}
COLUMNS=${COLUMNS:-3}
CARDS=${CARDS:-1000}
WIDE_COLUMNS=${WIDE_COLUMNS:-30}
WIDE_CARDS=${WIDE_CARDS:-30}
ROUNDS=${ROUNDS:-3}
RAW=${RAW:-bench/results/browser}
NAME=${NAME:-browser-board}

swift build --product corkboard
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
roots=()
for ref in $BEFORE; do
  mkdir -p "$work/$ref"
  git archive "$ref" web | tar -x -C "$work/$ref"
  roots+=(--web-root "$work/$ref/web" --label "before ($ref)")
done

PYTHONPATH="$root/.build/python-tools/playwright/site-packages" python3 bench/browser/board_bench.py \
  --corkboard "$root/.build/debug/corkboard" "${roots[@]}" --web-root "$root/web" --label "after" \
  --columns "$COLUMNS" --cards "$CARDS" --wide-columns "$WIDE_COLUMNS" --wide-cards "$WIDE_CARDS" --rounds "$ROUNDS" --output "$work/output"
mkdir -p "$RAW"
cp "$work/output/summary.json" "$RAW/$NAME.json"
echo "figures in $RAW/$NAME.json"
