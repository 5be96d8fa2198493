// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli export: a project's candidates, lineage and figures as JSON or
// CSV for notebooks (issue 21). One row per candidate: where it comes from
// (run, task, generation, parents, proposer, mutation, architecture), what it
// is (status, its reason), and what it measured (median, IQR, reference,
// speedup, fitness, registers, spills, shared memory, the archive
// descriptors, the profile's metrics in JSON). Sources are left out unless
// asked for (--sources, JSON only).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/json_output.h"
#include "app/cli/options.h"
#include "core/model/model_json.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "Every candidate of the project (or of one run) with its lineage and figures, one row each, ordered by id:\n"
    "id, run, task, generation, parents, proposer, mutation, architecture, status, status_detail, median_us,\n"
    "iqr_us, reference_median_us, speedup, fitness, registers, spill_store_bytes, static_smem_bytes; JSON adds\n"
    "the descriptors, the profile's metrics and (with --sources) the source and launch rule. Default: JSON on\n"
    "stdout. Reads only: works on read-only storage and during a run.\n";

const char* const kColumns[] = {"id", "run", "task", "generation", "parents", "proposer", "mutation", "architecture",
                                "status", "status_detail", "median_us", "iqr_us", "reference_median_us", "speedup",
                                "fitness", "registers", "spill_store_bytes", "static_smem_bytes"};

nlohmann::json row(const Candidate& c, const std::string& task, bool sources) {
  nlohmann::json parents = nlohmann::json::array();
  for (CandidateId p : c.parents) parents.push_back(p);
  nlohmann::json j = {{"id", c.id},
                      {"run", c.runId},
                      {"task", task},
                      {"generation", c.generation},
                      {"parents", parents},
                      {"proposer", c.proposer},
                      {"mutation", c.mutation},
                      {"architecture", c.architectureKey},
                      {"status", toString(c.status)},
                      {"status_detail", c.statusDetail},
                      {"median_us", c.timing ? nlohmann::json(c.timing->medianUs) : nlohmann::json()},
                      {"iqr_us", c.timing ? nlohmann::json(c.timing->iqrUs) : nlohmann::json()},
                      {"reference_median_us", c.timing ? nlohmann::json(c.timing->referenceMedianUs) : nlohmann::json()},
                      {"speedup", c.timing ? nlohmann::json(c.timing->speedup) : nlohmann::json()},
                      {"fitness", c.fitness},
                      {"registers", c.compile ? nlohmann::json(c.compile->registers) : nlohmann::json()},
                      {"spill_store_bytes", c.compile ? nlohmann::json(c.compile->spillStoreBytes) : nlohmann::json()},
                      {"static_smem_bytes", c.compile ? nlohmann::json(c.compile->staticSmemBytes) : nlohmann::json()},
                      {"descriptor", c.descriptor},
                      {"profile", profileToJson(c.profile)}};
  if (sources) {
    j["source"] = c.source;
    j["launch"] = toJson(c.launch);
  }
  return j;
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csvField(const nlohmann::json& v) {
  std::string text;
  if (v.is_null()) return "";
  if (v.is_string()) text = v.get<std::string>();
  else if (v.is_array()) {
    for (const auto& p : v) text += (text.empty() ? "" : ";") + jsonText(p, -1);
  } else text = jsonText(v, -1);
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

int cmdExport(const Options& o) {
  const std::string project = o.required("project");
  const std::string format = o.value("format", "json");
  if (format != "json" && format != "csv") throw UsageError("--format must be json or csv, not '" + format + "'");
  if (o.flag("sources") && format == "csv") throw UsageError("--sources needs --format json");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  const RunId only = o.integer("run", 0);
  if (only && !store->run(only)) throw UsageError("no run " + std::to_string(only) + " in " + project);
  std::map<RunId, std::string> taskOfRun;
  for (const Run& r : store->runs()) {
    const auto t = store->task(r.taskId);
    taskOfRun[r.id] = t ? t->name : "";
  }

  std::ostringstream text;
  nlohmann::json rows = nlohmann::json::array();
  if (format == "csv") {
    for (std::size_t i = 0; i < std::size(kColumns); ++i) text << (i ? "," : "") << kColumns[i];
    text << "\n";
  }
  std::int64_t count = 0;
  for (const CandidateSummary& s : store->candidateSummaries(only)) {
    const auto c = store->candidate(s.id);
    if (!c) continue;  // removed between the two reads: a run goes on while we export
    const nlohmann::json r = row(*c, taskOfRun[c->runId], o.flag("sources"));
    ++count;
    if (format == "json") {
      rows.push_back(r);
      continue;
    }
    for (std::size_t i = 0; i < std::size(kColumns); ++i) text << (i ? "," : "") << csvField(r[kColumns[i]]);
    text << "\n";
  }
  if (format == "json") text << jsonText(rows) << "\n";
  if (!o.has("out")) {
    std::cout << text.str();
    return ExitCode::Success;
  }
  std::ofstream out(o.value("out"), std::ios::binary | std::ios::trunc);
  out << text.str();
  if (!out.flush()) throw std::runtime_error("cannot write '" + o.value("out") + "'");
  std::cerr << "exported " << count << " candidate(s) to " << o.value("out") << "\n";
  return ExitCode::Success;
}

void defineExport(CLI::App& app) {
  app.footer(kAbout);
  addValued(app, "project", "P.crucible", "the project file")->required();
  addValued(app, "run", "ID", "only this run's candidates")->check(wholeNumber("run", 1));
  addValued(app, "format", "FORMAT", "json (default) or csv")->check(oneOf("format", {"json", "csv"}));
  addValued(app, "out", "FILE", "write to FILE instead of stdout");
  addFlag(app, "sources", "with --format json: each candidate's source and launch rule too");
  onRun(app, cmdExport);
}

const RegisterCommand kExport("export", {"candidates, lineage and figures as JSON or CSV: --project P [--run ID] [--format json|csv]", defineExport});

}  // namespace
}  // namespace crucible::cli
