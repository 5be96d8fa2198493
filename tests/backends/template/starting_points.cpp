// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/backends/template/starting_points.h"

#include <algorithm>
#include "backends/proposers/template/design_space.h"
#include "core/task/task_library.h"

namespace crucible::testing_support {

std::vector<templates::KernelProblem> memoryBoundSuiteProblems() {
  static const std::vector<std::string> families = {"gelu",   "softmax",   "layernorm",    "rmsnorm",
                                                    "rowsum", "transpose", "cross_entropy"};
  std::vector<templates::KernelProblem> out;
  for (const auto& file : builtinTaskFiles()) {
    const TaskSpec spec = loadTaskSpecFile(file);
    if (std::find(families.begin(), families.end(), spec.family) != families.end())
      out.push_back(templates::problemFromSpec(spec));
  }
  return out;
}

bool isLargeSuiteTask(const std::string& taskName) {
  static const std::vector<std::string> large = {
      "softmax_f32_8192x4096",  "layernorm_f32_8192x4096",  "rmsnorm_bf16_8192x8192",      "gelu_f32_67108864",
      "rowsum_f32_8192x8192",   "transpose_f32_8192x8192",  "cross_entropy_f32_8192x32000"};
  return std::find(large.begin(), large.end(), taskName) != large.end();
}

std::vector<templates::Genome> legalStartingPoints(const templates::KernelProblem& p) {
  std::vector<templates::Genome> out;
  for (const auto& g : templates::designSpaceFor(p.family).startingPoints(p))
    if (templates::isLegal(g, p)) out.push_back(g);
  return out;
}

}  // namespace crucible::testing_support
