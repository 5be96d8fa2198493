// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/harness_kernels.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include "backends/cuda/worker/counter_rng.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/kernel_module.h"

namespace crucible::cuda {
namespace {

// Element widths 1, 2, 4 and 8 bytes; `width` selects the load or store.
// Grid-stride loops so one fixed grid covers any size; reductions sum per
// block in shared memory, then one atomicAdd per block (wrapping addition is
// order-independent, so the hash does not depend on scheduling).
constexpr const char* kSource = R"(
typedef unsigned long long u64;
#define GAMMA 0x9E3779B97F4A7C15ull
__device__ __forceinline__ u64 crucible_mix64(u64 x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// dtype codes as in crucible::DType: 0 f32, 1 f16, 2 bf16, 3 f64, 4 i32, 5 i64.
__device__ __forceinline__ u64 crucible_finite_bits(int dtype, u64 seed, u64 i) {
  const u64 r = crucible_mix64(seed + (i + 1) * GAMMA);
  const u64 sign = r >> 63, e = (r >> 60) & 7;   // exponent offset 0..7: magnitude in [2^-4, 2^4)
  switch (dtype) {
    case 0: return (sign << 31) | ((123 + e) << 23) | (r & 0x7FFFFFull);
    case 1: return (sign << 15) | ((11 + e) << 10) | (r & 0x3FFull);
    case 2: return (sign << 15) | ((123 + e) << 7) | (r & 0x7Full);
    case 3: return (sign << 63) | ((1019 + e) << 52) | (r & 0xFFFFFFFFFFFFFull);
    default: return r;
  }
}
__device__ __forceinline__ void crucible_store(unsigned char* p, u64 i, int width, u64 v) {
  switch (width) {
    case 1: p[i] = (unsigned char)v; break;
    case 2: ((unsigned short*)p)[i] = (unsigned short)v; break;
    case 4: ((unsigned int*)p)[i] = (unsigned int)v; break;
    default: ((u64*)p)[i] = v; break;
  }
}
__device__ __forceinline__ u64 crucible_load(const unsigned char* p, u64 i, int width) {
  switch (width) {
    case 1: return p[i];
    case 2: return ((const unsigned short*)p)[i];
    case 4: return ((const unsigned int*)p)[i];
    default: return ((const u64*)p)[i];
  }
}
__device__ void crucible_block_add(u64 v, u64* result) {
  __shared__ u64 part[256];
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, part[0]);
}
extern "C" __global__ void crucible_fill_pattern(unsigned char* p, u64 n, int width, u64 pattern) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    crucible_store(p, i, width, pattern);
}
extern "C" __global__ void crucible_fill_random(unsigned char* p, u64 n, int width, int dtype, u64 seed) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    crucible_store(p, i, width, crucible_finite_bits(dtype, seed, i));
}
// Inputs drawn on the device, element for element as fillRandom draws them on
// the host (counter_rng.h: the same counters, keys and formulas; the float
// normal's logf/sinf/cosf may differ from the host's in the last bit). kind:
// 0 normal (mean a, stddev b), 1 uniform [a, b), 2 randint lo + [0, range)
// (range 0: all 2^64). Rounded to the dtype with round-to-nearest-even.
__device__ __forceinline__ u64 crucible_bits(u64 key, u64 i) { return crucible_mix64(key + (i + 1) * GAMMA); }
__device__ __forceinline__ double crucible_draw_one(int dtype, int kind, u64 key, double a, double b, long long lo,
                                                    u64 range, u64 i) {
  if (kind == 1) return a + (b - a) * ((double)(crucible_bits(key, i) >> 11) * 0x1.0p-53);
  if (kind == 2) {
    const u64 r = crucible_bits(key, i);
    return (double)(long long)((u64)lo + (range == 0 ? r : __umul64hi(r, range)));
  }
  if (dtype <= 2) {  // at most float precision: one 64-bit draw per pair, float math
    const u64 x = crucible_bits(key, i >> 1);
    const float u1 = (float)(unsigned)(x >> 32) * 0x1.0p-32f + 0x1.0p-32f;
    const float u2 = (float)((unsigned)x >> 8) * 0x1.0p-24f;
    const float r = sqrtf(-2.0f * logf(u1));
    const float theta = 2.0f * 3.14159265358979323846f * u2;
    return a + b * (double)((i & 1) ? r * sinf(theta) : r * cosf(theta));
  }
  const u64 p2 = (i >> 1) * 2;
  const double u1 = (double)((crucible_bits(key, p2) >> 11) + 1) * 0x1.0p-53;
  const double u2 = (double)(crucible_bits(key, p2 + 1) >> 11) * 0x1.0p-53;
  const double r = sqrt(-2.0 * log(u1));
  const double theta = 2.0 * 3.14159265358979323846 * u2;
  return a + b * ((i & 1) ? r * sin(theta) : r * cos(theta));
}
extern "C" __global__ void crucible_draw(unsigned char* p, u64 n, int dtype, int kind, u64 key, double a, double b,
                                         long long lo, u64 range) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
    const double v = crucible_draw_one(dtype, kind, key, a, b, lo, range, i);
    unsigned short h;
    switch (dtype) {
      case 0: ((float*)p)[i] = (float)v; break;
      case 1: asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"((float)v)); ((unsigned short*)p)[i] = h; break;
      case 2: asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"((float)v)); ((unsigned short*)p)[i] = h; break;
      case 3: ((double*)p)[i] = v; break;
      case 4: ((int*)p)[i] = (int)v; break;
      default: ((long long*)p)[i] = (long long)v; break;
    }
  }
}
extern "C" __global__ void crucible_hash(const unsigned char* p, u64 n, int width, u64* result) {
  u64 h = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    h += crucible_mix64(crucible_load(p, i, width) + (i + 1) * GAMMA);
  crucible_block_add(h, result);
}
extern "C" __global__ void crucible_count_differences(const unsigned char* a, const unsigned char* b, u64 n, u64* result) {
  u64 c = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) c += a[i] != b[i];
  crucible_block_add(c, result);
}
)";

int dtypeCode(DType d) {
  switch (d) {
    case DType::F32: return 0;
    case DType::F16: return 1;
    case DType::BF16: return 2;
    case DType::F64: return 3;
    case DType::I32: return 4;
    case DType::I64: return 5;
  }
  return 5;
}

std::uint64_t patternBits(const std::vector<std::byte>& pattern) {
  std::uint64_t v = 0;
  std::memcpy(&v, pattern.data(), std::min(pattern.size(), sizeof v));
  return v;
}

// 256 threads (the reductions' shared array), enough blocks to fill the GPU
// many times over; the grid-stride loops do the rest.
LaunchGeometry geometryFor(std::int64_t count) {
  LaunchGeometry g;
  g.block[0] = 256;
  g.grid[0] = static_cast<unsigned>(std::clamp<std::int64_t>((count + 255) / 256, 1, 4096));
  return g;
}

constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ull;

}  // namespace

const char* HarnessKernels::source() { return kSource; }

HarnessKernels::HarnessKernels(Compiler& compiler, const std::string& arch) : result_(sizeof(std::uint64_t)) {
  CompileRequest req;
  req.source = kSource;
  req.entry = "crucible_fill_pattern";
  req.arch = arch;
  CompileResult built = compiler.compile(req);
  if (!built.report.ok) throw std::runtime_error("the worker's harness kernels do not compile: " + built.report.log);
  pattern_ = std::make_unique<KernelModule>(built.cubin, "crucible_fill_pattern");
  random_ = std::make_unique<KernelModule>(built.cubin, "crucible_fill_random");
  hash_ = std::make_unique<KernelModule>(built.cubin, "crucible_hash");
  differ_ = std::make_unique<KernelModule>(built.cubin, "crucible_count_differences");
  draw_ = std::make_unique<KernelModule>(built.cubin, "crucible_draw");
}

HarnessKernels::~HarnessKernels() = default;

void HarnessKernels::fill(CUdeviceptr data, DType dtype, std::int64_t count, const FillChoice& choice,
                          CUstream stream) const {
  if (count <= 0) return;
  const LaunchGeometry g = geometryFor(count);
  unsigned long long n = static_cast<unsigned long long>(count);
  int width = static_cast<int>(sizeOf(dtype));
  CUdeviceptr p = data;
  CUresult rc;
  if (choice.isPoison()) {
    unsigned long long pattern = patternBits(poisonPattern(dtype, choice.poisonIndex()));
    void* params[] = {&p, &n, &width, &pattern};
    rc = pattern_->launch(g, stream, params);
  } else {
    int code = dtypeCode(dtype);
    unsigned long long seed = choice.seed;
    void* params[] = {&p, &n, &width, &code, &seed};
    rc = random_->launch(g, stream, params);
  }
  check(rc, "queuing an output fill");
}

void HarnessKernels::draw(CUdeviceptr data, DType dtype, std::int64_t count, const Distribution& dist,
                          std::uint64_t seed, std::uint64_t stream, CUstream s) const {
  const DrawParameters d = drawParameters(dist);  // refuses what cannot be drawn, as fillRandom does
  if (count <= 0) return;
  CUdeviceptr p = data;
  unsigned long long n = static_cast<unsigned long long>(count), key = CounterRng(seed, stream).key(),
                     range = d.range;
  int code = dtypeCode(dtype), kind = static_cast<int>(d.kind);
  double a = dist.a, b = dist.b;
  long long lo = d.lo;
  void* params[] = {&p, &n, &code, &kind, &key, &a, &b, &lo, &range};
  check(draw_->launch(geometryFor(count), s, params), "queuing an input draw");
}

std::uint64_t HarnessKernels::hash(CUdeviceptr data, int width, std::int64_t count, CUstream stream) const {
  const DriverApi& d = driver();
  check(d.cuMemsetD8Async(result_.get(), 0, sizeof(std::uint64_t), stream), "clearing the hash");
  CUdeviceptr p = data, out = result_.get();
  unsigned long long n = static_cast<unsigned long long>(std::max<std::int64_t>(count, 0));
  void* params[] = {&p, &n, &width, &out};
  check(hash_->launch(geometryFor(count), stream, params), "queuing an output hash");
  std::uint64_t h = 0;
  check(d.cuStreamSynchronize(stream), "hashing outputs");
  check(d.cuMemcpyDtoH(&h, result_.get(), sizeof h), "reading a hash");
  return h;
}

std::int64_t HarnessKernels::countDifferences(CUdeviceptr a, CUdeviceptr b, std::size_t bytes, CUstream stream) const {
  const DriverApi& d = driver();
  check(d.cuMemsetD8Async(result_.get(), 0, sizeof(std::uint64_t), stream), "clearing a count");
  CUdeviceptr pa = a, pb = b, out = result_.get();
  unsigned long long n = bytes;
  void* params[] = {&pa, &pb, &n, &out};
  check(differ_->launch(geometryFor(static_cast<std::int64_t>(bytes)), stream, params), "queuing a comparison");
  std::uint64_t c = 0;
  check(d.cuStreamSynchronize(stream), "comparing buffers");
  check(d.cuMemcpyDtoH(&c, result_.get(), sizeof c), "reading a count");
  return static_cast<std::int64_t>(c);
}

std::uint64_t randomFiniteBits(DType dtype, std::uint64_t seed, std::uint64_t i) {
  const std::uint64_t r = mix64(seed + (i + 1) * kGamma);
  const std::uint64_t sign = r >> 63, e = (r >> 60) & 7;
  switch (dtype) {
    case DType::F32: return (sign << 31) | ((123 + e) << 23) | (r & 0x7FFFFFull);
    case DType::F16: return (sign << 15) | ((11 + e) << 10) | (r & 0x3FFull);
    case DType::BF16: return (sign << 15) | ((123 + e) << 7) | (r & 0x7Full);
    case DType::F64: return (sign << 63) | ((1019 + e) << 52) | (r & 0xFFFFFFFFFFFFFull);
    default: return r & (sizeOf(dtype) == 8 ? ~0ull : 0xFFFFFFFFull);
  }
}

std::uint64_t hostHash(const void* data, int width, std::int64_t count) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    std::uint64_t v = 0;
    std::memcpy(&v, p + i * width, static_cast<std::size_t>(width));  // little-endian: the low bytes
    h += mix64(v + static_cast<std::uint64_t>(i + 1) * kGamma);
  }
  return h;
}

}  // namespace crucible::cuda
