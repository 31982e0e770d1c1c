#!/usr/bin/env bash
# Benchmark of `collcalc batch` (issue 10), on one core:
#   1. throughput: N ring all-reduce queries (sizes and GPU counts varied,
#      nvlink5) through `collcalc batch` with CSV and with JSONL output,
#      against an equivalent mawk script that only computes the ring formula
#      2(n-1)/n x size / bw + 2(n-1) x alpha per line (awk if mawk is
#      missing; the script says which); prints queries/s and the ratio;
#   2. cold start: `collcalc allreduce --size 100MB --gpus 8 --link nvlink5`
#      run R times against a minimal C program (puts("x")), and the ratio;
#   3. memory: M lines (default 10 million) streamed through batch, max RSS.
# Usage: bench/batch.sh [COLLCALC] [N] [M]
#   COLLCALC  the binary (default: build/collcalc; a Release or
#             RelWithDebInfo build), N default 2000000, M default 10000000.
#   PERF=1 bench/batch.sh ... also records a perf profile of the CSV run and
#   prints the top symbols.
# Needs a C compiler (cc) for the timing harness; output goes to /dev/null.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
collcalc=${1:-$here/../build/collcalc}
n=${2:-2000000}
m=${3:-10000000}
runs=${RUNS:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk_bin=mawk
if ! command -v mawk >/dev/null 2>&1; then
  awk_bin=awk
  echo "note: mawk not found (Debian: apt-get install mawk); using $(command -v awk)"
fi

# The harness: runs a command TIMES times (stdin as given, stdout and
# stderr to /dev/null; any exit but 0 fails the benchmark), prints wall, user, system seconds and max RSS (KiB) from
# wait4's rusage.
cat >"$work/stats.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    int times = atoi(argv[1]);
    struct timespec a, b;
    struct rusage total = {0}, usage;
    long max_rss = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < times; i++) {
        pid_t pid = fork();
        if (pid == 0) { /* the command's stdout goes to /dev/null */
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        int status;
        if (wait4(pid, &status, 0, &usage) < 0) return 1;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "stats: %s failed (status %d)\n", argv[2], status);
            return 1;
        }
        total.ru_utime.tv_sec += usage.ru_utime.tv_sec; total.ru_utime.tv_usec += usage.ru_utime.tv_usec;
        total.ru_stime.tv_sec += usage.ru_stime.tv_sec; total.ru_stime.tv_usec += usage.ru_stime.tv_usec;
        if (usage.ru_maxrss > max_rss) max_rss = usage.ru_maxrss;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("%.6f %.6f %.6f %ld\n", wall, total.ru_utime.tv_sec + total.ru_utime.tv_usec * 1e-6,
           total.ru_stime.tv_sec + total.ru_stime.tv_usec * 1e-6, max_rss);
    return 0;
}
EOF
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
cat >"$work/ring.awk" <<'EOF'
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
EOF

measure() { # stdin file, command... -> "wall user sys rss"
  local input=$1
  shift
  "$work/stats" 1 "$@" <"$input"
}

echo "collcalc: $collcalc ($("$collcalc" --version))"
echo "machine: $(uname -m), $(nproc) CPUs; collcalc and mawk are single-threaded: q/s = queries per CPU second (user + system)"
pin="" # single-threaded, not pinned: a pinned core may be busy on a shared machine

read -r wall user sys rss < <(measure "$work/queries.txt" $pin "$collcalc" batch -)
csv_qps=$(echo "$n $user $sys" | "$awk_bin" '{ printf "%.0f", $1 / ($2 + $3) }')
csv_wall_qps=$(echo "$n $wall" | "$awk_bin" '{ printf "%.0f", $1 / $2 }')
read -r wall2 user2 sys2 rss2 < <(measure "$work/queries.txt" $pin "$collcalc" batch - --format jsonl)
jsonl_qps=$(echo "$n $user2 $sys2" | "$awk_bin" '{ printf "%.0f", $1 / ($2 + $3) }')
read -r wall3 user3 sys3 rss3 < <(measure "$work/queries.txt" $pin "$awk_bin" -f "$work/ring.awk")
awk_qps=$(echo "$n $user3 $sys3" | "$awk_bin" '{ printf "%.0f", $1 / ($2 + $3) }')
ratio=$(echo "$csv_qps $awk_qps" | "$awk_bin" '{ printf "%.2f", $1 / $2 }')
printf 'throughput over %d ring all-reduce queries (queries per CPU second):\n' "$n"
printf '  collcalc batch (CSV):   %12s q/s   (wall %.2f s, %s q/s wall)\n' "$csv_qps" "$wall" "$csv_wall_qps"
printf '  collcalc batch (JSONL): %12s q/s   (wall %.2f s)\n' "$jsonl_qps" "$wall2"
printf '  %s ring formula:      %12s q/s   (wall %.2f s)\n' "$awk_bin" "$awk_qps" "$wall3"
printf '  ratio batch CSV / %s: %sx   (targets: >= 3,000,000 q/s and >= 6x)\n' "$awk_bin" "$ratio"
printf '  output per query: %s bytes (CSV; the single command'"'"'s columns, phases included)\n' \
  "$("$collcalc" batch - <"$work/queries.txt" 2>/dev/null | head -1001 | tail -1000 | wc -c | "$awk_bin" '{ printf "%.0f", $1 / 1000 }')"

"$work/stats" 5 "$collcalc" allreduce --size 100MB --gpus 8 --link nvlink5 </dev/null >/dev/null # warm the page cache
read -r cw cu cs crss < <("$work/stats" "$runs" "$collcalc" allreduce --size 100MB --gpus 8 --link nvlink5 </dev/null)
read -r sw su ss srss < <("$work/stats" "$runs" "$work/minimal" </dev/null)
cold=$(echo "$cw $sw" | "$awk_bin" '{ printf "%.2f", $1 / $2 }')
cold_cpu=$(echo "$cu $cs $su $ss" | "$awk_bin" '{ printf "%.2f", ($1 + $2) / ($3 + $4) }')
printf 'cold start, %d runs each: collcalc allreduce %.3f ms/run, minimal C program %.3f ms/run: %sx wall, %sx CPU (target <= 1.5x)\n' \
  "$runs" "$(echo "$cw $runs" | "$awk_bin" '{ print 1000 * $1 / $2 }')" \
  "$(echo "$sw $runs" | "$awk_bin" '{ print 1000 * $1 / $2 }')" "$cold" "$cold_cpu"

gen "$m" >"$work/big.txt"
read -r bw bu bs brss < <(measure "$work/big.txt" "$collcalc" batch -) # rows to /dev/null
read -r tw tu ts trss < <(measure "$work/queries.txt" "$collcalc" batch -)
printf 'memory: %d lines -> max RSS %d KiB (%d lines: %d KiB; wall %.1f s)\n' "$m" "$brss" "$n" "$trss" "$bw"
rm -f "$work/big.txt"

if [ "${PERF:-0}" = 1 ] && command -v perf >/dev/null 2>&1; then
  perf record -q -o "$work/perf.data" "$collcalc" batch "$work/queries.txt" >/dev/null 2>&1
  perf report -i "$work/perf.data" --no-children --percent-limit 1.5 --stdio 2>/dev/null |
    grep -E '^ +[0-9]' | head -25
fi
