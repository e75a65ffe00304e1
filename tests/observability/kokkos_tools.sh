#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# kokkos-tools' own connectors, built from their public source, unmodified, report a
# portex example: simple-kernel-timer (its reader lists the kernels), space-time-stack
# (kernels and views by label), memory-hwm (loads, hears allocations, reports) and
# chrome-tracing (a trace naming kernels and copies).
#
#     kokkos_tools.sh EXAMPLE        (the overlap example; run with --quick --k 1)
#
# The source comes from KOKKOS_TOOLS_SRC (a checkout of github.com/kokkos/kokkos-tools),
# else a shallow clone of KOKKOS_TOOLS_GIT (default that repository). Without either,
# or without a C++ compiler, the test says so and exits 77 (skipped). It runs the example
# on every execution space this build and machine have (serial, OpenMP, CUDA).
set -euo pipefail
example=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

skip() { echo "SKIP: $*"; exit 77; }

src=${KOKKOS_TOOLS_SRC:-}
if [ -z "$src" ]; then
    command -v git > /dev/null || skip "no KOKKOS_TOOLS_SRC and no git to fetch kokkos-tools"
    if ! timeout 60 git clone -q --depth 1 "${KOKKOS_TOOLS_GIT:-https://github.com/kokkos/kokkos-tools}" \
        "$work/src" 2> "$work/clone.log"; then
        skip "kokkos-tools source not available (set KOKKOS_TOOLS_SRC to a checkout): $(tail -1 "$work/clone.log")"
    fi
    src=$work/src
fi
cxx=${CXX:-c++}
command -v "$cxx" > /dev/null || skip "no C++ compiler ($cxx) to build kokkos-tools"

# Each connector as its Makefile builds it, without MPI.
inc="-I$src/profiling/all -I$src/common/makefile-only -I$src/common"
build() { # name, sources...
    local name=$1
    shift
    "$cxx" -shared -fPIC -O2 -std=c++17 -DUSE_MPI=0 $inc -o "$work/$name.so" "$@" 2> "$work/$name.build.log" ||
        { cat "$work/$name.build.log"; echo "FAIL: building $name"; exit 1; }
}
sk=$src/profiling/simple-kernel-timer
build kp_kernel_timer "$sk/kp_kernel_timer.cpp" "$sk/kp_shared.cpp"
"$cxx" -O2 -std=c++17 $inc -o "$work/kp_reader" "$sk/kp_reader.cpp" "$sk/kp_shared.cpp"
build kp_space_time_stack "$src/profiling/space-time-stack/kp_space_time_stack.cpp"
build kp_hwm "$src/profiling/memory-hwm/kp_hwm.cpp"
build kp_chrome_tracing "$src/profiling/chrome-tracing/kp_chrome_tracing.cpp"

fail=0
expect() { # file, pattern, what
    if ! grep -q -- "$2" "$1"; then
        echo "FAIL: $3: '$2' not in $1:"
        sed 's/^/    /' "$1" | head -40
        fail=1
    fi
}

ran=0
for exec in serial openmp threads cuda; do
    dir=$work/$exec
    mkdir -p "$dir"
    # Is this execution space here? (px_init fails when it is not.)
    if ! (cd "$dir" && PX_DEFAULT_EXEC=$exec "$example" --quick --k 1 > probe.log 2>&1); then
        echo "-- $exec: not available here ($(head -1 "$dir/probe.log"))"
        continue
    fi
    ran=$((ran + 1))
    echo "-- $exec"
    for tool in kp_kernel_timer kp_space_time_stack kp_hwm kp_chrome_tracing; do
        mkdir -p "$dir/$tool"
        (cd "$dir/$tool" && PX_DEFAULT_EXEC=$exec KOKKOS_TOOLS_LIBS="$work/$tool.so" \
            "$example" --quick --k 1 > out.log 2>&1) ||
            { echo "FAIL: the example under $tool on $exec:"; cat "$dir/$tool/out.log"; fail=1; continue; }
    done
    # simple-kernel-timer: its reader lists portex's kernel with Kokkos' type tag.
    dat=$(ls "$dir"/kp_kernel_timer/*.dat 2> /dev/null | head -1)
    if [ -n "$dat" ]; then
        "$work/kp_reader" "$dat" > "$dir/kp_kernel_timer/report.txt"
        expect "$dir/kp_kernel_timer/report.txt" "overlap_scale" "simple-kernel-timer ($exec)"
        expect "$dir/kp_kernel_timer/report.txt" "(ParFor)" "simple-kernel-timer ($exec)"
    else
        echo "FAIL: simple-kernel-timer wrote no .dat on $exec"
        fail=1
    fi
    # space-time-stack: the kernel in the time tree, the views in the memory report.
    out=$dir/kp_space_time_stack/out.log
    expect "$out" "overlap_scale \[for\]" "space-time-stack ($exec)"
    expect "$out" "overlap in" "space-time-stack ($exec)"
    expect "$out" "overlap out" "space-time-stack ($exec)"
    if [ "$exec" = cuda ]; then
        # The views live on the GPU: Kokkos' "Cuda" space.
        awk '/KOKKOS CUDA SPACE/,/KOKKOS HIP SPACE/' "$out" > "$dir/cuda_space.txt"
        expect "$dir/cuda_space.txt" "overlap" "space-time-stack CUDA space ($exec)"
    fi
    # memory-hwm: loaded, finalised, reported.
    expect "$dir/kp_hwm/out.log" "High water mark memory consumption" "memory-hwm ($exec)"
    # chrome-tracing: a trace with the kernel and the copies by their views' labels.
    trace=$(ls "$dir"/kp_chrome_tracing/*.json 2> /dev/null | head -1)
    if [ -n "$trace" ]; then
        expect "$trace" '"name": "overlap_scale"' "chrome-tracing ($exec)"
        expect "$trace" '"cat": "\[copy\]"' "chrome-tracing ($exec)"
        expect "$trace" 'overlap' "chrome-tracing ($exec)"
    else
        echo "FAIL: chrome-tracing wrote no trace on $exec"
        fail=1
    fi
    # Keep the reports where a caller can look (KOKKOS_TOOLS_KEEP=dir).
    if [ -n "${KOKKOS_TOOLS_KEEP:-}" ]; then mkdir -p "$KOKKOS_TOOLS_KEEP" && cp -r "$dir" "$KOKKOS_TOOLS_KEEP/"; fi
done
[ "$ran" -gt 0 ] || skip "the example ran on no execution space"
[ "$fail" = 0 ] && echo "kokkos-tools connectors report portex's kernels and views on $ran execution space(s)"
exit "$fail"
