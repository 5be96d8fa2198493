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
#include <sstream>
#include <nlohmann/json.hpp>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/options.h"
#include "core/model/flashinfer_solution.h"
#include "core/model/kernel_export.h"
#include "core/model/torch_extension_export.h"
#include "core/store/project_store.h"
#include "core/task/task_spec.h"

namespace crucible::cli {
namespace {

const char* const kUsage =
    "usage: crucible-cli best --project P.crucible [--export DIR [--format cu|torch|flashinfer]] [--json]\n"
    "For every task of the project, the best Valid candidate over all its runs (highest speedup against\n"
    "its run's reference; ties: lowest median time). A task without one is listed as such.\n"
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

// One task's winner, or only the task when no run produced a valid kernel.
struct TaskBest {
  Task task;
  std::int64_t runsCount = 0;
  std::int64_t evaluations = 0;          // over all the task's runs
  std::optional<Run> run;                // the run of the winner
  std::optional<Candidate> candidate;    // the winner, with its source
  std::optional<Seal> seal;              // the winner's seal, when it is sealed
};

bool better(const CandidateSummary& a, const CandidateSummary& b) {
  if (a.speedup != b.speedup) return a.speedup > b.speedup;
  return a.medianUs < b.medianUs;
}

TaskBest bestOf(const ProjectStore& store, const Task& task, const std::vector<Run>& runs) {
  TaskBest result;
  result.task = task;
  std::optional<CandidateSummary> winner;
  for (const Run& run : runs) {
    if (run.taskId != task.id) continue;
    ++result.runsCount;
    result.evaluations += run.evaluationsDone;
    for (const CandidateSummary& s : store.candidateSummaries(run.id)) {
      if (s.status != CandidateStatus::Valid) continue;
      if (!winner || better(s, *winner)) {
        winner = s;
        result.run = run;
      }
    }
  }
  if (winner) {
    result.candidate = store.candidate(winner->id);
    if (!result.candidate) throw std::runtime_error("candidate " + std::to_string(winner->id) + " is listed but cannot be read");
    for (const Seal& seal : store.seals(task.id)) {  // newest first
      if (seal.candidateId != winner->id) continue;
      result.seal = seal;
      break;
    }
  }
  return result;
}

std::vector<TaskBest> bestPerTask(const ProjectStore& store) {
  const std::vector<Run> runs = store.runs();
  std::vector<TaskBest> all;
  for (const Task& task : store.tasks()) all.push_back(bestOf(store, task, runs));
  return all;
}

// The export/JSON record of a winner (core/model/kernel_export.h), with where it
// comes from and how it measured.
nlohmann::json kernelJson(const TaskBest& b) {
  const Candidate& c = *b.candidate;
  nlohmann::json j = exportedKernelJson(b.task.name, b.task.family, b.task.specJson, c);
  j["candidate"] = c.id;
  j["run"] = c.runId;
  j["median_us"] = c.timing ? c.timing->medianUs : 0.0;
  j["reference_median_us"] = c.timing ? c.timing->referenceMedianUs : 0.0;
  j["speedup"] = c.timing ? c.timing->speedup : 0.0;
  j["sm_clock_mhz"] = c.timing ? c.timing->smClockMHz : 0.0;
  return j;
}

// The .cu file the vault's Export writes too (core/model/kernel_export.h):
// header comments, the launch, the source; the seal's figures when the winner is sealed.
std::string kernelFile(const TaskBest& b) {
  std::optional<TaskSpec> spec;
  try {
    spec = parseTaskSpec(b.task.specJson);
  } catch (const TaskSpecError&) {
    // The launch snippet then names the argument groups instead of the tensors.
  }
  return exportedKernelFile(*b.candidate, b.task.name, spec ? &*spec : nullptr, b.seal ? &*b.seal : nullptr);
}

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
  j["speedup"] = b.candidate->timing ? b.candidate->timing->speedup : 0.0;
  return j;
}

// The architecture key is long and free-form, so it is the last column.
void printTable(const std::vector<TaskBest>& all, std::ostream& out) {
  out << std::left << std::setw(40) << "task" << std::setw(6) << "run" << std::setw(11) << "candidate" << std::right
      << std::setw(12) << "median us" << std::setw(10) << "speedup" << std::setw(8) << "evals" << "  architecture\n";
  for (const TaskBest& b : all) {
    out << std::left << std::setw(40) << b.task.name;
    if (!b.candidate) {
      out << "NO VALID CANDIDATE (" << b.runsCount << " runs, " << b.evaluations << " evaluations)\n";
      continue;
    }
    const Candidate& c = *b.candidate;
    out << std::setw(6) << c.runId << std::setw(11) << c.id << std::right << std::fixed << std::setprecision(2)
        << std::setw(12) << (c.timing ? c.timing->medianUs : 0.0) << std::setprecision(3) << std::setw(9)
        << (c.timing ? c.timing->speedup : 0.0) << "x" << std::setw(8) << b.run->evaluationsDone << "  "
        << c.architectureKey << "\n"
        << std::defaultfloat;
  }
}

void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.flush()) throw std::runtime_error("cannot write '" + path.string() + "'");
}

// Task names are validated by the spec parser (letters, digits, _ . -), but a
// project file is outside our control, so refuse anything that is not a plain file name.
void requirePlainFileName(const std::string& name) {
  const bool plain = !name.empty() && name != "." && name != ".." &&
                     name.find_first_of("/\\") == std::string::npos;
  if (!plain) throw std::runtime_error("task name '" + name + "' cannot be used as a file name");
}

enum class ExportFormat { Cu, Torch, FlashInfer };

ExportFormat exportFormat(const std::string& text) {
  if (text == "cu") return ExportFormat::Cu;
  if (text == "torch") return ExportFormat::Torch;
  if (text == "flashinfer") return ExportFormat::FlashInfer;
  throw UsageError("--format must be cu, torch or flashinfer, not '" + text + "'");
}

// One line saying what the exported kernel is and how it measured.
std::string describe(const TaskBest& b) {
  const Candidate& c = *b.candidate;
  std::ostringstream out;
  out << b.task.name << ": candidate #" << c.id << " of run #" << c.runId;
  if (c.timing)
    out << std::fixed << std::setprecision(3) << ", median " << c.timing->medianUs << " us, " << c.timing->speedup
        << "x the reference it was measured against";
  if (b.seal) out << ", sealed (seal #" << b.seal->id << ")";
  out << ", exported by Crucible";
  return out.str();
}

// Where the figures were measured: the seal's fingerprint, else the one GPU the
// project measured its roofs on; "" when that is not known for certain.
std::string measuredOn(const ProjectStore& store, const TaskBest& b) {
  if (b.seal) return b.seal->fingerprint.gpu;
  std::set<std::string> devices;
  for (const Ceiling& c : store.ceilings()) devices.insert(c.device);
  return devices.size() == 1 ? *devices.begin() : "";
}

void writeAll(const std::filesystem::path& dir, const std::vector<ExportedFile>& files) {
  for (const ExportedFile& f : files) writeFile(dir / f.path, f.content);
}

int exportAll(const ProjectStore& store, const std::vector<TaskBest>& all, const std::string& dir, ExportFormat format,
              std::ostream& log) {
  std::filesystem::create_directories(dir);
  int written = 0;
  for (const TaskBest& b : all) {
    if (!b.candidate) continue;
    requirePlainFileName(b.task.name);
    const std::filesystem::path base = std::filesystem::path(dir) / b.task.name;
    if (format == ExportFormat::Cu) {
      writeFile(base.string() + ".cu", kernelFile(b));
      writeFile(base.string() + ".json", kernelJson(b).dump(2) + "\n");
      ++written;
      continue;
    }
    const TaskSpec spec = parseTaskSpec(b.task.specJson);  // a damaged spec cannot make an extension
    const auto files = torchExtensionFiles(spec, *b.candidate, kernelFile(b), b.task.name, describe(b));
    if (format == ExportFormat::Torch) {
      writeAll(dir, files);
      writeFile(base.string() + ".json", kernelJson(b).dump(2) + "\n");
      // The task's baseline, the reference the kernel was validated against, to compare with.
      Candidate baseline;
      baseline.source = spec.baseline.source;
      baseline.launch = spec.baseline.launch;
      baseline.compile = b.candidate->compile;  // the same GPU architecture
      const std::string baseName = b.task.name + "_baseline";
      writeAll(dir, torchExtensionFiles(spec, baseline, exportedKernelFile(baseline, b.task.name, &spec, nullptr),
                                        baseName, b.task.name + ": the task's baseline kernel"));
    } else {
      FlashInferSolutionInfo info;
      info.name = "crucible_" + b.task.name + "_c" + std::to_string(b.candidate->id);
      info.definition = b.task.name;
      info.description = describe(b);
      info.author = "crucible (" + b.candidate->proposer + ")";
      info.gpu = measuredOn(store, b);
      if (b.seal) info.cudaVersion = b.seal->fingerprint.cudaRuntime;
      writeFile(base.string() + ".solution.json", flashInferSolution(info, files).dump(2) + "\n");
    }
    ++written;
  }
  log << "exported " << written << " kernel(s) to " << dir << "\n";
  return written;
}

int cmdBest(const std::vector<std::string>& args) {
  Options o(args, {"project", "export", "format"}, {"json", "help"});
  if (o.flag("help")) return std::cout << kUsage, ExitCode::Success;
  if (!o.has("project")) {
    std::cerr << kUsage;
    return ExitCode::Usage;
  }
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
    std::cout << list.dump(2) << "\n";
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

int run(const std::vector<std::string>& args) {
  try {
    return cmdBest(args);
  } catch (const UsageError& e) {
    std::cerr << "crucible-cli best: " << e.what() << "\n" << kUsage;
    return ExitCode::Usage;
  }
}

const RegisterCommand kBest("best", {"the best valid kernel of each task: --project P [--export DIR [--format cu|torch|flashinfer]] [--json]", run});

}  // namespace
}  // namespace crucible::cli
