// SPDX-License-Identifier: GPL-3.0-or-later
// Whether an input distribution can draw finite, varied values of its tensor's
// dtype: the worker draws in double and rounds to the dtype
// (backends/cuda/worker/host_tensor.cpp), so a mean of 1.8e308 for f32 draws
// infinities, a stddev below one step of the dtype draws a constant, and a
// randint bound beyond 2^53 is not even an integer in double.
#pragma once
#include <optional>
#include <string>
#include "core/task/task_spec.h"

namespace crucible {

struct DistributionProblem {
  std::string field;    // "mean", "stddev", "low", "high", or "" for the whole distribution
  std::string message;
};

// The first reason `d` cannot draw finite, varied `dtype` values; nullopt when
// it can. Expects what the parser already checks: a known kind, finite
// numbers, stddev > 0, low < high, integer bounds for randint, and only
// randint for integer dtypes.
std::optional<DistributionProblem> distributionProblem(const Distribution& d, DType dtype);

}  // namespace crucible
