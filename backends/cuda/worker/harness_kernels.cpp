// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/harness_kernels.h"
#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include "backends/cuda/worker/counter_rng.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/kernel_parameters.h"

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
extern "C" __global__ void crucible_hash(const unsigned char* p, u64 n, int width, u64 key, u64* result) {
  u64 h = 0;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    h += crucible_mix64((crucible_load(p, i, width) ^ key) + (i + 1) * GAMMA);
  crucible_block_add(h, result);
}
// Where this launch's parameters lie: a __grid_constant__ parameter's
// generic address is in the driver's memory for them (parameter_ring.h).
extern "C" __global__ void crucible_parameter_address(const __grid_constant__ u64 tag, u64* out, int i) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[i] = (u64)&tag;
}
// The L2 flush (interleaved_timer.h): reads a buffer larger than L2, 16 bytes
// at a time, four loads in flight per thread. Reading rather than writing
// leaves L2 holding clean lines, so the next timed kernel is not charged for
// writing back dirty lines it never touched. The flush buffer is zeroed: the
// one store (which also keeps the loads) marks `sink` when a word is not, that
// is when a kernel wrote into the buffer to keep something between launches.
extern "C" __global__ void crucible_l2_read(const uint4* p, u64 n, unsigned* sink) {
  const u64 stride = (u64)gridDim.x * blockDim.x;
  u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (; i + 3 * stride < n; i += 4 * stride) {
    const uint4 a = p[i], b = p[i + stride], c = p[i + 2 * stride], d = p[i + 3 * stride];
    acc |= a.x | a.y | a.z | a.w | b.x | b.y | b.z | b.w | c.x | c.y | c.z | c.w | d.x | d.y | d.z | d.w;
  }
  for (; i < n; i += stride) {
    const uint4 a = p[i];
    acc |= a.x | a.y | a.z | a.w;
  }
  if (acc != 0) *sink = 1u;
}
// The shared-memory scrub (scrubSharedMemory; why: leftover_scrub.h). One
// block an SM at the opt-in maximum overwrites all of the SM's shared memory
// with values drawn from `seed`: its dynamic window, and the block's reserved
// window before it (from %reserved_smem_offset_begin), which a kernel can
// write too. Volatile: the stores are the point, nothing reads them.
extern "C" __global__ void crucible_scrub_shared(u64 seed) {
  extern __shared__ unsigned int crucible_scrub_words[];
  unsigned bytes, reserved;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(reserved));
  volatile unsigned int* words = crucible_scrub_words;
  const u64 key = crucible_mix64(seed + (blockIdx.x + 1) * GAMMA);
  for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) words[i] = (unsigned)crucible_mix64(key + i);
  const unsigned dynamicStart = (unsigned)__cvta_generic_to_shared(crucible_scrub_words);
  for (unsigned a = reserved + 4 * threadIdx.x; a + 4 <= dynamicStart; a += 4 * blockDim.x)
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"((unsigned)crucible_mix64(key ^ a)) : "memory");
}
// Masking: element i of a masked buffer holds its bits XOR the low bytes of
// crucible_bits(key, i). The worker keeps the oracle's reference and the
// outputs of a validated launch on the device masked with keys only the host
// knows, so a candidate that searches device memory finds no correct result.
__device__ __forceinline__ u64 crucible_width_mask(int width) { return width >= 8 ? ~0ull : (1ull << (8 * width)) - 1; }
extern "C" __global__ void crucible_masked_copy(unsigned char* dst, const unsigned char* src, u64 n, int width, u64 key) {
  const u64 m = crucible_width_mask(width);
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    crucible_store(dst, i, width, crucible_load(src, i, width) ^ (crucible_bits(key, i) & m));
}
// Block-wide reductions into one global word: a warp's lanes combine by
// shuffles, warp leaders in shared memory, thread 0 once into `out`.
__device__ __forceinline__ u64 crucible_warp_add(u64 v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
  return v;
}
__device__ __forceinline__ u64 crucible_warp_min(u64 v) {
  for (int o = 16; o > 0; o >>= 1) { const u64 w = __shfl_down_sync(0xFFFFFFFFu, v, o); v = w < v ? w : v; }
  return v;
}
__device__ __forceinline__ u64 crucible_warp_max(u64 v) {
  for (int o = 16; o > 0; o >>= 1) { const u64 w = __shfl_down_sync(0xFFFFFFFFu, v, o); v = w > v ? w : v; }
  return v;
}
// A block's count and least index into result[0] (added) and result[1] (min).
__device__ void crucible_count_and_first(u64 count, u64 first, u64* result) {
  __shared__ u64 sCount, sFirst;
  if (threadIdx.x == 0) { sCount = 0; sFirst = ~0ull; }
  __syncthreads();
  count = crucible_warp_add(count);
  first = crucible_warp_min(first);
  if ((threadIdx.x & 31) == 0) { if (count) atomicAdd(&sCount, count); if (first != ~0ull) atomicMin(&sFirst, first); }
  __syncthreads();
  if (threadIdx.x == 0) { if (sCount) atomicAdd(&result[0], sCount); if (sFirst != ~0ull) atomicMin(&result[1], sFirst); }
}
// Element-wise comparison of `a` with `b` (unmasked with `key` when `masked`):
// result[0] += differing elements, result[1] = min(first differing index).
extern "C" __global__ void crucible_compare_elements(const unsigned char* a, const unsigned char* b, u64 n, int width,
                                                     int masked, u64 key, u64* result) {
  const u64 m = crucible_width_mask(width);
  u64 count = 0, first = ~0ull;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
    u64 want = crucible_load(b, i, width);
    if (masked) want ^= crucible_bits(key, i) & m;
    if (crucible_load(a, i, width) != want) { ++count; if (first == ~0ull) first = i; }
  }
  crucible_count_and_first(count, first, result);
}
// The oracle's non-finite doubles (unwritten ones hold a NaN fill): result[0]
// += how many, result[1] = min(first index).
extern "C" __global__ void crucible_count_nonfinite(const unsigned long long* a, u64 n, u64* result) {
  u64 count = 0, first = ~0ull;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    if (((a[i] >> 52) & 0x7FFull) == 0x7FFull) { ++count; if (first == ~0ull) first = i; }
  crucible_count_and_first(count, first, result);
}
// One output element as a double, exactly as HostTensor::valueAt reads it.
__device__ __forceinline__ double crucible_value(int dtype, u64 bits) {
  float f;
  switch (dtype) {
    case 0: return (double)__uint_as_float((unsigned)bits);
    case 1: { unsigned short h = (unsigned short)bits; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return (double)f; }
    case 2: return (double)__uint_as_float((unsigned)bits << 16);
    case 3: return __longlong_as_double((long long)bits);
    case 4: return (double)(int)(unsigned)bits;
    default: return (double)(long long)bits;
  }
}
__device__ __forceinline__ bool crucible_isnan(double x) { return x != x; }
__device__ __forceinline__ bool crucible_isfinite(double x) { return fabs(x) <= 1.7976931348623157e308; }
// checkOutput's pass (output_check.cpp) over one output: the same tests in
// the same order, every floating-point step rounded as the host rounds it
// (no contraction into FMAs). `ref` is the oracle's fp64 output masked with
// `key`. The tally is that of crucible::cuda::DeviceTally:
//   u64 counts[3] (unwritten, non-finite, mismatches), added;
//   u64 first[3] (the same three), min (~0 for none);
//   u64 maxAbs, maxRel (bit patterns of non-negative doubles), max;
//   unsigned flags[4] (out all zero, out constant, ref all zero, ref constant), and.
struct crucible_tally { u64 counts[3]; u64 first[3]; u64 maxAbs, maxRel; unsigned flags[4]; };
extern "C" __global__ void crucible_tally_output(const unsigned char* out, const double* ref, u64 n, int width,
                                                 int dtype, u64 key, u64 poison, double rtol, double atol,
                                                 crucible_tally* result) {
  const double out0 = n ? crucible_value(dtype, crucible_load(out, 0, width)) : 0.0;
  const double ref0 = n ? __longlong_as_double((long long)((u64)__double_as_longlong(ref[0]) ^ crucible_bits(key, 0))) : 0.0;
  u64 counts[3] = {0, 0, 0}, first[3] = {~0ull, ~0ull, ~0ull};
  double maxAbs = 0, maxRel = 0;
  bool outAllZero = true, outConstant = true, refAllZero = true, refConstant = true;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {
    const double want = __longlong_as_double((long long)((u64)__double_as_longlong(ref[i]) ^ crucible_bits(key, i)));
    refAllZero = refAllZero && want == 0;
    refConstant = refConstant && want == ref0;
    const u64 bits = crucible_load(out, i, width);
    if (bits == poison) {
      ++counts[0];
      if (first[0] == ~0ull) first[0] = i;
      outAllZero = outConstant = false;
      continue;
    }
    const double y = crucible_value(dtype, bits);
    outAllZero = outAllZero && y == 0;
    outConstant = outConstant && (y == out0 || (crucible_isnan(y) && crucible_isnan(out0)));
    if (!crucible_isfinite(y)) {
      ++counts[1];
      if (first[1] == ~0ull) first[1] = i;
      continue;
    }
    const double err = fabs(__dsub_rn(y, want));
    const double scaled = __dmul_rn(rtol, fabs(want));
    if (maxAbs < err) maxAbs = err;   // std::max(maxAbs, err): a NaN err keeps maxAbs
    if (want != 0 && scaled >= atol) {
      const double rel = __ddiv_rn(err, fabs(want));
      if (maxRel < rel) maxRel = rel;
    }
    if (!(err <= __dadd_rn(atol, scaled))) {
      ++counts[2];
      if (first[2] == ~0ull) first[2] = i;
    }
  }
  __shared__ crucible_tally s;
  if (threadIdx.x == 0) {
    for (int k = 0; k < 3; ++k) { s.counts[k] = 0; s.first[k] = ~0ull; }
    s.maxAbs = s.maxRel = 0;
    for (int k = 0; k < 4; ++k) s.flags[k] = 1;
  }
  __syncthreads();
  u64 maxAbsBits = (u64)__double_as_longlong(maxAbs), maxRelBits = (u64)__double_as_longlong(maxRel);
  for (int k = 0; k < 3; ++k) { counts[k] = crucible_warp_add(counts[k]); first[k] = crucible_warp_min(first[k]); }
  maxAbsBits = crucible_warp_max(maxAbsBits);
  maxRelBits = crucible_warp_max(maxRelBits);
  const bool flags[4] = {__all_sync(0xFFFFFFFFu, outAllZero) != 0, __all_sync(0xFFFFFFFFu, outConstant) != 0,
                         __all_sync(0xFFFFFFFFu, refAllZero) != 0, __all_sync(0xFFFFFFFFu, refConstant) != 0};
  if ((threadIdx.x & 31) == 0) {
    for (int k = 0; k < 3; ++k) {
      if (counts[k]) atomicAdd(&s.counts[k], counts[k]);
      if (first[k] != ~0ull) atomicMin(&s.first[k], first[k]);
    }
    if (maxAbsBits) atomicMax(&s.maxAbs, maxAbsBits);
    if (maxRelBits) atomicMax(&s.maxRel, maxRelBits);
    for (int k = 0; k < 4; ++k) if (!flags[k]) atomicAnd(&s.flags[k], 0u);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < 3; ++k) {
      if (s.counts[k]) atomicAdd(&result->counts[k], s.counts[k]);
      if (s.first[k] != ~0ull) atomicMin(&result->first[k], s.first[k]);
    }
    if (s.maxAbs) atomicMax(&result->maxAbs, s.maxAbs);
    if (s.maxRel) atomicMax(&result->maxRel, s.maxRel);
    for (int k = 0; k < 4; ++k) if (!s.flags[k]) atomicAnd(&result->flags[k], 0u);
  }
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

// crucible_tally_output's result, as the device lays it out.
struct DeviceTally {
  std::uint64_t counts[3];   // unwritten, non-finite, mismatches
  std::uint64_t first[3];    // their first indices, ~0 for none
  std::uint64_t maxAbs, maxRel;  // bit patterns of non-negative doubles
  std::uint32_t flags[4];    // out all zero, out constant, ref all zero, ref constant
};
static_assert(sizeof(DeviceTally) == 80, "the device's crucible_tally layout");

std::int64_t firstIndex(std::uint64_t v) { return v == ~0ull ? -1 : static_cast<std::int64_t>(v); }

}  // namespace

const char* HarnessKernels::source() { return kSource; }

HarnessKernels::HarnessKernels(Compiler& compiler, const std::string& arch)
    : compiler_(compiler), arch_(arch), result_(DeviceBuffer::wholePages(sizeof(DeviceTally))) {
  CompileRequest req;
  req.source = kSource;
  req.entry = "crucible_fill_pattern";
  req.arch = arch;
  CompileResult built = compiler.compile(req);
  if (!built.report.ok) throw std::runtime_error("the worker's harness kernels do not compile: " + built.report.log);
  pattern_ = std::make_unique<KernelModule>(built.cubin, "crucible_fill_pattern");
  random_ = std::make_unique<KernelModule>(built.cubin, "crucible_fill_random");
  hash_ = std::make_unique<KernelModule>(built.cubin, "crucible_hash");
  draw_ = std::make_unique<KernelModule>(built.cubin, "crucible_draw");
  maskedCopy_ = std::make_unique<KernelModule>(built.cubin, "crucible_masked_copy");
  compare_ = std::make_unique<KernelModule>(built.cubin, "crucible_compare_elements");
  nonFinite_ = std::make_unique<KernelModule>(built.cubin, "crucible_count_nonfinite");
  tally_ = std::make_unique<KernelModule>(built.cubin, "crucible_tally_output");
  read_ = std::make_unique<KernelModule>(built.cubin, "crucible_l2_read");
  scrub_ = std::make_unique<KernelModule>(built.cubin, "crucible_scrub_shared");
  where_ = std::make_unique<KernelModule>(built.cubin, "crucible_parameter_address");
  for (const auto* k : {&pattern_, &random_, &hash_, &draw_, &maskedCopy_, &compare_, &nonFinite_, &tally_, &read_, &scrub_,
                        &where_})
    largestParameterBlock_ = std::max(largestParameterBlock_, parameterBlockBytes(declaredParameters((*k)->function())));
  std::random_device entropy;
  scrubKey_ = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
  hashKey_ = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
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
  std::uint64_t key = hashKey_;
  void* params[] = {&p, &n, &width, &key, &out};
  check(hash_->launch(geometryFor(count), stream, params), "queuing an output hash");
  std::uint64_t h = 0;
  check(d.cuStreamSynchronize(stream), "hashing outputs");
  check(d.cuMemcpyDtoH(&h, result_.get(), sizeof h), "reading a hash");
  return h;
}

int hashWordWidth(CUdeviceptr data, std::size_t bytes) {
  const std::uint64_t both = static_cast<std::uint64_t>(data) | bytes;
  return both % 8 == 0 ? 8 : both % 4 == 0 ? 4 : 1;
}

std::uint64_t HarnessKernels::hashBytes(CUdeviceptr data, std::size_t bytes, CUstream stream) const {
  const int width = hashWordWidth(data, bytes);
  return hash(data, width, static_cast<std::int64_t>(bytes / static_cast<std::size_t>(width)), stream);
}

std::vector<std::uint64_t> HarnessKernels::parameterAddresses(int launches, CUstream stream) const {
  if (addresses_.size() < static_cast<std::size_t>(launches) * sizeof(std::uint64_t))
    addresses_ = DeviceBuffer(static_cast<std::size_t>(launches) * sizeof(std::uint64_t));
  unsigned long long tag = 0;
  CUdeviceptr out = addresses_.get();
  LaunchGeometry g;
  for (int i = 0; i < launches; ++i) {
    void* params[] = {&tag, &out, &i};
    check(where_->launch(g, stream, params), "queuing a launch that finds its parameters");
  }
  std::vector<std::uint64_t> at(static_cast<std::size_t>(launches));
  const DriverApi& d = driver();
  check(d.cuStreamSynchronize(stream), "finding the launch parameters' memory");
  check(d.cuMemcpyDtoH(at.data(), out, at.size() * sizeof(std::uint64_t)), "reading the launch parameters' addresses");
  return at;
}

void HarnessKernels::readThrough(CUdeviceptr data, std::size_t bytes, int smCount, CUstream stream,
                                 CUdeviceptr nonZeroFlag) const {
  if (bytes < 16) return;
  CUdeviceptr p = data, sink = nonZeroFlag ? nonZeroFlag : result_.get();
  unsigned long long n = bytes / 16;
  void* params[] = {&p, &n, &sink};
  LaunchGeometry g;
  g.block[0] = 512;
  g.grid[0] = static_cast<unsigned>(std::max(smCount, 1) * 4);  // every SM full (2048 threads each)
  check(read_->launch(g, stream, params), "queuing the L2 flush");
}

std::uint64_t HarnessKernels::nextScrubSeed() const { return mix64(scrubKey_ + ++scrubs_ * kGamma); }

void HarnessKernels::scrubSharedMemory(const DeviceInfo& device, CUstream stream) const {
  LaunchGeometry g;
  g.block[0] = 1024;
  g.grid[0] = static_cast<unsigned>(std::max(device.smCount, 1));
  // The opt-in maximum, less the block's static part (none): one block fits an SM, so every SM runs
  // exactly one, and it covers what any block of a kernel can be given there.
  g.dynamicSmemBytes = static_cast<unsigned>(std::max(device.maxSmemPerBlockOptin, 0));
  if (scrubPreparedBytes_ != g.dynamicSmemBytes) {
    scrub_->prepare(g, device);
    scrubPreparedBytes_ = g.dynamicSmemBytes;
  }
  unsigned long long seed = nextScrubSeed();
  void* params[] = {&seed};
  check(scrub_->launch(g, stream, params), "queuing the shared-memory scrub");
}

std::string HarnessKernels::localScrubSource(std::size_t frameBytes) {
  // A frame of frameBytes: an array indexed by a launch parameter, so it
  // lives in local memory, written whole (volatile: nothing reads it). At most
  // 32 registers, so two blocks of 1024 fill an SM and every slot is written.
  return "#define WORDS " + std::to_string(frameBytes / 4) + R"(
extern "C" __global__ void __launch_bounds__(1024, 2) crucible_scrub_local(unsigned seed, int rotate) {
  volatile unsigned words[WORDS];
  const unsigned base = seed ^ (blockIdx.x * 0x9E3779B9u) ^ (threadIdx.x * 0x85EBCA6Bu);
  for (int i = 0; i < WORDS; ++i) words[(i + rotate) % WORDS] = base + (unsigned)i * 0xC2B2AE35u;
})";
}

void HarnessKernels::scrubLocalMemory(const DeviceInfo& device, std::size_t bytesPerThread, CUstream stream) const {
  if (bytesPerThread == 0) return;
  const std::size_t frame = (bytesPerThread + 255) / 256 * 256;
  auto& scrub = localScrubs_[frame];
  if (!scrub) {
    CompileRequest req;
    req.source = localScrubSource(frame);
    req.entry = "crucible_scrub_local";
    req.arch = arch_;
    const CompileResult built = compiler_.compile(req);
    if (!built.report.ok) throw std::runtime_error("the worker's local-memory scrub does not compile: " + built.report.log);
    auto module = std::make_unique<KernelModule>(built.cubin, "crucible_scrub_local");
    if (module->attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) < static_cast<int>(frame))
      throw std::logic_error("the local-memory scrub's frame is " +
                             std::to_string(module->attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)) + " bytes, not " +
                             std::to_string(frame));
    scrub = std::move(module);
  }
  LaunchGeometry g;
  g.block[0] = 1024;
  g.grid[0] = static_cast<unsigned>(std::max(device.smCount, 1) * std::max(device.maxThreadsPerSm / 1024, 1));
  unsigned seed = static_cast<unsigned>(nextScrubSeed());
  int rotate = 0;
  void* params[] = {&seed, &rotate};
  check(scrub->launch(g, stream, params), "queuing the local-memory scrub");
}

void HarnessKernels::clearResults(CUstream stream) const {
  check(driver().cuMemsetD8Async(result_.get(), 0, result_.size(), stream), "clearing the harness's result words");
}

void HarnessKernels::maskedCopy(CUdeviceptr dst, CUdeviceptr src, int width, std::int64_t count, std::uint64_t key,
                                CUstream stream) const {
  if (count <= 0) return;
  CUdeviceptr d = dst, s = src;
  unsigned long long n = static_cast<unsigned long long>(count), k = key;
  void* params[] = {&d, &s, &n, &width, &k};
  check(maskedCopy_->launch(geometryFor(count), stream, params), "queuing a masked copy");
}

BitwiseDiff HarnessKernels::countAndFirst(const KernelModule& kernel, std::int64_t count, void** params,
                                          const char* what, CUstream stream) const {
  BitwiseDiff found;
  if (count <= 0) return found;
  const DriverApi& d = driver();
  const std::uint64_t init[2] = {0, ~0ull};
  check(d.cuStreamSynchronize(stream), what);
  check(d.cuMemcpyHtoD(result_.get(), init, sizeof init), what);
  check(kernel.launch(geometryFor(count), stream, params), what);
  std::uint64_t got[2] = {0, 0};
  check(d.cuStreamSynchronize(stream), what);
  check(d.cuMemcpyDtoH(got, result_.get(), sizeof got), what);
  found.differing = static_cast<std::int64_t>(got[0]);
  found.first = firstIndex(got[1]);
  return found;
}

BitwiseDiff HarnessKernels::compareElements(CUdeviceptr a, CUdeviceptr b, int width, std::int64_t count, bool bMasked,
                                            std::uint64_t key, CUstream stream) const {
  CUdeviceptr pa = a, pb = b, out = result_.get();
  unsigned long long n = static_cast<unsigned long long>(count), k = key;
  int masked = bMasked ? 1 : 0;
  void* params[] = {&pa, &pb, &n, &width, &masked, &k, &out};
  return countAndFirst(*compare_, count, params, "comparing buffers", stream);
}

BitwiseDiff HarnessKernels::countNonFinite(CUdeviceptr data, std::int64_t count, CUstream stream) const {
  CUdeviceptr pa = data, out = result_.get();
  unsigned long long n = static_cast<unsigned long long>(count);
  void* params[] = {&pa, &n, &out};
  return countAndFirst(*nonFinite_, count, params, "counting non-finite values", stream);
}

OutputTally HarnessKernels::tallyOutput(CUdeviceptr output, DType dtype, std::int64_t count,
                                        CUdeviceptr maskedReference, std::uint64_t key, const Tolerance& tol,
                                        const std::vector<std::byte>& poison, CUstream stream) const {
  OutputTally t;
  t.elements = count;
  if (count <= 0) return t;
  const DriverApi& d = driver();
  DeviceTally init{};
  for (auto& f : init.first) f = ~0ull;
  for (auto& f : init.flags) f = 1;
  check(d.cuStreamSynchronize(stream), "checking outputs");
  check(d.cuMemcpyHtoD(result_.get(), &init, sizeof init), "clearing an output check");
  const std::size_t width = sizeOf(dtype);
  // The bytes checkOutput compares each element with: the pattern's first
  // `width` bytes, zero-padded.
  std::uint64_t poisonBits = 0;
  std::memcpy(&poisonBits, poison.data(), std::min(width, poison.size()));
  CUdeviceptr out = output, ref = maskedReference, res = result_.get();
  unsigned long long n = static_cast<unsigned long long>(count), k = key, p = poisonBits;
  int w = static_cast<int>(width), code = dtypeCode(dtype);
  double rtol = tol.rtol, atol = tol.atol;
  void* params[] = {&out, &ref, &n, &w, &code, &k, &p, &rtol, &atol, &res};
  check(tally_->launch(geometryFor(count), stream, params), "queuing an output check");
  DeviceTally got{};
  check(d.cuStreamSynchronize(stream), "checking outputs");
  check(d.cuMemcpyDtoH(&got, result_.get(), sizeof got), "reading an output check");
  t.unwritten = static_cast<std::int64_t>(got.counts[0]);
  t.nonFinite = static_cast<std::int64_t>(got.counts[1]);
  t.mismatches = static_cast<std::int64_t>(got.counts[2]);
  t.firstUnwritten = firstIndex(got.first[0]);
  t.firstNonFinite = firstIndex(got.first[1]);
  t.firstMismatch = firstIndex(got.first[2]);
  std::memcpy(&t.maxAbsError, &got.maxAbs, sizeof(double));
  std::memcpy(&t.maxRelError, &got.maxRel, sizeof(double));
  t.outAllZero = got.flags[0] != 0;
  t.outConstant = got.flags[1] != 0;
  t.refAllZero = got.flags[2] != 0;
  t.refConstant = got.flags[3] != 0;
  return t;
}

std::uint64_t maskBits(std::uint64_t key, std::uint64_t i) { return mix64(key + (i + 1) * kGamma); }

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

std::uint64_t hostHash(const void* data, int width, std::int64_t count, std::uint64_t key) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    std::uint64_t v = 0;
    std::memcpy(&v, p + i * width, static_cast<std::size_t>(width));  // little-endian: the low bytes
    h += mix64((v ^ key) + static_cast<std::uint64_t>(i + 1) * kGamma);
  }
  return h;
}

}  // namespace crucible::cuda
