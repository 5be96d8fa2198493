// SPDX-License-Identifier: GPL-3.0-or-later
// Where shared memory survives the L2 flush's read, and what local memory a
// kernel reaches: scrubs with frames of other sizes, a dynamic stack (alloca).
// Sections: smemmap lmem alloca. Built with nvcc -arch=sm_90 -O2.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
__device__ __forceinline__ unsigned pattern(unsigned i) { return 0xC0DE0000u ^ (i * 2654435761u); }

extern "C" __global__ void smem_write(unsigned words) {
  extern __shared__ unsigned s[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) s[i] = pattern(i);
}
// Per 4 KiB bucket of the dynamic window: how many words kept their pattern.
extern "C" __global__ void smem_map(unsigned words, unsigned long long* buckets) {
  extern __shared__ unsigned s[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
    if (s[i] == pattern(i)) atomicAdd(&buckets[i / 1024], 1ull);
}
// The L2 flush as the harness runs it: no shared memory, every SM full.
extern "C" __global__ void flush_read(const uint4* p, unsigned long long n, unsigned* sink) {
  unsigned acc = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
    const uint4 a = p[i]; acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (acc == 0x5EEDF1u) *sink = acc;
}
template <int WORDS> __global__ void __launch_bounds__(1024, 2) lmem_write(int k) {
  volatile unsigned a[WORDS];
  for (int i = 0; i < WORDS; ++i) a[(i + k) % WORDS] = pattern((i + k) % WORDS);
}
template <int WORDS> __global__ void __launch_bounds__(1024, 2) lmem_scrub(int k) {
  volatile unsigned a[WORDS];
  for (int i = 0; i < WORDS; ++i) a[(i + k) % WORDS] = 0x5C5C5C5Cu;
}
template <int WORDS> __global__ void __launch_bounds__(1024, 2) lmem_count(int k, unsigned long long* hits) {
  volatile unsigned a[WORDS];
  unsigned long long n = 0;
  for (int i = 0; i < WORDS; ++i) n += a[(i + k) % WORDS] == pattern((i + k) % WORDS);
  atomicAdd(hits, n);
}
// Local memory through a dynamic stack allocation (no fixed frame).
extern "C" __global__ void __launch_bounds__(1024, 2) alloca_count(int words, unsigned long long* hits) {
  volatile unsigned* a = (volatile unsigned*)alloca(words * 4);
  unsigned long long n = 0;
  for (int i = 0; i < words; ++i) n += a[i] == pattern(i);
  atomicAdd(hits, n);
}
template <int W> int lmemCase(const char* name, void (*scrub)(int), int sms, unsigned long long* hits, uint4* big, unsigned long long bigN, unsigned* sink, bool flush) {
  CK(cudaMemset(hits, 0, 8));
  lmem_write<256><<<sms * 2, 1024>>>(1);
  if (flush) flush_read<<<sms * 4, 512>>>(big, bigN, sink);
  if (scrub) scrub<<<sms * 2, 1024>>>(1);
  lmem_count<256><<<sms * 2, 1024>>>(1, hits);
  CK(cudaDeviceSynchronize());
  unsigned long long h = 0; CK(cudaMemcpy(&h, hits, 8, cudaMemcpyDeviceToHost));
  printf("lmem frame 1024 B written, then %s: %llu of %llu words kept\n", name, h, 256ull * sms * 2048);
  return 0;
}
int main(int argc, char** argv) {
  auto want = [&](const char* w) { return argc < 2 || !strcmp(argv[1], w); };
  int sms = 0, maxSmem = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&maxSmem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  unsigned long long *hits, *buckets; unsigned* sink; uint4* big;
  const unsigned long long bigN = (256ull << 20) / 16;
  CK(cudaMalloc(&hits, 8)); CK(cudaMalloc(&buckets, 8 * 64)); CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&big, bigN * 16)); CK(cudaMemset(big, 0, bigN * 16));
  if (want("smemmap")) {
    CK(cudaFuncSetAttribute(smem_write, cudaFuncAttributeMaxDynamicSharedMemorySize, maxSmem));
    CK(cudaFuncSetAttribute(smem_map, cudaFuncAttributeMaxDynamicSharedMemorySize, maxSmem));
    const unsigned words = maxSmem / 4;
    for (int rep = 0; rep < 2; ++rep) {
      CK(cudaMemset(buckets, 0, 8 * 64));
      smem_write<<<sms, 1024, maxSmem>>>(words);
      flush_read<<<sms * 4, 512>>>(big, bigN, sink);
      smem_map<<<sms, 1024, maxSmem>>>(words, buckets);
      CK(cudaDeviceSynchronize());
      unsigned long long b[64]; CK(cudaMemcpy(b, buckets, 8 * 64, cudaMemcpyDeviceToHost));
      printf("smem kept after the flush's read, per 4 KiB of the dynamic window (of %u words a bucket, summed over %d SMs):\n", 1024 * sms, sms);
      for (int i = 0; i * 1024 < (int)words; ++i) if (b[i]) printf("  [%3d KiB, %3d KiB): %llu\n", 4 * i, 4 * i + 4, b[i]);
    }
  }
  if (want("lmem")) {
    lmemCase<0>("nothing", nullptr, sms, hits, big, bigN, sink, false);
    lmemCase<0>("the flush's read", nullptr, sms, hits, big, bigN, sink, true);
    lmemCase<0>("a scrub with a 1024 B frame", lmem_scrub<256>, sms, hits, big, bigN, sink, false);
    lmemCase<0>("a scrub with a 512 B frame", lmem_scrub<128>, sms, hits, big, bigN, sink, false);
    lmemCase<0>("a scrub with a 4096 B frame", lmem_scrub<1024>, sms, hits, big, bigN, sink, false);
    lmemCase<0>("a scrub with a 256 B frame", lmem_scrub<64>, sms, hits, big, bigN, sink, false);
  }
  if (want("alloca")) {
    for (int words : {64, 256}) {
      CK(cudaMemset(hits, 0, 8));
      lmem_write<256><<<sms * 2, 1024>>>(1);
      alloca_count<<<sms * 2, 1024>>>(words, hits);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("alloca of %d words: %s\n", words, cudaGetErrorString(e)); return 0; }
      unsigned long long h = 0; CK(cudaMemcpy(&h, hits, 8, cudaMemcpyDeviceToHost));
      size_t stack = 0; CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
      printf("alloca of %d words after a 1024 B frame: %llu of %llu words hold the frame's pattern (stack limit %zu)\n", words, h,
             (unsigned long long)words * sms * 2048, stack);
    }
  }
  return 0;
}
