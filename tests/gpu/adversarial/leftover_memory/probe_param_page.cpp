// SPDX-License-Identifier: GPL-3.0-or-later
// What else lies in the 2 MiB pages that hold the driver's ring of launch
// parameters, and what changes there while a worker does its usual work.
// A watch of those pages (less each slot's head, which the driver writes at
// each launch) would close the tails of the slots, where marks outlive
// launches (probe_param_ring.cpp). It is only usable if nothing but launches'
// heads changes there: a false alarm would refuse every candidate. Also asks
// whether each stream has a ring of its own.
//   probe_param_page CUBIN [neighbours|near|header]
// With `neighbours` it also reads the 2 MiB before and after those pages, last
// (the read may fault); with `near` it also reports each step's changes in the
// legacy stream's ring page and the page after the worker's; with `header`,
// in the pages that the words of a launch's header point into (those outside
// the local and shared windows; a page that cannot be read ends the probe).
#include <cuda.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s: %s\n", #x, s); exit(1); } } while (0)
struct Small { unsigned long long v[4]; };
struct Large { unsigned long long v[512]; };
using u64 = unsigned long long;
static CUfunction where, whereLarge, copyOut, clustered, prints, header;
static CUdeviceptr out;
static const u64 kPage = 2ull << 20, kSlot = 64 * 1024;

// The distinct &p of 16 launches on `s`, sorted.
static std::vector<u64> ring(CUstream s) {
  Small small{{1, 2, 3, 4}};
  for (int i = 0; i < 16; ++i) { void* p[] = {&small, &out, &i}; CK(cuLaunchKernel(where, 1, 1, 1, 32, 1, 1, 0, s, p, nullptr)); }
  CK(cuCtxSynchronize());
  std::vector<u64> at(16); CK(cuMemcpyDtoH(at.data(), out, 16 * 8));
  std::set<u64> d(at.begin(), at.end());
  return {d.begin(), d.end()};
}
static std::vector<u64> snapshot(CUstream s, u64 begin, u64 bytes, CUdeviceptr buf) {
  u64 words = bytes / 8; void* p[] = {&begin, &buf, &words};
  CK(cuLaunchKernel(copyOut, 264, 1, 1, 256, 1, 1, 0, s, p, nullptr)); CK(cuCtxSynchronize());
  std::vector<u64> v(words); CK(cuMemcpyDtoH(v.data(), buf, bytes)); return v;
}
struct Watch { u64 begin, bytes; std::vector<u64> slots; };
// Changed words: in the slots, the furthest from a slot's start (the driver's
// header and the launch's parameters); elsewhere, ranges merged when 256 bytes
// apart or less.
static void diff(const char* step, const Watch& w, const std::vector<u64>& a, const std::vector<u64>& b) {
  std::vector<std::pair<u64, u64>> ranges; u64 slotWords = 0, furthest = 0, words = 0;
  for (u64 k = 0; k < a.size(); ++k) {
    if (a[k] == b[k]) continue;
    const u64 addr = w.begin + k * 8; bool inSlot = false;
    for (u64 s : w.slots) {
      const u64 base = s & ~(kSlot - 1);
      if (addr >= base && addr < base + kSlot) { inSlot = true; furthest = std::max(furthest, addr + 8 - base); }
    }
    if (inSlot) { ++slotWords; continue; }
    ++words;
    if (!ranges.empty() && addr <= ranges.back().second + 256) ranges.back().second = addr + 8;
    else ranges.push_back({addr, addr + 8});
  }
  printf("%-44s slots: %llu words changed, to +0x%llx of a slot; elsewhere: %llu words in %zu ranges", step, slotWords,
         furthest, words, ranges.size());
  for (size_t i = 0; i < ranges.size() && i < 8; ++i)
    printf(" [+0x%llx, +0x%llx)", ranges[i].first - w.begin, ranges[i].second - w.begin);
  printf("\n");
}
int main(int argc, char** argv) {
  if (argc < 2) { printf("usage: probe_param_page CUBIN [neighbours]\n"); return 2; }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  CUstream s, t, u; CK(cuStreamCreate(&s, CU_STREAM_DEFAULT));  // as the worker's
  CK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
  std::ifstream f(argv[1], std::ios::binary); std::stringstream ss; ss << f.rdbuf(); std::string cubin = ss.str();
  CUmodule m; CK(cuModuleLoadData(&m, cubin.data()));
  CK(cuModuleGetFunction(&where, m, "where")); CK(cuModuleGetFunction(&whereLarge, m, "whereLarge"));
  CK(cuModuleGetFunction(&copyOut, m, "copyOut")); CK(cuModuleGetFunction(&clustered, m, "clustered"));
  CK(cuModuleGetFunction(&prints, m, "prints")); CK(cuModuleGetFunction(&header, m, "header"));
  CK(cuMemAlloc(&out, 1 << 20));
  const std::vector<u64> onS = ring(s), onNull = ring(0);
  CK(cuStreamCreate(&t, CU_STREAM_DEFAULT)); CK(cuStreamCreate(&u, CU_STREAM_NON_BLOCKING));
  const std::vector<u64> onT = ring(t), onU = ring(u);
  auto show = [](const char* what, const std::vector<u64>& r) {
    printf("%s: %zu slots, 0x%llx .. 0x%llx\n", what, r.size(), r.front(), r.back());
  };
  show("ring on the worker's stream", onS); show("ring on the null stream", onNull);
  show("ring on a second stream", onT); show("ring on a non-blocking stream", onU);
  Watch w{onS.front() & ~(kPage - 1), 0, onS};
  w.bytes = ((onS.back() + kPage) & ~(kPage - 1)) - w.begin;
  printf("watched: 0x%llx + %llu (ring at +0x%llx)\n", w.begin, w.bytes, onS.front() - w.begin);
  CUdeviceptr buf; CK(cuMemAlloc(&buf, 3 * kPage + w.bytes));
  printf("the probe's own buffers: out 0x%llx (1 MiB), snapshots 0x%llx (%llu MiB)\n", (u64)out, (u64)buf,
         (3 * kPage + w.bytes) >> 20);
  // With `near`: also the legacy stream's ring page and the page after the worker's (their changes, per step).
  const bool near = argc > 2 && !strcmp(argv[2], "near"), head = argc > 2 && !strcmp(argv[2], "header");
  struct Extra { std::string what; Watch w; std::vector<u64> last; };
  std::vector<Extra> extra;
  if (near) {
    extra.push_back({"the legacy stream's ring page", {onNull.front() & ~(kPage - 1), kPage, onNull}, {}});
    extra.push_back({"the page after the worker's", {w.begin + w.bytes, kPage, {}}, {}});
  }
  if (head) {
    Small small{{1, 2, 3, 4}}; void* hp[] = {&small, &out};
    CK(cuLaunchKernel(header, 1, 1, 1, 32, 1, 1, 0, s, hp, nullptr)); CK(cuStreamSynchronize(s));
    std::vector<u64> h(0x210 / 8 + 2); CK(cuMemcpyDtoH(h.data(), out, h.size() * 8));
    const u64 localWindow = h[0x210 / 8] & ~0xFFFFFFull, sharedWindow = h[0x210 / 8 + 1] & ~0xFFFFFFull;
    for (int i = 0; i < 0x210 / 8; ++i) {
      const u64 x = h[i], pg = x & ~(kPage - 1);
      if (x < 0x7e0000000000ull || x >= 0x800000000000ull) continue;
      if ((x & ~0xFFFFFFull) == localWindow || (x & ~0xFFFFFFull) == sharedWindow || pg == w.begin) continue;
      bool seen = false; for (const Extra& e : extra) seen |= e.w.begin == pg;
      if (seen) continue;
      char what[96]; snprintf(what, sizeof what, "header +0x%03x: the page of 0x%llx", i * 8, x);
      extra.push_back({what, {pg, kPage, {}}, {}});
    }
  }
  for (Extra& e : extra) { printf("reading %s ...\n", e.what.c_str()); fflush(stdout); e.last = snapshot(s, e.w.begin, kPage, buf); }
  std::vector<u64> before = snapshot(s, w.begin, w.bytes, buf), after;
  auto step = [&](const char* what) {
    after = snapshot(s, w.begin, w.bytes, buf); diff(what, w, before, after); before = after;
    for (Extra& e : extra) {
      std::vector<u64> now = snapshot(s, e.w.begin, kPage, buf);
      diff(("  (" + e.what + ")").c_str(), e.w, e.last, now); e.last = now;
    }
  };
  step("nothing (two snapshots)");
  Small small{{1, 2, 3, 4}}; Large large{};
  for (int i = 0; i < 1000; ++i) {
    void* p[] = {&large, &out, &i}; void* q[] = {&small, &out, &i};
    CK(cuLaunchKernel(i % 2 ? whereLarge : where, 1, 1, 1, 32, 1, 1, i % 3 ? 0 : 4096, s, i % 2 ? p : q, nullptr));
  }
  step("1000 launches on the stream, 4 KiB params");
  CUevent e0, e1; CK(cuEventCreate(&e0, CU_EVENT_DEFAULT)); CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  for (int i = 0; i < 200; ++i) {
    CK(cuEventRecord(e0, s)); void* q[] = {&small, &out, &i}; CK(cuLaunchKernel(where, 1, 1, 1, 32, 1, 1, 0, s, q, nullptr));
    CK(cuEventRecord(e1, s)); CK(cuEventSynchronize(e1)); float ms; CK(cuEventElapsedTime(&ms, e0, e1));
  }
  step("200 timed launches (events)");
  std::vector<char> host(1 << 20, 7);
  for (int i = 0; i < 16; ++i) { CK(cuMemsetD32Async(out, 5 + i, 1 << 18, s)); CK(cuMemsetD8Async(out + 3, i, 1001, s)); }
  CK(cuStreamSynchronize(s));
  step("32 async memsets on the stream");
  for (int i = 0; i < 16; ++i) CK(cuMemcpyDtoDAsync(out + 8 * i, out + (1 << 19), 4096 + i, s));
  CK(cuStreamSynchronize(s));
  step("16 async device-to-device copies");
  CK(cuMemcpyHtoDAsync(out, host.data(), 4096, s)); CK(cuStreamSynchronize(s));
  step("an async host-to-device copy, 4 KiB pageable");
  for (int i = 0; i < 16; ++i) CK(cuMemcpyHtoDAsync(out, host.data(), 1 << 20, s));
  CK(cuStreamSynchronize(s));
  step("16 async host-to-device copies, 1 MiB pageable");
  CK(cuMemcpyDtoHAsync(host.data(), out, 1 << 20, s)); CK(cuStreamSynchronize(s));
  step("an async device-to-host copy, 1 MiB pageable");
  void* pinned = nullptr; CK(cuMemAllocHost(&pinned, 4096));
  CK(cuMemcpyHtoDAsync(out, pinned, 4096, s)); CK(cuStreamSynchronize(s)); CK(cuMemFreeHost(pinned));
  step("an async host-to-device copy, 4 KiB pinned");
  CK(cuMemsetD8(out, 0, 1 << 20)); CK(cuMemsetD32(out, 1, 1 << 10)); CK(cuMemcpyHtoD(out, host.data(), 1 << 20));
  CK(cuMemcpyDtoD(out + 4, out + (1 << 19), 1000));
  step("synchronous memsets and copies");
  for (int i = 0; i < 100; ++i) {
    void* q[] = {&small, &out, &i}; CK(cuLaunchKernel(where, 1, 1, 1, 32, 1, 1, 0, i % 3 == 0 ? 0 : i % 3 == 1 ? t : u, q, nullptr));
  }
  CK(cuCtxSynchronize());
  step("100 launches on the null and other streams");
  { void* p[] = {&out}; CUlaunchConfig c{}; c.gridDimX = 4; c.gridDimY = c.gridDimZ = 1; c.blockDimX = 32; c.blockDimY = c.blockDimZ = 1; c.hStream = s;
    for (int i = 0; i < 20; ++i) CK(cuLaunchKernelEx(&c, clustered, p, nullptr)); }
  for (int i = 0; i < 4; ++i) { void* p[] = {&i}; CK(cuLaunchKernel(prints, 1, 1, 1, 32, 1, 1, 0, s, p, nullptr)); }
  CK(cuStreamSynchronize(s));
  step("cluster launches and printf");
  CUmodule m2; CK(cuModuleLoadData(&m2, cubin.data())); CK(cuModuleUnload(m2));
  CUdeviceptr big; CK(cuMemAlloc(&big, 64 << 20)); CK(cuMemFree(big));
  size_t stack; CK(cuCtxGetLimit(&stack, CU_LIMIT_STACK_SIZE)); CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, stack * 4));
  CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, stack));
  step("module load and unload, alloc, stack limit");
  sleep(2);
  step("2 s idle");
  const std::vector<u64> again = ring(s);
  printf("ring on the worker's stream again: %s\n", again == onS ? "the same slots" : "moved");
  step("16 more launches");
  if (argc > 2 && !strcmp(argv[2], "neighbours")) {
    for (long long d : {-(long long)kPage, (long long)w.bytes}) {
      std::vector<u64> v = snapshot(s, w.begin + d, kPage, buf);
      u64 nonzero = 0; for (u64 x : v) nonzero += x != 0;
      printf("the 2 MiB at %+lld: readable, %llu nonzero words\n", d, nonzero);
    }
  }
  return 0;
}
