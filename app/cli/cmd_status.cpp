// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli status: where a project's runs stand (issue 21): progress
// against each budget, the best speedup, time and GPU time used, candidates by
// status, seals, tokens and cost when a language model proposed; with --run,
// that run's latest log lines. For scripts, --json.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/json_output.h"
#include "app/cli/options.h"
#include "app/cli/run_model_usage.h"
#include <sstream>
#include "core/io/utf8_text.h"
#include "core/model/run.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "Every run of the project (or one): its status, evaluations against the budget, the best speedup, wall\n"
    "and GPU time used against their limits, its candidates by status and its task's seals, and, when a\n"
    "language model proposed, its tokens and cost at the settings' prices. With --run, the run's last N log\n"
    "lines too (default 10). Reads only: works on read-only storage and during a run.\n";

struct RunStatusReport {
  Run run;
  std::string task;
  std::map<std::string, std::int64_t> byStatus;
  std::int64_t seals = 0;
  std::optional<llm::LlmUsage> model;  // when a language model proposed
  std::vector<LogLine> log;
};

nlohmann::json toJson(const RunStatusReport& r) {
  const Run& run = r.run;
  nlohmann::json j = {{"run", run.id},
                      {"task", r.task},
                      {"status", toString(run.status)},
                      {"proposer", run.proposer},
                      {"evaluations", run.evaluationsDone},
                      {"best_speedup", run.bestSpeedup},
                      {"wall_seconds", run.wallSecondsUsed},
                      {"gpu_seconds", run.gpuSecondsUsed},
                      {"budget", {{"evaluations", run.budget.evaluations},
                                  {"wall_seconds", run.budget.wallSeconds},
                                  {"gpu_seconds", run.budget.gpuSeconds}}},
                      {"candidates", r.byStatus},
                      {"task_seals", r.seals}};
  if (r.model)
    j["llm"] = {{"tokens_in", r.model->tokensIn}, {"tokens_out", r.model->tokensOut}, {"requests", r.model->requests},
                {"repairs", r.model->repairs}, {"cost_usd", r.model->costUsd}, {"latency_seconds", r.model->latencyS}};
  if (!r.log.empty()) {
    nlohmann::json lines = nlohmann::json::array();
    for (const LogLine& l : r.log) lines.push_back({{"at_ms", l.at}, {"level", l.level}, {"text", l.text}});
    j["log"] = lines;
  }
  return j;
}

// "12 / 200" or "12" when there is no limit.
std::string against(double used, double limit, int precision) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(precision) << used;
  if (limit > 0) out << " / " << limit;
  return out.str();
}

void print(const RunStatusReport& r, std::ostream& out) {
  const Run& run = r.run;
  out << "run " << run.id << " (" << r.task << ", " << run.proposer << "): " << toString(run.status) << "\n"
      << "  evaluations  " << against(static_cast<double>(run.evaluationsDone), static_cast<double>(run.budget.evaluations), 0)
      << "\n  best         " << std::fixed << std::setprecision(3) << run.bestSpeedup << "x the run's reference\n"
      << "  wall time    " << against(run.wallSecondsUsed, run.budget.wallSeconds, 0) << " s\n"
      << "  GPU time     " << against(run.gpuSecondsUsed, run.budget.gpuSeconds, 1) << " s\n"
      << "  candidates  ";
  if (r.byStatus.empty()) out << " none";
  for (const auto& [status, n] : r.byStatus) out << " " << status << " " << n;
  out << "\n  task seals   " << r.seals << "\n";
  if (r.model) out << "  model        " << describeModelUsage(*r.model) << "\n";
  for (const LogLine& l : r.log) out << "  [" << terminalText(l.level) << "] " << terminalText(l.text) << "\n";
}

int cmdStatus(const Options& o) {
  const std::string project = o.required("project");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  if (o.has("log") && !o.has("run")) throw UsageError("--log needs --run");
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  const RunId only = o.integer("run", 0);
  const int logLines = static_cast<int>(o.integer("log", 10));
  std::vector<RunStatusReport> reports;
  for (const Run& run : store->runs()) {
    if (only && run.id != only) continue;
    RunStatusReport r;
    r.run = run;
    const auto task = store->task(run.taskId);
    r.task = task ? task->name : "task #" + std::to_string(run.taskId);
    for (const CandidateSummary& s : store->candidateSummaries(run.id)) ++r.byStatus[toString(s.status)];
    r.seals = static_cast<std::int64_t>(store->seals(run.taskId).size());
    r.model = runModelUsage(*store, run);
    if (only && logLines > 0) {
      // The run's last lines: read forward in pages (the log has no "last N" query), keep the tail.
      std::int64_t after = 0;
      for (;;) {
        const auto page = store->log(run.id, after, 1000);
        for (const LogLine& l : page)
          if (l.runId == run.id) r.log.push_back(l);
        if (r.log.size() > static_cast<std::size_t>(logLines))
          r.log.erase(r.log.begin(), r.log.end() - logLines);
        if (page.size() < 1000) break;
        after = page.back().id;
      }
    }
    reports.push_back(std::move(r));
  }
  if (only && reports.empty()) throw UsageError("no run " + std::to_string(only) + " in " + project);
  if (o.flag("json")) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& r : reports) all.push_back(toJson(r));
    std::cout << jsonText(all) << "\n";
  } else if (reports.empty()) {
    std::cout << project << " has no runs\n";
  } else {
    for (const auto& r : reports) print(r, std::cout);
  }
  return ExitCode::Success;
}

void defineStatus(CLI::App& app) {
  app.footer(kAbout);
  addValued(app, "project", "P.crucible", "the project file")->required();
  addValued(app, "run", "ID", "only this run, with its last log lines")->check(wholeNumber("run", 1));
  addValued(app, "log", "N", "with --run: how many of its last log lines (default 10)")->check(wholeNumber("log", 0, 1000));
  addFlag(app, "json", "print JSON for scripts");
  onRun(app, cmdStatus);
}

const RegisterCommand kStatus("status", {"where the runs stand: --project P [--run ID] [--json]", defineStatus});

}  // namespace
}  // namespace crucible::cli
