// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli subcommands register themselves here, one file per command
// (cmd_*.cpp, compiled straight into the executable so registration runs).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace crucible::cli {

struct Command {
  std::string summary;   // one line for `crucible-cli help`
  std::function<int(const std::vector<std::string>& args)> run;  // args after the command name
};

std::map<std::string, Command>& commands();

struct RegisterCommand {
  RegisterCommand(const std::string& name, Command c) { commands().emplace(name, std::move(c)); }
};

}  // namespace crucible::cli
