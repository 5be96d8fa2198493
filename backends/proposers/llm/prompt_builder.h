// SPDX-License-Identifier: GPL-3.0-or-later
// The prompt the language-model proposer sends, as titled sections a user can
// read in the candidate's detail: the task, the GPU, the reference, the parent
// with its measured figures, the best so far, inspirations, recent failures,
// knowledge in scope, and the strategy's evolvable sections. Architecture
// first: the first turn asks only for a name and a plan; the second for the
// implementation; repair turns carry the problem back. The same inputs always
// give the same text (no clocks, no randomness, inputs in the order given).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "backends/proposers/llm/architecture_plan.h"
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/seal.h"
#include "core/task/task_spec.h"

namespace crucible::llm {

struct PromptSection {
  std::string key;    // stable: "task", "gpu", "reference", "parent", "best", "inspirations",
                      // "failures", "knowledge", "strategy", "answer"
  std::string title;  // shown to the model and the user
  std::string body;
};

struct Prompt {
  std::string system;
  std::vector<PromptSection> sections;
  std::string text() const;  // "# <title>\n\n<body>\n\n" per section
};

// Everything a prompt may show; null / empty parts are left out.
struct PromptContext {
  const TaskSpec* spec = nullptr;
  std::optional<Fingerprint> gpu;
  std::vector<Ceiling> ceilings;                 // measured roofs
  const Candidate* reference = nullptr;          // the run's reference; null: the spec's baseline
  const Candidate* parent = nullptr;
  const Candidate* best = nullptr;
  std::vector<const Candidate*> inspirations;    // the first 3 are shown
  std::vector<const Candidate*> recentFailures;  // the first 5 are shown
  std::vector<const KnowledgeEntry*> knowledge;  // the first 12 are shown
  const MetaPrompt* strategy = nullptr;
};

constexpr std::size_t kMaxSourceCharsInPrompt = 24000;

std::string systemPrompt();

// Turn 1: the context and a request for the architecture (name + plan) only.
Prompt buildPlanPrompt(const PromptContext& ctx);

// Turn 2: the implementation of the plan, in the strategy's mode (edits or whole kernel).
std::string implementationRequest(const PromptContext& ctx, const ArchitecturePlan& plan);

// A repair turn: what was wrong (a wrong signature or the compiler's errors) and
// the expected signature again.
std::string repairRequest(const PromptContext& ctx, const std::string& problem);

// The measured figures of a candidate, one fact per line (for prompts and details).
std::string candidateFigures(const Candidate& c);

}  // namespace crucible::llm
