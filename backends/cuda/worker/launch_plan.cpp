// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/launch_plan.h"
#include <cstdio>
#include <random>
#include "backends/cuda/worker/counter_rng.h"

namespace crucible::cuda {

std::string FillChoice::describe() const {
  switch (kind) {
    case OutputFill::Poison0: return "NaN poison 0";
    case OutputFill::Poison1: return "NaN poison 1";
    case OutputFill::RandomFinite: break;
  }
  char text[64];
  std::snprintf(text, sizeof text, "random finite values (seed 0x%llx)", static_cast<unsigned long long>(seed));
  return text;
}

LaunchPlan::LaunchPlan(std::uint64_t seed) : state_(mix64(seed ^ 0xC0FFEE5EEDull)) {}

std::uint64_t LaunchPlan::next() {
  state_ += 0x9E3779B97F4A7C15ull;
  return mix64(state_);
}

std::uint64_t LaunchPlan::below(std::uint64_t n) {
  return n == 0 ? 0 : static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
}

FillChoice LaunchPlan::nextFill(bool mustBePoison) {
  FillChoice f;
  for (;;) {
    const std::uint64_t pick = mustBePoison ? below(2) : below(3);
    f.kind = pick == 0 ? OutputFill::Poison0 : pick == 1 ? OutputFill::Poison1 : OutputFill::RandomFinite;
    // A poison repeated back to back would leave the previous launch's
    // pattern: draw again. Random fills always differ (new seed).
    if (!hasPrevious_ || f.kind == OutputFill::RandomFinite || f.kind != previous_.kind) break;
  }
  f.seed = f.kind == OutputFill::RandomFinite ? next() | 1 : 0;
  previous_ = f;
  hasPrevious_ = true;
  ++fills_;
  return f;
}

std::uint64_t LaunchPlan::nextInputSeed() { return next(); }

bool LaunchPlan::checkAfter(int pair, bool last) {
  if (nextCheck_ < 0) nextCheck_ = static_cast<int>(below(4));
  bool sampled = false;
  while (pair >= nextCheck_) {
    sampled = sampled || pair == nextCheck_;
    nextCheck_ += gap_ + static_cast<int>(below(static_cast<std::uint64_t>(gap_)));
    if (gap_ < (1 << 20)) gap_ *= 2;
  }
  return last || sampled;
}

std::uint64_t unpredictableSeed(std::uint64_t requestSeed) {
  std::random_device device;
  const std::uint64_t entropy = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  return mix64(requestSeed ^ mix64(entropy));
}

}  // namespace crucible::cuda
