// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's exit status: the same meaning in every command, so scripts
// and schedulers can tell a wrong command line from a project they cannot
// use and from a machine without a GPU. Printed by `crucible-cli help`;
// the README's headless section has the same table.
#pragma once

namespace crucible::cli {

enum ExitCode : int {
  // The command did what was asked and the answer is "yes".
  Success = 0,
  // The command ran and the answer is "no", or it failed: a kernel that is not
  // valid, a task with no valid kernel, a run that failed, a task file that
  // does not validate, an unexpected error.
  Failed = 1,
  // The command line is wrong: an unknown command or option, a missing or
  // extra argument, a malformed or out-of-range value (NaN, infinities,
  // trailing junk, 0 where leaving the option out means "no limit"), a task
  // or run that the arguments name and that does not exist.
  Usage = 2,
  // The command needs a GPU and none can be used here.
  NoGpu = 3,
  // The project cannot be used: the file is missing, is not a Crucible
  // project, is damaged or newer than this build, cannot be created, or is
  // read-only for a command that writes to it.
  ProjectUnusable = 4,
};

// The table above as `crucible-cli help` prints it.
inline const char* exitCodeTable() {
  return "exit status (every command):\n"
         "  0  success\n"
         "  1  the command ran and failed (a kernel not valid, a task with no valid kernel, a failed run...)\n"
         "  2  bad usage: unknown command or option, missing or extra argument, malformed or out-of-range\n"
         "     value, or a task or run that does not exist\n"
         "  3  no usable GPU here (eval, run, resume, fork)\n"
         "  4  the project cannot be used: missing, not a Crucible project, damaged, newer than this build,\n"
         "     cannot be created, or read-only for a command that writes to it\n";
}

}  // namespace crucible::cli
