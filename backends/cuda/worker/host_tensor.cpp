// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/host_tensor.h"
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
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

// Mixes (seed, stream) into one 64-bit RNG seed, so input k of seed s never
// shares a sequence with input k' or seed s'.
std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void storeValue(std::byte* p, DType d, double v) {
  switch (d) {
    case DType::F32: store(p, static_cast<float>(v)); break;
    case DType::F64: store(p, v); break;
    case DType::F16: store(p, floatToHalf(static_cast<float>(v))); break;
    case DType::BF16: store(p, floatToBfloat16(static_cast<float>(v))); break;
    case DType::I32: store(p, static_cast<std::int32_t>(v)); break;
    case DType::I64: store(p, static_cast<std::int64_t>(v)); break;
  }
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

void fillRandom(HostTensor& t, const Distribution& dist, std::uint64_t seed, std::uint64_t stream) {
  std::mt19937_64 rng(splitmix(splitmix(seed) ^ (stream * 0xD1B54A32D192ED03ull)));
  const std::size_t width = sizeOf(t.dtype);
  auto fill = [&](auto&& draw) {
    for (std::int64_t i = 0; i < t.count; ++i) storeValue(t.bytes.data() + i * width, t.dtype, draw());
  };
  if (dist.kind == "normal") {
    if (!(dist.b >= 0)) throw std::invalid_argument("normal distribution with negative stddev " + std::to_string(dist.b));
    std::normal_distribution<double> d(dist.a, dist.b);
    fill([&] { return d(rng); });
  } else if (dist.kind == "uniform") {
    if (!(dist.b > dist.a)) throw std::invalid_argument("uniform distribution needs a < b");
    std::uniform_real_distribution<double> d(dist.a, dist.b);
    fill([&] { return d(rng); });
  } else if (dist.kind == "randint") {
    const auto lo = static_cast<std::int64_t>(std::ceil(dist.a));
    const auto hi = static_cast<std::int64_t>(std::ceil(dist.b)) - 1;  // [a, b)
    if (hi < lo) throw std::invalid_argument("randint distribution needs a < b");
    std::uniform_int_distribution<std::int64_t> d(lo, hi);
    fill([&] { return static_cast<double>(d(rng)); });
  } else {
    throw std::invalid_argument("unknown distribution kind '" + dist.kind + "'");
  }
  if (t.count > 0 && std::all_of(t.bytes.begin(), t.bytes.end(), [](std::byte b) { return b == std::byte{0}; }))
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
  for (std::size_t off = 0; off < t.bytes.size(); off += pattern.size())
    std::memcpy(t.bytes.data() + off, pattern.data(), pattern.size());
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
