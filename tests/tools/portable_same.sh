#!/usr/bin/env bash
# The portable build (-DCOLLCALC_PORTABLE=ON: no unsigned __int128, no SSE2
# intrinsics) answers batch byte for byte as the native build does: a
# fixed mix of queries (every operation, links and platforms, node counts,
# both cost models, repeated lines that differ only in their size, so that
# batch's plan cache is hit and its hash, built either way, is used; some
# bad lines) through both tools, in CSV and JSON lines, comparing stdout,
# stderr and the exit code.
# Usage: portable_same.sh PORTABLE_COLLCALC NATIVE_COLLCALC [LINES]
set -euo pipefail
portable=$1 native=$2 lines=${3:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk -v n="$lines" 'BEGIN {
  srand(19)
  split("allreduce allgather reducescatter alltoall broadcast reduce sendrecv", ops, " ")
  split("nvlink5 nvlink4 nvlink3 pcie4 pcie5 ib-ndr eth400", links, " ")
  split("hgx-h100 hgx-b200 gb200-nvl72 dgx-a100 aws-p5 l40s-8x-pcie rtx2080ti-2x-pcie3", platforms, " ")
  split("B KB MB GB KiB MiB GiB K M G", units, " ")
  for (i = 1; i <= n; i++) {
    op = ops[1 + int(rand() * 7)]
    r = rand()
    if (r < 0.4) size = sprintf("%.0f", 1 + int(rand() * 4e9))
    else if (r < 0.8) size = sprintf("%d%s", 1 + int(rand() * 999), units[1 + int(rand() * 10)])
    else size = sprintf("%.3fMB", rand() * 1000)
    if (rand() < 0.5) {
      where = sprintf("--gpus %d --link %s", 2 + int(rand() * 1023), links[1 + int(rand() * 7)])
      if (rand() < 0.3) where = where " --algo ring"
    } else {
      where = sprintf("--platform %s --nodes %d", platforms[1 + int(rand() * 7)], 1 + int(rand() * 16))
      if (rand() < 0.4) where = where " --cost-model alpha-beta"
    }
    if (rand() < 0.1) where = where " --layers 80"
    if (rand() < 0.01) where = where " --frobnicate"
    line = op " --size " size " " where
    print line
    # the same line again with another size: answered from the plan cache
    if (rand() < 0.5) print op " --size " sprintf("%.0f", 1 + int(rand() * 4e9)) " " where
  }
}' >"$work/queries.txt"

status=0
for format in csv jsonl; do
  set +e
  "$native" batch --format "$format" "$work/queries.txt" >"$work/native.out" 2>"$work/native.err"
  native_exit=$?
  "$portable" batch --format "$format" "$work/queries.txt" >"$work/portable.out" 2>"$work/portable.err"
  portable_exit=$?
  set -e
  rows=$(wc -l <"$work/native.out")
  if [ "$rows" -lt "$lines" ]; then
    echo "portable_same: only $rows rows of $format from $lines query lines: the mix is off" >&2
    status=1
  fi
  for stream in out err; do
    if ! cmp -s "$work/native.$stream" "$work/portable.$stream"; then
      echo "portable_same: $format std$stream differs:" >&2
      diff "$work/native.$stream" "$work/portable.$stream" | head -5 >&2
      status=1
    fi
  done
  if [ "$native_exit" != "$portable_exit" ]; then
    echo "portable_same: $format exit $native_exit (native) vs $portable_exit (portable)" >&2
    status=1
  fi
  echo "$format: $rows rows, $(wc -l <"$work/native.err") errors, exit $native_exit: the same"
done
exit $status
