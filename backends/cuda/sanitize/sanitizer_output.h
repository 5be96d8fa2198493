// SPDX-License-Identifier: GPL-3.0-or-later
// What one compute-sanitizer run says, read from its log (the "========= "
// lines it writes to --log-file) and its exit status. Pure functions: the
// tests feed them recorded texts.
//
// Only the sanitizer's own log is parsed, never the program's output: a
// kernel's device printf goes to the program's stdout, so a kernel cannot
// print a fake "ERROR SUMMARY: 0 errors" into what is judged.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace crucible {

struct SanitizerLog {
  std::vector<std::string> reports;      // the first line of each finding, "========= " stripped
  std::optional<int> errorSummary;       // "ERROR SUMMARY: N errors" (the largest, if several)
  std::optional<int> racecheckSummary;   // "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)": max(N, E+W)
  bool targetFailed = false;             // "Target application returned an error"
};

SanitizerLog parseSanitizerLog(const std::string& text);

// How one tool's run ended.
struct ToolRunOutcome {
  std::string tool;                      // "memcheck", "racecheck", "initcheck", "synccheck"
  bool started = true;                   // false: compute-sanitizer could not be started (startError)
  std::string startError;
  bool timedOut = false;                 // killed at the deadline
  double timeoutSeconds = 0;
  int exitCode = 0;                      // compute-sanitizer's; meaningful when signal == 0
  int signal = 0;                        // the signal that ended it, 0 if it exited
  int errorExitCode = 99;                // the --error-exitcode it was given
  std::string sanitizerLog;              // its --log-file
  std::string programOutput;             // the worker's stdout and stderr (the reason of a failed launch)
};

struct ToolVerdict {
  bool clean = false;                    // ran to its end, checked the kernel, found nothing
  int reported = 0;                      // the count its summary gave
  std::vector<std::string> findings;     // in words, the tool's own first
};

// Clean needs all of: exit status 0, a summary line (proof the tool checked
// a run), a zero count, and no report. Anything else is a finding: a report,
// a count with no report, a timeout, a failed launch, a missing summary.
ToolVerdict judgeToolRun(const ToolRunOutcome& run);

}  // namespace crucible
