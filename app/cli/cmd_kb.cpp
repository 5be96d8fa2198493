// SPDX-License-Identifier: GPL-3.0-or-later
// crucible-cli kb list: the project's knowledge base from the command line
// (issue 19, 21): each claim with its scope, the decision it is about, the
// measured effect, how many one-change observations support it and its
// status (validated claims are used as facts, hypotheses as hypotheses,
// refuted ones as warnings), filtered by status or searched by words.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include "app/cli/command.h"
#include "app/cli/exit_codes.h"
#include "app/cli/options.h"
#include "core/store/project_store.h"

namespace crucible::cli {
namespace {

const char* const kUsage =
    "usage: crucible-cli kb list --project P [--status validated|hypothesis|refuted] [--search WORDS] [--json]\n"
    "The project's knowledge: claims learnt from candidates that differ from their parent in one decision,\n"
    "with their scope (GPU architecture, operator family, shape class), effect and evidence count.\n"
    "--search matches every word in the claim, decision or scope (a word ending in * as a prefix).\n"
    "Reads only: works on read-only storage and during a run.\n";

nlohmann::json entryJson(const KnowledgeEntry& k) {
  return {{"id", k.id},          {"status", toString(k.status)}, {"arch", k.scopeArch},
          {"family", k.scopeFamily}, {"shape", k.scopeShape},     {"decision", k.decision},
          {"effect", k.effect},  {"observations", k.observations}, {"evidence", k.evidence},
          {"claim", k.claim}};
}

int list(const std::vector<std::string>& args) {
  Options o(args, {"project", "status", "search"}, {"json"});
  const std::string project = o.required("project");
  if (!std::filesystem::exists(project)) throw StoreError("no project file '" + project + "'");
  std::optional<KnowledgeStatus> status;
  if (o.has("status")) {
    try {
      status = knowledgeStatusFromString(o.value("status"));
    } catch (const std::invalid_argument&) {
      throw UsageError("--status must be validated, hypothesis or refuted, not '" + o.value("status") + "'");
    }
  }
  auto store = ProjectStore::open(project, ProjectStore::Mode::ReadOnly);
  std::vector<KnowledgeEntry> entries = o.has("search") ? store->searchKnowledge(o.value("search")) : store->knowledge();
  if (status) std::erase_if(entries, [&](const KnowledgeEntry& k) { return k.status != *status; });
  if (o.flag("json")) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& k : entries) all.push_back(entryJson(k));
    std::cout << all.dump(2) << "\n";
    return ExitCode::Success;
  }
  if (entries.empty()) {
    std::cout << "no knowledge" << (status || o.has("search") ? " matches" : " yet") << "\n";
    return ExitCode::Success;
  }
  for (const auto& k : entries)
    std::cout << "#" << k.id << " [" << toString(k.status) << "] " << k.claim << "\n    scope: " << k.scopeArch
              << (k.scopeFamily.empty() ? "" : ", " + k.scopeFamily)
              << (k.scopeShape.empty() ? "" : ", " + k.scopeShape) << "; decision: " << k.decision
              << std::fixed << std::setprecision(3) << "; effect " << k.effect << "x over " << k.observations
              << " observation(s)\n";
  return ExitCode::Success;
}

int run(const std::vector<std::string>& args) {
  if (args.empty() || args.front() == "--help" || args.front() == "help") {
    (args.empty() ? std::cerr : std::cout) << kUsage;
    return args.empty() ? ExitCode::Usage : ExitCode::Success;
  }
  try {
    if (args.front() == "list") return list({args.begin() + 1, args.end()});
    throw UsageError("unknown kb command '" + args.front() + "' (list)");
  } catch (const UsageError& e) {
    std::cerr << "crucible-cli kb: " << e.what() << "\n" << kUsage;
    return ExitCode::Usage;
  }
}

const RegisterCommand kKb("kb", {"the knowledge base: list --project P [--status S] [--search WORDS] [--json]", run});

}  // namespace
}  // namespace crucible::cli
