// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/ceilings.h"
#include <chrono>
#include <ctime>
#include <functional>
#include <stdexcept>
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/interleaved_timer.h"
#include "backends/cuda/worker/kernel_module.h"

namespace crucible::cuda {
namespace {

// Each kernel writes its accumulators only under a condition that never holds
// for the data given, so the compiler keeps the work and memory stays clean.
constexpr const char* kSource = R"(
// Four independent 16-byte loads in flight per thread before the stores.
extern "C" __global__ void crucible_copy(const float4* __restrict__ in, float4* __restrict__ out, long long n4) {
  const long long base = ((long long)blockIdx.x * blockDim.x * 4) + threadIdx.x;
  float4 v[4];
  #pragma unroll
  for (int k = 0; k < 4; ++k) { const long long i = base + (long long)k * blockDim.x; if (i < n4) v[k] = in[i]; }
  #pragma unroll
  for (int k = 0; k < 4; ++k) { const long long i = base + (long long)k * blockDim.x; if (i < n4) out[i] = v[k]; }
}

extern "C" __global__ void crucible_fma(float* out, int iterations, float seed) {
  float a[16];
  #pragma unroll
  for (int k = 0; k < 16; ++k) a[k] = seed + threadIdx.x * 1e-7f + k;
  const float b = 0.999999f, c = 1e-7f;
  for (int i = 0; i < iterations; ++i) {
    #pragma unroll
    for (int k = 0; k < 16; ++k) a[k] = fmaf(a[k], b, c);
  }
  float s = 0;
  #pragma unroll
  for (int k = 0; k < 16; ++k) s += a[k];
  if (s == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void crucible_mma(float* out, int iterations, unsigned seed) {
  unsigned a0 = seed ^ threadIdx.x, a1 = a0 * 3u, a2 = a0 * 5u, a3 = a0 * 7u, b0 = a0 * 11u, b1 = a0 * 13u;
  // bf16 pairs with small exponents: keep the operands finite normal numbers.
  a0 = (a0 & 0x007F007Fu) | 0x3F803F80u; a1 = (a1 & 0x007F007Fu) | 0x3F803F80u;
  a2 = (a2 & 0x007F007Fu) | 0x3F803F80u; a3 = (a3 & 0x007F007Fu) | 0x3F803F80u;
  b0 = (b0 & 0x007F007Fu) | 0x3F803F80u; b1 = (b1 & 0x007F007Fu) | 0x3F803F80u;
  float d[8][4];
  #pragma unroll
  for (int j = 0; j < 8; ++j) { d[j][0] = d[j][1] = d[j][2] = d[j][3] = 0.f; }
  for (int i = 0; i < iterations; ++i) {
    #pragma unroll
    for (int j = 0; j < 8; ++j)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float s = 0;
  #pragma unroll
  for (int j = 0; j < 8; ++j) s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
  if (s == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void crucible_l2_read(const float4* __restrict__ in, float* out, long long n4, int repeats) {
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int r = 0; r < repeats; ++r)
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
      const float4 v = __ldcg(in + i);  // L2 only: the L1 would otherwise serve the repeats
      acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
    }
  const float s = acc.x + acc.y + acc.z + acc.w;
  if (s == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
)";

// Median seconds of `enqueue` (one operation queued on the context's
// stream) over `runs` event-timed runs, after three warm-up runs.
double medianSecondsOf(GpuContext& gpu, const std::function<void()>& enqueue, int runs) {
  const DriverApi& d = driver();
  for (int i = 0; i < 3; ++i) enqueue();  // warm-up: module load, clocks
  check(d.cuStreamSynchronize(gpu.stream()), "warm-up");
  EventPair ev;
  std::vector<double> seconds;
  for (int i = 0; i < runs; ++i) {
    ev.recordStart(gpu.stream());
    enqueue();
    ev.recordStop(gpu.stream());
    check(d.cuStreamSynchronize(gpu.stream()), "a ceiling measurement");
    seconds.push_back(ev.elapsedMs() / 1000.0);
  }
  return median(seconds);
}

double medianSecondsOf(GpuContext& gpu, const KernelModule& k, const LaunchGeometry& g, void** params, int runs) {
  return medianSecondsOf(gpu, [&] { check(k.launch(g, gpu.stream(), params), ("launching " + k.entry()).c_str()); }, runs);
}

LaunchGeometry geometry(unsigned blocks, unsigned threads) {
  LaunchGeometry g;
  g.grid[0] = blocks;
  g.block[0] = threads;
  return g;
}

}  // namespace

double datasheetCeiling(const std::string& name, const std::string& ceiling) {
  struct Row {
    const char* match;  // substring of the CUDA device name
    double dram, fp32, bf16;
  };
  // Vendor datasheets, dense (no sparsity) rates, SXM parts unless named.
  static const Row rows[] = {
      {"H200", 4.8e12, 67e12, 989e12},
      {"H100 PCIe", 2.0e12, 51e12, 756e12},
      {"H100 80GB HBM3", 3.35e12, 67e12, 989e12},
      {"A100-SXM4-80GB", 2.039e12, 19.5e12, 312e12},
  };
  for (const Row& r : rows) {
    if (name.find(r.match) == std::string::npos) continue;
    if (ceiling == "dram_bw") return r.dram;
    if (ceiling == "fp32_fma") return r.fp32;
    if (ceiling == "bf16_tensor") return r.bf16;
    return 0;  // L2 bandwidth is not on datasheets
  }
  return 0;
}

std::vector<Ceiling> measureDeviceCeilings(GpuContext& gpu, Compiler& compiler, const std::string& deviceName) {
  const DeviceInfo& info = gpu.info();
  CompileRequest req;
  req.source = kSource;
  req.arch = info.arch();
  req.entry = "crucible_copy";
  CompileResult built = compiler.compile(req);
  if (!built.report.ok) throw std::runtime_error("the ceiling kernels do not compile: " + built.report.log);
  KernelModule copy(built.cubin, "crucible_copy"), fma(built.cubin, "crucible_fma"), mma(built.cubin, "crucible_mma"),
      l2(built.cubin, "crucible_l2_read");
  const unsigned sms = static_cast<unsigned>(info.smCount);
  std::vector<Ceiling> out;
  const auto now = static_cast<std::int64_t>(std::time(nullptr));
  auto add = [&](const char* name, double measured, const char* unit) {
    out.push_back(Ceiling{deviceName, name, measured, datasheetCeiling(deviceName, name), unit, now});
  };

  // DRAM: copy 1 GiB (or an eighth of memory on smaller GPUs) device to
  // device, with the kernel above and with the driver's copy; the ceiling is
  // the faster (bytes read plus bytes written, per second).
  std::size_t bytes = std::min<std::size_t>(std::size_t{1} << 30, info.totalMemory / 8);
  bytes -= bytes % 16;
  {
    DeviceBuffer in(bytes), dst(bytes);
    check(driver().cuMemsetD8(in.get(), 0x3C, bytes), "cuMemsetD8");
    CUdeviceptr a = in.get(), b = dst.get();
    long long n4 = static_cast<long long>(bytes / 16);
    void* params[] = {&a, &b, &n4};
    const auto blocks = static_cast<unsigned>((n4 + 1023) / 1024);
    const double kernelSeconds = medianSecondsOf(gpu, copy, geometry(blocks, 256), params, 20);
    const double driverSeconds = medianSecondsOf(gpu, [&] {
      check(driver().cuMemcpyDtoDAsync(b, a, bytes, gpu.stream()), "cuMemcpyDtoDAsync");
    }, 20);
    add("dram_bw", 2.0 * static_cast<double>(bytes) / std::min(kernelSeconds, driverSeconds), "B/s");
  }
  DeviceBuffer sink(std::size_t{sms} * 64 * 1024 * sizeof(float));
  CUdeviceptr sinkPtr = sink.get();
  {
    int iterations = 8192;
    float seed = 1.0f;
    void* params[] = {&sinkPtr, &iterations, &seed};
    const unsigned blocks = sms * 8, threads = 256;
    const double s = medianSecondsOf(gpu, fma, geometry(blocks, threads), params, 10);
    add("fp32_fma", 2.0 * 16 * iterations * static_cast<double>(blocks) * threads / s, "FLOP/s");
  }
  {
    int iterations = 4096;
    unsigned seed = 12345;
    void* params[] = {&sinkPtr, &iterations, &seed};
    const unsigned blocks = sms * 4, threads = 256;  // 8 warps per block
    const double s = medianSecondsOf(gpu, mma, geometry(blocks, threads), params, 10);
    const double flopsPerMma = 2.0 * 16 * 8 * 16;
    add("bf16_tensor", flopsPerMma * 8 * iterations * (static_cast<double>(blocks) * threads / 32) / s, "FLOP/s");
  }
  {
    std::size_t l2Bytes = static_cast<std::size_t>(info.l2Bytes) / 4;
    l2Bytes -= l2Bytes % 16;
    DeviceBuffer buf(l2Bytes);
    check(driver().cuMemsetD8(buf.get(), 0x3C, l2Bytes), "cuMemsetD8");
    CUdeviceptr p = buf.get();
    long long n4 = static_cast<long long>(l2Bytes / 16);
    int repeats = 64;
    void* params[] = {&p, &sinkPtr, &n4, &repeats};
    const double s = medianSecondsOf(gpu, l2, geometry(sms * 4, 512), params, 10);
    add("l2_bw", static_cast<double>(l2Bytes) * repeats / s, "B/s");
  }
  return out;
}

}  // namespace crucible::cuda
