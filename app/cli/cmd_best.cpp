// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli best: the best valid kernel of every task of a project, over
// all of its runs, as a table or JSON; --export writes each one as a .cu file
// plus a .json launch description that tests/bench/suite_bench.py reads.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/json_output.h"
#include "app/cli/options.h"
#include "core/model/kernel_export_bundle.h"
#include "core/store/best_kernels.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "For every task of the project, the best Valid candidate over all its runs: the highest speedup over the\n"
    "task's baseline, chained through each run's reference (a run that starts from a seal is measured against\n"
    "that sealed kernel, itself so many times the baseline); ties: lowest median time. A task without one is\n"
    "listed as such.\n"
    "--export DIR writes DIR/<task>.cu (the source under a comment header with its figures and launch, as the\n"
    "vault exports a seal, then a host launcher) and DIR/<task>.json (task spec, launch rule with its tensor\n"
    "maps, timing).\n"
    "--format torch writes, beside DIR/<task>.json, a PyTorch extension: DIR/<task>_kernel.cu,\n"
    "DIR/<task>_binding.cpp and DIR/<task>.py (`import <task>; <task>.run(x=...)` builds it with\n"
    "torch.utils.cpp_extension.load and returns {output: tensor}), and the same for the task's baseline kernel\n"
    "(DIR/<task>_baseline*) to compare against. --format flashinfer writes DIR/<task>.solution.json, a\n"
    "FlashInfer-Trace solution (definition = the task's name). Every export is fixed to the shape the kernel\n"
    "was validated at.\n"
    "Exit status: 0 when every task has a valid candidate, 1 when some task has none, 2 bad usage,\n"
    "4 the project cannot be opened (`crucible-cli help` has the table). Reads only: works on read-only storage.\n";

nlohmann::json summaryJson(const TaskBest& b) {
  nlohmann::json j = {{"task", b.task.name}, {"runs", b.runsCount}, {"evaluations", b.evaluations}};
  if (!b.candidate) {
    j["valid"] = false;
    return j;
  }
  j["valid"] = true;
  j["candidate"] = b.candidate->id;
  j["run"] = b.candidate->runId;
  j["run_evaluations"] = b.run->evaluationsDone;
  j["architecture"] = b.candidate->architectureKey;
  j["median_us"] = b.candidate->timing ? b.candidate->timing->medianUs : 0.0;
  j["speedup"] = b.candidate->timing ? b.candidate->timing->speedup : 0.0;  // against its run's reference
  j["speedup_over_baseline"] = b.speedupOverBaseline;
  return j;
}

// The architecture key is long and free-form, so it is the last column.
void printTable(const std::vector<TaskBest>& all, std::ostream& out) {
  out << std::left << std::setw(40) << "task" << std::setw(6) << "run" << std::setw(11) << "candidate" << std::right
      << std::setw(12) << "median us" << std::setw(12) << "x baseline" << std::setw(8) << "evals" << "  architecture\n";
  for (const TaskBest& b : all) {
    out << std::left << std::setw(40) << b.task.name;
    if (!b.candidate) {
      out << "NO VALID CANDIDATE (" << b.runsCount << " runs, " << b.evaluations << " evaluations)\n";
      continue;
    }
    const Candidate& c = *b.candidate;
    out << std::setw(6) << c.runId << std::setw(11) << c.id << std::right << std::fixed << std::setprecision(2)
        << std::setw(12) << (c.timing ? c.timing->medianUs : 0.0) << std::setprecision(3) << std::setw(11)
        << b.speedupOverBaseline << "x" << std::setw(8) << b.run->evaluationsDone << "  "
        << c.architectureKey << "\n"
        << std::defaultfloat;
  }
}

void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.flush()) throw std::runtime_error("cannot write '" + path.string() + "'");
}

ExportFormat exportFormat(const std::string& text) {
  if (auto f = exportFormatFromString(text)) return *f;
  throw UsageError("--format must be cu, torch or flashinfer, not '" + text + "'");
}

int exportAll(const ProjectStore& store, const std::vector<TaskBest>& all, const std::string& dir, ExportFormat format,
              std::ostream& log) {
  std::filesystem::create_directories(dir);
  int written = 0;
  for (const TaskBest& b : all) {
    if (!b.candidate) continue;
    const KernelExportInput in{b.task, *b.candidate, b.seal, exportMeasuredOn(b.seal, store.ceilings())};
    for (const ExportedFile& f : kernelExportFiles(in, format)) writeFile(std::filesystem::path(dir) / f.path, f.content);
    ++written;
  }
  log << "exported " << written << " kernel(s) to " << dir << "\n";
  return written;
}

int cmdBest(const Options& o) {
  const ExportFormat format = exportFormat(o.has("format") ? o.value("format") : "cu");
  if (o.has("format") && !o.has("export")) throw UsageError("--format needs --export DIR");
  const std::string project = o.required("project");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  const std::vector<TaskBest> all = bestPerTask(*store);

  const bool json = o.flag("json");
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const TaskBest& b : all) list.push_back(summaryJson(b));
    std::cout << jsonText(list) << "\n";
  } else if (all.empty()) {
    std::cout << project << " has no tasks\n";
  } else {
    printTable(all, std::cout);
  }
  // With --json, stdout stays pure JSON: the export note goes to stderr.
  if (o.has("export")) exportAll(*store, all, o.value("export"), format, json ? std::cerr : std::cout);

  for (const TaskBest& b : all)
    if (!b.candidate) return ExitCode::Failed;
  return ExitCode::Success;
}

void defineBest(CLI::App& app) {
  app.footer(kAbout);
  addValued(app, "project", "P.crucible", "the project file")->required();
  addValued(app, "export", "DIR", "write each task's best kernel into DIR");
  addValued(app, "format", "FORMAT", "with --export: cu (default), torch or flashinfer")
      ->check(oneOf("format", {"cu", "torch", "flashinfer"}));
  addFlag(app, "json", "print JSON for scripts");
  onRun(app, cmdBest);
}

const RegisterCommand kBest("best", {"the best valid kernel of each task: --project P [--export DIR [--format cu|torch|flashinfer]] [--json]", defineBest});

}  // namespace
}  // namespace crucible::cli
