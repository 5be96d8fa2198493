// SPDX-License-Identifier: GPL-3.0-or-later
// RunLoop's evaluating and committing part: the run session's one pipeline
// (batch_pipeline.h) that takes each generation as it is proposed, the commit
// of its results in proposal order (archive, knowledge, seals, events), and
// the halt when a time budget runs out inside a generation. Its own file so
// run_loop.cpp keeps to the loop, set-up and proposing.
#include <algorithm>
#include <chrono>
#include "core/engine/commit_outcome.h"
#include "core/engine/pipeline_items.h"
#include "core/engine/run_events.h"
#include "core/engine/run_loop.h"
#include "core/engine/unix_time.h"

namespace crucible::engine_detail {

void RunLoop::processBatch(std::vector<Candidate> batch) {
  startBatch(std::move(batch));
  drain();
}

PipelineConfig RunLoop::pipelineConfig() {
  PipelineConfig config;
  config.compiler = &compiler_;
  config.evaluators = evaluators_;
  config.sanitizer = sanitizer_;
  config.compileThreads = settings_.compileThreads;
  config.compileArch = compileArch_;
  config.task = &task_;
  config.reference = KernelBinary{referenceCubin_, reference_.launch};
  config.referenceMedianUs = referenceMedianUs_;
  if (reference_.timing) config.referenceDevice = reference_.timing->device;
  config.sealMargin = settings_.sealMargin;
  config.sanitizerShare = kRunSanitizerShare;
  config.control = &control_;
  config.onCompiled = [this, runId = run_.id](const Candidate& c, const CompileResult& r) {
    emit_(EngineEvent{runId, compiledEvent(c, r)});
  };
  config.acceptsMore = true;
  return config;
}

void RunLoop::startBatch(std::vector<Candidate> batch) {
  batch = implementPlans(std::move(batch));
  if (batch.empty()) return;
  std::vector<PipelineItem> items;
  for (Candidate& c : batch) {
    const ArchiveCell* cell = archive_->cell(islandOf(c.id), keyOf(c));
    items.push_back(pipelineItemFor(std::move(c), cell, settings_, run_.seed, bestSealed_));
  }
  if (!pipeline_) pipeline_ = std::make_unique<BatchPipeline>(pipelineConfig(), std::vector<PipelineItem>{});
  pipeline_->append(std::move(items));
}

std::int64_t RunLoop::inFlight() const {
  return pipeline_ ? static_cast<std::int64_t>(pipeline_->size() - committedUpTo_) : 0;
}

void RunLoop::commitUpTo(std::size_t end) {
  if (!pipeline_) return;
  end = std::min(end, pipeline_->size());
  std::string failure;
  auto tick = [this] {
    applyControlChanges();
    // A time budget that runs out inside a generation: nothing new starts
    // (those candidates stay Proposed for a resume), what runs finishes. Else
    // a run of slow evaluations (seconds each at 8192^3) overshoots its wall
    // budget by up to two generations, the look-ahead's and this one.
    if (timeBudgetSpent()) pipeline_->halt();
  };
  for (; committedUpTo_ < end; ++committedUpTo_) {
    PipelineResult& r = pipeline_->waitFor(committedUpTo_, tick);
    switch (r.state) {
      case PipelineResult::State::Done: {
        const auto commitStart = std::chrono::steady_clock::now();
        commit(pipeline_->item(committedUpTo_), r);
        commitSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - commitStart).count();
        ++committedThisSession_;
        break;
      }
      case PipelineResult::State::Failed:
        if (failure.empty()) failure = r.failure;
        pipeline_->halt();   // results already measured are still committed below
        break;
      case PipelineResult::State::Skipped:
      case PipelineResult::State::Pending: break;   // stays Proposed: evaluated when the run resumes
    }
  }
  if (!failure.empty()) throw EngineError(failure);
}

bool RunLoop::timeBudgetSpent() {
  const Usage used = usage();
  return (run_.budget.wallSeconds > 0 && used.wallSeconds >= run_.budget.wallSeconds) ||
         (run_.budget.gpuSeconds > 0 && used.gpuSeconds >= run_.budget.gpuSeconds);
}

void RunLoop::commit(const PipelineItem& item, const PipelineResult& r) {
  int island = islandOf(item.candidate.id);
  CommitOutcome outcome = outcomeOf(
      item.candidate, r,
      OutcomeRules{task_.id, run_.id, settings_.sealMargin, referenceMedianUs_, bestSealed_, unixSeconds()});
  Candidate& c = outcome.candidate;

  Placement placement = Placement::Rejected;
  bool improved = false;
  std::optional<events::KnowledgeUpdated> knowledgeEvent;
  store_.transaction([&] {
    store_.updateCandidate(c);
    run_.evaluationsDone += 1;
    run_.gpuSecondsUsed += outcome.gpuSeconds;
    run_.wallSecondsUsed = clock_.wallUsed();
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
    if (outcome.seal) {
      outcome.seal->id = store_.addSeal(*outcome.seal);
      bestSealed_ = outcome.seal->speedup;
    }
    store_.updateRun(run_);
  });
  islandOf_.erase(c.id);
  gate_.markAccepted(c.architectureKey);
  tuning_->recordResult(c);
  if (improved) cache_[c.id] = c;

  send(evaluatedEvent(counters(), c));
  if (improved) send(eliteImprovedEvent(counters(), c, placement, keyOf(c)));
  if (knowledgeEvent) send(std::move(*knowledgeEvent));
  std::vector<LogMessage> lines = sealLog(outcome, r);
  // The seal's line comes before its event, as a reader of the log expects.
  for (const LogMessage& line : lines) log(line.level, line.text);
  if (outcome.seal) send(events::Sealed{counters(), c.id, outcome.seal->speedup});
  send(events::Progress{counters()});
}

std::optional<events::KnowledgeUpdated> RunLoop::observeKnowledge(const Candidate& child,
                                                                 const std::string& deviceArch) {
  if (child.parents.size() != 1 || child.fitness <= 0) return std::nullopt;
  const Candidate& parent = candidateById(child.parents.front());
  const KnowledgeEntry* entry = knowledge_->observe(child, parent, deviceArch, task_.family);
  if (!entry) return std::nullopt;
  return knowledgeEvent(counters(), child.id, *entry);
}

}  // namespace crucible::engine_detail
