// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/command_line.h"

#include "app/cli/command.h"
#include "app/cli/exit_codes.h"

namespace crucible::cli {

std::map<std::string, Command>& commands() {
  static std::map<std::string, Command> table;
  return table;
}

namespace {
std::map<const CLI::App*, Action>& actions() {
  static std::map<const CLI::App*, Action> table;
  return table;
}
}  // namespace

void onRun(CLI::App& app, Action action) { actions()[&app] = std::move(action); }

const Action* actionOf(const CLI::App& app) {
  const auto it = actions().find(&app);
  return it == actions().end() ? nullptr : &it->second;
}

std::unique_ptr<CLI::App> makeCommandLine() {
  auto app = std::make_unique<CLI::App>("Crucible's engine without a GUI, for GPU servers and clusters: evolve, "
                                        "evaluate and seal GPU kernels from the command line.",
                                        "crucible-cli");
  app->get_formatter()->column_width(34);
  // One command per invocation: a word after a command's own arguments is an
  // unexpected argument, never a second command.
  app->require_subcommand(1, 1);
  // Hidden (no help text): the man page, generated from these definitions at build time.
  app->add_flag("--man")->group("");
  auto* version = app->add_subcommand("version", "print the version, the backends built in and the GPUs found");
  version->require_subcommand(0, 0);
  for (auto& [name, command] : commands()) {
    CLI::App* sub = app->add_subcommand(name, command.summary);
    command.define(*sub);
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) {
    const auto inner = sub->get_subcommands([](CLI::App*) { return true; });
    // A command made of subcommands (task, seal, kb) needs one of them, and only one.
    if (!inner.empty()) sub->require_subcommand(1, 1);
    // CLI11 gives a subcommand its parent's footer when it is added: each keeps only its own.
    for (CLI::App* in : inner)
      if (in->get_footer() == sub->get_footer()) in->footer("");
  }
  // Set last, so that no command inherits it.
  app->footer(std::string("`crucible-cli help COMMAND` (or COMMAND --help) shows a command's options.\n\n") +
              exitCodeTable());
  return app;
}

CLI::App& chosenCommand(CLI::App& app) {
  CLI::App* at = &app;
  for (;;) {
    const auto subs = at->get_subcommands();
    if (subs.empty()) return *at;
    at = subs.front();
  }
}

std::string commandPath(const CLI::App& app) {
  std::string path;
  for (const CLI::App* at = &app; at; at = at->get_parent()) path = at->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

}  // namespace crucible::cli
