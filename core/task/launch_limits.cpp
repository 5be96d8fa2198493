// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/launch_limits.h"

#include "core/task/expression.h"

namespace crucible {

using namespace launch_limits;

namespace {

// Each dimension in 1..limits[i]; `product` gets their product (saturated).
// A tunable kernel's search for a legal point may call this millions of times:
// a dimension out of range is returned, not thrown.
std::optional<LaunchLimitProblem> checkDims(const char* name, const std::string (&dims)[3],
                                            const std::int64_t (&limits)[3],
                                            const std::map<std::string, std::int64_t>& names, const std::string& note,
                                            std::int64_t& product) {
  product = 1;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string field = std::string(name) + "[" + std::to_string(i) + "]";
    std::int64_t v = 0;
    try {
      v = evaluateAxisExpression(dims[i], names);
    } catch (const ExpressionError& e) {
      return LaunchLimitProblem{field, "", e.what() + note};
    }
    if (v <= 0) return LaunchLimitProblem{field, dims[i], "evaluates to " + std::to_string(v) + note + ", must be positive"};
    if (v > limits[i])
      return LaunchLimitProblem{
          field, dims[i], "evaluates to " + std::to_string(v) + note + ", above the CUDA limit " + std::to_string(limits[i])};
    if (__builtin_mul_overflow(product, v, &product)) product = INT64_MAX;
  }
  return std::nullopt;
}

}  // namespace

std::optional<LaunchLimitProblem> launchLimitProblem(const LaunchRule& rule,
                                                     const std::map<std::string, std::int64_t>& names,
                                                     const std::string& note) {
  std::int64_t blocks = 0, threads = 0;
  if (auto problem = checkDims("grid", rule.grid, kMaxGridDim, names, note, blocks)) return problem;
  if (auto problem = checkDims("block", rule.block, kMaxBlockDim, names, note, threads)) return problem;
  if (threads > kMaxThreadsPerBlock)
    return LaunchLimitProblem{"block", "",
                              std::to_string(threads) + " threads per block" + note + ", above the CUDA limit " +
                                  std::to_string(kMaxThreadsPerBlock)};
  std::int64_t bytes = 0;
  try {
    bytes = evaluateAxisExpression(rule.dynamicSmemBytes, names);
  } catch (const ExpressionError& e) {
    return LaunchLimitProblem{"dynamicSmemBytes", "", e.what() + note};
  }
  if (bytes < 0 || bytes > kMaxDynamicSmemBytes)
    return LaunchLimitProblem{"dynamicSmemBytes", rule.dynamicSmemBytes,
                              "evaluates to " + std::to_string(bytes) + note + ", must be in [0, " +
                                  std::to_string(kMaxDynamicSmemBytes) + "]"};
  return std::nullopt;
}

}  // namespace crucible
