// SPDX-License-Identifier: GPL-3.0-or-later
// Does shared or local memory keep a kernel's values until its next launch,
// with other kernels (a memset, a small-smem kernel, an L2-flush read) between?
// Can a kernel write its block's reserved shared window, and reach local
// memory by address without a frame? Sections: smem lmem reserved rawlmem.
// Built with nvcc -arch=sm_90 -O2 (run-on-device.sh).
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ __forceinline__ unsigned pattern(unsigned i) { return 0xC0DE0000u ^ (i * 2654435761u); }

extern "C" __global__ void smem_write(unsigned words) {
  extern __shared__ unsigned s[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) s[i] = pattern(i);
}
// Counts words that still hold the pattern (at their own offset) without writing any.
extern "C" __global__ void smem_read(unsigned words, unsigned long long* hits, unsigned* smids) {
  extern __shared__ unsigned s[];
  unsigned long long n = 0;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) n += (s[i] == pattern(i));
  atomicAdd(hits, n);
  if (threadIdx.x == 0) { unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id)); smids[blockIdx.x] = id; }
}
// Local memory: an array the compiler must keep in local memory (dynamic index).
extern "C" __global__ void lmem_write(int k) {
  volatile unsigned a[256];
  for (int i = 0; i < 256; ++i) a[(i + k) & 255] = pattern((i + k) & 255) ^ (blockIdx.x * 0 + threadIdx.x);
}
extern "C" __global__ void lmem_read(int k, unsigned long long* hits, unsigned long long* anyHits) {
  volatile unsigned a[256];
  unsigned long long n = 0, m = 0;
  for (int i = 0; i < 256; ++i) {
    unsigned v = a[(i + k) & 255];
    n += (v == (pattern((i + k) & 255) ^ threadIdx.x));
    m += ((v & 0xFFFF0000u) != 0 && (v ^ pattern((i + k) & 255)) < 1024u);
  }
  atomicAdd(hits, n);
  atomicAdd(anyHits, m);
}
extern "C" __global__ void small_smem(float* out) {
  __shared__ float red[256];
  red[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = red[255];
}
extern "C" __global__ void flush_read(const float4* p, size_t n, float* sink) {
  float acc = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) acc += p[i].x;
  if (acc == 1234.5f) sink[0] = acc;
}

// The block's reserved shared memory (sm_90: before the kernel's own): can a kernel write it, and does it keep?
__device__ __forceinline__ unsigned sreg_begin() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v)); return v; }
__device__ __forceinline__ unsigned sreg_end() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v)); return v; }
extern "C" __global__ void reserved_info(unsigned* info) {
  extern __shared__ unsigned s[];
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    unsigned cap, total, aggr, dynsz;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(cap));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(total));
    asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(aggr));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynsz));
    info[0] = sreg_begin(); info[1] = sreg_end(); info[2] = cap; info[3] = total; info[4] = aggr; info[5] = dynsz;
    info[6] = (unsigned)__cvta_generic_to_shared(s);
  }
}
extern "C" __global__ void reserved_write() {
  for (unsigned a = sreg_begin() + 4 * threadIdx.x; a + 4 <= sreg_end(); a += 4 * blockDim.x)
    asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(pattern(a)) : "memory");
}
extern "C" __global__ void reserved_read(unsigned long long* hits, unsigned long long* words) {
  unsigned long long n = 0, w = 0;
  for (unsigned a = sreg_begin() + 4 * threadIdx.x; a + 4 <= sreg_end(); a += 4 * blockDim.x) {
    unsigned v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    n += (v == pattern(a)); ++w;
  }
  atomicAdd(hits, n); atomicAdd(words, w);
}

// Local memory by address, from kernels that declare no local variable (a frame of 0 bytes).
extern "C" __global__ void raw_lmem_write(unsigned bytes) {
  for (unsigned a = 0; a + 4 <= bytes; a += 4)
    asm volatile("st.local.u32 [%0], %1;" :: "r"(a), "r"(pattern(a) ^ threadIdx.x) : "memory");
}
extern "C" __global__ void raw_lmem_read(unsigned bytes, unsigned long long* hits, unsigned long long* words) {
  unsigned long long n = 0, w = 0;
  for (unsigned a = 0; a + 4 <= bytes; a += 4) {
    unsigned v; asm volatile("ld.local.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    n += (v == (pattern(a) ^ threadIdx.x)); ++w;
  }
  atomicAdd(hits, n); atomicAdd(words, w);
}

#include <cstring>
int main(int argc, char** argv) {
  auto want = [&](const char* w) { return argc < 2 || !strcmp(argv[1], w); };
  int sms = 0, maxSmem = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&maxSmem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  printf("SMs %d, max opt-in smem per block %d\n", sms, maxSmem);
  unsigned long long *hits, *any; unsigned* smids; float* out; float4* big;
  size_t bigN = (256ull << 20) / 16;
  CK(cudaMalloc(&hits, 16)); CK(cudaMalloc(&any, 8)); CK(cudaMalloc(&smids, 4 * 4096)); CK(cudaMalloc(&out, 1 << 20));
  CK(cudaMalloc(&big, bigN * 16)); CK(cudaMemset(big, 0, bigN * 16));
  if (want("smem")) for (int bytes : {200 * 1024, maxSmem, 48 * 1024}) {
    CK(cudaFuncSetAttribute(smem_write, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    CK(cudaFuncSetAttribute(smem_read, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    unsigned words = bytes / 4;
    for (int between = 0; between < 4; ++between) {
      CK(cudaMemset(hits, 0, 16));
      smem_write<<<sms, 1024, bytes>>>(words);
      if (between >= 1) CK(cudaMemset(out, 0x7f, 1 << 20));
      if (between >= 2) small_smem<<<4096, 256>>>(out);
      if (between >= 3) flush_read<<<sms * 4, 512>>>(big, bigN, out);
      smem_read<<<sms, 1024, bytes>>>(words, hits, smids);
      CK(cudaDeviceSynchronize());
      unsigned long long h = 0; CK(cudaMemcpy(&h, hits, 8, cudaMemcpyDeviceToHost));
      printf("smem %6d B/block, %d blocks: between = %s: %llu of %llu words kept (%.2f%%)\n", bytes, sms,
             between == 0 ? "nothing" : between == 1 ? "memset" : between == 2 ? "memset+small-smem kernel" : "memset+small+256MiB read",
             h, (unsigned long long)words * sms, 100.0 * h / ((double)words * sms));
    }
  }
  if (want("lmem")) for (int between = 0; between < 3; ++between) {
    CK(cudaMemset(hits, 0, 16)); CK(cudaMemset(any, 0, 8));
    lmem_write<<<sms * 2, 1024>>>(3);
    if (between >= 1) small_smem<<<4096, 256>>>(out);
    if (between >= 2) flush_read<<<sms * 4, 512>>>(big, bigN, out);
    lmem_read<<<sms * 2, 1024>>>(3, hits, any);
    CK(cudaDeviceSynchronize());
    unsigned long long h = 0, a = 0; CK(cudaMemcpy(&h, hits, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&a, any, 8, cudaMemcpyDeviceToHost));
    printf("lmem: between = %d: %llu of %llu words kept in the same thread's slot, %llu hold some thread's pattern\n", between, h,
           256ull * sms * 2 * 1024, a);
  }
  if (want("reserved")) {
    unsigned* info; CK(cudaMalloc(&info, 64)); CK(cudaMemset(info, 0, 64));
    reserved_info<<<1, 32, 4096>>>(info); CK(cudaDeviceSynchronize());
    unsigned h[8]; CK(cudaMemcpy(h, info, 32, cudaMemcpyDeviceToHost));
    printf("reserved smem: begin %u end %u cap %u; total_smem %u aggr_smem %u dynamic %u; dynamic smem starts at shared address %u\n",
           h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
    for (int between = 0; between < 2; ++between) {
      CK(cudaMemset(hits, 0, 16)); CK(cudaMemset(any, 0, 8));
      reserved_write<<<sms, 256>>>();
      if (between) small_smem<<<4096, 256>>>(out);
      reserved_read<<<sms, 256>>>(hits, any);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("reserved smem write/read: %s\n", cudaGetErrorString(e)); return 0; }
      unsigned long long a = 0, b = 0; CK(cudaMemcpy(&a, hits, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&b, any, 8, cudaMemcpyDeviceToHost));
      printf("reserved smem, between = %s: %llu of %llu words kept\n", between ? "small-smem kernel" : "nothing", a, b);
    }
  }
  if (want("rawlmem")) for (unsigned bytes : {256u, 1024u}) {
    CK(cudaMemset(hits, 0, 16)); CK(cudaMemset(any, 0, 8));
    raw_lmem_write<<<sms * 2, 1024>>>(bytes);
    small_smem<<<4096, 256>>>(out);
    raw_lmem_read<<<sms * 2, 1024>>>(bytes, hits, any);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("raw local memory, %u bytes: %s\n", bytes, cudaGetErrorString(e)); return 0; }
    unsigned long long a = 0, b = 0; CK(cudaMemcpy(&a, hits, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&b, any, 8, cudaMemcpyDeviceToHost));
    printf("raw local memory (no local variables), first %u bytes a thread: %llu of %llu words kept\n", bytes, a, b);
  }
  return 0;
}
