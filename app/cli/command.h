// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli subcommands register themselves here, one file per command
// (cmd_*.cpp, compiled straight into the executable so registration runs).
// A command declares its CLI11 subcommand (options, help) in `define` and
// says what runs when the command line chose it with onRun(); command_line.h
// builds the whole command line from them, for parsing, --help and the man page.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <string>

#include "app/cli/options.h"

namespace crucible::cli {

// What a chosen (sub)command does with its parsed options; returns an ExitCode.
using Action = std::function<int(const Options&)>;

struct Command {
  std::string summary;                   // one line for `crucible-cli help` and the man page
  std::function<void(CLI::App&)> define; // declares the subcommand's options, description and onRun()
};

std::map<std::string, Command>& commands();

struct RegisterCommand {
  RegisterCommand(const std::string& name, Command c) { commands().emplace(name, std::move(c)); }
};

// `action` runs when the command line ends in `app` (a command, or a command's subcommand).
void onRun(CLI::App& app, Action action);
// The action onRun() gave `app`, or null.
const Action* actionOf(const CLI::App& app);

}  // namespace crucible::cli
