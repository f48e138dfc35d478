#!/usr/bin/env bash
# Every benchmark figure the issues ask for, one JSON object per line (medians are taken by hand
# from repeated runs; the machine is shared). Usage: bash scripts/bench_all.sh [repeats] > bench.jsonl
set -euo pipefail
repeats=${1:-3}
cs=(casino-sim bench --format json)
"${cs[@]}" --policy random --deals 2000 --threads 1 >/dev/null   # warm the cache first
for i in $(seq "$repeats"); do
  "${cs[@]}" --policy random --deals 200000 --threads 1 --no-compile
  "${cs[@]}" --policy random --deals 400000 --threads 2 --no-compile
  "${cs[@]}" --policy greedy --deals 200000 --threads 1 --no-compile
  "${cs[@]}" --policy expert --deals 40000 --threads 1 --no-compile
  "${cs[@]}" --policy rollout --deals 10 --threads 1 --no-compile
  "${cs[@]}" --policy searcher --deals 10 --threads 1 --no-compile
  "${cs[@]}" --engine reference --policy random --deals 300 --no-compile
done
"${cs[@]}" --policy random --deals 20000 --threads 1 --compile
