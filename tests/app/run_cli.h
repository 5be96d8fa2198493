// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the built crucible-cli (CRUCIBLE_CLI_PATH) through the shell, the way
// scripts do, and keeps its exit status and output.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace crucible::cli_test {

struct Outcome {
  int exitCode = -1;  // -1: killed by a signal (a crash)
  std::string out;    // stdout and stderr together (or stdout alone)
};

// args are shell words: quote paths with quoted(). stderr joins stdout unless
// withStderr is false (it then goes nowhere). A timeoutSeconds above 0 runs
// the CLI under timeout(1), so a hang fails the test instead of stalling ctest
// (exit status 124).
inline Outcome cli(const std::string& args, bool withStderr = true, int timeoutSeconds = 0) {
  const std::string command = (timeoutSeconds > 0 ? "timeout " + std::to_string(timeoutSeconds) + " " : std::string()) +
                              "'" + CRUCIBLE_CLI_PATH + "' " + args + (withStderr ? " 2>&1" : " 2>/dev/null");
  Outcome o;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return o;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) o.out.append(buffer, n);
  const int status = ::pclose(pipe);
  o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

inline std::string quoted(const std::string& path) { return "'" + path + "'"; }

}  // namespace crucible::cli_test
