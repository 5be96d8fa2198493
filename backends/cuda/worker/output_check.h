// SPDX-License-Identifier: GPL-3.0-or-later
// Compares one kernel output with the oracle's double-precision output, every
// element, and names the first thing wrong in words. Pure host code: no GPU.
// The worker runs the same pass on the device (HarnessKernels::tallyOutput)
// and puts its tally in words with describeOutputCheck; checkOutput is the
// specification the device pass is tested against.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "backends/cuda/worker/host_tensor.h"
#include "core/task/task_spec.h"

namespace crucible::cuda {

struct OutputCheck {
  std::int64_t elements = 0;
  std::int64_t unwritten = 0;     // still hold the poison pattern
  std::int64_t nonFinite = 0;     // NaN or Inf where the reference is finite
  std::int64_t mismatches = 0;    // finite but outside atol + rtol*|ref|
  double maxAbsError = 0;         // over finite elements
  // Over finite elements where the relative term governs the tolerance
  // (rtol*|ref| >= atol; every ref != 0 when rtol is 0 or atol is 0): near
  // zero, where atol decides, a relative error says nothing.
  double maxRelError = 0;
  bool allZero = false;           // output all zeros, reference not
  bool constant = false;          // output one repeated value, reference not
  std::int64_t firstBad = -1;     // index of the first failing element
  double firstGot = 0, firstWant = 0;
  std::string reason;             // empty when the output passes
  bool passed() const { return reason.empty(); }
};

// What one pass over an output finds, before it is put in words. The first
// indices are -1 where no element qualifies; the four flags hold over every
// element (an unwritten element is neither zero nor the constant).
struct OutputTally {
  std::int64_t elements = 0;
  std::int64_t unwritten = 0, nonFinite = 0, mismatches = 0;
  std::int64_t firstUnwritten = -1, firstNonFinite = -1, firstMismatch = -1;
  double maxAbsError = 0, maxRelError = 0;
  bool outAllZero = true, outConstant = true, refAllZero = true, refConstant = true;
};

// The OutputCheck a tally earns: `gotAt(i)` reads output element i as a
// double (HostTensor::valueAt), `wantAt(i)` the reference's; each is called
// for at most two elements (element 0 and the first failing one).
OutputCheck describeOutputCheck(const std::string& name, const OutputTally& tally, const Tolerance& tol,
                                const std::function<double(std::int64_t)>& gotAt,
                                const std::function<double(std::int64_t)>& wantAt);

// `poison` is the pattern the output was filled with before the launch.
OutputCheck checkOutput(const std::string& name, const HostTensor& got, const std::vector<double>& reference,
                        const Tolerance& tol, const std::vector<std::byte>& poison);

// Elements whose bytes differ between two launches on the same inputs.
struct BitwiseDiff {
  std::int64_t differing = 0;
  std::int64_t first = -1;
};
BitwiseDiff compareBitwise(const HostTensor& a, const HostTensor& b);

// A description of the oracle's output if it is unusable (non-finite, or a
// NaN pattern left where the oracle never wrote), else empty: a task bug,
// reported as such rather than blamed on the candidate.
std::string checkReference(const std::string& name, const std::vector<double>& reference);
// checkReference's verdict from a count of non-finite elements and the first
// (HarnessKernels::countNonFinite), of `elements` in all; empty when none.
std::string describeBadReference(const std::string& name, const BitwiseDiff& nonFinite, std::int64_t elements);

}  // namespace crucible::cuda
