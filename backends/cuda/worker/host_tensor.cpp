// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/counter_rng.h"
#include "backends/cuda/worker/parallel_chunks.h"
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace crucible::cuda {
namespace {

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Calls f with a function object that stores a double into one element of
// dtype d (rounded as the dtype does), so per-element loops are compiled once
// per dtype instead of switching on it for every element.
template <typename F>
void withStorer(DType d, F&& f) {
  switch (d) {
    case DType::F32: f([](std::byte* p, double v) { store(p, static_cast<float>(v)); }); return;
    case DType::F64: f([](std::byte* p, double v) { store(p, v); }); return;
    case DType::F16: f([](std::byte* p, double v) { store(p, floatToHalf(static_cast<float>(v))); }); return;
    case DType::BF16: f([](std::byte* p, double v) { store(p, floatToBfloat16(static_cast<float>(v))); }); return;
    case DType::I32: f([](std::byte* p, double v) { store(p, static_cast<std::int32_t>(v)); }); return;
    case DType::I64: f([](std::byte* p, double v) { store(p, static_cast<std::int64_t>(v)); }); return;
  }
}

// Elements per block within a chunk: a block just written is still in cache
// when it is scanned for a non-zero byte.
constexpr std::int64_t kBlock = 4096;

// Fills every element of `t` on all threads; returns whether any stored byte
// is non-zero. draw(b, e, put) calls put(i, value) for each i in [b, e); the
// value must be a pure function of i, so the bytes do not depend on chunking.
template <typename Draw>
bool fillParallel(HostTensor& t, Draw&& draw) {
  const std::size_t width = sizeOf(t.dtype);
  std::atomic<bool> nonZero{false};
  withStorer(t.dtype, [&](auto storeOne) {
    const int chunks = chunkCountFor(t.count);
    runChunks(t.count, chunks, [&](int, std::int64_t begin, std::int64_t end) {
      for (std::int64_t b = begin; b < end; b += kBlock) {
        const std::int64_t e = std::min(end, b + kBlock);
        std::byte* base = t.bytes.data();
        draw(b, e, [&](std::int64_t i, double v) { storeOne(base + static_cast<std::size_t>(i) * width, v); });
        if (nonZero.load(std::memory_order_relaxed)) continue;
        const std::byte* first = base + static_cast<std::size_t>(b) * width;
        const std::byte* last = base + static_cast<std::size_t>(e) * width;
        if (std::any_of(first, last, [](std::byte x) { return x != std::byte{0}; }))
          nonZero.store(true, std::memory_order_relaxed);
      }
    });
  });
  return nonZero.load();
}

}  // namespace

double HostTensor::valueAt(std::int64_t i) const {
  const std::byte* p = bytes.data() + static_cast<std::size_t>(i) * sizeOf(dtype);
  switch (dtype) {
    case DType::F32: return load<float>(p);
    case DType::F64: return load<double>(p);
    case DType::F16: return halfToFloat(load<std::uint16_t>(p));
    case DType::BF16: return bfloat16ToFloat(load<std::uint16_t>(p));
    case DType::I32: return load<std::int32_t>(p);
    case DType::I64: return static_cast<double>(load<std::int64_t>(p));
  }
  return 0;
}

DrawParameters drawParameters(const Distribution& dist) {
  DrawParameters d;
  if (dist.kind == "normal") {
    if (!(dist.b >= 0)) throw std::invalid_argument("normal distribution with negative stddev " + std::to_string(dist.b));
    d.kind = DrawParameters::Normal;
  } else if (dist.kind == "uniform") {
    if (!(dist.b > dist.a)) throw std::invalid_argument("uniform distribution needs a < b");
    d.kind = DrawParameters::Uniform;
  } else if (dist.kind == "randint") {
    const auto lo = static_cast<std::int64_t>(std::ceil(dist.a));
    const auto hi = static_cast<std::int64_t>(std::ceil(dist.b)) - 1;  // [a, b)
    if (hi < lo) throw std::invalid_argument("randint distribution needs a < b");
    d.kind = DrawParameters::Randint;
    d.lo = lo;
    d.range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;  // 0: all 2^64
  } else {
    throw std::invalid_argument("unknown distribution kind '" + dist.kind + "'");
  }
  return d;
}

bool anyNonZero(const HostTensor& t) {
  std::atomic<bool> nonZero{false};
  const std::byte* base = t.bytes.data();
  const std::size_t width = sizeOf(t.dtype);
  runChunks(t.count, chunkCountFor(t.count), [&](int, std::int64_t begin, std::int64_t end) {
    for (std::int64_t b = begin; b < end && !nonZero.load(std::memory_order_relaxed); b += kBlock) {
      const std::int64_t e = std::min(end, b + kBlock);
      if (std::any_of(base + static_cast<std::size_t>(b) * width, base + static_cast<std::size_t>(e) * width,
                      [](std::byte x) { return x != std::byte{0}; }))
        nonZero.store(true, std::memory_order_relaxed);
    }
  });
  return nonZero.load();
}

void fillRandom(HostTensor& t, const Distribution& dist, std::uint64_t seed, std::uint64_t stream) {
  const CounterRng rng(seed, stream);
  const DrawParameters params = drawParameters(dist);
  bool nonZero = false;
  if (params.kind == DrawParameters::Normal) {
    const double mean = dist.a, stddev = dist.b;
    // Single-precision draws where the dtype keeps at most float precision.
    const bool narrow = sizeOf(t.dtype) <= 4;
    nonZero = fillParallel(t, [&](std::int64_t b, std::int64_t e, auto&& put) {
      // Box-Muller pairs (2p, 2p+1); a range may start or end inside a pair.
      for (std::int64_t i = b; i < e;) {
        double even, odd;
        if (narrow) {
          float fe, fo;
          rng.normalPairFloat(static_cast<std::uint64_t>(i) >> 1, fe, fo);
          even = fe;
          odd = fo;
        } else {
          rng.normalPair(static_cast<std::uint64_t>(i) >> 1, even, odd);
        }
        if ((i & 1) == 0) {
          put(i, mean + stddev * even);
          if (i + 1 < e) put(i + 1, mean + stddev * odd);
          i += 2;
        } else {
          put(i, mean + stddev * odd);
          i += 1;
        }
      }
    });
  } else if (params.kind == DrawParameters::Uniform) {
    const double lo = dist.a, span = dist.b - dist.a;
    nonZero = fillParallel(t, [&](std::int64_t b, std::int64_t e, auto&& put) {
      for (std::int64_t i = b; i < e; ++i) put(i, lo + span * rng.uniform(static_cast<std::uint64_t>(i)));
    });
  } else {
    const std::int64_t lo = params.lo;
    const std::uint64_t range = params.range;
    nonZero = fillParallel(t, [&](std::int64_t b, std::int64_t e, auto&& put) {
      for (std::int64_t i = b; i < e; ++i) {
        const auto u = static_cast<std::uint64_t>(i);
        const std::uint64_t k = range == 0 ? rng.bits(u) : rng.below(u, range);
        put(i, static_cast<double>(static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + k)));
      }
    });
  }
  if (t.count > 0 && !nonZero)
    throw std::invalid_argument("the input distribution produced only zeros, which would hide unwritten outputs");
}

std::vector<std::byte> poisonPattern(DType d, int which) {
  std::vector<std::byte> p(sizeOf(d));
  const bool second = which != 0;
  switch (d) {
    case DType::F32: store(p.data(), second ? 0x7FC2CE02u : 0x7FC1CE01u); break;
    case DType::F64: store(p.data(), second ? 0x7FF8CE020000CE02ull : 0x7FF8CE010000CE01ull); break;
    case DType::F16: store(p.data(), static_cast<std::uint16_t>(second ? 0x7E02 : 0x7E01)); break;
    case DType::BF16: store(p.data(), static_cast<std::uint16_t>(second ? 0x7FC2 : 0x7FC1)); break;
    case DType::I32: store(p.data(), second ? 0x7FCE0002 : 0x7FCE0001); break;
    case DType::I64: store(p.data(), second ? 0x7FCE00000000CE02ll : 0x7FCE00000000CE01ll); break;
  }
  return p;
}

std::vector<std::byte> guardPattern(DType d) {
  std::vector<std::byte> p(sizeOf(d));
  switch (d) {
    case DType::F32: store(p.data(), 0x7FC0BAD0u); break;
    case DType::F64: store(p.data(), 0x7FF8BAD00000BAD0ull); break;
    case DType::F16: store(p.data(), static_cast<std::uint16_t>(0x7E0B)); break;
    case DType::BF16: store(p.data(), static_cast<std::uint16_t>(0x7FCB)); break;
    case DType::I32: store(p.data(), 0x7FBADBAD); break;
    case DType::I64: store(p.data(), 0x7FBADBAD7FBADBADll); break;
  }
  return p;
}

void fillPattern(HostTensor& t, const std::vector<std::byte>& pattern) {
  if (pattern.size() != sizeOf(t.dtype)) throw std::invalid_argument("pattern width does not match the dtype");
  const std::size_t w = pattern.size();
  runChunks(t.count, chunkCountFor(t.count), [&](int, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) std::memcpy(t.bytes.data() + static_cast<std::size_t>(i) * w, pattern.data(), w);
  });
}

std::uint16_t floatToHalf(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t absx = x & 0x7FFFFFFFu;
  if (absx >= 0x7F800000u)  // Inf or NaN (keep NaN quiet)
    return static_cast<std::uint16_t>(sign | 0x7C00u | (absx > 0x7F800000u ? 0x200u | ((absx >> 13) & 0x3FFu) : 0u));
  if (absx >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds past 65504: Inf
  if (absx < 0x38800000u) {
    // Below the smallest normal half (2^-14): a subnormal, in units of 2^-24.
    // Scaling by 2^24 is exact; nearbyint rounds half to even.
    const float scaled = std::bit_cast<float>(absx) * 16777216.0f;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(scaled)));
  }
  std::uint32_t r = absx - 0x38000000u;  // rebias the exponent from 127 to 15
  const std::uint32_t rem = r & 0x1FFFu;
  r >>= 13;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
  return static_cast<std::uint16_t>(sign | r);
}

float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1Fu;
  const std::uint32_t mant = h & 0x3FFu;
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7F800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

std::uint16_t floatToBfloat16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  const std::uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + rounding) >> 16);
}

float bfloat16ToFloat(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

}  // namespace crucible::cuda
