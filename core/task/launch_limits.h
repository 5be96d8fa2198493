// SPDX-License-Identifier: GPL-3.0-or-later
// Launch limits every CUDA GPU since compute capability 3.0 shares, and the
// dynamic shared memory an sm_90 block may opt into (227 KiB), with the one
// check of a launch rule against them: what a task's baseline, a tunable
// kernel's point and a language model's launch rule are held to, each
// reporting the problem in its own words (a TaskSpecError's field, a reply's).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include "core/model/candidate.h"

namespace crucible {

namespace launch_limits {

constexpr std::int64_t kMaxThreadsPerBlock = 1024;
constexpr std::int64_t kMaxBlockDim[3] = {1024, 1024, 64};
constexpr std::int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};
constexpr std::int64_t kMaxDynamicSmemBytes = 227 * 1024;

}  // namespace launch_limits

// The first way a launch rule leaves CUDA's limits.
struct LaunchLimitProblem {
  std::string field;       // "grid[1]", "block" (the threads of all three), "dynamicSmemBytes"
  std::string expression;  // the expression whose value is out of range; "" when the message quotes it
                           // (one that does not evaluate) or is about the thread count
  std::string message;     // "evaluates to 70000, above the CUDA limit 65535", `note` after the value

  // "grid[1]: 'N' evaluates to 70000, above the CUDA limit 65535".
  std::string text() const { return field + ": " + (expression.empty() ? "" : "'" + expression + "' ") + message; }
};

// Evaluates `rule` over `names` (the task's axes, and sm_count or a tunable
// point's parameters where the rule uses them): every grid and block
// dimension in 1..its limit, at most 1024 threads a block, the dynamic shared
// memory in 0..227 KiB. An expression that does not evaluate is a problem
// too. `note` follows each value in the message (which SM count was assumed:
// launch_variables.h, smCountNote). nullopt when the rule fits.
std::optional<LaunchLimitProblem> launchLimitProblem(const LaunchRule& rule,
                                                     const std::map<std::string, std::int64_t>& names,
                                                     const std::string& note = "");

}  // namespace crucible
