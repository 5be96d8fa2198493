// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/output_check.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <sstream>
#include <type_traits>
#include "backends/cuda/worker/parallel_chunks.h"

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

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
// Calls f with a function object that reads one element of dtype d as a
// double (exactly as HostTensor::valueAt does) and that element's width, so
// per-element loops are compiled once per dtype.
template <typename F>
void withLoader(DType d, F&& f) {
  switch (d) {
    case DType::F32: f([](const std::byte* p) -> double { return load<float>(p); }, std::integral_constant<std::size_t, 4>{}); return;
    case DType::F64: f([](const std::byte* p) -> double { return load<double>(p); }, std::integral_constant<std::size_t, 8>{}); return;
    case DType::F16: f([](const std::byte* p) -> double { return halfToFloat(load<std::uint16_t>(p)); }, std::integral_constant<std::size_t, 2>{}); return;
    case DType::BF16: f([](const std::byte* p) -> double { return bfloat16ToFloat(load<std::uint16_t>(p)); }, std::integral_constant<std::size_t, 2>{}); return;
    case DType::I32: f([](const std::byte* p) -> double { return load<std::int32_t>(p); }, std::integral_constant<std::size_t, 4>{}); return;
    case DType::I64: f([](const std::byte* p) -> double { return static_cast<double>(load<std::int64_t>(p)); }, std::integral_constant<std::size_t, 8>{}); return;
  }
}

// One chunk's share of checkOutput: merged in chunk order, so the first
// failing indices and the counts are those of one sequential pass.
struct PartialCheck {
  std::int64_t unwritten = 0, nonFinite = 0, mismatches = 0;
  std::int64_t firstUnwritten = -1, firstNonFinite = -1, firstMismatch = -1;
  double maxAbsError = 0, maxRelError = 0;
  bool outAllZero = true, outConstant = true, refAllZero = true, refConstant = true;
};

// Elements per block for the bitwise comparisons: whole blocks are compared
// with memcmp first, and only a block that differs is walked element by element.
constexpr std::int64_t kBlock = 4096;

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
  const double out0 = got.count ? got.valueAt(0) : 0;
  const double ref0 = got.count ? reference[0] : 0;
  const int chunks = chunkCountFor(got.count);
  std::vector<PartialCheck> parts(static_cast<std::size_t>(chunks));
  withLoader(got.dtype, [&](auto valueOf, auto widthConstant) {
    constexpr std::size_t width = decltype(widthConstant)::value;
    std::array<std::byte, width> poisonBytes{};
    std::memcpy(poisonBytes.data(), poison.data(), std::min(width, poison.size()));
    runChunks(got.count, chunks, [&](int chunk, std::int64_t begin, std::int64_t end) {
      PartialCheck k;
      for (std::int64_t i = begin; i < end; ++i) {
        const std::byte* p = got.bytes.data() + static_cast<std::size_t>(i) * width;
        const double want = reference[static_cast<std::size_t>(i)];
        k.refAllZero = k.refAllZero && want == 0;
        k.refConstant = k.refConstant && want == ref0;
        if (std::memcmp(p, poisonBytes.data(), width) == 0) {
          ++k.unwritten;
          if (k.firstUnwritten < 0) k.firstUnwritten = i;
          k.outAllZero = k.outConstant = false;
          continue;
        }
        const double y = valueOf(p);
        k.outAllZero = k.outAllZero && y == 0;
        k.outConstant = k.outConstant && (y == out0 || (std::isnan(y) && std::isnan(out0)));
        if (!std::isfinite(y)) {
          ++k.nonFinite;
          if (k.firstNonFinite < 0) k.firstNonFinite = i;
          continue;
        }
        const double err = std::fabs(y - want);
        k.maxAbsError = std::max(k.maxAbsError, err);
        if (want != 0 && tol.rtol * std::fabs(want) >= tol.atol)
          k.maxRelError = std::max(k.maxRelError, err / std::fabs(want));
        if (!(err <= tol.atol + tol.rtol * std::fabs(want))) {
          ++k.mismatches;
          if (k.firstMismatch < 0) k.firstMismatch = i;
        }
      }
      parts[static_cast<std::size_t>(chunk)] = k;
    });
  });
  OutputTally t;
  t.elements = got.count;
  auto firstOf = [](std::int64_t sofar, std::int64_t here) { return sofar >= 0 ? sofar : here; };
  for (const PartialCheck& k : parts) {  // chunk order: the earliest chunk's first index wins
    t.unwritten += k.unwritten;
    t.nonFinite += k.nonFinite;
    t.mismatches += k.mismatches;
    t.firstUnwritten = firstOf(t.firstUnwritten, k.firstUnwritten);
    t.firstNonFinite = firstOf(t.firstNonFinite, k.firstNonFinite);
    t.firstMismatch = firstOf(t.firstMismatch, k.firstMismatch);
    t.maxAbsError = std::max(t.maxAbsError, k.maxAbsError);
    t.maxRelError = std::max(t.maxRelError, k.maxRelError);
    t.outAllZero = t.outAllZero && k.outAllZero;
    t.outConstant = t.outConstant && k.outConstant;
    t.refAllZero = t.refAllZero && k.refAllZero;
    t.refConstant = t.refConstant && k.refConstant;
  }
  return describeOutputCheck(
      name, t, tol, [&](std::int64_t i) { return got.valueAt(i); },
      [&](std::int64_t i) { return reference[static_cast<std::size_t>(i)]; });
}

OutputCheck describeOutputCheck(const std::string& name, const OutputTally& t, const Tolerance& tol,
                                const std::function<double(std::int64_t)>& gotAt,
                                const std::function<double(std::int64_t)>& wantAt) {
  OutputCheck c;
  c.elements = t.elements;
  c.unwritten = t.unwritten;
  c.nonFinite = t.nonFinite;
  c.mismatches = t.mismatches;
  c.maxAbsError = t.maxAbsError;
  c.maxRelError = t.maxRelError;
  c.allZero = t.elements > 0 && t.outAllZero && !t.refAllZero;
  c.constant = t.elements > 1 && t.outConstant && !t.refConstant;

  auto firstAt = [&](std::int64_t i) {
    c.firstBad = i;
    c.firstWant = wantAt(i);
    c.firstGot = gotAt(i);
  };
  if (c.unwritten > 0) {
    firstAt(t.firstUnwritten);
    c.reason = where(name, c.unwritten, t.elements) + " never written (still hold the poison pattern), first at index " +
               std::to_string(t.firstUnwritten);
  } else if (c.nonFinite > 0) {
    firstAt(t.firstNonFinite);
    c.reason = where(name, c.nonFinite, t.elements) + " are NaN or Inf where the reference is finite, first at index " +
               std::to_string(t.firstNonFinite) +
               " (an out-of-bounds read of the NaN guard around inputs shows this way)";
  } else if (c.allZero) {
    firstAt(0);
    c.reason = "output '" + name + "' is all zeros; the reference is not";
  } else if (c.constant) {
    firstAt(0);
    c.reason = "output '" + name + "' holds one value (" + fmt(c.firstGot) + ") in every element; the reference does not";
  } else if (c.mismatches > 0) {
    firstAt(t.firstMismatch);
    c.reason = where(name, c.mismatches, t.elements) + " outside tolerance (|y-ref| <= " + fmt(tol.atol) + " + " +
               fmt(tol.rtol) + "*|ref|); first at index " + std::to_string(t.firstMismatch) + ": got " +
               fmt(c.firstGot) + ", want " + fmt(c.firstWant) + "; max abs error " + fmt(c.maxAbsError) +
               ", max rel error " + fmt(c.maxRelError);
  }
  return c;
}

BitwiseDiff compareBitwise(const HostTensor& a, const HostTensor& b) {
  BitwiseDiff d;
  const std::size_t width = sizeOf(a.dtype);
  const std::int64_t n = std::min(a.count, b.count);
  const int chunks = chunkCountFor(n);
  std::vector<BitwiseDiff> parts(static_cast<std::size_t>(chunks));
  runChunks(n, chunks, [&](int chunk, std::int64_t begin, std::int64_t end) {
    BitwiseDiff k;
    for (std::int64_t blockStart = begin; blockStart < end; blockStart += kBlock) {
      const std::int64_t blockEnd = std::min(end, blockStart + kBlock);
      const std::size_t off = static_cast<std::size_t>(blockStart) * width;
      const std::size_t len = static_cast<std::size_t>(blockEnd - blockStart) * width;
      if (std::memcmp(a.bytes.data() + off, b.bytes.data() + off, len) == 0) continue;
      for (std::int64_t i = blockStart; i < blockEnd; ++i) {
        const std::size_t at = static_cast<std::size_t>(i) * width;
        if (std::memcmp(a.bytes.data() + at, b.bytes.data() + at, width) != 0) {
          if (k.first < 0) k.first = i;
          ++k.differing;
        }
      }
    }
    parts[static_cast<std::size_t>(chunk)] = k;
  });
  for (const BitwiseDiff& k : parts) {
    if (d.first < 0) d.first = k.first;
    d.differing += k.differing;
  }
  d.differing += std::max(a.count, b.count) - n;
  return d;
}

std::string checkReference(const std::string& name, const std::vector<double>& reference) {
  const auto n = static_cast<std::int64_t>(reference.size());
  const int chunks = chunkCountFor(n);
  std::vector<BitwiseDiff> parts(static_cast<std::size_t>(chunks));  // non-finite count and first index
  runChunks(n, chunks, [&](int chunk, std::int64_t begin, std::int64_t end) {
    BitwiseDiff k;
    for (std::int64_t i = begin; i < end; ++i) {
      if (!std::isfinite(reference[static_cast<std::size_t>(i)])) {
        if (k.first < 0) k.first = i;
        ++k.differing;
      }
    }
    parts[static_cast<std::size_t>(chunk)] = k;
  });
  std::int64_t bad = 0, first = -1;
  for (const BitwiseDiff& k : parts) {
    if (first < 0) first = k.first;
    bad += k.differing;
  }
  return describeBadReference(name, BitwiseDiff{bad, first}, n);
}

std::string describeBadReference(const std::string& name, const BitwiseDiff& nonFinite, std::int64_t elements) {
  if (nonFinite.differing == 0) return {};
  return "the task's oracle left " + std::to_string(nonFinite.differing) + " of " + std::to_string(elements) +
         " elements of output '" + name + "' non-finite or unwritten (first at index " +
         std::to_string(nonFinite.first) + "): the task spec is wrong, not the candidate";
}

}  // namespace crucible::cuda
