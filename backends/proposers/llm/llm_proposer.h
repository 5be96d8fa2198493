// SPDX-License-Identifier: GPL-3.0-or-later
// The language-model proposer: asks a model (any ChatClient: OpenAI-compatible
// or Anthropic) first for an architecture (a name and a plan), then for its
// implementation; checks the kernel's ABI and launch rule, compiles it when a
// Compiler is given, and sends wrong signatures, bad launch rules and compile
// errors back for a bounded number of repair turns. A kernel whose normalised
// source was already proposed in this run is not returned again.
//
// Every proposal's tokens, latency, cost and repair turns are stored in the
// candidate's genomeJson ("llm"), with the plan ("plan"), the prompt sections
// ("prompt") and, for failures, the last reply ("lastReply"). A failed
// proposal is ok=false with the candidate filled for inspection (keep=true
// whenever the model replied at all): status CompileFailed and a
// statusDetail starting with a stable word:
//   "chat-error: "       the request failed (timeout, HTTP status, ...; the kind follows)
//   "no-plan: "          the first turn named no architecture
//   "no-code: ", "truncated: ", "edit-not-applied: ", "wrong-signature: ",
//   "bad-launch-rule: ", "too-large: "   (reply_parser.h)
//   "compile-failed: "   still failing to compile after the repair turns
//   "duplicate: "        the same kernel (ignoring comments and spacing) was proposed before
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/proposers/llm/architecture_plan.h"
#include "backends/proposers/llm/chat.h"
#include "backends/proposers/llm/llm_settings.h"
#include "backends/proposers/llm/llm_usage.h"
#include "backends/proposers/llm/model_bandit.h"
#include "backends/proposers/llm/prompt_builder.h"
#include "backends/proposers/llm/reply_parser.h"
#include "core/engine/interfaces.h"
#include "core/engine/plan_first.h"

namespace crucible::llm {

class LlmProposer final : public Proposer, public PlanFirstProposer {
public:
  // `compiler` may be null: kernels are then returned uncompiled (the engine compiles them).
  LlmProposer(LlmSettings settings, std::shared_ptr<ChatClient> client, Compiler* compiler = nullptr);

  // Fills what ProposalContext does not carry (GPU, roofs, reference, best,
  // inspirations, recent failures); the engine installs it. Called on the
  // proposing thread; must be thread-safe if proposals run concurrently.
  using ContextProvider = std::function<void(const ProposalContext&, PromptContext&)>;
  void setContextProvider(ContextProvider provider);
  // The same for a provider that reads what it shows (from a store, say): it
  // returns the owner of what PromptContext points to, kept alive until the
  // prompt is built.
  using OwningContextProvider = std::function<std::shared_ptr<const void>(const ProposalContext&, PromptContext&)>;
  void setOwningContextProvider(OwningContextProvider provider);
  // Cancels requests in flight when the run pauses or stops.
  void setCancelToken(CancelToken token);
  // How many first kernels seeds() asks for (concurrently).
  void setSeedCount(int n) { seedCount_ = n; }

  // ---- Several models: a bandit (model_bandit.h) picks each proposal's model,
  // learning from how the children of each model ended.
  struct ModelOutcome {
    std::string model;   // a settings model's name; others are ignored
    double reward = 0;   // 1: the child improved on its parent; 0: it did not (failed, slower, rejected)
  };
  // Outcomes that became known since the previous call (store_context.h's
  // storeOutcomeSource reads them from the run); called before each
  // proposal's model is chosen, one call at a time.
  using OutcomeSource = std::function<std::vector<ModelOutcome>()>;
  void setOutcomeSource(OutcomeSource source);
  // One outcome told directly.
  void observeOutcome(const ModelOutcome& outcome);
  // What the bandit knows of the model (proposals, outcomes, tokens, cost); throws for an unknown name.
  ModelArmStats modelStats(const std::string& model) const;
  double modelScore(const std::string& model) const;

  std::string name() const override;  // "llm:<first model>"
  std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) override;
  Proposal propose(const ProposalContext& ctx) override;
  // settings().concurrency proposals at once: propose() is thread-safe (the
  // client bounds and serialises its own requests, the novelty set and the
  // totals are under a mutex, the Compiler is thread-safe by contract). An
  // installed ContextProvider must be thread-safe too.
  int concurrentProposals() const override { return settings_.concurrency; }
  std::vector<MetaPrompt> initialStrategies() const override;
  MetaPrompt varyStrategy(const MetaPrompt& s, std::uint64_t seed) const override;

  // ---- Architecture first, in two steps (gated runs review the plan before any code).
  // propose() is planArchitecture() then implement().

  // One proposal's exchange with the model so far.
  struct Conversation {
    TaskSpec spec;
    const LlmModelSettings* model = nullptr;  // one of settings().models
    std::size_t modelIndex = 0;                // its position there (the bandit's arm)
    std::string mode;                          // "edit" | "rewrite" | "explore"
    std::string mutation;                      // "" = "llm:<mode>"; "seed" for seeds
    LlmUsage usage;                            // of this proposal
    Prompt prompt;                             // the first turn's sections
    std::vector<ChatMessage> messages;
    std::optional<ArchitecturePlan> plan;
    std::string lastReply;
  };
  struct ArchitectureStep {
    bool ok = false;
    // ok: the plan as a candidate without code (status AwaitingReview, genomeJson
    // with "plan", "llm" and "prompt") for a review queue. Not ok: the failed proposal.
    Proposal proposal;
    Conversation conversation;  // ok: hand to implement()
  };
  // Turn 1: the architecture's name and plan, no code.
  ArchitectureStep planArchitecture(const ProposalContext& ctx, const std::string& mutation = "");
  // Turn 2 and the repair turns; `ctx` as given to planArchitecture.
  Proposal implement(const ProposalContext& ctx, Conversation conversation);
  // ---- The same for the engine's gated runs (core/engine/plan_first.h): the
  // plan candidate is stored while it waits for review, so its code is asked
  // for from what the stored candidate holds (model, mode, prompt sections,
  // plan), after a restart too.
  Proposal planFirst(const ProposalContext& ctx) override;
  // seeds() that stop after the plans.
  std::vector<Proposal> seedPlans(const Task& task, std::uint64_t seed) override;
  // No source, proposer "llm:...", a "plan" in its genomeJson.
  bool isPlan(const Candidate& c) const override;
  // The conversation rebuilt from the plan candidate, then implement(). The
  // returned genomeJson accounts only the implementation's requests (the
  // stored plan keeps its own turn's) and names the plan ("planCandidate");
  // for a plan never stored (id 0) it accounts the plan's turn as well.
  Proposal implementPlan(const ProposalContext& ctx, const Candidate& plan) override;

  // A strategy rewrite (varyStrategy) makes no candidate, so its usage is
  // carried into the genomeJson ("llmStrategy") of the next proposal this
  // proposer returns to be stored (ok, or keep): sumLlmUsage over a run's
  // candidates then adds up everything the run spent on the model.

  // A source already in the run (a resumed run's candidates): not proposed again.
  void rememberSource(const std::string& source);
  // Everything spent so far by this proposer, proposals and strategy rewrites.
  LlmUsage totalUsage() const;
  // Why strategy rewrites were refused, oldest first (at most 100 kept).
  std::vector<std::string> strategyNotes() const;

  const LlmSettings& settings() const { return settings_; }

private:
  // The bandit's model for a new proposal (outcomes pulled first); its index in settings().models.
  std::size_t startModel();
  // A proposal ended: what it spent goes to its model's cost per proposal.
  void billModel(const Conversation& conv);
  void pullOutcomes();  // banditMutex_ held
  // Sends and adds the reply's usage to `usage` and to the proposer's total.
  ChatReply send(const LlmModelSettings& model, const std::vector<ChatMessage>& messages, LlmUsage& usage) const;
  // The candidate as far as the conversation got; `detail` empty = success.
  Proposal finish(const ProposalContext& ctx, const Conversation& conv, const ParsedReply& parsed,
                  const std::optional<CompileReport>& report, const std::string& detail, const std::string& source) const;
  void note(const std::string& text) const;
  Proposal implementTurns(const ProposalContext& ctx, Conversation conv);
  // Moves the strategy rewrites' usage not yet carried by a candidate into p's genomeJson.
  Proposal billStrategyRewrites(Proposal p) const;
  bool claimNovel(const std::string& source);
  std::vector<Proposal> seedsUpTo(const Task& task, std::uint64_t seed, bool plansOnly);

  LlmSettings settings_;
  std::shared_ptr<ChatClient> client_;
  Compiler* compiler_;
  OwningContextProvider provider_;
  CancelToken cancel_;
  int seedCount_ = 3;

  mutable std::mutex banditMutex_;  // before mutex_ when both are held
  ModelBandit bandit_;
  OutcomeSource outcomes_;

  mutable std::mutex mutex_;
  std::set<std::string> seen_;  // normalised sources of this run
  mutable LlmUsage total_;
  mutable LlmUsage unbilledStrategy_;  // strategy rewrites not yet in a candidate's genomeJson
  mutable std::vector<std::string> notes_;
};

}  // namespace crucible::llm
