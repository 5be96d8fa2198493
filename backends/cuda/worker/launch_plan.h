// SPDX-License-Identifier: GPL-3.0-or-later
// What the harness does around each candidate launch, decided so that a kernel
// cannot tell a checked launch from a timed one (issue: kernels that computed
// only while their outputs held the validation poison, or only for the first
// few launches, were timed as empty kernels).
//
//  - Every launch, checked or timed, starts from a fresh output fill: one of
//    the two NaN poisons or random finite values with a new seed, never the
//    same fill twice in a row and never what an earlier launch left.
//  - During timing the inputs are drawn afresh, in place, before every
//    launch of either kernel, each time with a new seed from this plan: no input a
//    kernel has met before comes back, so results it kept anywhere (in
//    memory no watch covers, from a page of the driver's to host memory) are
//    never the answer (issue: a kernel kept each row's result in the page
//    after the launch-parameter ring's and was timed at 3.1x where it makes
//    1.34x).
//  - Timed launches are checked after the fact: the last one always, and a
//    random sample spread over the whole timing (gaps that grow, so a run of
//    any length gets a handful of checks and a late change of behaviour is
//    still seen). The decision is made after the launch has finished, so
//    nothing before or during a launch depends on it.
//
// Pure logic, no GPU: the plan is tested on its own (tests/backends/gpu/
// launch_plan_test.cpp) and the worker follows it.
#pragma once
#include <cstdint>
#include <string>

namespace crucible::cuda {

enum class OutputFill { Poison0, Poison1, RandomFinite };

struct FillChoice {
  OutputFill kind = OutputFill::Poison0;
  std::uint64_t seed = 0;   // RandomFinite: the values' seed, new for every launch
  bool operator==(const FillChoice&) const = default;
  bool isPoison() const { return kind != OutputFill::RandomFinite; }
  int poisonIndex() const { return kind == OutputFill::Poison1 ? 1 : 0; }
  std::string describe() const;  // "NaN poison 0", "random finite values (seed 0x...)"
};

class LaunchPlan {
public:
  // `seed` should not be predictable from the candidate's source: the worker
  // mixes in the system's entropy. Tests pass a fixed one.
  explicit LaunchPlan(std::uint64_t seed);

  // The fill before the next launch. `mustBePoison` for launches whose
  // unwritten elements are counted against the poison pattern (the first
  // launch of a validation trial); the poison index is still random.
  FillChoice nextFill(bool mustBePoison = false);

  // The seed of the inputs drawn before the next timed launch (of either
  // kernel): a new one every call, not predictable from the candidate's source.
  std::uint64_t nextInputSeed();

  // Whether timed pair `pair` is checked, given whether it is the last one.
  // Sampled pairs: the first check within the first 4 pairs, then each gap
  // drawn from [g, 2g) with g doubling (4, 8, 16, ...), so n pairs get about
  // log2(n) sampled checks on top of the last.
  bool checkAfter(int pair, bool last);

  int fillsIssued() const { return fills_; }

private:
  std::uint64_t next();       // SplitMix64 step
  std::uint64_t below(std::uint64_t n);

  std::uint64_t state_;
  FillChoice previous_;
  bool hasPrevious_ = false;
  int fills_ = 0;
  int nextCheck_ = -1;        // the next sampled pair to check
  int gap_ = 4;
};

// A seed for LaunchPlan that mixes the request's seeds with the system's
// entropy (std::random_device), so a kernel author cannot precompute it.
std::uint64_t unpredictableSeed(std::uint64_t requestSeed);

}  // namespace crucible::cuda
