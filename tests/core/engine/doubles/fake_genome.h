// SPDX-License-Identifier: GPL-3.0-or-later
// The genome of the fake kernels the engine tests evolve: three architecture
// genes (memory strategy, parallel granularity, vector width) and two tunable
// parameters (BLOCK, UNROLL). The fake "source" carries the genome on one
// line so the fake compiler and evaluator can read it back.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace crucible::testing {

inline const std::vector<std::string> kMemory{"global", "smem", "regs"};
inline const std::vector<std::string> kGranularity{"thread", "warp", "block"};
inline const std::vector<std::int64_t> kVector{1, 2, 4, 8};
inline const std::vector<std::int64_t> kBlock{64, 128, 256, 512};
inline const std::vector<std::int64_t> kUnroll{1, 2, 4};

struct FakeGenome {
  int mem = 0;            // index into kMemory
  int gran = 0;           // index into kGranularity
  int vec = 0;            // index into kVector
  std::int64_t block = 256;
  std::int64_t unroll = 1;
  std::uint64_t nonce = 0;   // non-zero: makes the source unique (benchmark)

  std::string architectureKey() const;
  std::map<std::string, std::string> descriptor() const;
  std::string json() const;
  std::string source() const;
  bool operator==(const FakeGenome&) const = default;
};

// Reads the genome line of a fake source; nullopt for any other source (the
// task's baseline kernel).
std::optional<FakeGenome> parseFakeSource(const std::string& source);
FakeGenome genomeFromJson(const std::string& json);

// The deterministic kernel time of a genome in microseconds (the baseline takes 100).
double fakeTimeUs(const FakeGenome& g);
// Deliberate failures, so the engine meets them: vec 8 at thread granularity
// does not compile; regs with BLOCK 512 computes wrong results.
bool fakeCompiles(const FakeGenome& g);
bool fakeIsCorrect(const FakeGenome& g);

}  // namespace crucible::testing
