// SPDX-License-Identifier: GPL-3.0-or-later
// `crucible-worker --sanitize-run DIR`: the process compute-sanitizer
// watches. It launches the kernel of a sanitize job (sanitize/sanitize_job.h)
// twice with its launch rule and the task's parameters (inputs, outputs,
// scalars, then the rule's tensor maps), in allocations of exactly each
// tensor's size: no guard regions, so an access past a tensor's end is
// outside every allocation and memcheck names it. Inputs hold the task's
// distribution; outputs are never written before the first launch, so
// initcheck sees a kernel that reads an output before writing it. It runs no
// oracle and checks no result: judging is the tools' job.
#pragma once
#include <ostream>
#include <string>

namespace crucible::cuda {

// The process's exit status: 0 when both launches completed; 2 when the job
// cannot be read; 3 when the GPU, the kernel or a launch failed (`err` says why).
int sanitizeRun(const std::string& jobDir, std::ostream& out, std::ostream& err);

}  // namespace crucible::cuda
