// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli: Crucible's engine without a GUI, for GPU servers and clusters.
// The command line is CLI11's (command_line.h: every command's options and
// help declared once, in its cmd_*.cpp). Exit status: app/cli/exit_codes.h,
// the same for every command.
#include <unistd.h>
#include <iostream>
#include <string>
#include <vector>
#include "app/cli/command.h"
#include "app/cli/command_line.h"
#include "app/cli/exit_codes.h"
#include "app/cli/man_page.h"
#include "app/cli/options.h"
#include "backends/backends_info.h"
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "backends/gpu_probe.h"
#include "core/model/model_json.h"
#include "core/store/project_store.h"
#include "core/task/task_library.h"
#include "crucible/version.h"

namespace {
using crucible::cli::ExitCode;

int badUsage(const std::string& command, const std::string& message) {
  std::cerr << command << ": " << message << "\n(`" << command << " --help` lists "
            << (command == "crucible-cli" ? "the commands" : "its options") << ")\n";
  return ExitCode::Usage;
}

int printVersion() {
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

// A chosen command's action, with the exceptions every command shares turned into exit codes.
int runAction(const crucible::cli::Action& action, const CLI::App& chosen) {
  const std::string name = crucible::cli::commandPath(chosen);
  try {
    return action(crucible::cli::Options(chosen));
  } catch (const crucible::cli::UsageError& e) {
    return badUsage(name, e.what());
  } catch (const crucible::StoreError& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return ExitCode::ProjectUnusable;
  } catch (const crucible::ModelJsonError& e) {
    // Escaping a command, it comes from a record stored in the project, not from the command line.
    std::cerr << name << ": the project holds a damaged record: " << e.what() << "\n";
    return ExitCode::ProjectUnusable;
  } catch (const std::invalid_argument& e) {  // the commands' older usage refusals
    return badUsage(name, e.what());
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return ExitCode::Failed;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::unique_ptr<CLI::App> app = crucible::cli::makeCommandLine();
  if (args.empty()) return std::cerr << app->help(), ExitCode::Usage;
  if (args.front() == "--man") {
    if (args.size() > 1) return badUsage("crucible-cli", "--man takes no arguments, not '" + args[1] + "'");
    std::cout << crucible::cli::manPage(*app);
    return ExitCode::Success;
  }
  if (args.front() == "--version") args.front() = "version";
  // `help` alone is the commands and the exit codes; `help COMMAND [SUB]` is COMMAND [SUB] --help.
  if (args.front() == "help") {
    if (args.size() == 1) return std::cout << app->help(), ExitCode::Success;
    args.erase(args.begin());
    args.push_back("--help");
  }
  const std::string& first = args.front();
  if (first.size() > 1 && first[0] == '-' && first != "-h" && first != "--help")
    return badUsage("crucible-cli", "unknown option " + first.substr(0, first.find('=')));
  bool known = !first.empty() && first[0] == '-';
  for (const CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) known = known || sub->get_name() == first;
  if (!known) {
    std::cerr << "crucible-cli: unknown command '" << first << "'\n\n" << app->help();
    return ExitCode::Usage;
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app->parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app->help();  // the chosen command's (CLI11 follows the subcommands given)
    return ExitCode::Success;
  } catch (const CLI::ParseError& e) {
    return badUsage(crucible::cli::commandPath(crucible::cli::chosenCommand(*app)), crucible::cli::usageMessage(e, *app));
  } catch (const crucible::cli::UsageError& e) {  // a value the declaration's check refused
    return badUsage(crucible::cli::commandPath(crucible::cli::chosenCommand(*app)), e.what());
  }
  CLI::App& chosen = crucible::cli::chosenCommand(*app);
  if (chosen.get_name() == "version") return printVersion();
  const crucible::cli::Action* action = crucible::cli::actionOf(chosen);
  if (!action) return badUsage(crucible::cli::commandPath(chosen), "this command needs a subcommand");
  return runAction(*action, chosen);
}
