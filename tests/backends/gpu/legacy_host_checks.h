// SPDX-License-Identifier: GPL-3.0-or-later
// The host-side validation steps as they were before they were parallelised:
// one thread, a sequential mt19937_64 for inputs, element-by-element checks
// through HostTensor::valueAt. Kept only as the baseline that
// host_costs_bench times against, and as the oracle that host_checks_test
// compares the parallel checks' verdicts with. Not used by the worker.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/output_check.h"

namespace crucible::cuda::legacy {

inline std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline void storeValue(std::byte* p, DType d, double v) {
  auto put = [p](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (d) {
    case DType::F32: put(static_cast<float>(v)); break;
    case DType::F64: put(v); break;
    case DType::F16: put(floatToHalf(static_cast<float>(v))); break;
    case DType::BF16: put(floatToBfloat16(static_cast<float>(v))); break;
    case DType::I32: put(static_cast<std::int32_t>(v)); break;
    case DType::I64: put(static_cast<std::int64_t>(v)); break;
  }
}

inline void fillRandom(HostTensor& t, const Distribution& dist, std::uint64_t seed, std::uint64_t stream) {
  std::mt19937_64 rng(splitmix(splitmix(seed) ^ (stream * 0xD1B54A32D192ED03ull)));
  const std::size_t width = sizeOf(t.dtype);
  auto fill = [&](auto&& draw) {
    for (std::int64_t i = 0; i < t.count; ++i) storeValue(t.bytes.data() + i * width, t.dtype, draw());
  };
  if (dist.kind == "normal") {
    std::normal_distribution<double> d(dist.a, dist.b);
    fill([&] { return d(rng); });
  } else if (dist.kind == "uniform") {
    std::uniform_real_distribution<double> d(dist.a, dist.b);
    fill([&] { return d(rng); });
  } else if (dist.kind == "randint") {
    std::uniform_int_distribution<std::int64_t> d(static_cast<std::int64_t>(std::ceil(dist.a)),
                                                  static_cast<std::int64_t>(std::ceil(dist.b)) - 1);
    fill([&] { return static_cast<double>(d(rng)); });
  } else {
    throw std::invalid_argument("unknown distribution kind '" + dist.kind + "'");
  }
  if (t.count > 0 && std::all_of(t.bytes.begin(), t.bytes.end(), [](std::byte b) { return b == std::byte{0}; }))
    throw std::invalid_argument("the input distribution produced only zeros, which would hide unwritten outputs");
}

// The figures checkOutput reports, computed in one sequential pass (reasons
// are not rebuilt here: the tests compare the figures and the first indices).
inline OutputCheck checkOutput(const HostTensor& got, const std::vector<double>& reference, const Tolerance& tol,
                               const std::vector<std::byte>& poison) {
  OutputCheck c;
  c.elements = got.count;
  const std::size_t width = sizeOf(got.dtype);
  std::int64_t firstUnwritten = -1, firstNonFinite = -1, firstMismatch = -1;
  bool outAllZero = true, outConstant = true, refAllZero = true, refConstant = true;
  const double out0 = got.count ? got.valueAt(0) : 0;
  const double ref0 = got.count ? reference[0] : 0;
  for (std::int64_t i = 0; i < got.count; ++i) {
    const std::byte* p = got.bytes.data() + static_cast<std::size_t>(i) * width;
    const double want = reference[static_cast<std::size_t>(i)];
    refAllZero = refAllZero && want == 0;
    refConstant = refConstant && want == ref0;
    if (std::memcmp(p, poison.data(), width) == 0) {
      ++c.unwritten;
      if (firstUnwritten < 0) firstUnwritten = i;
      outAllZero = outConstant = false;
      continue;
    }
    const double y = got.valueAt(i);
    outAllZero = outAllZero && y == 0;
    outConstant = outConstant && (y == out0 || (std::isnan(y) && std::isnan(out0)));
    if (!std::isfinite(y)) {
      ++c.nonFinite;
      if (firstNonFinite < 0) firstNonFinite = i;
      continue;
    }
    const double err = std::fabs(y - want);
    c.maxAbsError = std::max(c.maxAbsError, err);
    if (want != 0 && tol.rtol * std::fabs(want) >= tol.atol) c.maxRelError = std::max(c.maxRelError, err / std::fabs(want));
    if (!(err <= tol.atol + tol.rtol * std::fabs(want))) {
      ++c.mismatches;
      if (firstMismatch < 0) firstMismatch = i;
    }
  }
  c.allZero = got.count > 0 && outAllZero && !refAllZero;
  c.constant = got.count > 1 && outConstant && !refConstant;
  c.firstBad = firstUnwritten >= 0 ? firstUnwritten
               : firstNonFinite >= 0 ? firstNonFinite
               : (c.allZero || c.constant) ? 0
                                           : firstMismatch;
  return c;
}

inline BitwiseDiff compareBitwise(const HostTensor& a, const HostTensor& b) {
  BitwiseDiff d;
  const std::size_t width = sizeOf(a.dtype);
  const std::int64_t n = std::min(a.count, b.count);
  for (std::int64_t i = 0; i < n; ++i) {
    if (std::memcmp(a.bytes.data() + i * width, b.bytes.data() + i * width, width) != 0) {
      if (d.first < 0) d.first = i;
      ++d.differing;
    }
  }
  d.differing += std::max(a.count, b.count) - n;
  return d;
}

inline std::int64_t nonFiniteCount(const std::vector<double>& reference) {
  std::int64_t bad = 0;
  for (double v : reference) bad += !std::isfinite(v);
  return bad;
}

}  // namespace crucible::cuda::legacy
