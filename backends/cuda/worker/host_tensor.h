// SPDX-License-Identifier: GPL-3.0-or-later
// Host-side tensors for validation: raw bytes in the task's dtype, random
// fills drawn from the task's distributions with a seeded RNG, the poison
// patterns written into outputs before each launch, and conversion to double
// for comparison with the oracle.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>
#include "core/task/task_spec.h"

namespace crucible::cuda {

struct HostTensor {
  DType dtype = DType::F32;
  std::int64_t count = 0;
  std::vector<std::byte> bytes;  // count * sizeOf(dtype)

  HostTensor() = default;
  HostTensor(DType d, std::int64_t n) : dtype(d), count(n), bytes(static_cast<std::size_t>(n) * sizeOf(d)) {}
  std::size_t byteSize() const { return bytes.size(); }
  double valueAt(std::int64_t i) const;  // exact for every dtype but i64 beyond 2^53
};

// Fills `t` from `dist` with a counter-based RNG keyed by (seed, stream)
// (counter_rng.h): the same pair always gives the same bytes, whatever the
// number of threads drawing them (hostThreads()). Values are rounded to the
// dtype. Throws
// std::invalid_argument for a distribution that cannot be drawn (b <= a for
// uniform/randint, negative stddev) or one that came out all zeros, since
// zeros hide unwritten outputs.
void fillRandom(HostTensor& t, const Distribution& dist, std::uint64_t seed, std::uint64_t stream);

// What a draw from `dist` needs, for the host's fillRandom and the device's
// HarnessKernels::draw alike. Throws std::invalid_argument for a distribution
// that cannot be drawn (b <= a for uniform/randint, negative stddev, an
// unknown kind).
struct DrawParameters {
  enum Kind { Normal = 0, Uniform = 1, Randint = 2 } kind = Normal;
  std::int64_t lo = 0;       // randint: the smallest value, ceil(a)
  std::uint64_t range = 0;   // randint: how many values from lo (0: all 2^64)
};
DrawParameters drawParameters(const Distribution& dist);

// Whether any byte of `t` is non-zero (all threads): an input that came out
// all zeros would hide unwritten outputs.
bool anyNonZero(const HostTensor& t);

// A repeated element pattern. The two poisons differ, so an element that a
// kernel never writes differs between two launches poisoned differently even
// for integer dtypes, where no value is impossible. Floating dtypes get quiet
// NaNs with distinct payloads.
std::vector<std::byte> poisonPattern(DType d, int which);  // which: 0 or 1
// The pattern around every device buffer (guard regions): NaN for floating
// dtypes, so an out-of-bounds read turns the result into NaN.
std::vector<std::byte> guardPattern(DType d);

// Fills `t` by repeating `pattern` (whose size is sizeOf(t.dtype)), in parallel.
void fillPattern(HostTensor& t, const std::vector<std::byte>& pattern);

// IEEE binary16 and bfloat16 conversions (round to nearest even).
std::uint16_t floatToHalf(float f);
float halfToFloat(std::uint16_t h);
std::uint16_t floatToBfloat16(float f);
float bfloat16ToFloat(std::uint16_t b);

}  // namespace crucible::cuda
