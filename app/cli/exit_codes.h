// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's exit status: the same meaning in every command, so scripts
// and schedulers can tell a wrong command line from a project they cannot
// use and from a machine without a GPU. Printed by `crucible-cli help`;
// the README's headless section has the same table.
#pragma once
#include <string>

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

// The table above in words, for `crucible-cli help` and the man page.
struct ExitCodeMeaning {
  int code;
  const char* meaning;
};
inline constexpr ExitCodeMeaning kExitCodeMeanings[] = {
    {Success, "success"},
    {Failed, "the command ran and failed (a kernel not valid, a task with no valid kernel, a failed run...)"},
    {Usage, "bad usage: unknown command or option, missing or extra argument, malformed or out-of-range value, or a "
            "task or run that does not exist"},
    {NoGpu, "no usable GPU here (eval, run, resume, fork)"},
    {ProjectUnusable, "the project cannot be used: missing, not a Crucible project, damaged, newer than this build, "
                      "cannot be created, or read-only for a command that writes to it"},
};

// The table as `crucible-cli help` prints it: "  2  bad usage: ...", wrapped at 100 columns.
inline std::string exitCodeTable() {
  std::string out = "exit status (every command):\n";
  for (const ExitCodeMeaning& e : kExitCodeMeanings) {
    std::string line = "  " + std::to_string(e.code) + "  ";
    const std::string text = e.meaning;
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t room = 100 - line.size(), take = text.size() - at;
      if (take > room) {
        take = text.rfind(' ', at + room) - at;
        if (take == 0 || take > room) take = room;
      }
      out += line + text.substr(at, take) + "\n";
      at += take;
      while (at < text.size() && text[at] == ' ') ++at;
      line = "     ";
    }
  }
  return out;
}

}  // namespace crucible::cli
