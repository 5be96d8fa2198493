// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/distribution_check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace crucible {
namespace {

// What a dtype can hold: its largest finite value, its relative step (machine
// epsilon) and its smallest normal magnitude. Integers step by 1.
struct DTypeRange {
  double maxFinite;
  double epsilon;
  double minNormal;
};

DTypeRange rangeOf(DType d) {
  switch (d) {
    case DType::F32: return {std::numeric_limits<float>::max(), std::ldexp(1.0, -23), std::ldexp(1.0, -126)};
    case DType::F16: return {65504.0, std::ldexp(1.0, -10), std::ldexp(1.0, -14)};
    case DType::BF16: return {3.3895313892515355e38, std::ldexp(1.0, -7), std::ldexp(1.0, -126)};
    case DType::F64: return {std::numeric_limits<double>::max(), std::ldexp(1.0, -52), std::numeric_limits<double>::min()};
    case DType::I32: return {2147483647.0, 1.0, 1.0};
    case DType::I64: return {std::ldexp(1.0, 63), 1.0, 1.0};
  }
  return {0, 1, 1};
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Box-Muller draws in double stay within sqrt(-2 ln 2^-53) < 9 standard deviations.
constexpr double kNormalReach = 9.0;
// The worker carries randint bounds as doubles: integers are exact up to 2^53.
const double kMaxExactInteger = std::ldexp(1.0, 53);

std::optional<DistributionProblem> normalProblem(const Distribution& d, DType dtype, const DTypeRange& r) {
  const double mean = d.a, stddev = d.b;
  const std::string type = toString(dtype);
  const double reach = std::fabs(mean) + kNormalReach * stddev;
  if (!std::isfinite(reach) || reach > r.maxFinite) {
    const std::string field = std::fabs(mean) > r.maxFinite / 2 ? "mean" : "stddev";
    return DistributionProblem{field, "draws reach |mean| + 9 stddev = " + number(reach) + ", beyond the largest finite " +
                                          type + " (" + number(r.maxFinite) + ")"};
  }
  if (stddev < r.minNormal)
    return DistributionProblem{"stddev", "stddev " + number(stddev) + " is below the smallest normal " + type + " (" +
                                             number(r.minNormal) + "): draws would round to (almost) zero"};
  if (stddev < std::fabs(mean) * r.epsilon)
    return DistributionProblem{"stddev", "stddev " + number(stddev) + " is below one " + type + " step at the mean " +
                                             number(mean) + ": draws would round to the same few values"};
  return std::nullopt;
}

std::optional<DistributionProblem> uniformProblem(const Distribution& d, DType dtype, const DTypeRange& r) {
  const std::string type = toString(dtype);
  if (std::fabs(d.a) > r.maxFinite)
    return DistributionProblem{"low", number(d.a) + " is beyond the largest finite " + type + " (" + number(r.maxFinite) + ")"};
  if (std::fabs(d.b) > r.maxFinite)
    return DistributionProblem{"high", number(d.b) + " is beyond the largest finite " + type + " (" + number(r.maxFinite) + ")"};
  const double span = d.b - d.a;
  if (!std::isfinite(span))
    return DistributionProblem{"high", "high - low overflows double; the worker draws low + (high - low) * u"};
  const double magnitude = std::max(std::fabs(d.a), std::fabs(d.b));
  if (magnitude < r.minNormal)
    return DistributionProblem{"", "the range [" + number(d.a) + ", " + number(d.b) + ") lies below the smallest normal " +
                                       type + " (" + number(r.minNormal) + "): draws would round to (almost) zero"};
  if (span < magnitude * r.epsilon)
    return DistributionProblem{"high", "the range [" + number(d.a) + ", " + number(d.b) + ") is narrower than one " + type +
                                           " step: draws would round to the same few values"};
  return std::nullopt;
}

std::optional<DistributionProblem> randintProblem(const Distribution& d, DType dtype, const DTypeRange& r) {
  const std::string type = toString(dtype);
  if (std::fabs(d.a) > kMaxExactInteger)
    return DistributionProblem{"low", number(d.a) + " is beyond 2^53, where doubles stop holding every integer"};
  if (std::fabs(d.b) > kMaxExactInteger)
    return DistributionProblem{"high", number(d.b) + " is beyond 2^53, where doubles stop holding every integer"};
  // Integer dtypes' own ranges are the parser's (i32) or wider than 2^53 (i64).
  if (isFloating(dtype) && d.a < -r.maxFinite)
    return DistributionProblem{"low", number(d.a) + " is beyond the largest finite " + type + " (" + number(r.maxFinite) + ")"};
  if (isFloating(dtype) && d.b - 1 > r.maxFinite)
    return DistributionProblem{"high", "draws up to " + number(d.b - 1) + ", beyond the largest finite " + type + " (" +
                                           number(r.maxFinite) + ")"};
  if (d.b - d.a < 2)
    return DistributionProblem{"high", "randint [" + number(d.a) + ", " + number(d.b) +
                                           ") draws a single value; validation needs varied inputs"};
  return std::nullopt;
}

}  // namespace

std::optional<DistributionProblem> distributionProblem(const Distribution& d, DType dtype) {
  const DTypeRange r = rangeOf(dtype);
  if (d.kind == "normal") return normalProblem(d, dtype, r);
  if (d.kind == "uniform") return uniformProblem(d, dtype, r);
  if (d.kind == "randint") return randintProblem(d, dtype, r);
  return DistributionProblem{"kind", "unknown distribution '" + d.kind + "'"};
}

}  // namespace crucible
