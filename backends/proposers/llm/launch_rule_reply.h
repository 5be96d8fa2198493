// SPDX-License-Identifier: GPL-3.0-or-later
// The launch rule a model writes in its ```json block, in the task spec's own
// format (resources/tasks/README.md, "launch"):
//   {"entry": "softmax_kernel", "grid": ["ceil_div(M, 4)", "1", "1"],
//    "block": ["128", "1", "1"], "dynamicSmemBytes": "0",
//    "tensorMaps": [{"tensor": "x", "boxRows": 64, "boxCols": 64, "swizzle": "128B"}]}
// Every expression is evaluated at the task's axes and checked against the
// CUDA limits, so a rule that cannot launch is refused before compiling.
#pragma once
#include <string>
#include "core/model/candidate.h"
#include "core/task/task_spec.h"

namespace crucible::llm {

struct LaunchRuleParse {
  bool ok = false;
  LaunchRule rule;
  std::string problem;  // names the field: "grid[0]: unknown name 'R' ..."
};

// `defaultEntry` is used when the JSON names no entry (the task's entry).
LaunchRuleParse parseLaunchRuleReply(const std::string& jsonText, const TaskSpec& spec, const std::string& defaultEntry);

// The problems of a rule at the task's axes (empty = launchable).
std::string launchRuleProblem(const LaunchRule& rule, const TaskSpec& spec);

// The rule in the reply format above (for prompts: the parent's rule).
std::string launchRuleJson(const LaunchRule& rule);

}  // namespace crucible::llm
