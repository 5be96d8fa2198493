// SPDX-License-Identifier: GPL-3.0-or-later
// What a session of a run reads back from the store (or makes once and
// stores) before its first generation: the device ceilings, the run's
// strategies, the index of its candidates with those to evaluate again, its
// reference kernel compiled and timed, and its archive. A run interrupted at
// any point resumes from these. Internal to core/engine.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>
#include "core/engine/archive.h"
#include "core/engine/interfaces.h"
#include "core/engine/review_gate.h"
#include "core/engine/run_settings.h"
#include "core/store/project_store.h"

namespace crucible::engine_detail {

using LogFn = std::function<void(const std::string& level, const std::string& text)>;

// Measures the device's roofline ceilings once per device and keeps them in
// the project; a failure to measure is logged, not thrown (they only feed the roofline).
void ensureCeilings(ProjectStore& store, Evaluator& evaluator, const std::string& gpu, const LogFn& log);

// The run's own strategies; the proposer's initial ones, stored, on the run's first session.
std::vector<MetaPrompt> restoreStrategies(ProjectStore& store, RunId run, Proposer& proposer);

struct RestoredIndex {
  std::map<int, int> storedPerGeneration;   // non-reference candidates per generation (island positions)
  int lastGeneration = -1;
  std::map<std::string, std::vector<CandidateId>> candidatesByArchitecture;
  std::map<CandidateId, int> islandOf;      // candidates not final yet
  std::vector<Candidate> recovery;          // in flight when interrupted: evaluated again, id order
  double bestSealed = 0;                    // best speedup the run sealed
  CandidateId lastCandidate = 0;            // the run's highest candidate id
  // Final candidates others added to the run (proposer "user":
  // user_evaluation.h), with the island their position gives them: the
  // engine offers them to the archive, which may not hold them yet.
  std::vector<std::pair<CandidateId, int>> outside;
};

// Indexes the run's candidates and replays its review verdicts into the gate:
// architectures that passed once pass again, candidates still awaiting
// review wait again (or proceed or are rejected when the verdict came while
// the engine was down, which updates them in the store).
RestoredIndex restoreIndex(ProjectStore& store, RunId run, TaskId task, int islands, ReviewGate& gate);

// The run's reference candidate: the stored one, or on the first session the
// task's latest seal (or its baseline), stored and linked from the run.
// Throws EngineError when a candidate it names is missing.
Candidate establishReference(ProjectStore& store, Run& run, const Task& task);

struct ReferenceTiming {
  std::string cubin;        // cubins are not stored: compiled in every session
  double medianUs = 0;
};

// Compiles the reference, and times it once (the run's first session) on
// the evaluator, storing its reports and the GPU time spent. Throws
// EngineError when it does not compile or does not pass validation.
ReferenceTiming prepareReference(ProjectStore& store, Run& run, Candidate& reference, const Task& task,
                                 Compiler& compiler, Evaluator& evaluator, const std::string& compileArch,
                                 const std::string& gpu, int validationSeeds, const LogFn& log);

// Loads the run's archive; a run that starts from its seal and has no cell
// yet gets the reference as the elite of its cell on every island.
void restoreArchive(ProjectStore& store, Archive& archive, const Candidate& reference, const RunSettings& settings,
                    const LogFn& log);

}  // namespace crucible::engine_detail
