#!/usr/bin/env bash
# Benchmark of `collcalc batch` (issue 10), on one core:
#   1. throughput: N ring all-reduce queries (sizes and GPU counts varied,
#      nvlink5) through `collcalc batch`, against an equivalent mawk script
#      that only computes the ring formula 2(n-1)/n x size / bw + 2(n-1) x
#      alpha per line and prints the line number and the time (awk if mawk
#      is missing; the script says which). The equivalent batch run prints
#      the same two columns (--columns time_us: line, time_us); the full
#      rows (the single command's 28 columns, phases included) and JSON
#      lines are measured too. Prints queries per CPU second (the median of
#      TRIES runs of each, interleaved) and the ratio to awk, measured in
#      pairs: each awk run between two batch runs, the median of the
#      tries' ratios (see below);
#   2. cold start: `collcalc allreduce --size 100MB --gpus 8 --link nvlink5`
#      against a minimal C program (puts("x")), R runs each, interleaved
#      (one of each in turn, so a drift of the machine hits both): the
#      median wall time of each and their ratio; `collcalc --version` too;
#   3. memory: M lines (default 10 million) streamed through batch, max RSS.
# Usage: bench/batch.sh [COLLCALC] [N] [M]
#   COLLCALC  the binary (default: build/collcalc; a Release or
#             RelWithDebInfo build), N default 2000000, M default 10000000.
#   RUNS=R    cold-start runs of each program (default 500).
#   TRIES=T   tries (default 5): each runs awk between two batch runs,
#             then the full rows and JSON lines; the figures are medians,
#             with the range.
#   PERF=1 bench/batch.sh ... also records a perf profile of the equivalent
#   run and prints the top symbols.
# Needs a C compiler (cc) for the timing harness; output goes to /dev/null.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
collcalc=${1:-$here/../build/collcalc}
n=${2:-2000000}
m=${3:-10000000}
runs=${RUNS:-500}
tries=${TRIES:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk_bin=mawk
if ! command -v mawk >/dev/null 2>&1; then
  awk_bin=awk
  echo "note: mawk not found (Debian: apt-get install mawk); using $(command -v awk)"
fi

# The harness. "stats TIMES CMD..." runs a command TIMES times (stdin as
# given, stdout and stderr to /dev/null; any exit but 0 fails the
# benchmark) and prints wall, user, system seconds and max RSS (KiB) from
# wait4's rusage. "stats -alt TIMES A... -- B..." runs A and B in turn,
# TIMES times each, and prints the median wall milliseconds of A, of B,
# and A/B.
cat >"$work/stats.c" <<'HARNESS'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int run(char **argv, struct rusage *usage)
{
    pid_t pid = fork();
    if (pid == 0) { /* the command's stdout goes to /dev/null */
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    if (wait4(pid, &status, 0, usage) < 0)
        return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "stats: %s failed (status %d)\n", argv[0], status);
        return -1;
    }
    return 0;
}
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
int main(int argc, char **argv)
{
    struct rusage usage;
    if (argc >= 5 && strcmp(argv[1], "-alt") == 0) {
        int times = atoi(argv[2]), split = 3;
        while (split < argc && strcmp(argv[split], "--") != 0)
            split++;
        if (times < 1 || split >= argc - 1)
            return 2;
        argv[split] = NULL;
        double *a = malloc(sizeof *a * (size_t)times), *b = malloc(sizeof *b * (size_t)times);
        if (a == NULL || b == NULL)
            return 1;
        for (int i = 0; i < times; i++) {
            double t0 = seconds();
            if (run(argv + 3, &usage) != 0)
                return 1;
            double t1 = seconds();
            if (run(argv + split + 1, &usage) != 0)
                return 1;
            a[i] = t1 - t0;
            b[i] = seconds() - t1;
        }
        qsort(a, (size_t)times, sizeof *a, by_value);
        qsort(b, (size_t)times, sizeof *b, by_value);
        printf("%.3f %.3f %.2f\n", 1e3 * a[times / 2], 1e3 * b[times / 2],
               a[times / 2] / b[times / 2]);
        return 0;
    }
    if (argc < 3)
        return 2;
    int times = atoi(argv[1]);
    double user = 0, sys = 0, start = seconds();
    long max_rss = 0;
    for (int i = 0; i < times; i++) {
        if (run(argv + 2, &usage) != 0)
            return 1;
        user += (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6;
        sys += (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
        if (usage.ru_maxrss > max_rss)
            max_rss = usage.ru_maxrss;
    }
    printf("%.6f %.6f %.6f %ld\n", seconds() - start, user, sys, max_rss);
    return 0;
}
HARNESS
printf '#include <stdio.h>\nint main(void){puts("x");return 0;}\n' >"$work/minimal.c"
cc -O2 -o "$work/stats" "$work/stats.c"
cc -O2 -o "$work/minimal" "$work/minimal.c"

# N queries: sizes from 1 kB to ~10 GB in several spellings, 2..1024 GPUs.
gen() {
  "$awk_bin" -v n="$1" 'BEGIN {
    srand(42); split("kB MB GB KiB MiB GiB", unit, " ");
    for (i = 1; i <= n; i++) {
      g = 2 + int(rand() * 1023);
      if (i % 3 == 0) s = sprintf("%.0f", 1000 + int(rand() * 9e9));
      else s = (1 + int(rand() * 999)) unit[1 + int(rand() * 6)];
      printf "allreduce --size %s --gpus %d --link nvlink5 --algo ring\n", s, g;
    }
  }'
}
gen "$n" >"$work/queries.txt"

# The same formula in awk: parse the size, cost one ring on nvlink5 (900
# GB/s per direction, alpha 2 us), print the line number and time in us.
cat >"$work/ring.awk" <<'AWK'
BEGIN {
  mult["kB"] = 1e3; mult["MB"] = 1e6; mult["GB"] = 1e9; mult["KiB"] = 1024;
  mult["MiB"] = 1048576; mult["GiB"] = 1073741824; bw = 900; alpha = 2;
}
{
  s = $3; f = 1;
  if (match(s, /[A-Za-z]+$/)) { f = mult[substr(s, RSTART)]; s = substr(s, 1, RSTART - 1); }
  size = s * f; p = $5;
  printf "%d,%.17g\n", NR, 2 * (p - 1) / p * size / (bw * 1e3) + 2 * (p - 1) * alpha;
}
AWK

measure() { # stdin file, command... -> "wall user sys rss"
  local input=$1
  shift
  "$work/stats" 1 "$@" <"$input"
}
qps() { # user sys -> queries per CPU second
  echo "$n $1 $2" | "$awk_bin" '{ printf "%.0f", $1 / ($2 + $3) }'
}

echo "collcalc: $collcalc ($("$collcalc" --version))"
echo "machine: $(uname -m), $(nproc) CPUs; collcalc and mawk are single-threaded: q/s = queries per CPU second (user + system)"

# Each throughput is the median of TRIES runs. The ratio is measured in
# pairs: each awk run is bracketed by two batch runs, right before and right
# after it, and the try's ratio is awk's CPU time over the mean of the two;
# the figure is the median of the tries' ratios. The shared machine's speed
# drifts over seconds, by up to a third: a batch run taken seconds away
# from the awk run it is compared with (as when the full-row runs stand
# between them) would carry the drift into the ratio. The full rows and
# JSON lines are measured in their own runs, after each pair.
declare -a same_list csv_list jsonl_list awk_list ratio_list
for ((try = 0; try < tries; try++)); do
  read -r wall user_before sys_before rss < <(measure "$work/queries.txt" "$collcalc" batch - \
    --columns time_us)
  read -r wall awk_user awk_sys rss < <(measure "$work/queries.txt" "$awk_bin" -f "$work/ring.awk")
  read -r wall user_after sys_after rss < <(measure "$work/queries.txt" "$collcalc" batch - \
    --columns time_us)
  same_list+=("$(qps "$user_before" "$sys_before")" "$(qps "$user_after" "$sys_after")")
  awk_list+=("$(qps "$awk_user" "$awk_sys")")
  ratio_list+=("$(echo "$awk_user $awk_sys $user_before $sys_before $user_after $sys_after" |
    "$awk_bin" '{ printf "%.3f", ($1 + $2) / (($3 + $4 + $5 + $6) / 2) }')")
  read -r wall user sys rss < <(measure "$work/queries.txt" "$collcalc" batch -)
  csv_list+=("$(qps "$user" "$sys")")
  read -r wall user sys rss < <(measure "$work/queries.txt" "$collcalc" batch - --format jsonl)
  jsonl_list+=("$(qps "$user" "$sys")")
done
summary() { # q/s figures -> "median (min-max)"
  printf '%s\n' "$@" | sort -n | "$awk_bin" '{ v[NR] = $1 }
    END { printf "%9.0f q/s (%d runs: %.0f-%.0f)", v[int((NR + 1) / 2)], NR, v[1], v[NR] }'
}
median() { printf '%s\n' "$@" | sort -n | "$awk_bin" '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
csv_qps=$(median "${csv_list[@]}")
awk_qps=$(median "${awk_list[@]}")
ratio=$(median "${ratio_list[@]}")
ratio_range=$(printf '%s\n' "${ratio_list[@]}" | sort -n | "$awk_bin" '{ v[NR] = $1 }
  END { printf "%.2f-%.2f", v[1], v[NR] }')
ratio_full=$(echo "$csv_qps $awk_qps" | "$awk_bin" '{ printf "%.2f", $1 / $2 }')
row_bytes=$(head -n 1000 "$work/queries.txt" | "$collcalc" batch - | tail -n 1000 | wc -c |
  "$awk_bin" '{ printf "%.0f", $1 / 1000 }')
printf 'throughput over %d ring all-reduce queries (queries per CPU second, medians; %d tries):\n' \
  "$n" "$tries"
printf '  batch --columns time_us (line,time_us: what the %s script prints): %s\n' \
  "$awk_bin" "$(summary "${same_list[@]}")"
printf '  batch, full CSV rows (%s bytes a query, phases included):          %s\n' \
  "$row_bytes" "$(summary "${csv_list[@]}")"
printf '  batch, full JSON lines:                                            %s\n' \
  "$(summary "${jsonl_list[@]}")"
printf '  %s, ring formula only:                                           %s\n' \
  "$awk_bin" "$(summary "${awk_list[@]}")"
printf '  ratio to %s: %.2fx with the same columns (the median of %d paired tries: %s), %sx with full rows (of the medians) (targets: >= 3,000,000 q/s and >= 6x)\n' \
  "$awk_bin" "$ratio" "$tries" "$ratio_range" "$ratio_full"

"$work/stats" 5 "$collcalc" allreduce --size 100MB --gpus 8 --link nvlink5 </dev/null >/dev/null # warm the page cache
read -r cold_ms minimal_ms cold < <("$work/stats" -alt "$runs" "$collcalc" allreduce --size 100MB \
  --gpus 8 --link nvlink5 -- "$work/minimal" </dev/null)
read -r version_ms version_minimal_ms version < <("$work/stats" -alt "$runs" "$collcalc" --version \
  -- "$work/minimal" </dev/null)
printf 'cold start, %d interleaved runs each, median wall: collcalc allreduce %s ms vs minimal C program %s ms: %sx (target <= 1.5x); collcalc --version %s ms vs %s ms: %sx\n' \
  "$runs" "$cold_ms" "$minimal_ms" "$cold" "$version_ms" "$version_minimal_ms" "$version"

gen "$m" >"$work/big.txt"
read -r bw bu bs brss < <(measure "$work/big.txt" "$collcalc" batch -) # rows to /dev/null
read -r tw tu ts trss < <(measure "$work/queries.txt" "$collcalc" batch -)
printf 'memory: %d lines -> max RSS %d KiB (%d lines: %d KiB; wall %.1f s)\n' "$m" "$brss" "$n" "$trss" "$bw"
rm -f "$work/big.txt"

if [ "${PERF:-0}" = 1 ] && command -v perf >/dev/null 2>&1; then
  perf record -q -o "$work/perf.data" "$collcalc" batch "$work/queries.txt" --columns time_us >/dev/null 2>&1
  perf report -i "$work/perf.data" --no-children --percent-limit 1.5 --stdio 2>/dev/null |
    grep -E '^ +[0-9]' | head -25
fi
