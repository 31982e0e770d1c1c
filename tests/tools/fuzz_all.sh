#!/bin/sh
# Runs every libFuzzer target of tests/fuzz for a set time.
#
#   tests/tools/fuzz_all.sh BUILD_DIR [SECONDS] [TARGET...]
#
# Configures BUILD_DIR as the clang fuzz build (cmake -DCMAKE_C_COMPILER=clang
# -DCOLLCALC_FUZZ=ON: libFuzzer + ASan + UBSan), builds the fuzz_* targets
# (each on its own, so one that does not compile does not stop the others),
# then runs each for SECONDS (default 300) from a copy of its corpus
# tests/fuzz/corpus/<name>/ (the copy grows; the corpus in the tree does not).
# TARGET names (fuzz_links or links) pick targets; default every
# tests/fuzz/fuzz_*.c. Prints executions per target. An input that crashes,
# leaks, times out or runs out of memory is saved in the tree as a named
# regression input, tests/fuzz/corpus/<name>/found-<kind>-<date>-<hash>,
# which every ctest run then replays (replay_<name>): fix the bug, keep the
# file. Exit status: 0 when every target built and ran clean, 1 otherwise.
#
# Environment: JOBS (build parallelism, default 2), FUZZ_FLAGS (extra
# libFuzzer flags, e.g. "-max_len=65536").
set -u

usage() {
    echo "usage: $0 BUILD_DIR [SECONDS] [TARGET...]" >&2
    exit 2
}

[ $# -ge 1 ] || usage
build_dir=$1
shift
seconds=300
if [ $# -ge 1 ]; then
    case $1 in
    '' | *[!0-9]*) ;;
    *) seconds=$1; shift ;;
    esac
fi
[ "$seconds" -ge 1 ] 2>/dev/null || usage

here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
jobs=${JOBS:-2}

targets=
if [ $# -gt 0 ]; then
    for t in "$@"; do
        t=${t#fuzz_}
        [ -f "$source_dir/tests/fuzz/fuzz_$t.c" ] || { echo "fuzz_all: no tests/fuzz/fuzz_$t.c" >&2; exit 2; }
        targets="$targets $t"
    done
else
    for f in "$source_dir"/tests/fuzz/fuzz_*.c; do
        t=$(basename "$f" .c)
        targets="$targets ${t#fuzz_}"
    done
fi

command -v clang >/dev/null 2>&1 || { echo "fuzz_all: clang is needed (libFuzzer)" >&2; exit 1; }
echo "fuzz_all: configuring $build_dir (clang, COLLCALC_FUZZ=ON)"
mkdir -p "$build_dir" || exit 1
if ! cmake -S "$source_dir" -B "$build_dir" -DCMAKE_C_COMPILER=clang -DCOLLCALC_FUZZ=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build_dir/fuzz-configure.log" 2>&1; then
    cat "$build_dir/fuzz-configure.log" >&2
    echo "fuzz_all: cmake configure failed" >&2
    exit 1
fi

work=$build_dir/fuzz-runs
mkdir -p "$work"
status=0
summary=
for t in $targets; do
    name=fuzz_$t
    echo "fuzz_all: building $name"
    if ! cmake --build "$build_dir" --target "$name" -j "$jobs" >"$work/$name.build.log" 2>&1; then
        echo "fuzz_all: $name did not build (see $work/$name.build.log):" >&2
        grep -m 5 -E 'error' "$work/$name.build.log" >&2
        summary="$summary
$name: did not build"
        status=1
        continue
    fi
    binary=$build_dir/tests/$name
    corpus=$work/corpus-$t
    artifacts=$work/artifacts-$t
    rm -rf "$corpus" "$artifacts"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "$source_dir/tests/fuzz/corpus/$t" ]; then
        cp "$source_dir/tests/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null
    fi
    log=$work/$name.log
    echo "fuzz_all: running $name for ${seconds}s from $(find "$corpus" -type f | wc -l) seed inputs"
    # shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
    "$binary" -max_total_time="$seconds" -timeout=25 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" ${FUZZ_FLAGS:-} "$corpus" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*DONE.*/\1/p' "$log" | tail -n 1)
    [ -n "$execs" ] || execs="?"
    found=0
    for artifact in "$artifacts"/*; do
        [ -f "$artifact" ] || continue
        kind=$(basename "$artifact" | sed 's/-.*//') # crash, leak, timeout, oom, slow-unit
        hash=$(sha1sum "$artifact" | cut -c1-12)
        saved=$source_dir/tests/fuzz/corpus/$t/found-$kind-$(date -u +%Y%m%d)-$hash
        mkdir -p "$source_dir/tests/fuzz/corpus/$t"
        cp "$artifact" "$saved"
        echo "fuzz_all: $name: $kind input saved as $saved (log: $log)"
        found=$((found + 1))
    done
    if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
        grep -m 3 -E 'ERROR|SUMMARY|runtime error' "$log" >&2
        summary="$summary
$name: $execs executions, FAILED (exit $rc, $found inputs saved)"
        status=1
    else
        summary="$summary
$name: $execs executions in ${seconds}s, clean"
    fi
    echo "fuzz_all: $name: $execs executions"
done
echo "fuzz_all: summary$summary"
exit $status
