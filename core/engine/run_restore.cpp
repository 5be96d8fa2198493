// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_restore.h"

#include <algorithm>
#include <ctime>
#include "core/engine/binning.h"
#include "core/engine/commit_outcome.h"
#include "core/engine/engine.h"
#include "core/engine/reference.h"
#include "core/engine/seeding.h"
#include "core/engine/unix_time.h"
#include "core/engine/user_evaluation.h"
#include "core/engine/user_reference.h"

namespace crucible::engine_detail {

void ensureCeilings(ProjectStore& store, Evaluator& evaluator, const std::string& gpu, const LogFn& log) {
  // Measured once per device: every later run (and the GUI) reads them instead of measuring again.
  if (gpu.empty() || !store.ceilings(gpu).empty()) return;
  try {
    const auto ceilings = evaluator.measureCeilings();
    store.transaction([&] {
      for (Ceiling c : ceilings) {
        c.device = gpu;  // keyed by the name every later run looks them up by
        store.putCeiling(c);
      }
    });
    if (!ceilings.empty()) log("info", "measured " + std::to_string(ceilings.size()) + " ceilings of " + gpu);
  } catch (const std::exception& e) {
    log("warning", std::string("could not measure the device ceilings: ") + e.what());
  }
}

std::vector<MetaPrompt> restoreStrategies(ProjectStore& store, RunId run, Proposer& proposer) {
  std::vector<MetaPrompt> strategies;
  for (auto& m : store.metaPrompts(run))
    if (m.runId == run) strategies.push_back(m);
  if (!strategies.empty()) return strategies;
  store.transaction([&] {
    for (MetaPrompt m : proposer.initialStrategies()) {
      m.id = 0;
      m.runId = run;
      m.uses = m.improvements = 0;
      m.id = store.addMetaPrompt(m);
      strategies.push_back(m);
    }
  });
  return strategies;
}

RestoredIndex restoreIndex(ProjectStore& store, RunId run, TaskId task, int islands, ReviewGate& gate) {
  RestoredIndex index;
  std::vector<std::pair<CandidateId, int>> awaiting;
  for (const auto& s : store.candidateSummaries(run)) {
    index.lastCandidate = std::max(index.lastCandidate, s.id);
    if (s.status == CandidateStatus::Reference) continue;
    int position = index.storedPerGeneration[s.generation]++;
    int island = position % islands;
    index.lastGeneration = std::max(index.lastGeneration, s.generation);
    index.candidatesByArchitecture[s.architectureKey].push_back(s.id);
    if (s.status == CandidateStatus::Proposed || s.status == CandidateStatus::Compiled) {
      index.islandOf[s.id] = island;
      if (auto c = store.candidate(s.id)) index.recovery.push_back(*c);
    } else if (s.status == CandidateStatus::AwaitingReview) {
      index.islandOf[s.id] = island;
      awaiting.emplace_back(s.id, island);
    } else if (s.status != CandidateStatus::Rejected) {
      gate.markAccepted(s.architectureKey);   // it passed the gate once
      if (s.proposer == kUserProposer) index.outside.emplace_back(s.id, island);
    }
  }
  for (const auto& v : store.verdicts(run)) {
    if (v.accepted)
      gate.markAccepted(v.architectureKey);
    else
      gate.markRejected(v.architectureKey);
  }
  for (const auto& [id, island] : awaiting) {
    auto c = store.candidate(id);
    if (!c) continue;
    switch (gate.decide(c->architectureKey)) {
      case ReviewGate::Decision::Wait: gate.enqueue(c->architectureKey, id); break;
      case ReviewGate::Decision::Proceed:   // a verdict arrived while the engine was down
        c->status = CandidateStatus::Proposed;
        store.updateCandidate(*c);
        index.recovery.push_back(*c);
        break;
      case ReviewGate::Decision::Discard:
        c->status = CandidateStatus::Rejected;
        c->statusDetail = "its architecture was rejected in review";
        store.updateCandidate(*c);
        break;
    }
  }
  std::sort(index.recovery.begin(), index.recovery.end(),
            [](const Candidate& a, const Candidate& b) { return a.id < b.id; });
  for (const auto& seal : store.seals(task))
    if (seal.runId == run) index.bestSealed = std::max(index.bestSealed, seal.speedup);
  return index;
}

Candidate establishReference(ProjectStore& store, Run& run, const Task& task) {
  if (run.referenceCandidate != 0) {
    auto ref = store.candidate(run.referenceCandidate);
    if (!ref) throw EngineError("the run's reference candidate " + std::to_string(run.referenceCandidate) +
                                " is missing from the project");
    return *ref;
  }
  Candidate reference;
  if (auto seal = store.latestSeal(task.id)) {
    auto sealed = store.candidate(seal->candidateId);
    if (!sealed) throw EngineError("the task's seal " + std::to_string(seal->id) + " refers to candidate " +
                                   std::to_string(seal->candidateId) + ", which is missing");
    reference = referenceFromSeal(*sealed, run.id);
  } else {
    reference = referenceFromBaseline(task, run.id);
  }
  reference.createdAt = unixSeconds();
  store.transaction([&] {
    reference.id = store.addCandidate(reference);
    run.referenceCandidate = reference.id;
    store.updateRun(run);
  });
  return reference;
}

ReferenceTiming prepareReference(ProjectStore& store, Run& run, Candidate& reference, const Task& task,
                                 Compiler& compiler, Evaluator& evaluator, const std::string& compileArch,
                                 const std::string& gpu, int validationSeeds, const LogFn& log) {
  ReferenceTiming prepared;
  // A user's kernel as the reference is named, so the message says which file to fix; it is refused, never
  // measured against, when it does not compile or validate.
  const std::string which = reference.proposer == kUserReferenceProposer
                                ? "the reference kernel (" + reference.statusDetail + ")"
                                : std::string("the reference kernel");
  const std::string refused = reference.proposer == kUserReferenceProposer ? "; it cannot be this run's reference" : "";
  CompileResult compiled = compiler.compile({reference.source, reference.launch.entry, compileArch, {}});
  if (!compiled.report.ok)
    throw EngineError(which + " does not compile for " + compileArch + ": " + firstError(compiled.report) + refused);
  prepared.cubin = compiled.cubin;

  if (!reference.timing) {
    EvaluationRequest request;
    request.task = &task;
    request.candidate = KernelBinary{prepared.cubin, reference.launch};
    request.reference = request.candidate;
    for (int k = 0; k < validationSeeds; ++k)
      request.seeds.push_back(deriveSeed(run.seed, -1, k, SeedPurpose::Validation));
    Evaluation e = evaluator.evaluate(request);
    if (e.status != CandidateStatus::Valid || !e.timing || e.timing->medianUs <= 0)
      throw EngineError(which + " does not pass validation on " + gpu + ": " + toString(e.status) +
                        (e.detail.empty() ? "" : " (" + e.detail + ")") + refused);
    reference.compile = compiled.report;
    reference.validation = e.trials;
    reference.timing = e.timing;
    reference.fitness = 1.0;
    store.transaction([&] {
      store.updateCandidate(reference);
      run.gpuSecondsUsed += e.gpuSeconds;
      store.updateRun(run);
    });
    log("info", "reference timed: median " + std::to_string(e.timing->medianUs) + " us on " + gpu);
  }
  prepared.medianUs = reference.timing->medianUs;
  return prepared;
}

void restoreArchive(ProjectStore& store, Archive& archive, const Candidate& reference, const RunSettings& settings,
                    const LogFn& log) {
  archive.load(store.archive(archive.run()));
  bool seedFromSeal = reference.proposer == "seal" && settings.sealStart == SealStart::FromSeal;
  if (archive.size() != 0 || !seedFromSeal) return;
  std::string key = cellKey(reference.descriptor, settings.binning);
  store.transaction([&] {
    for (int island = 0; island < archive.islands(); ++island) {
      archive.insert(island, key, reference.id, 1.0);
      store.putArchiveCell(*archive.cell(island, key));
    }
  });
  log("info", "the archive starts from the seal's architecture " + reference.architectureKey);
}

}  // namespace crucible::engine_detail
