#!/usr/bin/env bash
# Calibrate a cluster from one nccl-tests run, then use the calibration:
#   1. collcalc check: how far the run is from the preset's prediction;
#   2. collcalc fit: fit the network latency and bandwidth efficiency,
#      written as a platforms file that overlays the built-in presets;
#   3. collcalc check again with that file: the error must not grow.
# Then any command takes --platforms FILE --platform NAME-fitted.
#   examples/calibrate.sh [RUN [PLATFORM NODES]]
#   default: examples/nccl_allreduce_p4de_efa_2node.txt aws-p4de 2
# collcalc comes from $COLLCALC, else PATH. Exits 77 (skipped) without jq.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
collcalc=${COLLCALC:-collcalc}
run=${1:-$here/nccl_allreduce_p4de_efa_2node.txt}
platform=${2:-aws-p4de}
nodes=${3:-2}
command -v jq >/dev/null 2>&1 || { echo "calibrate: needs jq (apt-get install jq); skipped" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

errors() { # errors JSON: "busbw-error time-error" as fractions
  jq -r '.query | "\(.median_busbw_error // 0) \(.median_time_error // 0)"' <<<"$1"
}
before=$("$collcalc" check "$run" --platform "$platform" --nodes "$nodes" --format json)
read -r bus0 time0 <<<"$(errors "$before")"
"$collcalc" fit "$run" --platform "$platform" --nodes "$nodes" --name "$platform-fitted" \
  --output "$work/fitted.json" --quiet >/dev/null
after=$("$collcalc" check "$run" --platforms "$work/fitted.json" --platform "$platform-fitted" \
  --nodes "$nodes" --format json)
read -r bus1 time1 <<<"$(errors "$after")"
jq -r '.platforms[0] | "fitted \(.name): \(.nccl_fit | to_entries | map(select(.key != "source") | "\(.key) \(.value)") | join(", "))"' "$work/fitted.json"
awk -v b0="$bus0" -v t0="$time0" -v b1="$bus1" -v t1="$time1" 'BEGIN {
  printf "median |busbw error| >= 1 MiB: %.1f%% -> %.1f%%\n", 100 * b0, 100 * b1
  printf "median |time error| <= 64 KiB: %.1f%% -> %.1f%%\n", 100 * t0, 100 * t1
  # The fit may not make the run it was fitted on worse.
  exit !(b1 <= b0 + 1e-9 && t1 <= t0 + 1e-9)
}' || { echo "calibrate: the fitted platform predicts this run worse" >&2; exit 1; }
echo "use it: collcalc allreduce --size 1GB --platforms FILE --platform $platform-fitted --nodes $nodes"
