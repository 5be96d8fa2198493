#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What a kernel finds of an earlier launch in shared and local memory, and
# whether the harness lets a kernel use it, on a GPU machine:
#   tests/gpu/adversarial/leftover_memory/run-on-device.sh BIN_DIR [OLD_BIN_DIR]
# BIN_DIR (and OLD_BIN_DIR, an earlier build: before the scrubs, or before
# the whole-page buffers of b47d85c) hold crucible-cli and crucible-worker.
# Prints the probes' counts, then the caching kernels (in shared memory, and
# past the end of the output's allocation) and their honest twin timed by
# each build, two rounds.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
# HMM or ATS: kernels can read pageable host memory at its host address (the
# worker's keys and the oracle's host results live there; a kernel would need
# their addresses, which ASLR hides). Pinned memory is device-readable under UVA.
nvidia-smi -q | grep -i "addressing mode" || echo "addressing mode: not reported"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
"$nvcc" -arch=sm_90 -O2 -o /tmp/probe_persistence "$here/probe_persistence.cu" &&
  for s in smem lmem reserved rawlmem; do timeout 60 /tmp/probe_persistence $s; done
"$nvcc" -arch=sm_90 -O2 -o /tmp/probe_reach "$here/probe_reach.cu" &&
  for s in smemmap lmem alloca; do timeout 60 /tmp/probe_reach $s; done
"$nvcc" -arch=sm_90 -O2 -o /tmp/probe_heap "$here/probe_heap.cu" &&
  { timeout 60 /tmp/probe_heap 65536; timeout 60 /tmp/probe_heap 65536 zero; }
"$nvcc" -arch=sm_90 -O2 -o /tmp/probe_registers "$here/probe_registers.cu" && timeout 60 /tmp/probe_registers
"$nvcc" -arch=sm_90 -cubin -o /tmp/probe_module_image_kernel.cubin "$here/probe_module_image_kernel.cu" &&
  g++ -O2 -I"$(dirname "$nvcc")/../include" -o /tmp/probe_module_image "$here/probe_module_image.cpp" -lcuda &&
  for span in 65536 33554432; do timeout 30 /tmp/probe_module_image $span 256 0 /tmp/probe_module_image_kernel.cubin; done
"$nvcc" -arch=sm_90 -cubin -o /tmp/probe_module_pages_kernel.cubin "$here/probe_module_pages_kernel.cu" &&
  g++ -O2 -I"$(dirname "$nvcc")/../include" -o /tmp/probe_module_pages "$here/probe_module_pages.cpp" -lcuda &&
  for where in alloc page; do timeout 30 /tmp/probe_module_pages /tmp/probe_module_pages_kernel.cubin $where; done
"$nvcc" -arch=sm_90 -cubin -o /tmp/probe_code_write_kernel.cubin "$here/probe_code_write_kernel.cu" &&
  g++ -O2 -I"$(dirname "$nvcc")/../include" -o /tmp/probe_code_write "$here/probe_code_write.cpp" -lcuda &&
  for mode in 0 1 2; do timeout 30 /tmp/probe_code_write /tmp/probe_code_write_kernel.cubin $mode; done
"$nvcc" -arch=sm_90 -O2 -o /tmp/probe_host_read "$here/probe_host_read.cu" -lcuda &&
  { timeout 30 /tmp/probe_host_read; timeout 30 /tmp/probe_host_read pageable; }
"$nvcc" -arch=sm_90 -cubin -o /tmp/probe_module_constant_kernel.cubin "$here/probe_module_constant_kernel.cu" &&
  g++ -O2 -I"$(dirname "$nvcc")/../include" -o /tmp/probe_module_constant "$here/probe_module_constant.cpp" -lcuda &&
  timeout 30 /tmp/probe_module_constant /tmp/probe_module_constant_kernel.cubin
"$nvcc" -arch=sm_90 -O2 -o /tmp/probe_param "$here/probe_param.cu" && timeout 30 /tmp/probe_param
"$nvcc" -arch=sm_90 -cubin -o /tmp/probe_param_ring_kernel.cubin "$here/probe_param_ring_kernel.cu" &&
  g++ -O2 -I"$(dirname "$nvcc")/../include" -o /tmp/probe_param_ring "$here/probe_param_ring.cpp" -lcuda &&
  timeout 60 /tmp/probe_param_ring /tmp/probe_param_ring_kernel.cubin
"$nvcc" -arch=sm_90 -cubin -o /tmp/probe_param_page_kernel.cubin "$here/probe_param_page_kernel.cu" &&
  g++ -O2 -I"$(dirname "$nvcc")/../include" -o /tmp/probe_param_page "$here/probe_param_page.cpp" -lcuda &&
  for mode in neighbours near header; do timeout 60 /tmp/probe_param_page /tmp/probe_param_page_kernel.cubin $mode; done
g++ -O2 -I"$(dirname "$nvcc")/../include" -o /tmp/probe_param_header "$here/probe_param_header.cpp" -lcuda &&
  timeout 60 /tmp/probe_param_header /tmp/probe_param_page_kernel.cubin
task=$root/tests/tasks/any-operator/row_logsumexp_f32_16384x1000.json
for round in 1 2; do
  for bin in ${2:-} "$1"; do
    for k in row_lse_shared_cache row_lse_page_cache row_lse_module_cache row_lse_constant_cache row_lse_param_cache row_lse_legacy_page_cache row_lse_next_page_cache row_lse_honest; do
      result=$(timeout 120 "$bin/crucible-cli" eval --task "$task" --kernel "$here/$k.cu" --grid sm_count --block 1024 \
        --smem 200000 --no-profile 2>&1)
      echo "round $round, $bin, $k: $(grep -E '^verdict' <<<"$result") $(grep -E '^time:' <<<"$result")"
    done
  done
done
