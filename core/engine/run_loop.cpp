// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_loop.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include "core/engine/binning.h"
#include "core/engine/parent_selection.h"
#include "core/engine/reference.h"
#include "core/engine/seal_policy.h"
#include "core/engine/seeding.h"
#include "core/engine/strategy_selection.h"
#include "core/engine/tuning_cache.h"

namespace crucible::engine_detail {
namespace {

constexpr int kMaxIdleGenerations = 20;        // generations without a new configuration before giving up
constexpr std::size_t kTuningCandidatesPerSlot = 8;
constexpr std::size_t kCacheLimit = 20000;

std::int64_t unixSeconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

bool isFinal(CandidateStatus s) {
  return s != CandidateStatus::Proposed && s != CandidateStatus::Compiled && s != CandidateStatus::AwaitingReview;
}

std::string firstError(const CompileReport& report) {
  for (const auto& d : report.diagnostics)
    if (d.severity == "error")
      return "line " + std::to_string(d.line) + ": " + d.message;
  if (!report.log.empty()) return report.log.substr(0, 400);
  return "compilation failed without a diagnostic";
}

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
  sessionStart_ = std::chrono::steady_clock::now();
  wallAtStart_ = run_.wallSecondsUsed;
}

// ------------------------------------------------------------------ setup

void RunLoop::setupEvaluators() {
  evaluators_ = dispatcher_.evaluators();
  if (evaluators_.empty())
    throw EngineError("dispatcher '" + dispatcher_.name() + "' offers no evaluator (no GPU available?)");
  device_ = evaluators_.front()->device();
  compileArch_ = settings_.compileArch.empty() ? device_.arch : settings_.compileArch;
  if (compileArch_.empty())
    throw EngineError("no compile architecture: the evaluator reports no device arch and the run settings name none");
  if (!sanitizer_) log("warning", "no sanitizer is configured: candidates are validated, but none can be sealed");
}

// The roofline's roofs are measured once per device and kept in the project,
// so every later run (and the GUI) reads them instead of measuring again.
void RunLoop::ensureCeilings() {
  if (device_.gpu.empty() || !store_.ceilings(device_.gpu).empty()) return;
  try {
    const auto ceilings = evaluators_.front()->measureCeilings();
    store_.transaction([&] {
      for (Ceiling c : ceilings) {
        c.device = device_.gpu;  // keyed by the name every later run looks them up by
        store_.putCeiling(c);
      }
    });
    if (!ceilings.empty()) log("info", "measured " + std::to_string(ceilings.size()) + " ceilings of " + device_.gpu);
  } catch (const std::exception& e) {
    // Ceilings only feed the roofline: a failure to measure them is reported, not fatal.
    log("warning", std::string("could not measure the device ceilings: ") + e.what());
  }
}

void RunLoop::loadStrategies() {
  for (auto& m : store_.metaPrompts(run_.id))
    if (m.runId == run_.id) strategies_.push_back(m);
  if (!strategies_.empty()) return;
  store_.transaction([&] {
    for (MetaPrompt m : proposer_.initialStrategies()) {
      m.id = 0;
      m.runId = run_.id;
      m.uses = m.improvements = 0;
      m.id = store_.addMetaPrompt(m);
      strategies_.push_back(m);
    }
  });
}

void RunLoop::loadKnowledge() {
  KnowledgeRules rules;
  rules.minObservations = settings_.knowledgeMinObservations;
  rules.effectThreshold = settings_.knowledgeEffectThreshold;
  // Rebuilds an observation from its evidence: the child, its one parent, and
  // the fitness ratio in the entry's canonical orientation.
  auto loader = [this](const KnowledgeEntry& entry, CandidateId childId) -> std::optional<double> {
    auto child = store_.candidate(childId);
    if (!child || child->parents.size() != 1 || child->fitness <= 0) return std::nullopt;
    auto parent = store_.candidate(child->parents.front());
    if (!parent) return std::nullopt;
    double parentFitness = parent->status == CandidateStatus::Reference ? 1.0 : parent->fitness;
    if (parentFitness <= 0) return std::nullopt;
    auto change = singleDifference(*parent, *child);
    if (!change) return std::nullopt;
    bool inverted = false;
    if (KnowledgeBook::canonicalDecision(*change, inverted) != entry.decision) return std::nullopt;
    double l = std::log(child->fitness / parentFitness);
    return inverted ? -l : l;
  };
  knowledge_ = std::make_unique<KnowledgeBook>(rules, loader);
  knowledge_->load(store_.knowledge());
}

std::vector<Candidate> RunLoop::loadIndex() {
  std::vector<Candidate> recovery;
  std::vector<std::pair<CandidateId, int>> awaiting;
  for (const auto& s : store_.candidateSummaries(run_.id)) {
    if (s.status == CandidateStatus::Reference) continue;
    int position = storedPerGeneration_[s.generation]++;
    int island = position % settings_.islands;
    lastGeneration_ = std::max(lastGeneration_, s.generation);
    candidatesByArchitecture_[s.architectureKey].push_back(s.id);
    if (s.status == CandidateStatus::Proposed || s.status == CandidateStatus::Compiled) {
      islandOf_[s.id] = island;
      if (auto c = store_.candidate(s.id)) recovery.push_back(*c);
    } else if (s.status == CandidateStatus::AwaitingReview) {
      islandOf_[s.id] = island;
      awaiting.emplace_back(s.id, island);
    } else if (s.status != CandidateStatus::Rejected) {
      gate_.markAccepted(s.architectureKey);   // it passed the gate once
    }
  }
  for (const auto& v : store_.verdicts(run_.id)) {
    if (v.accepted)
      gate_.markAccepted(v.architectureKey);
    else
      gate_.markRejected(v.architectureKey);
  }
  for (const auto& [id, island] : awaiting) {
    auto c = store_.candidate(id);
    if (!c) continue;
    switch (gate_.decide(c->architectureKey)) {
      case ReviewGate::Decision::Wait: gate_.enqueue(c->architectureKey, id); break;
      case ReviewGate::Decision::Proceed:   // a verdict arrived while the engine was down
        c->status = CandidateStatus::Proposed;
        store_.updateCandidate(*c);
        recovery.push_back(*c);
        break;
      case ReviewGate::Decision::Discard:
        c->status = CandidateStatus::Rejected;
        c->statusDetail = "its architecture was rejected in review";
        store_.updateCandidate(*c);
        break;
    }
  }
  std::sort(recovery.begin(), recovery.end(), [](const Candidate& a, const Candidate& b) { return a.id < b.id; });
  for (const auto& seal : store_.seals(task_.id))
    if (seal.runId == run_.id) bestSealed_ = std::max(bestSealed_, seal.speedup);
  return recovery;
}

void RunLoop::setupReference() {
  std::optional<Seal> seal;
  if (run_.referenceCandidate != 0) {
    auto ref = store_.candidate(run_.referenceCandidate);
    if (!ref) throw EngineError("the run's reference candidate " + std::to_string(run_.referenceCandidate) +
                                " is missing from the project");
    reference_ = *ref;
  } else {
    seal = store_.latestSeal(task_.id);
    if (seal) {
      auto sealed = store_.candidate(seal->candidateId);
      if (!sealed) throw EngineError("the task's seal " + std::to_string(seal->id) + " refers to candidate " +
                                     std::to_string(seal->candidateId) + ", which is missing");
      reference_ = referenceFromSeal(*sealed, run_.id);
    } else {
      reference_ = referenceFromBaseline(task_, run_.id);
    }
    reference_.createdAt = unixSeconds();
    store_.transaction([&] {
      reference_.id = store_.addCandidate(reference_);
      run_.referenceCandidate = reference_.id;
      store_.updateRun(run_);
    });
  }
  if (reference_.proposer == "seal") {
    gate_.markAccepted(reference_.architectureKey);
    if (settings_.sealStart == SealStart::AwayFromSeal) avoidArchitecture_ = reference_.architectureKey;
  }

  // Cubins are not stored: the reference is compiled in every session.
  CompileResult compiled = compiler_.compile({reference_.source, reference_.launch.entry, compileArch_, {}});
  if (!compiled.report.ok)
    throw EngineError("the reference kernel does not compile for " + compileArch_ + ": " +
                      firstError(compiled.report));
  referenceCubin_ = compiled.cubin;

  if (!reference_.timing) {
    EvaluationRequest request;
    request.task = &task_;
    request.candidate = KernelBinary{referenceCubin_, reference_.launch};
    request.reference = request.candidate;
    for (int k = 0; k < settings_.validationSeeds; ++k)
      request.seeds.push_back(deriveSeed(run_.seed, -1, k, SeedPurpose::Validation));
    Evaluation e = evaluators_.front()->evaluate(request);
    if (e.status != CandidateStatus::Valid || !e.timing || e.timing->medianUs <= 0)
      throw EngineError(std::string("the reference kernel does not pass validation on ") + device_.gpu + ": " +
                        toString(e.status) + (e.detail.empty() ? "" : " (" + e.detail + ")"));
    reference_.compile = compiled.report;
    reference_.validation = e.trials;
    reference_.timing = e.timing;
    reference_.fitness = 1.0;
    store_.transaction([&] {
      store_.updateCandidate(reference_);
      run_.gpuSecondsUsed += e.gpuSeconds;
      store_.updateRun(run_);
    });
    log("info", "reference timed: median " + std::to_string(e.timing->medianUs) + " us on " + device_.gpu);
  }
  referenceMedianUs_ = reference_.timing->medianUs;
}

void RunLoop::loadArchive() {
  archive_->load(store_.archive(run_.id));
  bool seedFromSeal = reference_.proposer == "seal" && settings_.sealStart == SealStart::FromSeal;
  if (archive_->size() == 0 && seedFromSeal) {
    std::string key = keyOf(reference_);
    store_.transaction([&] {
      for (int island = 0; island < archive_->islands(); ++island) {
        archive_->insert(island, key, reference_.id, 1.0);
        store_.putArchiveCell(*archive_->cell(island, key));
      }
    });
    log("info", "the archive starts from the seal's architecture " + reference_.architectureKey);
  }
}

// ------------------------------------------------------------------ control

double RunLoop::wallUsed() const {
  auto now = std::chrono::steady_clock::now();
  double session = std::chrono::duration<double>(now - sessionStart_).count() - pausedSeconds_;
  if (pausedRecorded_) session -= std::chrono::duration<double>(now - pauseStart_).count();
  return wallAtStart_ + std::max(0.0, session);
}

Usage RunLoop::usage() const { return Usage{run_.evaluationsDone, wallUsed(), run_.gpuSecondsUsed}; }

EngineEvent RunLoop::event(EngineEvent::Kind kind) const {
  EngineEvent e;
  e.kind = kind;
  e.run = run_.id;
  e.evaluationsDone = run_.evaluationsDone;
  e.budget = run_.budget;
  e.bestSpeedup = run_.bestSpeedup;
  e.elapsedSeconds = wallUsed();
  e.gpuSeconds = run_.gpuSecondsUsed;
  e.generation = std::max(0, lastGeneration_);
  return e;
}

void RunLoop::log(const std::string& level, const std::string& text) {
  store_.appendLog(run_.id, level, text);
  EngineEvent e = event(EngineEvent::Kind::Log);
  e.level = level;
  e.message = text;
  emit_(e);
}

void RunLoop::recordPaused() {
  pausedRecorded_ = true;
  pauseStart_ = std::chrono::steady_clock::now();
  run_.status = RunStatus::Paused;
  run_.wallSecondsUsed = wallUsed();
  store_.updateRun(run_);
  emit_(event(EngineEvent::Kind::RunPaused));
}

void RunLoop::recordResumed() {
  pausedSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - pauseStart_).count();
  pausedRecorded_ = false;
  run_.status = RunStatus::Running;
  store_.updateRun(run_);
  emit_(event(EngineEvent::Kind::RunResumed));
}

void RunLoop::applyControlChanges() {
  std::optional<Budget> budget;
  std::deque<ReviewVerdict> verdicts;
  bool paused;
  {
    std::lock_guard lock(control_.mutex);
    budget.swap(control_.newBudget);
    verdicts.swap(control_.verdicts);
    paused = control_.paused && !control_.stopRequested;
  }
  if (budget) {
    run_.budget = *budget;
    store_.updateRun(run_);
    emit_(event(EngineEvent::Kind::Progress));
  }
  for (const auto& v : verdicts) applyVerdict(v);
  if (paused && !pausedRecorded_) recordPaused();
  if (!paused && pausedRecorded_) recordResumed();
}

void RunLoop::applyVerdict(const ReviewVerdict& verdict) {
  ReviewVerdict v = verdict;
  v.runId = run_.id;
  v.decidedAt = unixSeconds();
  std::vector<CandidateId> waiting = gate_.applyVerdict(v.architectureKey, v.accepted);
  store_.transaction([&] {
    store_.recordVerdict(v);
    for (CandidateId id : waiting) {
      auto c = store_.candidate(id);
      if (!c) continue;
      if (v.accepted) {
        c->status = CandidateStatus::Proposed;
        c->statusDetail = "architecture accepted in review";
        released_.push_back(*c);
      } else {
        c->status = CandidateStatus::Rejected;
        c->statusDetail = "architecture rejected in review" + (v.note.empty() ? "" : ": " + v.note);
        islandOf_.erase(id);
      }
      store_.updateCandidate(*c);
    }
  });
  blockedOnReview_ = false;
  log("info", std::string("architecture ") + v.architectureKey + (v.accepted ? " accepted" : " rejected") +
                  " in review; " + std::to_string(waiting.size()) + " waiting candidate(s) " +
                  (v.accepted ? "released" : "rejected"));
}

bool RunLoop::checkpoint() {
  applyControlChanges();
  for (;;) {
    std::unique_lock lock(control_.mutex);
    if (control_.stopRequested) return false;
    if (!control_.paused) break;
    control_.changed.wait_for(lock, std::chrono::milliseconds(200));
    lock.unlock();
    applyControlChanges();
  }
  applyControlChanges();   // records the resume
  return true;
}

void RunLoop::waitForVerdict() {
  std::unique_lock lock(control_.mutex);
  control_.changed.wait_for(lock, std::chrono::milliseconds(500), [&] {
    return control_.stopRequested || control_.paused || control_.newBudget || !control_.verdicts.empty();
  });
}

void RunLoop::finish(const std::string& reason) {
  run_.status = RunStatus::Finished;
  run_.wallSecondsUsed = wallUsed();
  store_.updateRun(run_);
  log("info", "run finished: " + reason);
  EngineEvent e = event(EngineEvent::Kind::RunFinished);
  e.message = reason;
  emit_(e);
}

void RunLoop::stopped() {
  run_.status = RunStatus::Stopped;
  run_.wallSecondsUsed = wallUsed();
  store_.updateRun(run_);
  log("info", "run stopped; it can be resumed");
  emit_(event(EngineEvent::Kind::RunStopped));
}

void RunLoop::fail(const std::string& reason) {
  run_.status = RunStatus::Failed;
  run_.wallSecondsUsed = wallUsed();
  try {
    store_.updateRun(run_);
    store_.appendLog(run_.id, "error", "run failed: " + reason);
  } catch (const std::exception&) {
    // The store itself may be what failed; the event below still tells the user.
  }
  EngineEvent e = event(EngineEvent::Kind::RunFailed);
  e.message = reason;
  emit_(e);
}

// ------------------------------------------------------------------ the loop

void RunLoop::execute() {
  run_.status = RunStatus::Running;
  store_.updateRun(run_);
  emit_(event(EngineEvent::Kind::RunStarted));
  setupEvaluators();
  ensureCeilings();
  loadStrategies();
  loadKnowledge();
  std::vector<Candidate> recovery = loadIndex();
  setupReference();
  loadArchive();
  if (!recovery.empty()) {
    log("info", "resuming: " + std::to_string(recovery.size()) + " candidate(s) were in flight");
    processBatch(std::move(recovery));
  }
  if (storedPerGeneration_.empty()) proposeSeeds();

  for (;;) {
    if (!checkpoint()) return stopped();
    if (auto spent = budgetExhausted(run_.budget, usage())) return finish(*spent);
    if (settings_.maxGenerations > 0 && lastGeneration_ >= settings_.maxGenerations)
      return finish("generation limit of " + std::to_string(settings_.maxGenerations) + " reached");
    if (blockedOnReview_ && released_.empty()) {
      waitForVerdict();
      continue;
    }
    blockedOnReview_ = false;

    std::int64_t left = evaluationsLeft(run_.budget, usage());
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
      auto proposed = proposeGeneration(generation, slots);
      batch.insert(batch.end(), proposed.begin(), proposed.end());
    }
    if (batch.empty()) {
      if (gate_.isWaiting()) {
        if (!blockedOnReview_)
          log("info", "waiting for review of " + std::to_string(gate_.waitingArchitectures().size()) +
                          " new architecture(s)");
        blockedOnReview_ = true;
        continue;
      }
      if (++idleGenerations_ >= kMaxIdleGenerations)
        return finish("the proposer made no new configuration in " + std::to_string(kMaxIdleGenerations) +
                      " generations (search space exhausted)");
      continue;
    }
    idleGenerations_ = 0;
    processBatch(std::move(batch));
  }
}

// ------------------------------------------------------------------ proposing

std::string RunLoop::keyOf(const Candidate& c) const { return cellKey(c.descriptor, settings_.binning); }

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
  std::vector<Proposal> seeds = proposer_.seeds(task_, deriveSeed(run_.seed, 0, 0, SeedPurpose::Seeds));
  std::int64_t admittedCount = 0;
  std::int64_t left = evaluationsLeft(run_.budget, usage());
  lastGeneration_ = std::max(lastGeneration_, 0);
  for (auto& p : seeds) {
    if (admittedCount >= left) break;
    if (!p.ok) {
      log("warning", "proposer '" + proposer_.name() + "' gave no seed: " + p.error);
      continue;
    }
    Candidate c = std::move(p.candidate);
    c.generation = 0;
    if (c.mutation.empty()) c.mutation = "seed";
    int island = storedPerGeneration_[0] % settings_.islands;
    if (admit(c, island, "")) ++admittedCount;
  }
  processBatch(storeAdmitted());
}

std::vector<Candidate> RunLoop::proposeGeneration(int generation, std::int64_t slots) {
  // Evicted only here: references handed out by candidateById stay valid within a generation.
  if (cache_.size() >= kCacheLimit) cache_.clear();
  for (int slot = 0; slot < slots; ++slot) {
    int island = storedPerGeneration_[generation] % settings_.islands;
    proposeSlot(generation, slot, island);
  }
  // The generation counts as made even if every proposal was discarded, so
  // the next one draws fresh seeds.
  lastGeneration_ = std::max(lastGeneration_, generation);
  return storeAdmitted();
}

void RunLoop::proposeSlot(int generation, int slot, int island) {
  std::mt19937_64 rng(deriveSeed(run_.seed, generation, slot, SeedPurpose::Selection));
  auto cells = archive_->cells(island);
  if (cells.empty() && archive_->size() > 0) cells = archive_->cells(archive_->best()->island);

  ProposalContext ctx;
  ctx.task = &task_;
  ctx.generation = generation;
  ctx.seed = deriveSeed(run_.seed, generation, slot, SeedPurpose::Proposal);
  ctx.knowledge = knowledge_->validatedInScope(device_.arch, task_.family);

  const ArchiveCell* parentCell = selectParentCell(cells, settings_.explorationWeight, rng);
  std::string parentKey = parentCell ? parentCell->key : "";
  double r = uniform01(rng);
  std::string kind = "fresh";
  if (parentCell) {
    const Candidate& parent = candidateById(parentCell->elite);
    if (r < settings_.tuningShare) {
      if (auto tuned = proposeTuning(generation, slot, parent)) {
        admit(*tuned, island, parentKey);
        return;
      }
    }
    ctx.parents.push_back(&parent);
    kind = "mutate";
    if (r >= settings_.tuningShare && r < settings_.tuningShare + settings_.crossoverRate) {
      if (const ArchiveCell* mate = selectMate(cells, parentCell, settings_.explorationWeight, rng)) {
        ctx.parents.push_back(&candidateById(mate->elite));
        kind = "crossover";
      }
    }
  }
  MetaPrompt* strategy = nullptr;
  if (!strategies_.empty()) {
    strategy = &strategies_[chooseStrategy(strategies_)];
    // A crossover strategy needs two parents: find a mate for it, or, when the
    // archive has no second cell, let the proposer apply its default for one
    // parent rather than fail (and credit no strategy for the child).
    if (strategy->name == "crossover" && ctx.parents.size() == 1 && parentCell) {
      if (const ArchiveCell* mate = selectMate(cells, parentCell, settings_.explorationWeight, rng)) {
        ctx.parents.push_back(&candidateById(mate->elite));
        kind = "crossover";
      } else {
        strategy = nullptr;
      }
    }
    ctx.strategy = strategy;
  }
  Proposal p = proposer_.propose(ctx);
  if (!p.ok) {
    log("warning", "proposer '" + proposer_.name() + "' made no candidate (" + kind + "): " + p.error);
    return;
  }
  Candidate c = std::move(p.candidate);
  c.generation = generation;
  if (c.parents.empty())
    for (const Candidate* parent : ctx.parents) c.parents.push_back(parent->id);
  if (c.mutation.empty()) c.mutation = kind;
  if (strategy) c.metaPrompt = strategy->id;
  admit(c, island, parentKey);
}

RunLoop::TuningState& RunLoop::tuningState(const std::string& architectureKey) {
  TuningState& state = tuning_[architectureKey];
  if (state.loaded) return state;
  state.loaded = true;
  for (CandidateId id : candidatesByArchitecture_[architectureKey]) {
    auto c = store_.candidate(id);
    if (!c) continue;
    ParameterPoint point = proposer_.parametersOf(*c);
    state.tried.insert(point);
    if (c->mutation == "tune") ++state.tuned;
    if (isFinal(c->status))
      observe(state, point, c->status == CandidateStatus::Valid && c->timing ? c->timing->medianUs : 0);
  }
  return state;
}

void RunLoop::observe(TuningState& state, const ParameterPoint& point, double timeUs) {
  // Free rewrites share an architecture and parameters with their parent, so
  // one configuration can have many candidates: keep its fastest.
  auto [it, inserted] = state.fastest.try_emplace(point, timeUs);
  if (!inserted && timeUs > 0 && (it->second <= 0 || timeUs < it->second)) it->second = timeUs;
}

std::optional<Candidate> RunLoop::proposeTuning(int generation, int slot, const Candidate& parent) {
  std::vector<TunableParameter> space = proposer_.tunables(parent);
  if (space.empty()) return std::nullopt;
  TuningState& state = tuningState(parent.architectureKey);
  if (state.tuned >= settings_.tuningBudgetPerArchitecture) return std::nullopt;
  if (state.tried.size() >= spaceSize(space)) return std::nullopt;   // every configuration seen
  std::mt19937_64 rng(deriveSeed(run_.seed, generation, slot, SeedPurpose::Tuning));
  std::vector<TuningObservation> observations;
  for (const auto& [point, timeUs] : state.fastest) observations.push_back({point, timeUs});
  auto points = rankTuningPoints(settings_.tuningStrategy, space, proposer_.parametersOf(parent), observations,
                                 state.tried, rng, kTuningCandidatesPerSlot);
  for (const ParameterPoint& point : points) {
    state.tried.insert(point);
    Proposal p = proposer_.withParameters(task_, parent, point);
    if (!p.ok) continue;   // an illegal combination: never measured, never retried
    Candidate c = std::move(p.candidate);
    if (store_.lookupTuning(task_.id, configKey(c.architectureKey, point, c.source))) continue;
    c.generation = generation;
    c.parents = {parent.id};
    c.mutation = "tune";
    c.metaPrompt = 0;
    ++state.tuned;
    return c;
  }
  return std::nullopt;
}

bool RunLoop::admit(Candidate& c, int island, const std::string& parentCellKey) {
  if (!avoidArchitecture_.empty() && c.architectureKey == avoidArchitecture_) return false;
  try {
    keyOf(c);
  } catch (const std::invalid_argument& e) {
    log("warning", std::string("proposal discarded: ") + e.what());
    return false;
  }
  std::string config = configKey(c.architectureKey, proposer_.parametersOf(c), c.source);
  // Measured before in this project, or proposed earlier in this generation.
  if (admittedKeys_.count(config) || store_.lookupTuning(task_.id, config)) return false;
  ReviewGate::Decision decision = gate_.decide(c.architectureKey);
  if (decision == ReviewGate::Decision::Discard) return false;

  c.id = 0;
  c.runId = run_.id;
  if (c.proposer.empty()) c.proposer = proposer_.name();
  c.status = decision == ReviewGate::Decision::Wait ? CandidateStatus::AwaitingReview : CandidateStatus::Proposed;
  c.createdAt = unixSeconds();
  // Counters move now so later slots of this generation see them; the store
  // gets them with the candidates in storeAdmitted().
  if (MetaPrompt* strategy = c.metaPrompt ? strategyById(c.metaPrompt) : nullptr) {
    ++strategy->uses;
    touchedStrategies_.insert(strategy->id);
  }
  if (ArchiveCell* parentCell = parentCellKey.empty() ? nullptr : archive_->cell(island, parentCellKey)) {
    ++parentCell->selections;
    touchedCells_.insert({island, parentCellKey});
  }
  ++storedPerGeneration_[c.generation];
  if (auto it = tuning_.find(c.architectureKey); it != tuning_.end() && it->second.loaded)
    it->second.tried.insert(proposer_.parametersOf(c));
  admittedKeys_.insert(config);
  admitted_.push_back({c, island, config});
  return true;
}

std::vector<Candidate> RunLoop::storeAdmitted() {
  // One transaction for the generation's proposals: each is stored (Proposed
  // or AwaitingReview) before anything of it is compiled.
  store_.transaction([&] {
    for (Admission& a : admitted_) {
      a.candidate.id = store_.addCandidate(a.candidate);
      store_.recordTuning(task_.id, a.configKey, a.candidate.id);
    }
    for (MetaPromptId id : touchedStrategies_) store_.updateMetaPrompt(*strategyById(id));
    for (const auto& [island, key] : touchedCells_) store_.putArchiveCell(*archive_->cell(island, key));
  });
  std::vector<Candidate> ready;
  for (Admission& a : admitted_) {
    Candidate& c = a.candidate;
    candidatesByArchitecture_[c.architectureKey].push_back(c.id);
    islandOf_[c.id] = a.island;
    EngineEvent e = event(EngineEvent::Kind::CandidateProposed);
    e.candidate = c.id;
    e.architectureKey = c.architectureKey;
    e.status = c.status;
    e.generation = c.generation;
    e.message = c.mutation;
    emit_(e);
    if (c.status == CandidateStatus::AwaitingReview) {
      gate_.enqueue(c.architectureKey, c.id);
      EngineEvent w = event(EngineEvent::Kind::AwaitingReview);
      w.candidate = c.id;
      w.architectureKey = c.architectureKey;
      w.status = c.status;
      w.generation = c.generation;
      w.message = "new architecture " + c.architectureKey + " waits for review";
      emit_(w);
    } else {
      ready.push_back(std::move(c));
    }
  }
  admitted_.clear();
  admittedKeys_.clear();
  touchedStrategies_.clear();
  touchedCells_.clear();
  return ready;
}

void RunLoop::migrate(int generation) {
  // Each island sends its best elite to the next one (a ring); computed
  // before any insertion so one migration never travels two hops.
  std::vector<ArchiveCell> migrants;
  for (int i = 0; i < archive_->islands(); ++i)
    if (const ArchiveCell* best = archive_->best(i)) migrants.push_back(*best);
  int moved = 0;
  store_.transaction([&] {
    for (const ArchiveCell& m : migrants) {
      int target = (m.island + 1) % archive_->islands();
      if (archive_->insert(target, m.key, m.elite, m.fitness) != Placement::Rejected) {
        store_.putArchiveCell(*archive_->cell(target, m.key));
        ++moved;
      }
    }
  });
  if (moved) log("info", "generation " + std::to_string(generation) + ": " + std::to_string(moved) +
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

// ------------------------------------------------------------------ evaluating

void RunLoop::processBatch(std::vector<Candidate> batch) {
  if (batch.empty()) return;
  std::vector<PipelineItem> items;
  for (Candidate& c : batch) {
    PipelineItem item;
    int island = islandOf_.count(c.id) ? islandOf_[c.id] : 0;
    const ArchiveCell* cell = archive_->cell(island, keyOf(c));
    switch (settings_.profile) {
      case ProfileMode::All: item.profileAbove = -std::numeric_limits<double>::infinity(); break;
      case ProfileMode::None: item.profileAbove = std::numeric_limits<double>::infinity(); break;
      case ProfileMode::Elites: item.profileAbove = cell ? cell->fitness : 0.0; break;
    }
    // Validation inputs depend on the configuration, not on row ids or timing.
    std::int64_t salt = static_cast<std::int64_t>(fnv1a64(c.source));
    for (int k = 0; k < settings_.validationSeeds; ++k)
      item.seeds.push_back(deriveSeed(run_.seed, salt, k, SeedPurpose::Validation));
    for (int k = 0; k < settings_.extendedValidationSeeds; ++k)
      item.extendedSeeds.push_back(deriveSeed(run_.seed, salt, 1000 + k, SeedPurpose::Validation));
    item.bestSealedSpeedup = bestSealed_;
    item.candidate = std::move(c);
    items.push_back(std::move(item));
  }

  PipelineConfig config;
  config.compiler = &compiler_;
  config.evaluators = evaluators_;
  config.sanitizer = sanitizer_;
  config.compileThreads = settings_.compileThreads;
  config.compileArch = compileArch_;
  config.task = &task_;
  config.reference = KernelBinary{referenceCubin_, reference_.launch};
  config.referenceMedianUs = referenceMedianUs_;
  config.sealMargin = settings_.sealMargin;
  config.control = &control_;
  // Runs on compile threads: it must not read run_'s counters, which the
  // committing thread updates meanwhile; the run id never changes.
  config.onCompiled = [this, runId = run_.id](const Candidate& c, const CompileResult& r) {
    EngineEvent e;
    e.kind = EngineEvent::Kind::CandidateCompiled;
    e.run = runId;
    e.candidate = c.id;
    e.generation = c.generation;
    e.architectureKey = c.architectureKey;
    e.status = r.report.ok ? CandidateStatus::Compiled : CandidateStatus::CompileFailed;
    emit_(e);
  };

  BatchPipeline pipeline(std::move(config), std::move(items));
  std::string failure;
  auto tick = [this] { applyControlChanges(); };
  for (std::size_t i = 0; i < pipeline.size(); ++i) {
    PipelineResult& r = pipeline.waitFor(i, tick);
    switch (r.state) {
      case PipelineResult::State::Done: commit(pipeline.item(i), r); break;
      case PipelineResult::State::Failed:
        if (failure.empty()) failure = r.failure;
        pipeline.halt();   // results already measured are still committed below
        break;
      case PipelineResult::State::Skipped:
      case PipelineResult::State::Pending: break;   // stays Proposed: evaluated when the run resumes
    }
  }
  if (!failure.empty()) throw EngineError(failure);
}

void RunLoop::commit(const PipelineItem& item, PipelineResult& r) {
  Candidate c = item.candidate;
  int island = islandOf_.count(c.id) ? islandOf_[c.id] : 0;
  c.compile = r.compile.report;
  double gpuSeconds = 0;
  if (!r.compile.report.ok || !r.evaluation) {
    c.status = CandidateStatus::CompileFailed;
    c.statusDetail = firstError(r.compile.report);
    c.fitness = 0;
  } else {
    const Evaluation& e = *r.evaluation;
    gpuSeconds += e.gpuSeconds;
    c.status = e.status;
    c.statusDetail = e.detail;
    c.validation = e.trials;
    c.timing = e.timing;
    c.fitness = r.fitness;
    if (c.status == CandidateStatus::Valid && r.fitness <= 0) c.statusDetail += " (valid but not timed: fitness 0)";
    if (r.profile && r.profile->permitted) c.profile = r.profile->metrics;
  }
  if (r.extended) gpuSeconds += r.extended->gpuSeconds;
  if (r.sanitizer) gpuSeconds += r.sanitizer->seconds;   // the GPU was held for the tools

  // Extended validation runs in this candidate's own pipeline item, before its
  // first commit: a demoted candidate never reached the archive, the run's best
  // or parent selection, so demoting it here is all there is to undo.
  std::optional<Seal> seal;
  std::string sealNote;
  std::optional<Demotion> demotion = r.extended ? demotionFor(*r.extended) : std::nullopt;
  if (demotion) {
    demote(c, *demotion, *r.extended);
  } else if (r.extended) {
    if (auto why = extendedValidationFailure(*r.extended, settings_.sealMargin)) {
      sealNote = *why;
    } else if (auto refused = sanitizerRefusal(r.sanitizer ? &*r.sanitizer : nullptr)) {
      sealNote = *refused;
      c.statusDetail += (c.statusDetail.empty() ? "not sealed: " : "; not sealed: ") + sealNote;
    } else {
      Seal s = makeSeal(task_.id, run_.id, c, *r.extended, r.device, referenceMedianUs_, unixSeconds(),
                        &*r.sanitizer);
      if (s.speedup >= (1.0 + settings_.sealMargin) * std::max(1.0, bestSealed_))
        seal = s;
      else
        sealNote = "a better seal was made earlier in this batch";
    }
  }

  Placement placement = Placement::Rejected;
  bool improved = false;
  std::optional<EngineEvent> knowledgeEvent;
  store_.transaction([&] {
    store_.updateCandidate(c);
    run_.evaluationsDone += 1;
    run_.gpuSecondsUsed += gpuSeconds;
    run_.wallSecondsUsed = wallUsed();
    if (c.status == CandidateStatus::Valid && c.fitness > 0) {
      run_.bestSpeedup = std::max(run_.bestSpeedup, c.fitness);
      placement = archive_->insert(island, keyOf(c), c.id, c.fitness);
      improved = placement != Placement::Rejected;
      if (improved) {
        store_.putArchiveCell(*archive_->cell(island, keyOf(c)));
        // Curiosity: the cell the parent was drawn from produced an improvement.
        if (!c.parents.empty()) {
          const Candidate& parent = candidateById(c.parents.front());
          if (ArchiveCell* pc = archive_->cell(island, keyOf(parent)); pc) {
            ++pc->improvements;
            store_.putArchiveCell(*pc);
          }
        }
        if (MetaPrompt* s = c.metaPrompt ? strategyById(c.metaPrompt) : nullptr) {
          ++s->improvements;
          store_.updateMetaPrompt(*s);
        }
      }
      knowledgeEvent = observeKnowledge(c, r.device.arch.empty() ? device_.arch : r.device.arch);
    }
    if (seal) {
      seal->id = store_.addSeal(*seal);
      bestSealed_ = seal->speedup;
    }
    store_.updateRun(run_);
  });
  islandOf_.erase(c.id);
  gate_.markAccepted(c.architectureKey);
  recordTuningResult(c);
  if (improved) cache_[c.id] = c;

  EngineEvent e = event(EngineEvent::Kind::CandidateEvaluated);
  e.candidate = c.id;
  e.architectureKey = c.architectureKey;
  e.status = c.status;
  e.fitness = c.fitness;
  e.generation = c.generation;
  e.message = c.statusDetail;
  emit_(e);
  if (improved) {
    EngineEvent ev = event(EngineEvent::Kind::EliteImproved);
    ev.candidate = c.id;
    ev.fitness = c.fitness;
    ev.architectureKey = c.architectureKey;
    ev.message = placement == Placement::NewCell ? "new cell " + keyOf(c) : "better elite for " + keyOf(c);
    emit_(ev);
  }
  if (knowledgeEvent) emit_(*knowledgeEvent);
  if (seal) {
    log("info", "sealed candidate " + std::to_string(c.id) + ": " + std::to_string(seal->speedup) +
                    "x faster than the reference, extended validation passed");
    EngineEvent ev = event(EngineEvent::Kind::Sealed);
    ev.candidate = c.id;
    ev.fitness = seal->speedup;
    emit_(ev);
  } else if (demotion) {
    log("warning", "candidate " + std::to_string(c.id) + " demoted to " + toString(c.status) + ": " + c.statusDetail);
  } else if (!sealNote.empty()) {
    log(r.sanitizer && !r.sanitizer->clean ? "warning" : "info",
        "candidate " + std::to_string(c.id) + " not sealed: " + sealNote);
    if (r.sanitizer && !r.sanitizer->clean && !r.sanitizer->log.empty())
      log("info", "sanitizer report of candidate " + std::to_string(c.id) + ":\n" + r.sanitizer->log.substr(0, 8192));
  }
  emit_(event(EngineEvent::Kind::Progress));
}

std::optional<EngineEvent> RunLoop::observeKnowledge(const Candidate& child, const std::string& deviceArch) {
  if (child.parents.size() != 1 || child.fitness <= 0) return std::nullopt;
  const Candidate& parent = candidateById(child.parents.front());
  double parentFitness = parent.status == CandidateStatus::Reference ? 1.0 : parent.fitness;
  if (parentFitness <= 0 || (parent.status != CandidateStatus::Valid && parent.status != CandidateStatus::Reference))
    return std::nullopt;
  auto change = singleDifference(parent, child);
  if (!change) return std::nullopt;
  KnowledgeObservation o;
  o.arch = deviceArch;
  o.family = task_.family;
  o.change = *change;
  // Both fitnesses are speedups against the reference timed beside them, so
  // their ratio is robust to clock drift between the two measurements.
  o.effect = child.fitness / parentFitness;
  o.child = child.id;
  const KnowledgeEntry& entry = knowledge_->observe(o);
  if (entry.id == 0) {
    KnowledgeEntry stored = entry;
    stored.updatedAt = unixSeconds();
    knowledge_->setId(entry, store_.addKnowledge(stored));
  } else {
    KnowledgeEntry stored = entry;
    stored.updatedAt = unixSeconds();
    store_.updateKnowledge(stored);
  }
  EngineEvent e = event(EngineEvent::Kind::KnowledgeUpdated);
  e.candidate = child.id;
  e.message = std::string(toString(entry.status)) + ": " + entry.claim;
  return e;
}

void RunLoop::recordTuningResult(const Candidate& c) {
  auto it = tuning_.find(c.architectureKey);
  if (it == tuning_.end() || !it->second.loaded) return;
  observe(it->second, proposer_.parametersOf(c),
          c.status == CandidateStatus::Valid && c.timing ? c.timing->medianUs : 0);
}

}  // namespace crucible::engine_detail
