// SPDX-License-Identifier: GPL-3.0-or-later
// What a launch rule is evaluated over: the task's axes and sm_count, the SM
// count of the GPU the kernel is launched on (expression.h, kSmCountName).
// The worker knows the real count (resolveGeometry); an exported launcher asks
// the device when it launches (host_launcher.h). Where no GPU is known (a
// task file is read, a tunable kernel's point or a model's launch rule is
// judged), a rule that uses sm_count is checked at each of
// kSmCountsCheckedWithoutGpu, and a message about it says which SM count it
// was evaluated at: nothing assumes one GPU's count in silence.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "core/model/candidate.h"
#include "core/task/expression.h"

namespace crucible {

// The fewest SMs a device can have, and a bound above every GPU's so far (an
// H200 has 132, a B200 148). A rule that holds at both is launched with the
// real count by the worker, which checks it again against CUDA's limits.
inline constexpr std::int64_t kSmCountsCheckedWithoutGpu[] = {1, 1024};

// Whether `expr` names sm_count (as a whole name, not inside a longer one).
bool usesSmCount(const std::string& expr);
// Whether any of the rule's grid, block or shared-memory expressions does.
bool usesSmCount(const LaunchRule& rule);

// `names` with sm_count = smCount; `names` alone when smCount is 0 (not
// known: an expression that uses it is then refused, saying so). Throws
// std::invalid_argument for a negative count or `names` that already hold sm_count.
std::map<std::string, std::int64_t> launchNames(const std::map<std::string, std::int64_t>& names, std::int64_t smCount);

// The SM counts to check a rule at where no GPU is known: {0} (the rule does
// not use sm_count: checked once, over the axes alone) or kSmCountsCheckedWithoutGpu.
std::vector<std::int64_t> smCountsCheckedWithoutGpu(const LaunchRule& rule);
std::vector<std::int64_t> smCountsCheckedWithoutGpu(const std::string& expr);

// What a message about a value at `smCount` adds: "" for 0, otherwise
// " at sm_count = 1 (no GPU is known here: a rule that uses sm_count is checked at 1 and 1024 SMs)".
std::string smCountNote(std::int64_t smCount);

}  // namespace crucible
