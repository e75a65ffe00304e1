#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# gpu_bind.sh: run "$@" with this MPI process's GPU, on the cores near it and through the
# network card near it (docs/mpi.md, "On a cluster"). One process per GPU:
#
#   mpirun -np 8 --map-by ppr:4:node --bind-to none examples/gpu_bind.sh build/examples/heat_mpi ...
#
# GPU_NICS: the site's cards, one per GPU in GPU order (e.g. "mlx5_0 mlx5_1 mlx5_2 mlx5_3");
# unset, the MPI's own choice stands. Without hwloc's tools (hwloc-calc, hwloc-bind) or
# where hwloc does not see the GPU, the process keeps the CPU set it was started with.
local_rank=${OMPI_COMM_WORLD_LOCAL_RANK:-${SLURM_LOCALID:-${MPI_LOCALRANKID:-0}}}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus" -gt 0 ] || exec "$@"
gpu=$((local_rank % gpus))
# The cores near the GPU, asked before CUDA_VISIBLE_DEVICES renumbers the GPUs.
cpuset=$(hwloc-calc os=cuda$gpu 2>/dev/null || true)
nic=$(echo "${GPU_NICS:-}" | awk -v k=$((gpu + 1)) '{ print $k }')
[ -z "$nic" ] || export UCX_NET_DEVICES="$nic:1"
export CUDA_VISIBLE_DEVICES=$gpu   # the process sees its GPU as device 0
[ -n "$cpuset" ] && command -v hwloc-bind > /dev/null && exec hwloc-bind "$cpuset" -- "$@"
exec "$@"
