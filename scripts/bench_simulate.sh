#!/usr/bin/env bash
# The main job's benchmarks (issues 5, 6, 7): wall time and peak memory of
#   casino-sim simulate --deals 1000000 --policy greedy --vs greedy   (Parquet, reports, charts included)
#   casino-sim report all RUN_DIR                                     (2,000,000 rounds of that run)
#   the same simulate at 200,000 deals on the local backend and on a 2-worker LocalCluster
#   casino-sim analyse with 1,000 worlds on a mid-round position (one core)
# One line per run: what, wall seconds, peak RSS in MB. Usage: bash scripts/bench_simulate.sh [repeats]
set -euo pipefail
repeats=${1:-3}
work=$(mktemp -d /tmp/casino-bench-XXXX)
trap 'rm -rf "$work"' EXIT
measure() {  # measure LABEL COMMAND...: runs it under /usr/bin/time -v, prints LABEL wall_s rss_mb
  local label=$1; shift
  /usr/bin/time -v "$@" >/dev/null 2>"$work/time" || { cat "$work/time" >&2; return 1; }
  awk -v label="$label" '/Elapsed \(wall clock\)/ {n = split($NF, t, ":"); s = t[n] + 60 * t[n-1] + (n > 2 ? 3600 * t[n-2] : 0)}
       /Maximum resident/ {m = $NF / 1024} END {printf "%-28s %8.1f s %8.0f MB\n", label, s, m}' "$work/time"
}
casino-sim simulate --deals 200 --policy greedy --vs greedy --out "$work/warm" >/dev/null  # warm the cache
cat >"$work/pos.json" <<'EOF'
{"rules":"strict","to_move":1,"hands":[null,["4S","TH","TC"]],"loose":["AS","2S","6H","6D","7H","8S","8H","QS","QC"],"builds":[],"captured":[["3H","3D","5S","5D"],["2D","2C","4H","5C","7S","7D","9D","TS","TD"]],"sweeps":[0,0],"last_capturer":1,"must_act":[false,false]}
EOF
for i in $(seq "$repeats"); do
  rm -rf "$work/m" "$work/r"
  measure "simulate 1M greedy" casino-sim simulate --deals 1000000 --policy greedy --vs greedy --out "$work/m"
  measure "report all (2M rounds)" casino-sim report all "$work/m" --out "$work/r"
  rm -rf "$work/l" "$work/d"
  measure "simulate 200k local" casino-sim simulate --deals 200000 --policy greedy --vs greedy --out "$work/l"
  measure "simulate 200k dask 2x1" casino-sim simulate --deals 200000 --policy greedy --vs greedy --backend dask \
    --out "$work/d"
  measure "analyse 1000 worlds" taskset -c 0 casino-sim analyse "$work/pos.json" --worlds 1000
done
