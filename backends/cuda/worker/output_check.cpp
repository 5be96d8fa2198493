// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/output_check.h"
#include <cmath>
#include <cstring>
#include <sstream>

namespace crucible::cuda {
namespace {
std::string fmt(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}
std::string where(const std::string& name, std::int64_t n, std::int64_t total) {
  return "output '" + name + "': " + std::to_string(n) + " of " + std::to_string(total) + " elements";
}
}  // namespace

OutputCheck checkOutput(const std::string& name, const HostTensor& got, const std::vector<double>& reference,
                        const Tolerance& tol, const std::vector<std::byte>& poison) {
  OutputCheck c;
  c.elements = got.count;
  if (static_cast<std::int64_t>(reference.size()) != got.count) {
    c.reason = "output '" + name + "': internal error, reference has " + std::to_string(reference.size()) +
               " elements, output " + std::to_string(got.count);
    return c;
  }
  const std::size_t width = sizeOf(got.dtype);
  std::int64_t firstUnwritten = -1, firstNonFinite = -1, firstMismatch = -1;
  bool outAllZero = true, outConstant = true, refAllZero = true, refConstant = true;
  const double out0 = got.count ? got.valueAt(0) : 0;
  const double ref0 = got.count ? reference[0] : 0;
  for (std::int64_t i = 0; i < got.count; ++i) {
    const std::byte* p = got.bytes.data() + static_cast<std::size_t>(i) * width;
    const double want = reference[static_cast<std::size_t>(i)];
    refAllZero = refAllZero && want == 0;
    refConstant = refConstant && want == ref0;
    if (std::memcmp(p, poison.data(), width) == 0) {
      ++c.unwritten;
      if (firstUnwritten < 0) firstUnwritten = i;
      outAllZero = outConstant = false;
      continue;
    }
    const double y = got.valueAt(i);
    outAllZero = outAllZero && y == 0;
    outConstant = outConstant && (y == out0 || (std::isnan(y) && std::isnan(out0)));
    if (!std::isfinite(y)) {
      ++c.nonFinite;
      if (firstNonFinite < 0) firstNonFinite = i;
      continue;
    }
    const double err = std::fabs(y - want);
    c.maxAbsError = std::max(c.maxAbsError, err);
    if (want != 0 && tol.rtol * std::fabs(want) >= tol.atol) c.maxRelError = std::max(c.maxRelError, err / std::fabs(want));
    if (!(err <= tol.atol + tol.rtol * std::fabs(want))) {
      ++c.mismatches;
      if (firstMismatch < 0) firstMismatch = i;
    }
  }
  c.allZero = got.count > 0 && outAllZero && !refAllZero;
  c.constant = got.count > 1 && outConstant && !refConstant;

  auto firstAt = [&](std::int64_t i) {
    c.firstBad = i;
    c.firstWant = reference[static_cast<std::size_t>(i)];
    c.firstGot = got.valueAt(i);
  };
  if (c.unwritten > 0) {
    firstAt(firstUnwritten);
    c.reason = where(name, c.unwritten, got.count) + " never written (still hold the poison pattern), first at index " +
               std::to_string(firstUnwritten);
  } else if (c.nonFinite > 0) {
    firstAt(firstNonFinite);
    c.reason = where(name, c.nonFinite, got.count) + " are NaN or Inf where the reference is finite, first at index " +
               std::to_string(firstNonFinite) + " (an out-of-bounds read of the NaN guard around inputs shows this way)";
  } else if (c.allZero) {
    firstAt(0);
    c.reason = "output '" + name + "' is all zeros; the reference is not";
  } else if (c.constant) {
    firstAt(0);
    c.reason = "output '" + name + "' holds one value (" + fmt(out0) + ") in every element; the reference does not";
  } else if (c.mismatches > 0) {
    firstAt(firstMismatch);
    c.reason = where(name, c.mismatches, got.count) + " outside tolerance (|y-ref| <= " + fmt(tol.atol) + " + " +
               fmt(tol.rtol) + "*|ref|); first at index " + std::to_string(firstMismatch) + ": got " +
               fmt(c.firstGot) + ", want " + fmt(c.firstWant) + "; max abs error " + fmt(c.maxAbsError) +
               ", max rel error " + fmt(c.maxRelError);
  }
  return c;
}

BitwiseDiff compareBitwise(const HostTensor& a, const HostTensor& b) {
  BitwiseDiff d;
  const std::size_t width = sizeOf(a.dtype);
  const std::int64_t n = std::min(a.count, b.count);
  for (std::int64_t i = 0; i < n; ++i) {
    if (std::memcmp(a.bytes.data() + i * width, b.bytes.data() + i * width, width) != 0) {
      if (d.first < 0) d.first = i;
      ++d.differing;
    }
  }
  d.differing += std::max(a.count, b.count) - n;
  return d;
}

std::string checkReference(const std::string& name, const std::vector<double>& reference) {
  std::int64_t bad = 0, first = -1;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (!std::isfinite(reference[i])) {
      if (first < 0) first = static_cast<std::int64_t>(i);
      ++bad;
    }
  }
  if (bad == 0) return {};
  return "the task's oracle left " + std::to_string(bad) + " of " + std::to_string(reference.size()) +
         " elements of output '" + name + "' non-finite or unwritten (first at index " + std::to_string(first) +
         "): the task spec is wrong, not the candidate";
}

}  // namespace crucible::cuda
