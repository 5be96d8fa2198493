// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/seeding.h"

namespace crucible {
namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t deriveSeed(std::uint64_t runSeed, std::int64_t generation, std::int64_t index, SeedPurpose purpose) {
  std::uint64_t h = splitmix64(runSeed);
  h = splitmix64(h ^ static_cast<std::uint64_t>(generation));
  h = splitmix64(h ^ static_cast<std::uint64_t>(index));
  return splitmix64(h ^ static_cast<std::uint64_t>(purpose));
}

}  // namespace crucible
