// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli: Crucible's engine without a GUI, for GPU servers and clusters.
// Exit status: app/cli/exit_codes.h, the same for every command.
#include <unistd.h>
#include <iostream>
#include <string>
#include <vector>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/options.h"
#include "backends/backends_info.h"
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "backends/gpu_probe.h"
#include "core/model/model_json.h"
#include "core/store/project_store.h"
#include "core/task/task_library.h"
#include "crucible/version.h"

namespace crucible::cli {
std::map<std::string, Command>& commands() {
  static std::map<std::string, Command> table;
  return table;
}
}  // namespace crucible::cli

namespace {
using crucible::cli::ExitCode;

void usage(std::ostream& out) {
  out << "usage: crucible-cli <command> [options]\n\ncommands:\n";
  out << "  version      print the version, the backends built in and the GPUs found\n";
  for (const auto& [name, cmd] : crucible::cli::commands()) out << "  " << name << std::string(13 - std::min<std::size_t>(12, name.size()), ' ') << cmd.summary << "\n";
  out << "\n" << crucible::cli::exitCodeTable();
}
int badUsage(const std::string& command, const std::exception& e) {
  std::cerr << "crucible-cli " << command << ": " << e.what() << "\n(`crucible-cli help` lists the commands)\n";
  return ExitCode::Usage;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage(std::cerr), ExitCode::Usage;
  const std::string name = args.front();
  if (name == "help" || name == "--help" || name == "-h") return usage(std::cout), ExitCode::Success;
  if (name == "--version" || name == "version") {
    if (args.size() > 1) {
      std::cerr << "crucible-cli version: unexpected argument '" << args[1] << "'\n";
      return ExitCode::Usage;
    }
    // Where this binary looks for its worker and tasks: what an installer or a
    // user with a relocated build needs to see first.
    const std::string worker = crucible::LocalGpuDispatcher::defaultWorkerExecutable();
    const std::string tasks = crucible::builtinTasksDir();
    std::cout << "crucible-cli " << CRUCIBLE_VERSION << "\n" << crucible::backendsBuildInfo() << "\n"
              << "worker: " << worker << (::access(worker.c_str(), X_OK) == 0 ? "" : " (not found)") << "\n"
              << "tasks: " << (tasks.empty() ? std::string("(no built-in task folder found)") : tasks) << "\n"
              << crucible::probeGpus().message << "\n";
    return ExitCode::Success;
  }
  auto& table = crucible::cli::commands();
  auto it = table.find(name);
  if (it == table.end()) {
    std::cerr << "crucible-cli: unknown command '" << name << "'\n";
    return usage(std::cerr), ExitCode::Usage;
  }
  try {
    return it->second.run(std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const crucible::cli::UsageError& e) {
    return badUsage(name, e);
  } catch (const crucible::StoreError& e) {
    std::cerr << "crucible-cli " << name << ": " << e.what() << "\n";
    return ExitCode::ProjectUnusable;
  } catch (const crucible::ModelJsonError& e) {
    // Escaping a command, it comes from a record stored in the project, not from the command line.
    std::cerr << "crucible-cli " << name << ": the project holds a damaged record: " << e.what() << "\n";
    return ExitCode::ProjectUnusable;
  } catch (const std::invalid_argument& e) {  // the commands' older usage refusals
    return badUsage(name, e);
  } catch (const std::exception& e) {
    std::cerr << "crucible-cli " << name << ": " << e.what() << "\n";
    return ExitCode::Failed;
  }
}
