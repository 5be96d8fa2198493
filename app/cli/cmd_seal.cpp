// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli seal list|show|export: the vault from the command line (issue
// 21): sealed kernels with their figures and the fingerprint they were
// measured on, and their export in the formats of `best --export`.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/json_output.h"
#include "app/cli/options.h"
#include "core/model/kernel_export.h"
#include "core/model/kernel_export_bundle.h"
#include "core/model/model_json.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "The sealed kernels of a project, newest first: each passed the extended validation and the sanitizers\n"
    "and beat the best seal before it. show prints a seal's figures, fingerprint and reports; export writes\n"
    "its kernel as `best --export` does (cu: DIR/<task>.cu + .json; torch: a PyTorch extension; flashinfer:\n"
    "a FlashInfer-Trace solution). Reads only: works on read-only storage.\n";

std::unique_ptr<ProjectStore> openProject(const Options& o) {
  const std::string project = o.required("project");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  return ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
}

std::string taskName(const ProjectStore& store, TaskId id) {
  const auto t = store.task(id);
  return t ? t->name : "task #" + std::to_string(id);
}

nlohmann::json sealJson(const ProjectStore& store, const Seal& s, bool reports) {
  nlohmann::json j = {{"seal", s.id},           {"task", taskName(store, s.taskId)}, {"candidate", s.candidateId},
                      {"run", s.runId},         {"median_us", s.medianUs},           {"speedup", s.speedup},
                      {"sealed_at", formatUtc(s.sealedAt)}, {"fingerprint", toJson(s.fingerprint)}};
  if (reports) {
    j["validation_report"] = nlohmann::json::parse(s.validationReportJson, nullptr, false);
    j["performance_report"] = nlohmann::json::parse(s.performanceReportJson, nullptr, false);
  }
  return j;
}

Seal sealById(const ProjectStore& store, const Options& o) {
  if (o.positional().size() != 1) throw UsageError("name the seal: `crucible-cli seal list --project P` lists them");
  const std::string& text = o.positional().front();
  long long id = 0;
  try {
    std::size_t used = 0;
    id = std::stoll(text, &used);
    if (used != text.size() || id < 1) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    throw UsageError("seal id '" + text + "' is not a positive whole number");
  }
  for (const Seal& s : store.seals())
    if (s.id == id) return s;
  throw UsageError("no seal " + text + " in " + o.required("project"));
}

int list(const Options& o) {
  auto store = openProject(o);
  TaskId task = 0;
  if (o.has("task")) {
    const auto t = store->taskByName(o.value("task"));
    if (!t) throw UsageError("no task '" + o.value("task") + "' in " + o.required("project"));
    task = t->id;
  }
  const std::vector<Seal> seals = store->seals(task);
  if (o.flag("json")) {
    nlohmann::json all = nlohmann::json::array();
    for (const Seal& s : seals) all.push_back(sealJson(*store, s, false));
    std::cout << jsonText(all) << "\n";
    return ExitCode::Success;
  }
  if (seals.empty()) {
    std::cout << "no sealed kernel\n";
    return ExitCode::Success;
  }
  std::cout << std::left << std::setw(6) << "seal" << std::setw(40) << "task" << std::setw(11) << "candidate"
            << std::right << std::setw(12) << "median us" << std::setw(10) << "speedup" << "  sealed on\n";
  for (const Seal& s : seals)
    std::cout << std::left << std::setw(6) << s.id << std::setw(40) << taskName(*store, s.taskId) << std::setw(11)
              << s.candidateId << std::right << std::fixed << std::setprecision(2) << std::setw(12) << s.medianUs
              << std::setprecision(3) << std::setw(9) << s.speedup << "x  " << s.fingerprint.gpu << ", "
              << formatUtc(s.sealedAt) << "\n";
  return ExitCode::Success;
}

int show(const Options& o) {
  auto store = openProject(o);
  const Seal s = sealById(*store, o);
  if (o.flag("json")) {
    std::cout << jsonText(sealJson(*store, s, true)) << "\n";
    return ExitCode::Success;
  }
  const Fingerprint& fp = s.fingerprint;
  std::cout << "seal " << s.id << " of " << taskName(*store, s.taskId) << ": candidate " << s.candidateId << " of run "
            << s.runId << ", sealed " << formatUtc(s.sealedAt) << "\n"
            << std::fixed << std::setprecision(3) << "median " << s.medianUs << " us, " << s.speedup
            << "x the reference it was measured against\n"
            << "measured on " << fp.gpu << " (" << fp.arch << "), driver " << fp.driver << ", CUDA runtime "
            << fp.cudaRuntime << ", NVRTC " << fp.nvrtc << std::setprecision(0) << ", SM clock " << fp.smClockMHz
            << " MHz, memory clock " << fp.memClockMHz << " MHz\n"
            << "\n";
  // The reports are the vault's JSON; the text form gives their gist (--json gives them whole).
  const auto validation = nlohmann::json::parse(s.validationReportJson, nullptr, false);
  const auto performance = nlohmann::json::parse(s.performanceReportJson, nullptr, false);
  if (validation.is_object() && validation.contains("detail") && validation["detail"].is_string())
    std::cout << "validation: " << validation["detail"].get<std::string>() << "\n";
  if (validation.is_object() && validation.contains("sanitizer") && validation["sanitizer"].is_object()) {
    const auto& sz = validation["sanitizer"];
    std::cout << "sanitizers: " << (sz.value("clean", false) ? "clean" : "NOT clean");
    if (sz.contains("shape") && sz["shape"].is_string() && !sz["shape"].get<std::string>().empty())
      std::cout << " at " << sz["shape"].get<std::string>();
    std::cout << "\n";
  }
  if (performance.is_object())
    for (const char* key : {"medianUs", "iqrUs", "referenceMedianUs", "samples", "smClockMHz", "gpuSeconds"})
      if (performance.contains(key) && performance[key].is_number())
        std::cout << "  " << key << " " << std::setprecision(3) << performance[key].get<double>() << "\n";
  return ExitCode::Success;
}

int exportSeal(const Options& o) {
  auto store = openProject(o);
  const Seal s = sealById(*store, o);
  const auto format = exportFormatFromString(o.value("format", "cu"));
  if (!format) throw UsageError("--format must be cu, torch or flashinfer, not '" + o.value("format") + "'");
  const std::string dir = o.required("out");
  const auto task = store->task(s.taskId);
  const auto kernel = store->candidate(s.candidateId);
  if (!task || !kernel)
    throw StoreError("seal " + std::to_string(s.id) + " names a task or candidate the project does not hold");
  std::filesystem::create_directories(dir);
  for (const ExportedFile& f : kernelExportFiles({*task, *kernel, s, s.fingerprint.gpu}, *format)) {
    std::ofstream out(std::filesystem::path(dir) / f.path, std::ios::binary | std::ios::trunc);
    out << f.content;
    if (!out.flush()) throw std::runtime_error("cannot write '" + (std::filesystem::path(dir) / f.path).string() + "'");
    std::cout << "wrote " << (std::filesystem::path(dir) / f.path).string() << "\n";
  }
  return ExitCode::Success;
}

void defineSeal(CLI::App& seal) {
  seal.footer(kAbout);
  CLI::App* listCmd = seal.add_subcommand("list", "the project's sealed kernels, newest first");
  addValued(*listCmd, "project", "P.crucible", "the project file")->required();
  addValued(*listCmd, "task", "NAME", "only this task's seals");
  addFlag(*listCmd, "json", "print JSON for scripts");
  onRun(*listCmd, list);

  CLI::App* showCmd = seal.add_subcommand("show", "a seal's figures, fingerprint and reports");
  addPositional(*showCmd, "ID", "the seal (`seal list` gives them)");
  addValued(*showCmd, "project", "P.crucible", "the project file")->required();
  addFlag(*showCmd, "json", "print JSON with the whole reports");
  onRun(*showCmd, show);

  CLI::App* exportCmd = seal.add_subcommand("export", "write a seal's kernel as `best --export` does");
  addPositional(*exportCmd, "ID", "the seal (`seal list` gives them)");
  addValued(*exportCmd, "project", "P.crucible", "the project file")->required();
  addValued(*exportCmd, "out", "DIR", "the folder to write to (created when missing)")->required();
  addValued(*exportCmd, "format", "FORMAT", "cu (default), torch or flashinfer")
      ->check(oneOf("format", {"cu", "torch", "flashinfer"}));
  onRun(*exportCmd, exportSeal);
}

const RegisterCommand kSeal("seal", {"sealed kernels: list --project P | show --project P ID | export --project P ID --out DIR", defineSeal});

}  // namespace
}  // namespace crucible::cli
