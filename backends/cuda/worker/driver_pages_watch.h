// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's memory a kernel can name, watched like the harness's own
// (harness_memory_watch.h): the pages around its module's variables and
// around its stream's launch-parameter slots (parameter_ring.h).
//
// The driver places module-scope variables in shared 2 MiB pages: a second
// module's variable lay 256 bytes after the first, and marks a kernel wrote
// past its own variable, up to the end of that page, survived its launch and
// the reset of its variables (H100, tests/gpu/adversarial/results/
// 2026-12-06-h100-whole-pages.md). A kernel with any module variable could
// keep about 2 MiB of results there and copy them out at a timed launch. That
// memory belongs to no allocation of the harness, so the whole pages holding
// the candidate's variables are watched (the evaluator's anchors: its
// `__constant__` ones too, which lie in the same pages and which a kernel can
// write through a generic address: probe_module_constant),
// less the bytes some module may change: the candidate's writable variables
// (reset before every launch) and the variables of modules loaded later
// (the reference's: `excludeAndRecord`).
//
// The launch-parameter slots are the same kind of memory: the driver's, in
// pages where marks outlive launches; their pages are watched less each
// slot's head, which the driver writes at every launch.
#pragma once
#include <cuda.h>
#include <cstddef>
#include <string>
#include <vector>
#include "backends/cuda/worker/device_span.h"
#include "backends/cuda/worker/harness_memory_watch.h"

namespace crucible::cuda {

// The whole pages (of `page` bytes, a power of two) that hold any byte of
// `anchors`, less every byte of `excluded`, as sorted, disjoint, non-empty spans.
std::vector<DeviceSpan> pagesAround(const std::vector<DeviceSpan>& anchors, const std::vector<DeviceSpan>& excluded,
                                    std::size_t page);

// The device spans of `module`'s variables (loaded from `cubin`) that the
// driver finds by name: every addressable one, or only the writable ones.
// Throws KernelFailure (CompileFailed) when the image cannot be read.
std::vector<DeviceSpan> moduleVariableSpans(CUmodule module, const std::string& cubin, bool writableOnly);

// Spans whose pages are watched, and what they are ("the kernel's module
// variables"), for the verdict.
struct PageAnchors {
  std::string what;
  std::vector<DeviceSpan> spans;
};

class DriverPagesWatch {
public:
  // Records the pages around every group of `anchors` less `excluded` as they
  // hold now (right after the module's load, before any launch of it).
  DriverPagesWatch(HarnessMemoryWatch::Hasher hash, std::size_t page, std::vector<PageAnchors> anchors,
                   std::vector<DeviceSpan> excluded);
  // Another module was just loaded or unloaded (the driver wrote its
  // variables and constants, perhaps into these pages): `spans` (its
  // variables) are excluded from now on and every region is recorded again.
  // Call it only straight after damage() found nothing, so that no kernel's
  // write is taken in.
  void excludeAndRecord(const std::vector<DeviceSpan>& spans);
  // "" when every region hashes as recorded; else a verdict naming the first that does not.
  std::string damage() const;
  std::size_t watchedBytes() const;

private:
  void record();
  HarnessMemoryWatch::Hasher hash_;
  std::size_t page_;
  // "the kernel's module variables", or "... and ..." for a region whose page holds several groups.
  std::string describe(const DeviceSpan& region) const;
  std::vector<PageAnchors> anchors_;
  std::vector<DeviceSpan> excluded_;
  std::vector<DeviceSpan> regions_;
  HarnessMemoryWatch watch_;
};

}  // namespace crucible::cuda
