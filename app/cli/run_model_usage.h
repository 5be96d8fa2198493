// SPDX-License-Identifier: GPL-3.0-or-later
// What a run spent on language models (tokens, cost, requests), summed over
// its candidates' genomeJson (sumLlmUsage), for `runs` and `status`. Only
// runs whose proposer includes a model ("llm:<model>") are read candidate by
// candidate; the others cost nothing to ask about.
#pragma once
#include <optional>
#include <string>
#include "backends/proposers/llm/llm_usage.h"
#include "core/engine/budget.h"
#include "core/store/project_store.h"

namespace crucible::cli {

// nullopt when the run used no model.
std::optional<llm::LlmUsage> runModelUsage(const ProjectStore& store, const Run& run);
// The run's model budget (RunSettings::maxModelCostUsd / maxModelTokens); zeros when
// it has none or its settings cannot be read.
ModelBudget modelBudgetOf(const Run& run);
// "123456 in, 7890 out, 42 requests, $0.1234", then " of $5.00 budget" /
// " of 1000000 tokens budget" for the limits that are set.
std::string describeModelUsage(const llm::LlmUsage& u, const ModelBudget& budget = {});

}  // namespace crucible::cli
