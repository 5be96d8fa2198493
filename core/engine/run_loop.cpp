// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_loop.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include "core/engine/binning.h"
#include "core/engine/island_migration.h"
#include "core/engine/kept_proposal.h"
#include "core/engine/parent_selection.h"
#include "core/engine/review_verdicts.h"
#include "core/engine/run_events.h"
#include "core/engine/seeding.h"
#include "core/engine/slot_plan.h"
#include "core/engine/stop_request.h"
#include "core/engine/strategy_selection.h"
#include "core/engine/tuning_cache.h"
#include "core/engine/unix_time.h"

namespace crucible::engine_detail {
namespace {

constexpr int kMaxIdleGenerations = 20;        // generations without a new configuration before giving up
constexpr std::size_t kTuningCandidatesPerSlot = 8;
constexpr std::size_t kCacheLimit = 20000;


}  // namespace

RunLoop::RunLoop(ProjectStore& store, Proposer& proposer, Compiler& compiler, Dispatcher& dispatcher,
                 Sanitizer* sanitizer, EngineControl& control, EventSink emit, RunId run)
    : store_(store), proposer_(proposer), compiler_(compiler), dispatcher_(dispatcher), sanitizer_(sanitizer),
      control_(control), emit_(std::move(emit)), gate_(false) {
  auto r = store_.run(run);
  if (!r) throw EngineError("run " + std::to_string(run) + " does not exist in " + store_.path());
  run_ = *r;
  auto t = store_.task(run_.taskId);
  if (!t) throw EngineError("run " + std::to_string(run) + " refers to task " + std::to_string(run_.taskId) +
                            ", which does not exist");
  task_ = *t;
  try {
    settings_ = runSettingsFromJson(run_.settingsJson);
  } catch (const std::invalid_argument& e) {
    throw EngineError("run " + std::to_string(run) + ": " + e.what());
  }
  gate_ = ReviewGate(run_.gated);
  archive_ = std::make_unique<Archive>(run_.id, settings_.islands);
  admission_ = std::make_unique<GenerationAdmission>(store_, task_.id);
  tuning_ = std::make_unique<TuningTracker>(
      proposer_, [this](CandidateId id) { return store_.candidate(id); },
      TuningLimits{settings_.tuningStrategy, settings_.tuningBudgetPerArchitecture, kTuningCandidatesPerSlot});
  clock_ = RunClock(run_.wallSecondsUsed);
  wallAtSessionStart_ = run_.wallSecondsUsed;
}

// ------------------------------------------------------------------ setup

void RunLoop::setupEvaluators() {
  evaluators_ = dispatcher_.evaluators();
  if (evaluators_.empty())
    throw EngineError("dispatcher '" + dispatcher_.name() + "' offers no evaluator (no GPU available?)");
  device_ = evaluators_.front()->device();
  proposer_.setDevice(device_);
  compileArch_ = settings_.compileArch.empty() ? device_.arch : settings_.compileArch;
  if (compileArch_.empty())
    throw EngineError("no compile architecture: the evaluator reports no device arch and the run settings name none");
  if (!sanitizer_) log("warning", "no sanitizer is configured: candidates are validated, but none can be sealed");
}

std::vector<Candidate> RunLoop::restore() {
  LogFn logFn = [this](const std::string& level, const std::string& text) { log(level, text); };
  ensureCeilings(store_, *evaluators_.front(), device_.gpu, logFn);
  strategies_ = restoreStrategies(store_, run_.id, proposer_);
  knowledge_ = std::make_unique<RunKnowledge>(store_, settings_, task_);
  RestoredIndex index = restoreIndex(store_, run_.id, task_.id, settings_.islands, gate_);
  storedPerGeneration_ = std::move(index.storedPerGeneration);
  lastGeneration_ = index.lastGeneration;
  for (const auto& [architecture, ids] : index.candidatesByArchitecture)
    for (CandidateId id : ids) tuning_->addCandidate(architecture, id);
  islandOf_ = std::move(index.islandOf);
  bestSealed_ = index.bestSealed;
  lastSeenCandidate_ = index.lastCandidate;
  // A model budget counts what the run spent before it was resumed too.
  if (settings_.maxModelCostUsd > 0 || settings_.maxModelTokens > 0)
    for (const CandidateSummary& s : store_.candidateSummaries(run_.id))
      if (auto c = store_.candidate(s.id)) modelSpent_ += modelSpendOfGenome(c->genomeJson);
  setupReference(logFn);
  restoreArchive(store_, *archive_, reference_, settings_, logFn);
  // User candidates stored while no engine ran on this run: the archive may
  // not hold them yet (offering one again changes nothing: ties keep the elite).
  for (const auto& [id, island] : index.outside)
    if (auto c = store_.candidate(id)) adoptOutside(*c, island);
  return std::move(index.recovery);
}

void RunLoop::setupReference(const LogFn& logFn) {
  reference_ = establishReference(store_, run_, task_);
  if (reference_.proposer == "seal") {
    gate_.markAccepted(reference_.architectureKey);
    if (settings_.sealStart == SealStart::AwayFromSeal) avoidArchitecture_ = reference_.architectureKey;
  }
  ReferenceTiming timing =
      prepareReference(store_, run_, reference_, task_, compiler_, *evaluators_.front(), compileArch_, device_.gpu,
                       settings_.validationSeeds, logFn);
  referenceCubin_ = std::move(timing.cubin);
  referenceMedianUs_ = timing.medianUs;
  if (reference_.timing)
    if (auto note = referenceHardwareNote(*reference_.timing, device_)) log("warning", *note);
  knowledge_->learnFromReference(reference_, referenceCubin_, *evaluators_.front(), task_, device_,
                                 settings_.profile != ProfileMode::None, logFn);
}

// ------------------------------------------------------------------ control

Usage RunLoop::usage() const {
  return Usage{run_.evaluationsDone, clock_.wallUsed(), run_.gpuSecondsUsed, modelSpent_};
}

RunCounters RunLoop::counters() const { return runCounters(run_, clock_.wallUsed(), lastGeneration_); }

void RunLoop::send(EngineEventKind what) { emit_(EngineEvent{run_.id, std::move(what)}); }

void RunLoop::log(const std::string& level, const std::string& text) {
  store_.appendLog(run_.id, level, text);
  send(events::Log{counters(), level, text});
}

void RunLoop::finish(const std::string& reason) {
  sealBestAtEnd();
  run_.status = RunStatus::Finished;
  run_.wallSecondsUsed = clock_.wallUsed();
  store_.updateRun(run_);
  const PhaseTimes spent = phases();
  log("info", describe(spent));
  log("info", "run finished: " + reason);
  send(events::RunFinished{counters(), reason, spent});
}

void RunLoop::stopped() {
  clearStopRequest(store_.path(), run_.id);
  run_.status = RunStatus::Stopped;
  run_.wallSecondsUsed = clock_.wallUsed();
  store_.updateRun(run_);
  const PhaseTimes spent = phases();
  log("info", describe(spent));
  log("info", "run stopped; it can be resumed");
  send(events::RunStopped{counters(), spent});
}

PhaseTimes RunLoop::phases() const {
  PhaseTimes t = pipeline_ ? pipeline_->times() : PhaseTimes{};
  t.evaluators = static_cast<int>(evaluators_.size());
  t.wallSeconds = clock_.wallUsed() - wallAtSessionStart_;
  t.evaluations = committedThisSession_;
  t.proposeSeconds = proposeSeconds_;
  t.commitSeconds = commitSeconds_;
  // The seal at the end held the GPU too (run_loop_seal.cpp).
  t.extendedSeconds += endSeal_.extendedSeconds;
  t.sanitizeSeconds += endSeal_.sanitizeSeconds;
  t.gpuSeconds += endSeal_.gpuSeconds;
  return t;
}

void RunLoop::fail(const std::string& reason) {
  run_.status = RunStatus::Failed;
  run_.wallSecondsUsed = clock_.wallUsed();
  try {
    store_.updateRun(run_);
    store_.appendLog(run_.id, "error", "run failed: " + reason);
  } catch (const std::exception&) {
    // The store itself may be what failed; the event below still tells the user.
  }
  send(events::RunFailed{counters(), reason, phases()});
}

// ------------------------------------------------------------------ the loop

void RunLoop::execute() {
  clearStopRequest(store_.path(), run_.id);  // a request from before this session is stale
  run_.status = RunStatus::Running;
  store_.updateRun(run_);
  send(events::RunStarted{counters()});
  setupEvaluators();
  std::vector<Candidate> recovery = restore();
  if (!recovery.empty()) {
    log("info", "resuming: " + std::to_string(recovery.size()) + " candidate(s) were in flight");
    processBatch(std::move(recovery));
  }
  if (storedPerGeneration_.empty()) proposeSeeds();

  // Look-ahead: generation g+1 is proposed and appended while g is
  // evaluated, and g is committed after that, so every proposal of g+1 sees
  // the archive as g-1 left it whatever the timing (a run stays reproducible).
  const bool lookAhead = settings_.lookAhead && !run_.gated;
  for (;;) {
    if (!checkpoint()) {
      drain();   // what was measured is committed; the rest stays Proposed for the resume
      return stopped();
    }
    noticeOutsideCandidates();
    if (auto spent = budgetExhausted(run_.budget, usage(), {settings_.maxModelCostUsd, settings_.maxModelTokens})) {
      drain();
      return finish(*spent);
    }
    if (settings_.maxGenerations > 0 && lastGeneration_ >= settings_.maxGenerations) {
      drain();
      return finish("generation limit of " + std::to_string(settings_.maxGenerations) + " reached");
    }
    if (blockedOnReview_ && released_.empty()) {
      drain();
      waitForVerdict();
      continue;
    }
    blockedOnReview_ = false;

    // Candidates in flight will use evaluations of the budget.
    std::int64_t left = evaluationsLeft(run_.budget, usage()) - inFlight();
    std::vector<Candidate> batch;
    while (!released_.empty() && static_cast<std::int64_t>(batch.size()) < left) {
      batch.push_back(released_.front());
      released_.pop_front();
    }
    std::int64_t slots = std::min<std::int64_t>(settings_.batchSize, left - static_cast<std::int64_t>(batch.size()));
    if (slots > 0) {
      int generation = lastGeneration_ + 1;
      if (settings_.islands > 1 && generation % settings_.migrationInterval == 0) migrate(generation);
      varyStrategy(generation);
      const auto proposeStart = std::chrono::steady_clock::now();
      auto proposed = proposeGeneration(generation, slots);
      proposeSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - proposeStart).count();
      batch.insert(batch.end(), proposed.begin(), proposed.end());
    }
    if (batch.empty() && inFlight() > 0) {
      // Nothing new yet: the results in flight may give the proposer new parents (or spend the budget).
      drain();
      continue;
    }
    if (batch.empty()) {
      if (gate_.isWaiting()) {
        if (!blockedOnReview_)
          log("info", "waiting for review of " + std::to_string(gate_.waitingArchitectures().size()) +
                          " new architecture(s)");
        blockedOnReview_ = true;
        continue;
      }
      if (++idleGenerations_ >= kMaxIdleGenerations) {
        // A run that never had a candidate did not exhaust a search space:
        // its proposer cannot make kernels for this task at all.
        if (archive_->size() == 0 && !noSeedReason_.empty())
          return finish("no candidate could be made for this " + task_.family + " task: proposer '" +
                        proposer_.name() + "' says: " + noSeedReason_ +
                        " (add a tunable kernel, or use a language-model proposer)");
        // Failed proposals say why nothing new came; only without any is the space exhausted.
        return finish("the proposer made no new configuration in " + std::to_string(kMaxIdleGenerations) +
                      " generations" + (lastProposalError_.empty() ? std::string(" (search space exhausted)")
                                                                   : "; its last reason: " + lastProposalError_));
      }
      continue;
    }
    idleGenerations_ = 0;
    if (!lookAhead) {
      processBatch(std::move(batch));
      continue;
    }
    const std::size_t previous = pipeline_ ? pipeline_->size() : 0;
    startBatch(std::move(batch));
    commitUpTo(previous);   // the generation before this one; this one is evaluated meanwhile
  }
}

// ------------------------------------------------------------------ proposing

std::string RunLoop::keyOf(const Candidate& c) const { return cellKey(c.descriptor, settings_.binning); }

int RunLoop::islandOf(CandidateId id) const {
  auto it = islandOf_.find(id);
  return it == islandOf_.end() ? 0 : it->second;
}

MetaPrompt* RunLoop::strategyById(MetaPromptId id) {
  for (auto& s : strategies_)
    if (s.id == id) return &s;
  return nullptr;
}

const Candidate& RunLoop::candidateById(CandidateId id) {
  auto it = cache_.find(id);
  if (it != cache_.end()) return it->second;
  auto c = store_.candidate(id);
  if (!c) throw EngineError("candidate " + std::to_string(id) + " is missing from the project");
  return cache_.emplace(id, std::move(*c)).first->second;
}

void RunLoop::proposeSeeds() {
  const auto proposeStart = std::chrono::steady_clock::now();
  const std::uint64_t seed = deriveSeed(run_.seed, 0, 0, SeedPurpose::Seeds);
  // Gated: the seeds' plans are reviewed before their code is written too (plan_first.h).
  PlanFirstProposer* planner = gate_.gated() ? planFirstOf(proposer_) : nullptr;
  std::vector<Proposal> seeds = planner ? planner->seedPlans(task_, seed) : proposer_.seeds(task_, seed);
  std::int64_t admittedCount = 0;
  std::int64_t left = evaluationsLeft(run_.budget, usage());
  lastGeneration_ = std::max(lastGeneration_, 0);
  for (auto& p : seeds) {
    if (admittedCount >= left) break;
    if (!p.ok) {
      log("warning", "proposer '" + proposer_.name() + "' gave no seed: " + p.error);
      if (noSeedReason_.empty()) noSeedReason_ = p.error;
      if (p.keep) {
        if (p.candidate.mutation.empty()) p.candidate.mutation = "seed";
        keepFailedProposal(std::move(p.candidate), 0, storedPerGeneration_[0] % settings_.islands, {});
      }
      continue;
    }
    Candidate c = std::move(p.candidate);
    c.generation = 0;
    if (c.mutation.empty()) c.mutation = "seed";
    int island = storedPerGeneration_[0] % settings_.islands;
    if (admit(c, island, "")) ++admittedCount;
  }
  if (admittedCount > 0) noSeedReason_.clear();
  if (seeds.empty() && noSeedReason_.empty()) noSeedReason_ = "it gave no starting candidate";
  std::vector<Candidate> admitted = storeAdmitted();
  proposeSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - proposeStart).count();
  processBatch(std::move(admitted));
}

std::vector<Candidate> RunLoop::proposeGeneration(int generation, std::int64_t slots) {
  // Evicted only here: references handed out by candidateById stay valid within a generation.
  if (cache_.size() >= kCacheLimit) cache_.clear();
  ProposalWindowControl control;
  control.mayPlan = [this] { return checkpoint(); };   // a stop plans no more slots; a pause waits
  control.tick = [this] { applyControlChanges(); };
  runProposalWindow(
      static_cast<int>(slots), proposer_.concurrentProposals(),
      [&](int slot, int inFlight) {
        // Slots in flight count as placed, so concurrent slots spread over the islands.
        int island = (storedPerGeneration_[generation] + inFlight) % settings_.islands;
        return planSlotWork(generation, slot, island);
      },
      control);
  // The generation counts as made even if every proposal was discarded, so
  // the next one draws fresh seeds.
  lastGeneration_ = std::max(lastGeneration_, generation);
  return storeAdmitted();
}

SlotWork RunLoop::planSlotWork(int generation, int slot, int island) {
  std::mt19937_64 rng(deriveSeed(run_.seed, generation, slot, SeedPurpose::Selection));
  SlotPlan plan = planSlot(*archive_, island, strategies_, settings_, rng);
  std::string parentKey = plan.parent ? plan.parent->key : "";

  // What the proposer's call reads, owned by the call: with concurrent
  // proposals it runs on another thread while this one plans and admits.
  struct Call {
    ProposalContext ctx;
    std::vector<Candidate> parents;
    std::optional<MetaPrompt> strategy;
  };
  auto call = std::make_shared<Call>();
  call->ctx.task = &task_;
  call->ctx.generation = generation;
  call->ctx.seed = deriveSeed(run_.seed, generation, slot, SeedPurpose::Proposal);
  // Points into the knowledge, which changes only when results are committed, never while proposing.
  knowledge_->supply(call->ctx, device_.arch);
  if (plan.parent) {
    const Candidate& parent = candidateById(plan.parent->elite);
    if (plan.tuneFirst) {
      // Tuning skips only what the project measured: admit() also discards what this generation proposed.
      auto measured = [this](const std::string& key) { return store_.lookupTuning(task_.id, key).has_value(); };
      std::uint64_t seed = deriveSeed(run_.seed, generation, slot, SeedPurpose::Tuning);
      if (auto tuned = tuning_->propose(task_, parent, seed, measured)) {
        tuned->generation = generation;
        return SlotWork{{}, [this, tuned = std::move(*tuned), island, parentKey](Proposal) mutable {
                          admit(tuned, island, parentKey);
                        }};
      }
    }
    call->parents.push_back(parent);
    if (plan.mate) call->parents.push_back(candidateById(plan.mate->elite));
  }
  for (const Candidate& parent : call->parents) call->ctx.parents.push_back(&parent);
  if (plan.strategy) {
    call->strategy = strategies_[*plan.strategy];
    call->ctx.strategy = &*call->strategy;
  }

  SlotWork work;
  work.call = [this, call] { return proposer_.propose(call->ctx); };
  // Gated: architecture first, so a reviewer sees the plan before any code is written (plan_first.h).
  if (PlanFirstProposer* planner = gate_.gated() ? planFirstOf(proposer_) : nullptr)
    work.call = [planner, call, gate = std::make_shared<const ReviewGate>(gate_)] {
      return proposeThroughReview(*planner, *gate, call->ctx);
    };
  work.settle = [this, call, generation, island, parentKey, kind = plan.kind](Proposal p) {
    std::vector<CandidateId> parents;
    for (const Candidate& parent : call->parents) parents.push_back(parent.id);
    if (p.candidate.mutation.empty()) p.candidate.mutation = kind;
    if (call->strategy) p.candidate.metaPrompt = call->strategy->id;
    if (!p.ok) {
      log("warning", "proposer '" + proposer_.name() + "' made no candidate (" + kind + "): " + p.error);
      lastProposalError_ = p.error;
      if (p.keep) keepFailedProposal(std::move(p.candidate), generation, island, parents);
      return;
    }
    Candidate c = std::move(p.candidate);
    c.generation = generation;
    if (c.parents.empty()) c.parents = parents;
    admit(c, island, parentKey);
  };
  return work;
}

void RunLoop::keepFailedProposal(Candidate c, int generation, int island, const std::vector<CandidateId>& parents) {
  KeptProposal kept = keptProposal(std::move(c), {run_.id, generation, parents, proposer_.name(), unixSeconds()});
  if (!kept.candidate) return log("warning", "proposer '" + proposer_.name() + "': " + kept.problem);
  ++storedPerGeneration_[generation];   // it takes a place, as a resumed run counts it
  admission_->keep(std::move(*kept.candidate), island);
}

bool RunLoop::admit(Candidate& c, int island, const std::string& parentCellKey) {
  if (!avoidArchitecture_.empty() && c.architectureKey == avoidArchitecture_) return false;
  try {
    keyOf(c);
  } catch (const std::invalid_argument& e) {
    log("warning", std::string("proposal discarded: ") + e.what());
    return false;
  }
  // A plan has no source yet: plans of one architecture differ by what they say (plan_first.h).
  const PlanFirstProposer* planner = c.source.empty() ? planFirstOf(proposer_) : nullptr;
  std::string config = configKey(c.architectureKey, proposer_.parametersOf(c),
                                 planner && planner->isPlan(c) ? c.genomeJson : c.source);
  ReviewGate::Decision decision = gate_.decide(c.architectureKey);
  const bool known = admission_->known(config);
  if (known || decision == ReviewGate::Decision::Discard) {
    // A proposal that cost model requests is kept, never evaluated, so what it cost stays in the project (budget.h).
    const ModelSpend spent = modelSpendOfGenome(c.genomeJson);
    if (spent.tokens > 0 || spent.costUsd > 0) {
      Candidate kept = c;
      kept.id = 0;
      kept.runId = run_.id;
      if (kept.proposer.empty()) kept.proposer = proposer_.name();
      kept.status = known ? CandidateStatus::CompileFailed : CandidateStatus::Rejected;
      kept.statusDetail = known ? "duplicate: this configuration was measured before; not evaluated again"
                                : "architecture rejected in review";
      kept.createdAt = unixSeconds();
      ++storedPerGeneration_[kept.generation];
      admission_->keep(std::move(kept), island);
    }
    return false;
  }

  c.id = 0;
  c.runId = run_.id;
  if (c.proposer.empty()) c.proposer = proposer_.name();
  c.status = decision == ReviewGate::Decision::Wait ? CandidateStatus::AwaitingReview : CandidateStatus::Proposed;
  c.createdAt = unixSeconds();
  // Counters move now so later slots of this generation see them; the store
  // gets them with the candidates in storeAdmitted().
  if (MetaPrompt* strategy = c.metaPrompt ? strategyById(c.metaPrompt) : nullptr) {
    ++strategy->uses;
    admission_->touchStrategy(strategy->id);
  }
  if (ArchiveCell* parentCell = parentCellKey.empty() ? nullptr : archive_->cell(island, parentCellKey)) {
    ++parentCell->selections;
    admission_->touchCell(island, parentCellKey);
  }
  ++storedPerGeneration_[c.generation];
  tuning_->noteAdmitted(c);
  admission_->add(c, island, std::move(config));
  return true;
}

std::vector<Candidate> RunLoop::storeAdmitted() {
  std::vector<Candidate> ready;
  for (Admitted& a : admission_->store(strategies_, *archive_)) {
    Candidate& c = a.candidate;
    modelSpent_ += modelSpendOfGenome(c.genomeJson);
    if (a.kept) {
      send(proposedEvent(counters(), c));   // stored for inspection; nothing more happens to it
      continue;
    }
    tuning_->addCandidate(c.architectureKey, c.id);
    islandOf_[c.id] = a.island;
    send(proposedEvent(counters(), c));
    // A verdict applied while this generation was proposed (after admit() decided) is not waited for again.
    const ReviewGate::Decision now = gate_.decide(c.architectureKey);
    if (c.status == CandidateStatus::AwaitingReview && now != ReviewGate::Decision::Wait) {
      const bool accepted = now == ReviewGate::Decision::Proceed;
      c.status = accepted ? CandidateStatus::Proposed : CandidateStatus::Rejected;
      c.statusDetail = accepted ? "architecture accepted in review" : "architecture rejected in review";
      store_.updateCandidate(c);
      if (!accepted) {
        islandOf_.erase(c.id);
        continue;
      }
    }
    if (c.status == CandidateStatus::AwaitingReview) {
      gate_.enqueue(c.architectureKey, c.id);
      send(awaitingReviewEvent(counters(), c));
    } else {
      ready.push_back(std::move(c));
    }
  }
  return ready;
}

void RunLoop::migrate(int generation) {
  if (int moved = migrateElites(*archive_, store_))
    log("info", "generation " + std::to_string(generation) + ": " + std::to_string(moved) +
                    " elite(s) migrated between islands");
}

void RunLoop::varyStrategy(int generation) {
  if (strategies_.empty() || settings_.strategyVariationRate <= 0) return;
  std::mt19937_64 rng(deriveSeed(run_.seed, generation, 0, SeedPurpose::Strategy));
  if (uniform01(rng) >= settings_.strategyVariationRate) return;
  std::size_t i = strategyToVary(strategies_);
  if (i >= strategies_.size()) return;
  MetaPrompt base = strategies_[i];
  MetaPrompt variant = proposer_.varyStrategy(base, rng());
  if (variant.name == base.name && variant.text == base.text) return;
  variant.id = 0;
  variant.runId = run_.id;
  variant.parent = base.id;
  variant.uses = variant.improvements = 0;
  variant.id = store_.addMetaPrompt(variant);
  strategies_.push_back(variant);
  log("info", "strategy '" + base.name + "' varied into '" + variant.name + "'");
}

}  // namespace crucible::engine_detail
