#!/usr/bin/env bash
# cpu.gpu_probe_rule: the mutation tool's probe keeps the test processes' rule on any machine: GPUs
# hidden on purpose are no GPU (77, so an entry is Skipped), unless KERNELS_REQUIRE_GPU=1 (1).
# Usage: check_gpu_probe.sh <gpu_probe>
# The run's own requirement (the gpu preset sets KERNELS_REQUIRE_GPU=1) is the second case's, not the first's.
CUDA_VISIBLE_DEVICES=-1 env -u KERNELS_REQUIRE_GPU -u KERNELS_SIMULATE_GPU_LOSS "$1"
hidden=$?
CUDA_VISIBLE_DEVICES=-1 KERNELS_REQUIRE_GPU=1 env -u KERNELS_SIMULATE_GPU_LOSS "$1"
required=$?
echo "hidden: exit $hidden (77 expected); required: exit $required (1 expected)"
[ "$hidden" = 77 ] && [ "$required" = 1 ]
