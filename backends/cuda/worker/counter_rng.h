// SPDX-License-Identifier: GPL-3.0-or-later
// A counter-based random number generator: the value of element i of a tensor
// is a pure function of (key, i), where the key mixes the trial's seed and the
// tensor's index. Any range of elements can be drawn on any thread, and a
// tensor comes out byte-identical whatever the thread count or chunking.
//
// bits(i) is SplitMix64's output for counter i (Steele, Lea, Flood 2014: the
// golden-ratio Weyl sequence through a 64-bit finaliser), which passes
// BigCrush; a sequential SplitMix64 is exactly this with i = 0, 1, 2...
#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>

namespace crucible::cuda {

constexpr std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class CounterRng {
public:
  // Distinct (seed, stream) pairs give unrelated keys: input k of seed s never
  // shares values with input k' or seed s'.
  constexpr CounterRng(std::uint64_t seed, std::uint64_t stream)
      : key_(mix64(mix64(seed + kGamma) ^ (stream * 0xD1B54A32D192ED03ull + kGamma))) {}

  constexpr std::uint64_t key() const { return key_; }
  constexpr std::uint64_t bits(std::uint64_t i) const { return mix64(key_ + (i + 1) * kGamma); }
  // Uniform in [0, 1), 53 random bits.
  double uniform(std::uint64_t i) const { return static_cast<double>(bits(i) >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1]: safe for log().
  double uniformOpenBelow(std::uint64_t i) const { return static_cast<double>((bits(i) >> 11) + 1) * 0x1.0p-53; }
  // An integer in [0, range) by multiply-shift (Lemire); the bias is below
  // range / 2^64, far under anything a validation input could show.
  std::uint64_t below(std::uint64_t i, std::uint64_t range) const {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(bits(i)) * range) >> 64);
  }
  // Standard normal pair p by Box-Muller from counters 2p and 2p+1: element
  // 2p takes the cosine, element 2p+1 the sine. Both are exact N(0,1) draws.
  void normalPair(std::uint64_t p, double& even, double& odd) const {
    const double r = std::sqrt(-2.0 * std::log(uniformOpenBelow(2 * p)));
    const double theta = 2.0 * std::numbers::pi * uniform(2 * p + 1);
    even = r * std::cos(theta);
    odd = r * std::sin(theta);
  }

  // The same in single precision from one 64-bit draw (32 bits for the
  // radius, 24 for the angle): for dtypes of at most float precision, where
  // double math would be rounded away; about twice as fast. |z| <= 6.66.
  void normalPairFloat(std::uint64_t p, float& even, float& odd) const {
    const std::uint64_t x = bits(p);
    const float u1 = static_cast<float>(static_cast<std::uint32_t>(x >> 32)) * 0x1.0p-32f + 0x1.0p-32f;  // (0, 1]
    const float u2 = static_cast<float>(static_cast<std::uint32_t>(x) >> 8) * 0x1.0p-24f;             // [0, 1)
    const float r = std::sqrt(-2.0f * std::log(u1));
    const float theta = 2.0f * std::numbers::pi_v<float> * u2;
    even = r * std::cos(theta);
    odd = r * std::sin(theta);
  }

private:
  static constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ull;
  std::uint64_t key_;
};

}  // namespace crucible::cuda
