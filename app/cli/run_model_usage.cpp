// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/run_model_usage.h"

#include <iomanip>
#include <sstream>

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

std::string describeModelUsage(const llm::LlmUsage& u) {
  std::ostringstream out;
  out << u.tokensIn << " in, " << u.tokensOut << " out, " << u.requests << " requests, $" << std::fixed
      << std::setprecision(4) << u.costUsd;
  return out.str();
}

}  // namespace crucible::cli
