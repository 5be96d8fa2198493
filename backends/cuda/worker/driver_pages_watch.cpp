// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/driver_pages_watch.h"
#include <algorithm>
#include <cstdio>
#include "backends/cuda/worker/cubin_globals.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_failure.h"

namespace crucible::cuda {
namespace {

// Sorted and merged: overlapping or touching spans become one.
std::vector<DeviceSpan> merged(std::vector<DeviceSpan> spans) {
  spans.erase(std::remove_if(spans.begin(), spans.end(), [](const DeviceSpan& s) { return s.bytes == 0; }), spans.end());
  std::sort(spans.begin(), spans.end(), [](const DeviceSpan& a, const DeviceSpan& b) { return a.begin < b.begin; });
  std::vector<DeviceSpan> out;
  for (const DeviceSpan& s : spans) {
    if (!out.empty() && s.begin <= out.back().end()) {
      out.back().bytes = std::max(out.back().end(), s.end()) - out.back().begin;
    } else {
      out.push_back(s);
    }
  }
  return out;
}

}  // namespace

std::vector<DeviceSpan> pagesAround(const std::vector<DeviceSpan>& anchors, const std::vector<DeviceSpan>& excluded,
                                    std::size_t page) {
  std::vector<DeviceSpan> pages;
  for (const DeviceSpan& a : anchors) {
    if (a.bytes == 0) continue;
    const CUdeviceptr first = a.begin & ~static_cast<CUdeviceptr>(page - 1);
    const CUdeviceptr last = (a.end() + page - 1) & ~static_cast<CUdeviceptr>(page - 1);
    pages.push_back({first, static_cast<std::size_t>(last - first)});
  }
  std::vector<DeviceSpan> out;
  const std::vector<DeviceSpan> holes = merged(excluded);
  for (const DeviceSpan& p : merged(std::move(pages))) {
    CUdeviceptr at = p.begin;
    for (const DeviceSpan& h : holes) {
      if (h.end() <= at || h.begin >= p.end()) continue;
      if (h.begin > at) out.push_back({at, static_cast<std::size_t>(h.begin - at)});
      at = std::max(at, h.end());
    }
    if (at < p.end()) out.push_back({at, static_cast<std::size_t>(p.end() - at)});
  }
  return out;
}

std::vector<DeviceSpan> moduleVariableSpans(CUmodule module, const std::string& cubin, bool writableOnly) {
  std::vector<CubinGlobal> globals;
  try {
    globals = writableOnly ? writableGlobals(cubin) : addressableGlobals(cubin);
  } catch (const CubinFormatError& e) {
    throw KernelFailure(CandidateStatus::CompileFailed, std::string("cannot read the kernel's binary: ") + e.what());
  }
  std::vector<DeviceSpan> spans;
  for (const CubinGlobal& g : globals) {
    DeviceSpan s;
    // A symbol the driver does not know by name (a compiler-made constant)
    // is left out: a kernel's code cannot name it either. A candidate's
    // writable variable that cannot be found is refused by ModuleGlobalsReset.
    if (driver().cuModuleGetGlobal(&s.begin, &s.bytes, module, g.name.c_str()) == CUDA_SUCCESS) spans.push_back(s);
  }
  return spans;
}

DriverPagesWatch::DriverPagesWatch(HarnessMemoryWatch::Hasher hash, std::size_t page, std::vector<PageAnchors> anchors,
                                   std::vector<DeviceSpan> excluded)
    : hash_(hash), page_(page), anchors_(std::move(anchors)), excluded_(std::move(excluded)), watch_(hash) {
  record();
}

void DriverPagesWatch::excludeAndRecord(const std::vector<DeviceSpan>& spans) {
  excluded_.insert(excluded_.end(), spans.begin(), spans.end());
  record();
}

std::string DriverPagesWatch::describe(const DeviceSpan& region) const {
  std::string what;
  for (const PageAnchors& group : anchors_)
    for (const DeviceSpan& p : pagesAround(group.spans, {}, page_))
      if (p.begin < region.end() && region.begin < p.end()) {
        what += (what.empty() ? "" : " and ") + group.what;
        break;
      }
  return what;
}

void DriverPagesWatch::record() {
  watch_ = HarnessMemoryWatch(hash_);
  std::vector<DeviceSpan> all;
  for (const PageAnchors& group : anchors_) all.insert(all.end(), group.spans.begin(), group.spans.end());
  regions_ = pagesAround(all, excluded_, page_);
  for (const DeviceSpan& r : regions_) {
    char where[80];
    std::snprintf(where, sizeof where, ", %zu bytes at 0x%llx", r.bytes, static_cast<unsigned long long>(r.begin));
    watch_.record("driver's memory around " + describe(r) + where, r.begin, r.bytes);
  }
}

std::string DriverPagesWatch::damage() const {
  const std::string what = watch_.firstChange();
  if (what.empty()) return {};
  return "a kernel wrote into the " + what +
         " (the driver's pages there keep what a kernel writes, where results could outlive a launch): a kernel may "
         "write only its outputs and its own variables";
}

std::size_t DriverPagesWatch::watchedBytes() const {
  std::size_t n = 0;
  for (const DeviceSpan& r : regions_) n += r.bytes;
  return n;
}

}  // namespace crucible::cuda
