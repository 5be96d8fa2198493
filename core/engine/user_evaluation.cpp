// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/user_evaluation.h"

#include <algorithm>
#include <ctime>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include "core/engine/batch_pipeline.h"
#include "core/engine/commit_outcome.h"
#include "core/engine/engine.h"
#include "core/engine/engine_control.h"
#include "core/engine/binning.h"
#include "core/engine/pipeline_items.h"
#include "core/engine/run_restore.h"
#include "core/engine/run_settings.h"
#include "core/engine/tuning_cache.h"
#include "core/engine/unix_time.h"
#include "core/io/bounded_file.h"
#include "core/task/task_spec.h"

namespace crucible {

using namespace engine_detail;

namespace {

std::string hex16(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = digits[v & 0xf];
  return out;
}

bool cancelled(const UserEvaluationOptions& o) { return o.cancel && o.cancel->load(); }

void report(const UserEvaluationOptions& o, UserEvaluationStage stage, std::string text) {
  if (o.progress) o.progress(UserEvaluationProgress{stage, std::move(text)});
}

// The best seal this run made: the seal bar, as restoreIndex (run_restore.cpp) computes it for the engine.
double bestSealedOfRun(const ProjectStore& store, TaskId task, RunId run) {
  double best = 0;
  for (const auto& seal : store.seals(task))
    if (seal.runId == run) best = std::max(best, seal.speedup);
  return best;
}

// The strongest elite of the cell this kernel would enter, on any island
// (a user kernel has no island until the engine places it): what
// ProfileMode::Elites compares with.
std::optional<ArchiveCell> strongestCell(const ProjectStore& store, RunId run, const std::string& key) {
  std::optional<ArchiveCell> best;
  for (const ArchiveCell& cell : store.archive(run))
    if (cell.key == key && (!best || cell.fitness > best->fitness)) best = cell;
  return best;
}

std::string figures(const Candidate& c) {
  std::string text = toString(c.status);
  if (c.status == CandidateStatus::Valid && c.timing)
    text += ", " + std::to_string(c.timing->medianUs) + " us, " + std::to_string(c.fitness) + "x the reference";
  else if (!c.statusDetail.empty())
    text += " (" + c.statusDetail + ")";
  return text;
}

}  // namespace

const char* toString(UserEvaluationStage s) {
  switch (s) {
    case UserEvaluationStage::Preparing: return "preparing";
    case UserEvaluationStage::Compiling: return "compiling";
    case UserEvaluationStage::Evaluating: return "evaluating";
    case UserEvaluationStage::Storing: return "storing";
    case UserEvaluationStage::Done: return "done";
  }
  return "?";
}

std::string userArchitectureKey(const std::string& source) {
  std::string normalised;
  std::string code = withoutCommentLines(source);   // the tuning cache's own notion of "code lines"
  std::size_t begin = 0;
  while (begin <= code.size()) {
    std::size_t end = code.find('\n', begin);
    if (end == std::string::npos) end = code.size();
    std::string line = code.substr(begin, end - begin);
    const auto first = line.find_first_not_of(" \t\r\f\v");
    if (first != std::string::npos) {
      const auto last = line.find_last_not_of(" \t\r\f\v");
      normalised += line.substr(first, last - first + 1);
      normalised += '\n';
    }
    begin = end + 1;
  }
  return "user:" + hex16(fnv1a64(normalised));
}

UserEvaluation evaluateUserKernel(ProjectStore& store, Compiler& compiler, Evaluator& evaluator,
                                  const UserKernel& kernel, const UserEvaluationOptions& options) {
  UserEvaluation result;
  if (kernel.source.find_first_not_of(" \t\r\n") == std::string::npos)
    throw UserEvaluationError("the kernel source is empty");
  if (kernel.source.size() > kMaxKernelSourceBytes)
    throw UserEvaluationError("the kernel source is " + std::to_string(kernel.source.size()) +
                              " bytes; at most " + std::to_string(kMaxKernelSourceBytes) + " are accepted");
  report(options, UserEvaluationStage::Preparing, "loading the run");

  // ---- what the kernel joins
  std::optional<Candidate> parent;
  RunId runId = kernel.run;
  if (kernel.parent != 0) {
    parent = store.candidate(kernel.parent);
    if (!parent)
      throw UserEvaluationError("candidate " + std::to_string(kernel.parent) + " does not exist in " + store.path());
    if (kernel.run != 0 && kernel.run != parent->runId)
      throw UserEvaluationError("candidate " + std::to_string(kernel.parent) + " belongs to run " +
                                std::to_string(parent->runId) + ", not to run " + std::to_string(kernel.run));
    runId = parent->runId;
  } else if (runId == 0) {
    throw UserEvaluationError("name the candidate to fork, or the run a kernel opened from a file joins");
  }
  std::optional<Run> run = store.run(runId);
  if (!run) throw UserEvaluationError("run " + std::to_string(runId) + " does not exist in " + store.path());
  std::optional<Task> task = store.task(run->taskId);
  if (!task)
    throw UserEvaluationError("run " + std::to_string(runId) + " refers to task " + std::to_string(run->taskId) +
                              ", which does not exist");
  RunSettings settings;
  try {
    settings = runSettingsFromJson(run->settingsJson);
  } catch (const std::invalid_argument& e) {
    throw UserEvaluationError("run " + std::to_string(runId) + ": " + e.what());
  }
  if (cancelled(options)) return result.cancelled = true, result;

  // ---- the run's reference, compiled (and timed once) as the engine does
  // (RunLoop::setupEvaluators and RunLoop::setupReference, run_loop.cpp).
  const Fingerprint device = evaluator.device();
  const std::string compileArch = settings.compileArch.empty() ? device.arch : settings.compileArch;
  if (compileArch.empty())
    throw UserEvaluationError("no compile architecture: the evaluator reports no device arch and run " +
                              std::to_string(runId) + "'s settings name none");
  report(options, UserEvaluationStage::Preparing, "compiling the run's reference for " + compileArch);
  Candidate reference;
  ReferenceTiming referenceTiming;
  LogFn logFn = [&](const std::string& level, const std::string& text) { store.appendLog(runId, level, text); };
  try {
    // A run that never started has no reference yet: the engine's first
    // session would make the same one (and then finds it stored).
    reference = establishReference(store, *run, *task);
    referenceTiming = prepareReference(store, *run, reference, *task, compiler, evaluator, compileArch, device.gpu,
                                       settings.validationSeeds, logFn);
  } catch (const EngineError& e) {
    throw UserEvaluationError(e.what());
  } catch (const TaskSpecError& e) {
    throw UserEvaluationError(std::string("the run's task spec: ") + e.what());
  }

  // ---- the candidate
  Candidate c;
  c.runId = runId;
  c.source = kernel.source;
  const Candidate& base = parent ? *parent : reference;
  c.launch = kernel.launch ? *kernel.launch : base.launch;
  if (c.launch.entry.empty()) c.launch.entry = base.launch.entry;
  if (parent) {
    c.parents = {parent->id};
    c.generation = parent->generation + 1;
    // It competes in its parent's archive cell: an edit is a variant of the
    // parent, and no genome says what else it could be.
    c.descriptor = parent->descriptor;
  } else {
    c.generation = 0;
    c.descriptor = {{"origin", "user"}};
  }
  c.proposer = kUserProposer;
  c.mutation = kUserMutation;
  // Candidate has no field for a note: it is the genome of a genome-less kernel.
  c.genomeJson = nlohmann::json{{"note", kernel.note}}.dump();
  c.architectureKey = userArchitectureKey(kernel.source);
  c.status = CandidateStatus::Proposed;
  c.createdAt = unixSeconds();

  // ---- the same pipeline, seeds and outcome rules as every candidate of the
  // run (RunLoop::processBatch and RunLoop::commit): pipelineItemFor derives
  // the validation and extended seeds from the run's seed and the source;
  // BatchPipeline validates, times interleaved with the reference, profiles,
  // runs the seal's extended validation and sanitizers when the kernel earns
  // them; outcomeOf gives its status, fitness, demotion and seal.
  std::string cellKeyOf;
  try {
    cellKeyOf = cellKey(c.descriptor, settings.binning);
  } catch (const std::invalid_argument& e) {
    throw UserEvaluationError(std::string("the parent's descriptor does not fit the run's archive: ") + e.what());
  }
  const double bestSealed = bestSealedOfRun(store, task->id, runId);
  std::optional<ArchiveCell> cell = strongestCell(store, runId, cellKeyOf);
  PipelineItem item = pipelineItemFor(c, cell ? &*cell : nullptr, settings, run->seed, bestSealed);
  if (options.profile) item.profileAbove = -std::numeric_limits<double>::infinity();

  EngineControl control;   // only its stop is used: the cancel
  std::atomic<bool> compiled{false};
  std::atomic<bool> compiledOk{false};
  PipelineConfig config;
  config.compiler = &compiler;
  config.evaluators = {&evaluator};
  config.sanitizer = options.sanitizer;
  config.compileThreads = 1;
  config.compileArch = compileArch;
  config.task = &*task;
  config.reference = KernelBinary{referenceTiming.cubin, reference.launch};
  config.referenceMedianUs = referenceTiming.medianUs;
  if (reference.timing) config.referenceDevice = reference.timing->device;
  config.sealMargin = settings.sealMargin;
  config.control = &control;
  config.onCompiled = [&](const Candidate&, const CompileResult& r) {   // on the compile thread
    compiledOk = r.report.ok;
    compiled = true;
  };
  report(options, UserEvaluationStage::Compiling, "compiling the kernel for " + compileArch);
  PipelineResult r;
  {
    BatchPipeline pipeline(std::move(config), {item});
    bool toldCompiled = false;
    auto tellCompiled = [&] {   // on this thread, as the progress callback promises
      if (!compiled || toldCompiled) return;
      toldCompiled = true;
      if (compiledOk)
        report(options, UserEvaluationStage::Evaluating,
               "validating, timing against the reference and profiling on " + device.gpu);
    };
    auto tick = [&] {
      if (cancelled(options)) {
        std::lock_guard lock(control.mutex);
        control.stopRequested = true;
        control.changed.notify_all();
      }
      tellCompiled();
    };
    r = pipeline.waitFor(0, tick);
    tellCompiled();   // a fast evaluation may end before the first tick: the stage is still told
  }
  if (cancelled(options) || r.state == PipelineResult::State::Skipped) return result.cancelled = true, result;
  if (r.state == PipelineResult::State::Failed) throw UserEvaluationError(r.failure);

  CommitOutcome outcome =
      outcomeOf(item.candidate, r,
                OutcomeRules{task->id, runId, settings.sealMargin, referenceTiming.medianUs, bestSealed, unixSeconds()});
  if (cancelled(options)) return result.cancelled = true, result;   // the last moment a cancel stores nothing

  report(options, UserEvaluationStage::Storing, "storing the candidate");
  store.transaction([&] {
    outcome.candidate.id = store.addCandidate(outcome.candidate);
    if (outcome.seal) {
      outcome.seal->candidateId = outcome.candidate.id;   // made before the candidate had an id
      outcome.seal->id = store.addSeal(*outcome.seal);
    }
    const std::string origin =
        parent ? "a fork of candidate " + std::to_string(parent->id) : std::string("a kernel opened from a file");
    store.appendLog(runId, "info",
                    "user candidate " + std::to_string(outcome.candidate.id) + " (" + origin +
                        "): " + figures(outcome.candidate));
    for (const LogMessage& line : sealLog(outcome, r)) store.appendLog(runId, line.level, line.text);
  });

  result.candidate = outcome.candidate;
  result.seal = outcome.seal;
  result.sealNote = outcome.sealNote;
  result.device = r.evaluation ? r.device : Fingerprint{};
  result.gpuSeconds = outcome.gpuSeconds;
  report(options, UserEvaluationStage::Done, "candidate " + std::to_string(result.candidate.id) + ": " +
                                                 figures(result.candidate));
  return result;
}

}  // namespace crucible
