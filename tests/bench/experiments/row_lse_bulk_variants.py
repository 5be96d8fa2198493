#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hand experiment for issue 16 (2026-12-06): row log-sum-exp fed by the copy engine (cp.async.bulk into shared memory).
Writes <task>@<label>.cu/.json for variant_bench.py; N is fixed at 1000 (row_logsumexp_f32_16384x1000).
  row_lse_bulk_variants.py OUTDIR TASK.json
Results: tests/bench/results/2026-12-06-h100-row-lse-bulk.md. Parameters: WARPS (rows a stage), STAGES, BLOCKS_PER_SM."""
import json, sys, pathlib
out = pathlib.Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
spec = json.loads(pathlib.Path(sys.argv[2]).read_text())
task = spec["name"]
SRC = r'''
// Row log-sum-exp, rows streamed into shared memory by cp.async.bulk (WARPS rows a stage, STAGES stages).
#define WARPS __WARPS__
#define STAGES __STAGES__
#define ROW_BYTES (N_CONST * 4)
#define N_CONST 1000
__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(unsigned long long* b, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_u32(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void bar_expect(unsigned long long* b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_u32(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_wait(unsigned long long* b, unsigned phase) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}"
               :: "r"(smem_u32(b)), "r"(phase) : "memory");
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, unsigned long long* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(smem_u32(dst)), "l"(src), "r"(bytes), "r"(smem_u32(b)) : "memory");
}
extern "C" __global__ void __launch_bounds__(WARPS * 32) row_logsumexp_kernel(const float* __restrict__ x, float* __restrict__ lse, long long M, long long N) {
  extern __shared__ __align__(128) unsigned char smem[];
  float* stage_rows = (float*)smem;
  __shared__ __align__(8) unsigned long long full[STAGES];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const long long first = (long long)blockIdx.x * M / gridDim.x, last = (long long)(blockIdx.x + 1) * M / gridDim.x;
  const long long rows = last - first;
  const int steps = (int)((rows + WARPS - 1) / WARPS);
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) bar_init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int s = 0; s < STAGES && s < steps; ++s) {
      const long long r0 = first + (long long)s * WARPS;
      const unsigned n = (unsigned)min((long long)WARPS, last - r0);
      bar_expect(&full[s], n * ROW_BYTES);
      bulk_load(stage_rows + (size_t)s * WARPS * N_CONST, x + r0 * N_CONST, n * ROW_BYTES, &full[s]);
    }
  }
  __syncthreads();
  for (int step = 0; step < steps; ++step) {
    const int s = step % STAGES;
    const unsigned phase = (step / STAGES) & 1;
    bar_wait(&full[s], phase);
    const long long row = first + (long long)step * WARPS + warp;
    if (row < last) {
      const float4* r = (const float4*)(stage_rows + ((size_t)s * WARPS + warp) * N_CONST);
      float v[8][4];
      float m = __int_as_float(0xff800000);
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const int c = lane + 32 * i;
        if (c < N_CONST / 4) { float4 t = r[c]; v[i][0] = t.x; v[i][1] = t.y; v[i][2] = t.z; v[i][3] = t.w; }
        else { v[i][0] = v[i][1] = v[i][2] = v[i][3] = __int_as_float(0xff800000); }
#pragma unroll
        for (int k = 0; k < 4; ++k) m = fmaxf(m, v[i][k]);
      }
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
      float sum = 0.f;
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int k = 0; k < 4; ++k) sum += __expf(v[i][k] - m);
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
      if (lane == 0) lse[row] = m + __logf(sum);
    }
    __syncthreads();  // every warp is done with stage s
    if (threadIdx.x == 0 && step + STAGES < steps) {
      const long long r0 = first + (long long)(step + STAGES) * WARPS;
      const unsigned n = (unsigned)min((long long)WARPS, last - r0);
      bar_expect(&full[s], n * ROW_BYTES);
      bulk_load(stage_rows + (size_t)s * WARPS * N_CONST, x + r0 * N_CONST, n * ROW_BYTES, &full[s]);
    }
  }
}
'''
variants = [(8, 6, 1), (8, 3, 2), (16, 3, 1), (4, 6, 2), (4, 3, 4), (8, 4, 1), (2, 6, 4), (16, 2, 2)]
for warps, stages, per_sm in variants:
    smem = warps * stages * 4000
    if smem * per_sm > 227 * 1024: continue
    label = f"bulk_w{warps}_s{stages}_b{per_sm}"
    src = SRC.replace("__WARPS__", str(warps)).replace("__STAGES__", str(stages))
    (out / f"{task}@{label}.cu").write_text(src)
    meta = {"task": task, "spec": spec, "entry": "row_logsumexp_kernel", "grid": [f"{per_sm}*sm_count", "1", "1"],
            "block": [str(warps * 32), "1", "1"], "smem": str(smem), "candidate": label, "architecture": label,
            "launch": {}, "genome": {"params": {"WARPS": warps, "STAGES": stages, "BLOCKS_PER_SM": per_sm}}}
    (out / f"{task}@{label}.json").write_text(json.dumps(meta))
    print(label, smem)
