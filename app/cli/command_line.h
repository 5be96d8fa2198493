// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli's whole command line as one CLI11 app: every registered
// command (command.h) as a subcommand, plus `version`. The one definition
// that parsing, every --help and the man page (man_page.h) come from.
#pragma once
#include <CLI/CLI.hpp>

#include <memory>

namespace crucible::cli {

std::unique_ptr<CLI::App> makeCommandLine();

// The deepest subcommand the parsed command line chose (the app itself when none).
CLI::App& chosenCommand(CLI::App& app);

// "crucible-cli task show": the chosen command's name as typed.
std::string commandPath(const CLI::App& app);

}  // namespace crucible::cli
