// SPDX-License-Identifier: GPL-3.0-or-later
// Compiling a generation's candidates on several CPU threads.
#pragma once
#include <vector>
#include "core/engine/interfaces.h"

namespace crucible {

// Compiles every request with `compiler` on up to `threads` std::threads
// (<= 0: std::thread::hardware_concurrency()). Results are in request order.
// An exception thrown by the compiler for one request becomes that request's
// failed report (ok=false, the exception's message as an error diagnostic),
// so one bad candidate never loses the others.
std::vector<CompileResult> compileAll(Compiler& compiler, const std::vector<CompileRequest>& requests,
                                      int threads = 0);

}  // namespace crucible
