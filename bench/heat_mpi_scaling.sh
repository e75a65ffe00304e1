#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# examples/heat_mpi's scaling on one node, as in docs/results/history.md: strong (one plate, more
# processes) and weak (one block per process) on the CPU backends with 1 to 16 processes,
# and the GPU shared by 1 and 2 processes. Every run checks itself (with and without
# overlap, bit for bit against the one-process run). One table row per run on stdout, each
# run's whole output in $LOGS (default: a temporary directory).
#
#   bench/heat_mpi_scaling.sh BUILD [cpu] [openmp] [gpu]     (default: all three)
#
# cpu: the serial backend, one core per process (--bind-to core): pure MPI. The overlap's
# compute thread then shares the process's core with the main thread.
# openmp: 16 / P threads per process on cores of its own (--map-by slot:PE=T).
# gpu: CUDA, 1 and 2 processes sharing GPU 0 (staged path unless the MPI is CUDA-aware).
set -uo pipefail
build=${1:?usage: heat_mpi_scaling.sh BUILD [cpu] [openmp] [gpu]}
shift
parts=${*:-cpu openmp gpu}
exe=$build/examples/heat_mpi
[ -x "$exe" ] || { echo "no $exe (configure with MPI found)"; exit 1; }
logs=${LOGS:-$(mktemp -d)}
mkdir -p "$logs"
cores=${PX_BENCH_CORES:-16}
steps=${PX_BENCH_STEPS:-50}
mpirun=(mpirun --allow-run-as-root --oversubscribe)

echo "| run | processes | plate | exchange alone | compute alone | overlap off | overlap on | hidden | check |"
echo "|---|---|---|---|---|---|---|---|---|"
# run NAME NP MPIRUN-OPTIONS... -- HEAT-ARGUMENTS...
run() {
    local name=$1 np=$2
    shift 2
    local opts=()
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    local log="$logs/$name-np$np.log"
    timeout 300 "${mpirun[@]}" "${opts[@]}" -np "$np" "$exe" "$steps" "$@" > "$log" 2>&1
    local rc=$?
    ms() { sed -nE "s/^  $1 +([0-9.]+) ms per step.*/\1/p" "$log"; }
    local plate dims hidden verdict
    plate=$(sed -nE 's/^heat_mpi: ([0-9]+ x [0-9]+) plate.*/\1/p' "$log")
    dims=$(sed -nE 's/.* steps, ([0-9]+ x [0-9]+) processes.*/\1/p' "$log")
    hidden=$(sed -nE 's/^  hidden: (-?[0-9]+%|none).*/\1/p' "$log")
    verdict=$(sed -nE 's/^heat_mpi: (OK|MISMATCH).*/\1/p' "$log")
    [ "$rc" = 0 ] || verdict="rc=$rc"
    echo "| $name | $np ($dims) | $plate | $(ms 'exchange alone') | $(ms 'compute alone') | $(ms 'overlap off') | $(ms 'overlap on') | $hidden | $verdict |"
}

if [[ " $parts " == *" cpu "* ]]; then
    for np in 1 2 4 8 16; do
        [ "$np" -le "$cores" ] || continue
        run serial-strong "$np" --bind-to core --map-by core -x PX_DEFAULT_EXEC=serial -- --plate 4098 4098
    done
    for np in 1 2 4 8 16; do
        [ "$np" -le "$cores" ] || continue
        run serial-weak "$np" --bind-to core --map-by core -x PX_DEFAULT_EXEC=serial -- --block 1024 1024
    done
fi
if [[ " $parts " == *" openmp "* ]]; then
    for np in 1 2 4 8 16; do
        [ "$np" -le "$cores" ] || continue
        t=$((cores / np))
        run "openmp-strong-${t}t" "$np" --bind-to core --map-by "slot:PE=$t" -x PX_DEFAULT_EXEC=openmp -x PX_NUM_THREADS=$t \
            -- --plate 4098 4098
    done
fi
if [[ " $parts " == *" gpu "* ]]; then
    for np in 1 2; do
        run cuda-strong "$np" --bind-to none -x PX_DEFAULT_EXEC=cuda -- --plate 8194 8194
        run cuda-strong-small "$np" --bind-to none -x PX_DEFAULT_EXEC=cuda -- --plate 2050 2050
    done
fi
echo
echo "logs: $logs"
