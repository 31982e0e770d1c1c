#!/usr/bin/env bash
# Accuracy report: `collcalc check` over every nccl-tests perf file of a
# validation folder, with what each file's header says about its cluster
# (the table below), printing per file the median |error| of busbw at sizes
# >= 1 MiB and of time at sizes <= 64 KiB -- for collcalc's model (NCCL's
# tuner plus collcalc's corrections) and for NCCL's own model (--faithful) --
# the verdict, and the medians over files.
#
#   bench/accuracy.sh [COLLCALC] [VALIDATION_DIR]
#   default: build/collcalc ../shared/validation   (needs jq)
#
# The options per file come from each file's header only (hardware line,
# NCCL version, command line); nothing is tuned to a file. Where a header is
# silent the assumption is the comment beside the row. The model is
# described in doc/MODEL.md.
#
# Exit: 0 when every file was read and judged healthy on its stated cluster
# (these runs are what their hardware should deliver once the header's
# settings are given), 1 when a file is missing or check failed, 3 when a
# verdict is not healthy, 77 without jq or the folder (ctest: skipped).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
collcalc=${1:-$here/build/collcalc}
dir=${2:-$here/../shared/validation}
command -v jq >/dev/null || { echo "accuracy.sh: needs jq (apt-get install jq)" >&2; exit 77; }
[ -d "$dir" ] || { echo "accuracy.sh: $dir: no such folder" >&2; exit 77; }
[ -x "$collcalc" ] || { echo "accuracy.sh: $collcalc: not an executable (build first)" >&2; exit 1; }

# file | options for collcalc check | what the header does not say
runs=(
  "nccl_allreduce_h100_8gpu_1node_nvls_issue290.txt|--platform hgx-h100 --nodes 1|NCCL version not stated (newest)"
  "nccl_allreduce_h100_2node_16gpu_ndr400_xe9680_nccl2.26_issue309.txt|--platform hgx-h100 --nodes 2 --gpus 16 --nccl-version 2.26|no CollNet/SHARP"
  "nccl_allreduce_h100_2node_16gpu_ib400_ring_minctas24_qps2_issue309.txt|--platform hgx-h100 --nodes 2 --gpus 16 --nccl-version 2.26 --nccl-algo ring|NCCL 2.26 era; NCCL_MIN_CTAS=24 and 2 QPs not modelled"
  "nccl_allreduce_a100_8gpu_nvlink3_stas00.txt|--platform dgx-a100 --nodes 1 --launch single-process|-g 8 as the header says (the abbreviated table cannot); NCCL version not stated (newest)"
  "nccl_allreduce_b200_8gpu_nvlink5_nccl2.27.txt|--platform hgx-b200 --nodes 1 --nccl-version 2.27 --symmetric --cuda-graph|-R 2 -G 100 per the thread (unconfirmed)"
  "nccl_allreduce_gb200_nvl72_1rack_72gpu_mnnvl_nccl2.26_coreweave.txt|--platform gb200-nvl72 --nodes 1 --gpus 72 --nccl-version 2.26|one NVLink domain = one NCCL node (MNNVL)"
  "nccl_allreduce_2080ti_2gpu_pcie_nop2p_autodl.txt|--platform rtx2080ti-2x-pcie3 --no-p2p|P2P off as the header says; CPU Intel assumed; NCCL not stated"
  "nccl_allgather_2080ti_2gpu_pcie_nop2p_autodl.txt|--platform rtx2080ti-2x-pcie3 --no-p2p|P2P off as the header says; CPU Intel assumed; NCCL not stated"
  "nccl_allreduce_a100_2node_16gpu_efa400_p4de_awsome.txt|--platform aws-p4de --nodes 2 --gpus 16 --nccl-version 2.21|NCCL 2.18-2.21 era assumed"
  "nccl_allgather_h100_2node_16gpu_tcpxo_8x200g_gcp_a3mega_clustertoolkit.txt|--platform gcp-a3-mega --nodes 2 --gpus 16 --nccl-version 2.23|NCCL 2.21-2.23 era assumed"
)

pct() { awk -v x="$1" 'BEGIN { if (x == "null" || x == "") print "-"; else printf "%.1f%%", 100 * x }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "null"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '| file | verdict | busbw >= 1 MiB | time <= 64 KiB | NCCL model busbw | NCCL model time |\n'
printf '|---|---|---|---|---|---|\n'
bus=() tim=() nbus=() ntim=() missing=0 unhealthy=0
for row in "${runs[@]}"; do
  IFS='|' read -r file options assumption <<<"$row"
  if [ ! -f "$dir/$file" ]; then
    echo "accuracy.sh: $dir/$file: missing" >&2
    missing=1
    continue
  fi
  # shellcheck disable=SC2086 # the options are words
  ours=$("$collcalc" check "$dir/$file" $options --format json)
  # shellcheck disable=SC2086
  nccl=$("$collcalc" check "$dir/$file" $options --faithful --format json)
  q='.query | [.verdict, (.median_busbw_error // "null"), (.median_time_error // "null")] | @tsv'
  IFS=$'\t' read -r verdict b t <<<"$(jq -r "$q" <<<"$ours")"
  IFS=$'\t' read -r _ nb nt <<<"$(jq -r "$q" <<<"$nccl")"
  printf '| %s | %s | %s | %s | %s | %s |\n' "${file%.txt}" "$verdict" "$(pct "$b")" "$(pct "$t")" \
    "$(pct "$nb")" "$(pct "$nt")"
  [ "$verdict" = healthy ] || unhealthy=3
  [ "$b" != null ] && bus+=("$b") && nbus+=("$nb")
  [ "$t" != null ] && tim+=("$t") && ntim+=("$nt")
  printf '%s: %s (%s)\n' "${file%.txt}" "$options" "$assumption" >>"${TMPDIR:-/tmp}/collcalc-accuracy-notes.$$"
done
m() { printf '%s\n' "$@" | median; }
printf '| **median over files** | | **%s** | **%s** | %s | %s |\n' "$(pct "$(m "${bus[@]}")")" \
  "$(pct "$(m "${tim[@]}")")" "$(pct "$(m "${nbus[@]}")")" "$(pct "$(m "${ntim[@]}")")"
echo
echo "Options per file (from its header; assumptions in brackets):"
sed 's/^/  /' "${TMPDIR:-/tmp}/collcalc-accuracy-notes.$$"
rm -f "${TMPDIR:-/tmp}/collcalc-accuracy-notes.$$"
[ $missing -eq 0 ] || exit 1
exit $unhealthy
