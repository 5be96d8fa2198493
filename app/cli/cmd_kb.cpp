// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli kb list: the project's knowledge base from the command line
// (issue 19, 21): each claim with its scope, the decision it is about, the
// measured effect, how many one-change observations support it and its
// status (validated claims are used as facts, hypotheses as hypotheses,
// refuted ones as warnings), filtered by status or searched by words.
// kb export / kb import move claims between projects through a JSON file
// (core/knowledge/knowledge_exchange.h says what travels and what does not).
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/json_output.h"
#include "app/cli/options.h"
#include "core/io/utf8_text.h"
#include "core/knowledge/knowledge_exchange.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kAbout =
    "The project's knowledge: claims learnt from candidates that differ from their parent in one decision,\n"
    "with their scope (GPU architecture, operator family, shape class), effect and evidence count.\n"
    "--search matches every word in the claim, decision or scope (a word ending in * as a prefix).\n"
    "list and export read only: they work on read-only storage and during a run.\n"
    "export writes the claims (not their evidence: candidate ids belong to this project) for another project;\n"
    "import adds the claims the project does not have (same GPU architecture, family, shape class and\n"
    "decision), keeps its own where it has them, and adds nothing when the file has an error. An imported\n"
    "claim keeps the exporter's effect and status until this project's own observations of that decision\n"
    "replace them.\n";

nlohmann::json entryJson(const KnowledgeEntry& k) {
  return {{"id", k.id},          {"status", toString(k.status)}, {"arch", k.scopeArch},
          {"family", k.scopeFamily}, {"shape", k.scopeShape},     {"decision", k.decision},
          {"effect", k.effect},  {"observations", k.observations}, {"evidence", k.evidence},
          {"claim", k.claim}, {"pinned", k.pinned}, {"disabled", k.disabled}, {"userAdded", k.userAdded},
          {"userClaim", k.userClaim}};
}

// What the user set in the knowledge browser: " (pinned, yours)", or "".
std::string userMarks(const KnowledgeEntry& k) {
  std::string marks;
  for (const auto& [set, word] : {std::pair{k.pinned, "pinned"}, {k.disabled, "disabled"}, {k.userAdded, "yours"}})
    if (set) marks += (marks.empty() ? "" : ", ") + std::string(word);
  return marks.empty() ? "" : " (" + marks + ")";
}

// --status, when given: validated, hypothesis or refuted.
std::optional<KnowledgeStatus> statusOption(const Options& o) {
  if (!o.has("status")) return std::nullopt;
  try {
    return knowledgeStatusFromString(o.value("status"));
  } catch (const std::invalid_argument&) {
    throw UsageError("--status must be validated, hypothesis or refuted, not '" + o.value("status") + "'");
  }
}

int list(const Options& o) {
  const std::string project = o.required("project");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  const std::optional<KnowledgeStatus> status = statusOption(o);
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  std::vector<KnowledgeEntry> entries = o.has("search") ? store->searchKnowledge(o.value("search")) : store->knowledge();
  if (status) std::erase_if(entries, [&](const KnowledgeEntry& k) { return k.status != *status; });
  if (o.flag("json")) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& k : entries) all.push_back(entryJson(k));
    std::cout << jsonText(all) << "\n";
    return ExitCode::Success;
  }
  if (entries.empty()) {
    std::cout << "no knowledge" << (status || o.has("search") ? " matches" : " yet") << "\n";
    return ExitCode::Success;
  }
  for (const auto& k : entries)
    std::cout << "#" << k.id << " [" << toString(k.status) << "]" << userMarks(k) << " "
              << terminalText(k.userClaim.empty() ? k.claim : k.userClaim) << "\n    scope: " << terminalText(k.scopeArch)
              << terminalText(k.scopeFamily.empty() ? "" : ", " + k.scopeFamily)
              << terminalText(k.scopeShape.empty() ? "" : ", " + k.scopeShape) << "; decision: " << terminalText(k.decision)
              << std::fixed << std::setprecision(3) << "; effect " << k.effect << "x over " << k.observations
              << " observation(s)\n";
  return ExitCode::Success;
}

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

int exportTo(const Options& o) {
  const std::string project = o.required("project");
  const std::string out = o.required("out");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  const std::optional<KnowledgeStatus> status = statusOption(o);
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  KnowledgeExchange exchange;
  exchange.source = fileName(project);
  exchange.exportedAt = static_cast<std::int64_t>(std::time(nullptr));
  exchange.entries = store->knowledge();
  if (status) std::erase_if(exchange.entries, [&](const KnowledgeEntry& k) { return k.status != *status; });
  // Written beside the target and renamed: a failed write leaves no half file.
  const std::string partial = out + ".partial";
  {
    std::ofstream file(partial, std::ios::binary | std::ios::trunc);
    file << knowledgeExchangeJson(exchange);
    if (!file.good()) {
      std::filesystem::remove(partial);
      std::cerr << "crucible-cli kb export: cannot write '" << out << "'\n";
      return ExitCode::Failed;
    }
  }
  std::filesystem::rename(partial, out);
  std::cout << "exported " << exchange.entries.size() << " claim(s) to " << out << "\n";
  return ExitCode::Success;
}

int importFrom(const Options& o) {
  const std::string project = o.required("project");
  const std::string in = o.required("in");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  std::error_code ec;
  const auto size = std::filesystem::file_size(in, ec);
  if (ec) throw UsageError("cannot read '" + in + "': " + ec.message());
  if (size > kKnowledgeExchangeMaxBytes)
    throw UsageError("'" + in + "' is larger than " + std::to_string(kKnowledgeExchangeMaxBytes >> 20) + " MiB");
  std::ifstream file(in, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  KnowledgeExchange exchange;
  try {
    exchange = parseKnowledgeExchange(text.str());
  } catch (const KnowledgeExchangeError& e) {
    std::cerr << "crucible-cli kb import: " << in << ": " << e.what() << "\nnothing was imported\n";
    return ExitCode::Failed;
  }
  const bool dryRun = o.flag("dry-run");
  auto store = ProjectStore::open(project, dryRun ? ProjectStore::Mode::ReadOnly : ProjectStore::Mode::ReadWrite);
  const KnowledgeImportPlan plan = planKnowledgeImport(store->knowledge(), exchange.entries);
  if (!dryRun)
    store->transaction([&] {
      for (KnowledgeEntry k : plan.add) {
        k.updatedAt = static_cast<std::int64_t>(std::time(nullptr));
        store->addKnowledge(k);
      }
    });
  if (o.flag("json")) {
    nlohmann::json added = nlohmann::json::array(), kept = nlohmann::json::array();
    for (const auto& k : plan.add) added.push_back(entryJson(k));
    for (const auto& k : plan.alreadyKnown) kept.push_back(entryJson(k));
    std::cout << jsonText(nlohmann::json{{"source", exchange.source}, {"dryRun", dryRun}, {"added", added}, {"alreadyKnown", kept}})
              << "\n";
    return ExitCode::Success;
  }
  std::cout << (dryRun ? "would import " : "imported ") << plan.add.size() << " claim(s) from "
            << terminalText(exchange.source.empty() ? in : exchange.source) << "; " << plan.alreadyKnown.size()
            << " the project already has (kept as measured here)\n";
  for (const auto& k : plan.add) std::cout << "  + [" << toString(k.status) << "] " << terminalText(k.claim) << "\n";
  return ExitCode::Success;
}

void defineKb(CLI::App& kb) {
  kb.footer(kAbout);
  const auto statusOptionOf = [](CLI::App& app, const std::string& help) {
    addValued(app, "status", "STATUS", help)->check(oneOf("status", {"validated", "hypothesis", "refuted"}));
  };
  CLI::App* listCmd = kb.add_subcommand("list", "the claims with their scope, decision, effect and status");
  addValued(*listCmd, "project", "P.crucible", "the project file")->required();
  statusOptionOf(*listCmd, "only claims of this status: validated, hypothesis or refuted");
  addValued(*listCmd, "search", "WORDS", "only claims matching every word (a word ending in * as a prefix)");
  addFlag(*listCmd, "json", "print JSON for scripts");
  onRun(*listCmd, list);

  CLI::App* exportCmd = kb.add_subcommand("export", "write the claims to a JSON file for another project");
  addValued(*exportCmd, "project", "P.crucible", "the project file")->required();
  addValued(*exportCmd, "out", "FILE.json", "the file to write")->required();
  statusOptionOf(*exportCmd, "only claims of this status");
  onRun(*exportCmd, exportTo);

  CLI::App* importCmd = kb.add_subcommand("import", "add the claims of an exported file the project does not have");
  addValued(*importCmd, "project", "P.crucible", "the project file")->required();
  addValued(*importCmd, "in", "FILE.json", "a file `kb export` wrote")->required();
  addFlag(*importCmd, "dry-run", "say what would be imported; change nothing");
  addFlag(*importCmd, "json", "print JSON for scripts");
  onRun(*importCmd, importFrom);
}

const RegisterCommand kKb("kb", {"the knowledge base: list --project P [--status S] [--search WORDS] [--json] | export | import", defineKb});

}  // namespace
}  // namespace crucible::cli
