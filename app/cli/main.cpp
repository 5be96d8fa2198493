// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli: Crucible's engine without a GUI, for GPU servers and clusters.
#include <iostream>
#include <string>
#include <vector>
#include "app/cli/command.h"
#include "backends/backends_info.h"
#include "backends/gpu_probe.h"
#include "crucible/version.h"

namespace crucible::cli {
std::map<std::string, Command>& commands() {
  static std::map<std::string, Command> table;
  return table;
}
}  // namespace crucible::cli

namespace {
int usage(std::ostream& out) {
  out << "usage: crucible-cli <command> [options]\n\ncommands:\n";
  out << "  version      print the version, the backends built in and the GPUs found\n";
  for (const auto& [name, cmd] : crucible::cli::commands()) out << "  " << name << std::string(13 - std::min<std::size_t>(12, name.size()), ' ') << cmd.summary << "\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage(std::cerr);
  const std::string name = args.front();
  if (name == "--version" || name == "version") {
    std::cout << "crucible-cli " << CRUCIBLE_VERSION << "\n" << crucible::backendsBuildInfo() << "\n"
              << crucible::probeGpus().message << "\n";
    return 0;
  }
  if (name == "help" || name == "--help" || name == "-h") return usage(std::cout), 0;
  auto& table = crucible::cli::commands();
  auto it = table.find(name);
  if (it == table.end()) {
    std::cerr << "crucible-cli: unknown command '" << name << "'\n";
    return usage(std::cerr);
  }
  try {
    return it->second.run(std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const std::exception& e) {
    std::cerr << "crucible-cli " << name << ": " << e.what() << "\n";
    return 1;
  }
}
