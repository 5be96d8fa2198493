// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/launch_variables.h"

#include <algorithm>
#include <stdexcept>
#include "core/task/expression.h"

namespace crucible {

bool usesSmCount(const std::string& expr) {
  const std::vector<std::string> names = namesInExpression(expr);
  return std::find(names.begin(), names.end(), kSmCountName) != names.end();
}

bool usesSmCount(const LaunchRule& rule) {
  for (int i = 0; i < 3; ++i)
    if (usesSmCount(rule.grid[i]) || usesSmCount(rule.block[i])) return true;
  return usesSmCount(rule.dynamicSmemBytes);
}

std::map<std::string, std::int64_t> launchNames(const std::map<std::string, std::int64_t>& names, std::int64_t smCount) {
  if (smCount < 0) throw std::invalid_argument("an SM count of " + std::to_string(smCount) + " is not a GPU's");
  if (names.count(kSmCountName))
    throw std::invalid_argument(std::string("'") + kSmCountName + "' is the GPU's SM count, not an axis or parameter");
  std::map<std::string, std::int64_t> out = names;
  if (smCount > 0) out[kSmCountName] = smCount;
  return out;
}

std::vector<std::int64_t> smCountsCheckedWithoutGpu(const LaunchRule& rule) {
  if (!usesSmCount(rule)) return {0};
  return {std::begin(kSmCountsCheckedWithoutGpu), std::end(kSmCountsCheckedWithoutGpu)};
}

std::vector<std::int64_t> smCountsCheckedWithoutGpu(const std::string& expr) {
  if (!usesSmCount(expr)) return {0};
  return {std::begin(kSmCountsCheckedWithoutGpu), std::end(kSmCountsCheckedWithoutGpu)};
}

std::string smCountNote(std::int64_t smCount) {
  if (smCount == 0) return "";
  std::string counts;
  for (std::size_t i = 0; i < std::size(kSmCountsCheckedWithoutGpu); ++i)
    counts += (i == 0 ? "" : i + 1 == std::size(kSmCountsCheckedWithoutGpu) ? " and " : ", ") +
              std::to_string(kSmCountsCheckedWithoutGpu[i]);
  return " at sm_count = " + std::to_string(smCount) + " (no GPU is known here: a rule that uses " + kSmCountName +
         " is checked at " + counts + " SMs)";
}

}  // namespace crucible
