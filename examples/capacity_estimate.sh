#!/usr/bin/env bash
# Capacity estimate with `collcalc batch` and jq: for each cluster size, the
# largest all-reduce (gradient bucket) that finishes within a time budget,
# on H100 nodes (8 GPUs on NVLink 4, one 400G InfiniBand NIC per GPU).
# One batch run costs every (size, GPUs) pair; jq keeps the fastest
# algorithm NCCL runs for each query and picks the largest size under the
# budget.
#   examples/capacity_estimate.sh [BUDGET_US]     (default 5000 us)
# collcalc comes from $COLLCALC, else PATH. Exits 77 (skipped) without jq.
set -euo pipefail
collcalc=${COLLCALC:-collcalc}
budget_us=${1:-5000}
if ! command -v jq >/dev/null 2>&1; then
  echo "capacity_estimate: jq is not installed (Debian: apt-get install jq); skipped" >&2
  exit 77
fi
command -v "$collcalc" >/dev/null 2>&1 || { echo "capacity_estimate: no collcalc (set COLLCALC)" >&2; exit 1; }

queries() {
  for gpus in 8 16 32 64 128 256; do
    for mib in 1 2 4 8 16 32 64 128 256 512 1024 2048 4096; do
      echo "allreduce --size ${mib}MiB --gpus $gpus --gpus-per-node 8 --intra nvlink4 --inter ib-ndr"
    done
  done
}

echo "largest all-reduce within ${budget_us} us (H100 nodes, NVLink 4 + 8 x IB NDR per node):"
queries | "$collcalc" batch --format jsonl --columns gpus,size_bytes,algorithm,in_nccl,time_us |
  jq -rs --argjson budget "$budget_us" '
    map(select(.in_nccl))
    | group_by([.gpus, .size_bytes]) | map(min_by(.time_us))
    | group_by(.gpus)
    | map({gpus: .[0].gpus,
           best: (map(select(.time_us <= $budget)) | max_by(.size_bytes))})
    | .[]
    | if .best == null then "\(.gpus) GPUs: none fits"
      else "\(.gpus) GPUs: \(.best.size_bytes / 1048576) MiB with \(.best.algorithm) in \(.best.time_us | floor) us"
      end'
