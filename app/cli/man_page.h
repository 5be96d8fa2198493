// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli(1) in roff, written from the CLI11 definitions of its
// commands (command_line.h), so the man page lists exactly the commands and
// options the program takes, with their help, and the exit status table
// (exit_codes.h). `crucible-cli --man` prints it; the build installs it
// (packaging/CMakeLists.txt).
#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace crucible::cli {

std::string manPage(CLI::App& app);

// Text made safe for roff: backslashes escaped, a line starting with '.' or '\'' guarded.
std::string roffText(const std::string& text);

}  // namespace crucible::cli
