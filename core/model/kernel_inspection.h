// SPDX-License-Identifier: GPL-3.0-or-later
// What the kernel editor shows beside a source as the user types (issue 17,
// Compiler Explorer as the model): the compile report (diagnostics on their
// lines, registers, shared and local memory, spills, PTX features), the PTX
// and the SASS, each with the source line of every listing line, and what is
// wrong with the kernel's signature. Produced off the GUI thread by a
// KernelInspector (backends/cuda/compile: NVRTC, nvJitLink, nvdisasm where
// installed); tests use doubles.
#pragma once
#include <map>
#include <string>
#include <vector>
#include "core/model/candidate.h"

namespace crucible {

// Listing lines <-> source lines, both 1-based (0 = none).
struct ListingLineMap {
  std::vector<int> sourceLineOf;                    // [listing line - 1] -> source line, 0 when none
  std::map<int, std::vector<int>> listingLinesOf;   // source line -> its listing lines, ascending
  // The listing lines of a source line (empty when it made no code).
  const std::vector<int>& linesFor(int sourceLine) const;
};

struct KernelInspection {
  CompileReport report;               // ok, diagnostics (with lines), resources, features
  std::vector<std::string> abiProblems;  // what is wrong with the signature; empty when it matches the task
  std::string ptx;                    // NVRTC's PTX (empty when NVRTC failed)
  ListingLineMap ptxLines;
  std::string sass;                   // the disassembly of the linked cubin (empty when unavailable)
  std::string sassUnavailable;        // why there is no SASS ("nvdisasm is not installed ..."), "" when there is
  ListingLineMap sassLines;
};

struct InspectionRequest {
  std::string source;
  LaunchRule launch;                  // entry and tensor maps: the ABI check needs them
  std::string taskSpecJson;           // the task the kernel is for; "" = no ABI check
  std::string arch;                   // "sm_90"; "" = the inspector's default
};

class KernelInspector {
public:
  virtual ~KernelInspector() = default;
  // Blocking (NVRTC takes from a fraction of a second to tens of seconds);
  // thread-safe: the editor runs it on a worker thread and drops a result a
  // newer edit has overtaken. Never throws for bad input.
  virtual KernelInspection inspect(const InspectionRequest& request) = 0;
};

// PTX with -lineinfo: `.file N "name"` and `.loc N line col` directives; only
// lines of the file named `sourceName` count.
ListingLineMap ptxLineMap(const std::string& ptx, const std::string& sourceName);

// nvdisasm --print-line-info: `//## File "path", line N` comments before the
// instructions they describe (an "inlined at" suffix keeps the innermost
// line); only files whose name ends with `sourceName` count.
ListingLineMap sassLineMap(const std::string& sass, const std::string& sourceName);

}  // namespace crucible
