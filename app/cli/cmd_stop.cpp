// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli stop: asks a run that another process is running (crucible-cli
// run/resume, the workbench) to stop cleanly, leaving it resumable (issue 21).
// The request is a file beside the project (core/engine/stop_request.h) that
// the engine looks for between steps; --wait follows the run until it stops.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/options.h"
#include "core/engine/stop_request.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "Asks the process running run ID to stop it cleanly after the step in progress; the run stays resumable\n"
    "(crucible-cli resume). --wait follows the run until it has stopped, up to SECONDS.\n"
    "Exit status: 0 asked (with --wait: stopped), 1 the run is not running or did not stop in time,\n"
    "2 bad usage or no such run, 4 the project cannot be used or the request cannot be written beside it.\n";

bool active(RunStatus s) { return s == RunStatus::Running || s == RunStatus::Paused; }

int cmdStop(const Options& o) {
  const std::string project = o.required("project");
  if (!o.has("run")) throw UsageError("missing --run (`crucible-cli status --project P` lists the runs)");
  const RunId id = o.integer("run", 0);
  const double wait = o.positiveNumber("wait", 0, 86400);
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  const auto run = store->run(id);
  if (!run) throw UsageError("no run " + std::to_string(id) + " in " + project);
  if (!active(run->status)) {
    std::cerr << "crucible-cli stop: run " << id << " is " << toString(run->status) << ", not running\n";
    return ExitCode::Failed;
  }
  try {
    requestStop(project, id);
  } catch (const std::runtime_error& e) {
    throw StoreError(e.what());
  }
  std::cout << "asked run " << id << " to stop (" << stopRequestPath(project, id) << ")\n";
  if (wait <= 0) return ExitCode::Success;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    const auto now = ProjectStore::open(project, ProjectStore::Mode::ReadOnly)->run(id);
    if (now && !active(now->status)) {
      std::cout << "run " << id << " is " << toString(now->status) << "\n";
      return ExitCode::Success;
    }
  }
  std::cerr << "crucible-cli stop: run " << id << " had not stopped after " << wait << " s\n";
  return ExitCode::Failed;
}

void defineStop(CLI::App& app) {
  app.footer(kAbout);
  addValued(app, "project", "P.crucible", "the project file")->required();
  addValued(app, "run", "ID", "the run to stop")->check(wholeNumber("run", 1));
  addValued(app, "wait", "SECONDS", "follow the run until it has stopped, up to SECONDS")->check(positiveLimit("wait", 86400));
  onRun(app, cmdStop);
}

const RegisterCommand kStop("stop", {"ask a running run to stop cleanly: --project P --run ID [--wait S]", defineStop});

}  // namespace
}  // namespace crucible::cli
