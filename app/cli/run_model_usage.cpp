// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/run_model_usage.h"

#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "core/engine/run_settings.h"

namespace crucible::cli {

std::optional<llm::LlmUsage> runModelUsage(const ProjectStore& store, const Run& run) {
  if (run.proposer.find("llm:") == std::string::npos) return std::nullopt;
  llm::LlmUsage total;
  // One candidate at a time: each genome holds its prompt (up to 64 KiB).
  for (const CandidateSummary& s : store.candidateSummaries(run.id)) {
    if (s.proposer.rfind("llm:", 0) != 0) continue;  // only the model's candidates carry usage
    if (auto c = store.candidate(s.id)) total += llm::sumLlmUsage({c->genomeJson});
  }
  return total;
}

ModelBudget modelBudgetOf(const Run& run) {
  try {
    const RunSettings s = runSettingsFromJson(run.settingsJson);
    return {s.maxModelCostUsd, s.maxModelTokens};
  } catch (const std::invalid_argument&) {
    return {};  // `runs` still lists a run whose settings it cannot read
  }
}

std::string describeModelUsage(const llm::LlmUsage& u, const ModelBudget& budget) {
  std::ostringstream out;
  out << u.tokensIn << " in, " << u.tokensOut << " out, " << u.requests << " requests, $" << std::fixed
      << std::setprecision(4) << u.costUsd;
  if (budget.costUsd > 0) out << " of " << formatUsd(budget.costUsd) << " budget";
  if (budget.tokens > 0) out << " (" << u.tokensIn + u.tokensOut << " of " << budget.tokens << " tokens budget)";
  return out.str();
}

}  // namespace crucible::cli
