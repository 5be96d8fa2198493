// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the compilers' logs: NVRTC diagnostics mapped onto the candidate's
// own line numbers, and the ptxas resource report (registers, shared memory,
// stack, spills) that NVRTC (--ptxas-options=-v) and nvJitLink (-verbose) print.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>
#include "core/model/candidate.h"

namespace crucible {

// Parses NVRTC's "name(line): error: message" diagnostics (also "warning
// #177-D:", "catastrophic error:", "remark:") and the caret line under the echoed
// source that gives the column. Lines of `sourceName` are shifted by
// `preludeLines` (lines prepended before the candidate's source); a diagnostic
// inside the prelude or another file (a header) gets line 0 and names its
// location in the message.
std::vector<CompileDiagnostic> parseNvrtcLog(std::string_view log, std::string_view sourceName,
                                             int preludeLines = 0);

// Error lines of the PTX assembler / linker (no source line: they refer to PTX).
std::vector<CompileDiagnostic> parseLinkerErrors(std::string_view log);

// ptxas's resource report for one function.
struct PtxasFunctionStats {
  bool entry = false;        // a __global__ function ("Compiling entry function ...")
  int registers = 0;
  int sharedBytes = 0;       // static shared memory
  int stackBytes = 0;        // stack frame: local arrays and spills, per thread
  int localBytes = 0;        // "lmem" outside the stack frame
  int spillStoreBytes = 0;
  int spillLoadBytes = 0;
  int barriers = 0;
};

// Per function (by its PTX name) from ptxas "info" lines, in either the ptxas
// block form or nvJitLink's one-line summary form.
std::map<std::string, PtxasFunctionStats> parsePtxasInfo(std::string_view log);

}  // namespace crucible
