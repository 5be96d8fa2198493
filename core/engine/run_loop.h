// SPDX-License-Identifier: GPL-3.0-or-later
// One run() of the engine on one run: restores the run's state from the
// store, then loops generation by generation (propose a batch and hand it to
// the session's pipeline, which compiles and evaluates it while the next one
// is proposed; commit results in proposal order: run_loop_evaluate.cpp)
// until the budget is spent,
// a stop is requested, or the search is exhausted. It orchestrates units
// that each do one thing: session restore (run_restore.h), wall time
// (run_clock.h), admission of a generation's proposals
// (generation_admission.h) and their concurrent calls (proposal_window.h),
// a slot's parents and strategy (slot_plan.h), tuning (tuning_tracker.h),
// knowledge (run_knowledge.h), review verdicts (review_verdicts.h), island migration
// (island_migration.h), pipeline inputs (pipeline_items.h), what a result
// makes of its candidate (commit_outcome.h) and events (run_events.h).
// Candidates a user adds to the run meanwhile (user_evaluation.h) are
// noticed between generations and may become parents.
// Internal to core/engine.
#pragma once
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "core/engine/archive.h"
#include "core/engine/batch_pipeline.h"
#include "core/engine/budget.h"
#include "core/engine/engine.h"
#include "core/engine/engine_control.h"
#include "core/engine/generation_admission.h"
#include "core/engine/plan_first.h"
#include "core/engine/proposal_window.h"
#include "core/engine/review_gate.h"
#include "core/engine/run_clock.h"
#include "core/engine/run_knowledge.h"
#include "core/engine/run_restore.h"
#include "core/engine/run_settings.h"
#include "core/engine/tuning_tracker.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

using EventSink = std::function<void(const EngineEvent&)>;

// The share of a run's wall time its sanitizers may take while it searches
// (PipelineConfig::sanitizerShare); its best is sealed when it ends.
inline constexpr double kRunSanitizerShare = 0.2;
// How many bests the end of a run tries to seal: one that fails its extended
// validation there is demoted and the next best may deserve the seal instead.
// A few, since each costs an extended validation after the budget is spent.
inline constexpr int kEndSealAttempts = 3;

class RunLoop {
public:
  // Loads the run, its task and settings; throws EngineError when the run or
  // its task does not exist or its settings are invalid.
  // `sanitizer` may be null: then nothing is sealed (and the log says why).
  RunLoop(ProjectStore& store, Proposer& proposer, Compiler& compiler, Dispatcher& dispatcher, Sanitizer* sanitizer,
          EngineControl& control, EventSink emit, RunId run);

  // Runs to the end (finished or stopped). Throws on failure; the caller then calls fail().
  void execute();
  // Marks the run Failed with the reason, as far as the store still allows.
  void fail(const std::string& reason);

private:
  // setup
  void setupEvaluators();
  std::vector<Candidate> restore();   // returns the candidates to evaluate again (in flight when interrupted)
  void setupReference(const LogFn& logFn);

  // candidates others add to the run (user_evaluation.h: the GUI's
  // evaluation of an edited kernel, `crucible-cli fork` in another process)
  // Between generations: one indexed query for the run's candidates above the
  // last id this loop has seen; those of proposer "user" are folded in.
  void noticeOutsideCandidates();
  // A final candidate this loop did not make: never evaluated again; a Valid
  // one is offered to the archive (and so may be selected as a parent) and
  // raises the run's best speedup.
  void adoptOutside(const Candidate& c, int island);

  // control
  bool checkpoint();                    // applies control changes; blocks while paused; false = stop
  void applyControlChanges();
  void applyVerdict(const ReviewVerdict& v);
  void recordPaused();
  void recordResumed();
  void waitForVerdict();
  Usage usage() const;

  // proposing
  void proposeSeeds();
  // Up to the proposer's concurrentProposals() slots at once (proposal_window.h).
  std::vector<Candidate> proposeGeneration(int generation, std::int64_t slots);
  // A slot's plan, and what to do with its proposal: admit at most one candidate.
  SlotWork planSlotWork(int generation, int slot, int island);
  // A failed proposal with keep set: stored as it is, never evaluated.
  void keepFailedProposal(Candidate c, int generation, int island, const std::vector<CandidateId>& parents);
  // Accepts a proposal into this generation (in memory); false when it is
  // discarded (measured before, rejected architecture, avoided seal
  // architecture, bad descriptor). storeAdmitted() writes the generation's
  // admissions in one transaction and returns those ready to evaluate.
  bool admit(Candidate& c, int island, const std::string& parentCellKey);
  std::vector<Candidate> storeAdmitted();
  void migrate(int generation);
  void varyStrategy(int generation);

  // evaluating
  // Plans without code (plan_first.h) get their code first; those that get none end here (run_loop_plans.cpp).
  std::vector<Candidate> implementPlans(std::vector<Candidate> batch);
  // Evaluates a batch and commits all results before it returns.
  void processBatch(std::vector<Candidate> batch);
  // Appends a batch to the run's pipeline (compiles start at once, the
  // evaluators take it after what is in flight); nothing is committed.
  void startBatch(std::vector<Candidate> batch);
  // Commits, in proposal order, the pipeline's results before position
  // `end` (all when it is beyond them); throws EngineError after committing
  // what was measured when a backend failed.
  // The wall-time or GPU-time budget is used up (evaluations are counted apart).
  bool timeBudgetSpent();
  void commitUpTo(std::size_t end);
  void drain() { commitUpTo(static_cast<std::size_t>(-1)); }
  std::int64_t inFlight() const;   // started, not committed
  PipelineConfig pipelineConfig();
  // This session's phases: the pipeline's threads, proposing, committing, wall.
  PhaseTimes phases() const;
  void commit(const PipelineItem& item, const PipelineResult& r);
  // Updates the knowledge (inside the commit's transaction); the event to
  // send once the transaction committed, if an entry changed.
  std::optional<events::KnowledgeUpdated> observeKnowledge(const Candidate& child, const std::string& deviceArch);

  // helpers
  const Candidate& candidateById(CandidateId id);
  int islandOf(CandidateId id) const;
  std::string keyOf(const Candidate& c) const;
  MetaPrompt* strategyById(MetaPromptId id);
  RunCounters counters() const;   // the run's counters now, for the events
  void send(EngineEventKind what);  // to the observers, as an event of this run
  void log(const std::string& level, const std::string& text);
  void finish(const std::string& reason);
  // The run's best candidate when it earns a seal it does not have and its
  // sanitizers never refused it (run_loop_seal.cpp).
  std::optional<Candidate> bestAwaitingSeal();
  // Extended validation and sanitizers for that candidate, and its seal; a
  // failure is logged, never thrown (all results are committed by then).
  // Up to kEndSealAttempts bests, while each one fails.
  void sealBestAtEnd();
  // One of them; true when it failed its extended validation and was demoted.
  bool sealAtEnd(const Candidate& c);
  // Takes a demoted elite out of the archive (memory and store): each cell
  // it holds (one an island, after migrations) passes to the best other
  // valid candidate measured in it, or is emptied; the run's best speedup
  // follows. Inside the caller's transaction. Returns what became of the
  // cells, for the log.
  std::string dropFromArchive(const Candidate& demoted);
  void stopped();

  ProjectStore& store_;
  Proposer& proposer_;
  Compiler& compiler_;
  Dispatcher& dispatcher_;
  Sanitizer* sanitizer_;
  EngineControl& control_;
  EventSink emit_;

  Run run_;
  Task task_;
  RunSettings settings_;
  std::vector<Evaluator*> evaluators_;
  Fingerprint device_;
  std::string compileArch_;

  std::unique_ptr<Archive> archive_;
  ReviewGate gate_;
  std::vector<MetaPrompt> strategies_;
  std::unique_ptr<RunKnowledge> knowledge_;
  std::unique_ptr<TuningTracker> tuning_;
  std::unique_ptr<GenerationAdmission> admission_;
  RunClock clock_{0};

  Candidate reference_;
  std::string referenceCubin_;
  double referenceMedianUs_ = 0;
  std::string avoidArchitecture_;      // SealStart::AwayFromSeal: the seal's architecture
  double bestSealed_ = 0;              // best speedup this run sealed

  std::map<int, int> storedPerGeneration_;   // non-reference candidates per generation (island positions)
  int lastGeneration_ = -1;
  std::map<CandidateId, int> islandOf_;       // candidates not final yet
  std::deque<Candidate> released_;            // accepted by review, evaluated next generation
  std::map<CandidateId, Candidate> cache_;    // parents and elites, loaded on demand
  bool blockedOnReview_ = false;
  int idleGenerations_ = 0;
  // Why the proposer made no starting candidate (its first error), when it
  // made none: the plain reason a run that never had a candidate ends with.
  std::string noSeedReason_;
  std::string lastProposalError_;
  bool stopFromOutside_ = false;   // a stop request file was seen (stop_request.h)  // the latest failed proposal's reason: why a run made nothing new
  CandidateId lastSeenCandidate_ = 0;          // noticeOutsideCandidates() looks above it
  ModelSpend modelSpent_;                      // recorded with the run's candidates (budget.h)

  // Where this session's time goes (phase_times.h): proposing and committing
  // on this thread; the pipeline's threads keep their own sums.
  double proposeSeconds_ = 0;
  double commitSeconds_ = 0;
  PhaseTimes endSeal_;             // the seal at the end of the run: extended, sanitize and GPU seconds
  std::int64_t committedThisSession_ = 0;
  double wallAtSessionStart_ = 0;
  // One pipeline for the session, appended generation by generation; the
  // position of the first result not committed yet. Last member: destroyed
  // (its threads joined) before what they use.
  std::size_t committedUpTo_ = 0;
  std::unique_ptr<BatchPipeline> pipeline_;
};

}  // namespace crucible::engine_detail
