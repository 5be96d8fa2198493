// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/module_pages_watch.h"
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

ModulePagesWatch::ModulePagesWatch(HarnessMemoryWatch::Hasher hash, std::size_t page, std::vector<DeviceSpan> anchors,
                                   std::vector<DeviceSpan> excluded)
    : hash_(hash), page_(page), anchors_(std::move(anchors)), excluded_(std::move(excluded)), watch_(hash) {
  record();
}

void ModulePagesWatch::excludeAndRecord(const std::vector<DeviceSpan>& spans) {
  excluded_.insert(excluded_.end(), spans.begin(), spans.end());
  record();
}

void ModulePagesWatch::record() {
  watch_ = HarnessMemoryWatch(hash_);
  regions_ = pagesAround(anchors_, excluded_, page_);
  for (const DeviceSpan& r : regions_) {
    char what[160];
    std::snprintf(what, sizeof what, "driver's memory around the kernel's module variables, %zu bytes at 0x%llx",
                  r.bytes, static_cast<unsigned long long>(r.begin));
    watch_.record(what, r.begin, r.bytes);
  }
}

std::string ModulePagesWatch::damage() const {
  const std::string what = watch_.firstChange();
  if (what.empty()) return {};
  return "a kernel wrote into the " + what +
         " (module variables share pages with the driver's other data, where results could outlive a launch): a "
         "kernel may write only its outputs and its own variables";
}

std::size_t ModulePagesWatch::watchedBytes() const {
  std::size_t n = 0;
  for (const DeviceSpan& r : regions_) n += r.bytes;
  return n;
}

}  // namespace crucible::cuda
