// SPDX-License-Identifier: GPL-3.0-or-later
// One run() of the engine on one run: restores the run's state from the
// store, then loops generation by generation (propose a batch, compile and
// evaluate it, commit results in proposal order) until the budget is spent,
// a stop is requested, or the search is exhausted. Internal to core/engine.
#pragma once
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include "core/engine/archive.h"
#include "core/engine/batch_pipeline.h"
#include "core/engine/budget.h"
#include "core/engine/engine.h"
#include "core/engine/engine_control.h"
#include "core/engine/review_gate.h"
#include "core/engine/run_settings.h"
#include "core/engine/tuning_strategy.h"
#include "core/knowledge/knowledge_statistics.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

using EventSink = std::function<void(const EngineEvent&)>;

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
  struct TuningState {
    bool loaded = false;
    std::map<ParameterPoint, double> fastest;   // per configuration: best median (0 = it failed)
    std::set<ParameterPoint> tried;   // measured, in flight, illegal or in the project's tuning cache
    int tuned = 0;                    // candidates made by tuning this architecture
  };

  // setup
  void setupEvaluators();
  void ensureCeilings();
  void loadStrategies();
  void loadKnowledge();
  std::vector<Candidate> loadIndex();   // returns the candidates to evaluate again (in flight when interrupted)
  void setupReference();
  void loadArchive();

  // control
  bool checkpoint();                    // applies control changes; blocks while paused; false = stop
  void applyControlChanges();
  void applyVerdict(const ReviewVerdict& v);
  void recordPaused();
  void recordResumed();
  void waitForVerdict();
  double wallUsed() const;
  Usage usage() const;

  // proposing
  void proposeSeeds();
  std::vector<Candidate> proposeGeneration(int generation, std::int64_t slots);
  void proposeSlot(int generation, int slot, int island);   // admits at most one candidate
  std::optional<Candidate> proposeTuning(int generation, int slot, const Candidate& parent);
  // Accepts a proposal into this generation (in memory); false when it is
  // discarded (measured before, rejected architecture, avoided seal
  // architecture, bad descriptor). storeAdmitted() writes the generation's
  // admissions in one transaction and returns those ready to evaluate.
  bool admit(Candidate& c, int island, const std::string& parentCellKey);
  std::vector<Candidate> storeAdmitted();
  void migrate(int generation);
  void varyStrategy(int generation);

  // evaluating
  void processBatch(std::vector<Candidate> batch);
  void commit(const PipelineItem& item, PipelineResult& r);
  // Updates the knowledge statistics (inside the commit's transaction); the
  // event to send once the transaction committed, if an entry changed.
  std::optional<EngineEvent> observeKnowledge(const Candidate& child, const std::string& deviceArch);
  void recordTuningResult(const Candidate& c);
  static void observe(TuningState& state, const ParameterPoint& point, double timeUs);

  // helpers
  const Candidate& candidateById(CandidateId id);
  TuningState& tuningState(const std::string& architectureKey);
  std::string keyOf(const Candidate& c) const;
  MetaPrompt* strategyById(MetaPromptId id);
  EngineEvent event(EngineEvent::Kind kind) const;
  void log(const std::string& level, const std::string& text);
  void finish(const std::string& reason);
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
  std::unique_ptr<KnowledgeBook> knowledge_;

  Candidate reference_;
  std::string referenceCubin_;
  double referenceMedianUs_ = 0;
  std::string avoidArchitecture_;      // SealStart::AwayFromSeal: the seal's architecture
  double bestSealed_ = 0;              // best speedup this run sealed

  std::map<int, int> storedPerGeneration_;   // non-reference candidates per generation (island positions)
  int lastGeneration_ = -1;
  std::map<std::string, std::vector<CandidateId>> candidatesByArchitecture_;
  std::map<std::string, TuningState> tuning_;
  std::map<CandidateId, int> islandOf_;       // candidates not final yet
  std::deque<Candidate> released_;            // accepted by review, evaluated next generation
  struct Admission {
    Candidate candidate;
    int island = 0;
    std::string configKey;
  };
  std::vector<Admission> admitted_;           // this generation's proposals, not stored yet
  std::set<std::string> admittedKeys_;
  std::set<MetaPromptId> touchedStrategies_;
  std::set<std::pair<int, std::string>> touchedCells_;
  std::map<CandidateId, Candidate> cache_;    // parents and elites, loaded on demand
  bool blockedOnReview_ = false;
  int idleGenerations_ = 0;

  std::chrono::steady_clock::time_point sessionStart_;
  double wallAtStart_ = 0;
  double pausedSeconds_ = 0;
  bool pausedRecorded_ = false;
  std::chrono::steady_clock::time_point pauseStart_;
};

}  // namespace crucible::engine_detail
