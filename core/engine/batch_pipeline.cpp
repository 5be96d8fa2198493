// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/batch_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include "core/engine/seal_policy.h"

namespace crucible::engine_detail {

ComparedSpeedup fitnessOf(const Evaluation& e, double referenceMedianUs, const Fingerprint& referenceDevice) {
  if (e.status != CandidateStatus::Valid || !e.timing) return {};
  return comparableSpeedup(*e.timing, referenceMedianUs, referenceDevice);
}

namespace {

// Every timing says what it was measured on. Workers record their own GPU;
// an evaluator that did not is the device it reported for this call.
void recordDevice(Evaluation& e, const Fingerprint& device) {
  if (e.timing && !recorded(e.timing->device)) e.timing->device = device;
}

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

BatchPipeline::BatchPipeline(PipelineConfig config, std::vector<PipelineItem> items)
    : config_(std::move(config)),
      items_(std::make_move_iterator(items.begin()), std::make_move_iterator(items.end())),
      results_(items_.size()) {
  closed_ = !config_.acceptsMore;
  if (items_.empty() && closed_) return;
  int compilers = std::max(1, config_.compileThreads);
  if (closed_) compilers = std::min<int>(compilers, static_cast<int>(items_.size()));
  for (int i = 0; i < compilers; ++i) threads_.emplace_back([this] { compileWorker(); });
  for (std::size_t d = 0; d < config_.evaluators.size(); ++d)
    threads_.emplace_back([this, d] { evaluateWorker(config_.evaluators[d], static_cast<int>(d)); });
}

BatchPipeline::~BatchPipeline() {
  halt();
  for (auto& t : threads_) t.join();
}

std::size_t BatchPipeline::size() const {
  std::lock_guard lock(mutex_);
  return items_.size();
}

const PipelineItem& BatchPipeline::item(std::size_t i) const {
  std::lock_guard lock(mutex_);
  return items_.at(i);
}

std::size_t BatchPipeline::append(std::vector<PipelineItem> items) {
  std::lock_guard lock(mutex_);
  if (closed_) throw std::logic_error("BatchPipeline::append: the pipeline takes no more items");
  const std::size_t first = items_.size();
  for (PipelineItem& item : items) {
    items_.push_back(std::move(item));
    results_.emplace_back();
    // After a halt the threads may have ended: nothing would ever start it.
    if (halt_) {
      results_.back().compiled = true;
      results_.back().state = PipelineResult::State::Skipped;
    }
  }
  if (halt_) nextCompile_ = nextEvaluate_ = items_.size();
  changed_.notify_all();
  return first;
}

void BatchPipeline::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

void BatchPipeline::halt() {
  std::lock_guard lock(mutex_);
  halt_ = true;
  changed_.notify_all();
}

PhaseTimes BatchPipeline::times() const {
  std::lock_guard lock(mutex_);
  PhaseTimes t = times_;
  t.evaluators = static_cast<int>(config_.evaluators.size());
  return t;
}

std::string BatchPipeline::sanitizerDeferral(double evaluateSeconds) {
  if (config_.sanitizerShare <= 0) return {};
  std::lock_guard lock(mutex_);
  const double spent = times_.sanitizeSeconds;
  const double expected = sanitizerRuns_ > 0 ? spent / sanitizerRuns_ : kFirstSealInEvaluations * evaluateSeconds;
  const double elapsed = secondsSince(started_);
  if (spent + expected <= config_.sanitizerShare * elapsed) return {};
  char why[320];
  std::snprintf(why, sizeof why,
                "sealing deferred to the end of the run: the sanitizers may take %.0f%% of a run's time, and "
                "this seal's (about %.1f s) would bring them to %.1f s of the %.1f s so far",
                100 * config_.sanitizerShare, expected, spent + expected, elapsed);
  return why;
}

bool BatchPipeline::halted() {
  // Nothing new starts while the run is paused; a stop, or the pipeline's own
  // halt, ends the wait. Polling keeps the two conditions on separate mutexes.
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (halt_) return true;
    }
    if (!config_.control) return false;
    std::unique_lock lock(config_.control->mutex);
    if (config_.control->stopRequested) return true;
    if (!config_.control->paused) return false;
    config_.control->changed.wait_for(lock, std::chrono::milliseconds(50));
  }
}

void BatchPipeline::compileWorker() {
  for (;;) {
    std::size_t i;
    const Candidate* candidate = nullptr;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return nextCompile_ < items_.size() || closed_ || halt_; });
      if (nextCompile_ >= items_.size()) return;   // closed or halted, and nothing left
      i = nextCompile_++;
      candidate = &items_[i].candidate;
    }
    if (halted()) {
      std::lock_guard lock(mutex_);
      results_[i].compiled = true;
      results_[i].state = PipelineResult::State::Skipped;
      changed_.notify_all();
      continue;
    }
    const Candidate& c = *candidate;
    CompileRequest request{c.source, c.launch.entry, config_.compileArch, {}};
    CompileResult compiled;
    std::string failure;
    const auto start = Clock::now();
    try {
      compiled = config_.compiler->compile(request);
    } catch (const std::exception& e) {
      failure = std::string("the compiler failed (not the candidate): ") + e.what();
    }
    const double seconds = secondsSince(start);
    if (failure.empty() && config_.onCompiled) config_.onCompiled(c, compiled);
    std::lock_guard lock(mutex_);
    times_.compileSeconds += seconds;
    PipelineResult& r = results_[i];
    r.compile = std::move(compiled);
    r.compiled = true;
    r.compileSeconds = seconds;
    if (!failure.empty()) {
      r.state = PipelineResult::State::Failed;
      r.failure = failure;
    } else if (!r.compile.report.ok) {
      r.state = PipelineResult::State::Done;   // a compile failure is final: nothing to evaluate
    }
    changed_.notify_all();
  }
}

void runExtendedValidation(Evaluator& evaluator, EvaluationRequest request, const std::vector<std::uint64_t>& seeds,
                           PipelineResult& r) {
  request.seeds = seeds;
  request.extended = true;
  const auto start = Clock::now();
  r.extended = evaluator.evaluate(request);
  r.extendedSeconds = secondsSince(start);
  recordDevice(*r.extended, r.device);
}

void runSanitizers(Sanitizer& sanitizer, const Task& task, const KernelBinary& kernel, int device, PipelineResult& r) {
  const auto start = Clock::now();
  try {
    r.sanitizer = sanitizer.sanitize(task, kernel, device);
  } catch (const std::exception& e) {
    // The sanitizer's failure costs this seal, not the run.
    r.sanitizer = SanitizerReport{};
    r.sanitizer->unavailableReason = std::string("the sanitizer failed: ") + e.what();
  }
  r.sanitizeSeconds = secondsSince(start);
}

void BatchPipeline::evaluateWorker(Evaluator* evaluator, int device) {
  for (;;) {
    std::size_t i;
    const PipelineItem* itemPointer = nullptr;
    double waitedForCompile = 0;
    {
      std::unique_lock lock(mutex_);
      // Waiting for any candidate: the GPU is idle while the host proposes or commits.
      const auto waitStart = Clock::now();
      changed_.wait(lock, [&] { return nextEvaluate_ < items_.size() || closed_ || halt_; });
      times_.waitWorkSeconds += secondsSince(waitStart);
      if (nextEvaluate_ >= items_.size()) return;
      i = nextEvaluate_++;
      // Waiting for this candidate's compile: the GPU is idle while NVRTC works.
      const auto compileWaitStart = Clock::now();
      changed_.wait(lock, [&] { return results_[i].compiled; });
      waitedForCompile = secondsSince(compileWaitStart);
      times_.waitCompileSeconds += waitedForCompile;
      results_[i].waitCompileSeconds = waitedForCompile;
      if (results_[i].state != PipelineResult::State::Pending) continue;  // failed or skipped at compile
      itemPointer = &items_[i];
    }
    if (halted()) {
      std::lock_guard lock(mutex_);
      results_[i].state = PipelineResult::State::Skipped;
      changed_.notify_all();
      continue;
    }
    const PipelineItem& item = *itemPointer;
    PipelineResult result;
    {
      std::lock_guard lock(mutex_);
      result.compile = std::move(results_[i].compile);
      result.compiled = true;
      result.compileSeconds = results_[i].compileSeconds;
      result.waitCompileSeconds = waitedForCompile;
    }
    try {
      result.device = evaluator->device();
      EvaluationRequest request;
      request.task = config_.task;
      request.candidate = KernelBinary{result.compile.cubin, item.candidate.launch};
      request.reference = config_.reference;
      request.seeds = item.seeds;
      auto phaseStart = Clock::now();
      result.evaluation = evaluator->evaluate(request);
      result.evaluateSeconds = secondsSince(phaseStart);
      recordDevice(*result.evaluation, result.device);
      // The GPU that timed it: a cluster's job may run on another node than the one device() named.
      if (result.evaluation->timing) result.device = result.evaluation->timing->device;
      const ComparedSpeedup speedup =
          fitnessOf(*result.evaluation, config_.referenceMedianUs, config_.referenceDevice);
      result.fitness = speedup.speedup;
      result.speedupRefusal = speedup.refusal;
      bool valid = result.evaluation->status == CandidateStatus::Valid;
      if (valid && result.fitness > item.profileAbove) {
        phaseStart = Clock::now();
        result.profile = evaluator->profile(*config_.task, request.candidate);
        result.profileSeconds = secondsSince(phaseStart);
      }
      double bestBefore = item.bestSealedSpeedup;
      {
        std::lock_guard lock(mutex_);
        bestBefore = std::max(bestBefore, batchBestExtended_);
      }
      if (deservesExtendedValidation(result.evaluation->status, result.fitness, config_.sealMargin, bestBefore)) {
        runExtendedValidation(*evaluator, request, item.extendedSeeds, result);
        if (!extendedValidationFailure(*result.extended, config_.sealMargin)) {
          // Only now: the sanitizers take minutes, and only a seal needs them.
          if (config_.sanitizer) result.sanitizeDeferred = sanitizerDeferral(result.evaluateSeconds);
          if (config_.sanitizer && result.sanitizeDeferred.empty())
            runSanitizers(*config_.sanitizer, *config_.task, request.candidate, device, result);
          // A deferred one raises the bar too: the run's best is what is sealed at its end.
          if (!result.sanitizer || result.sanitizer->clean) {
            std::lock_guard lock(mutex_);
            batchBestExtended_ = std::max(batchBestExtended_, result.fitness);
          }
        }
      }
      result.state = PipelineResult::State::Done;
    } catch (const std::exception& e) {
      result.state = PipelineResult::State::Failed;
      result.failure = std::string("the evaluator failed (not the candidate): ") + e.what();
    }
    result.compile.cubin.clear();  // not stored; free it now
    std::lock_guard lock(mutex_);
    times_.evaluateSeconds += result.evaluateSeconds;
    times_.profileSeconds += result.profileSeconds;
    if (result.profile) ++times_.profiles;
    times_.extendedSeconds += result.extendedSeconds;
    times_.sanitizeSeconds += result.sanitizeSeconds;
    if (result.sanitizer) ++sanitizerRuns_;
    if (result.evaluation) {
      times_.validateSeconds += result.evaluation->validateSeconds;
      times_.timeSeconds += result.evaluation->timeSeconds;
      times_.gpuSeconds += result.evaluation->gpuSeconds;
    }
    if (result.extended) times_.gpuSeconds += result.extended->gpuSeconds;
    if (result.sanitizer) times_.gpuSeconds += result.sanitizer->seconds;
    results_[i] = std::move(result);
    changed_.notify_all();
  }
}

PipelineResult& BatchPipeline::waitFor(std::size_t i, const std::function<void()>& tick) {
  std::unique_lock lock(mutex_);
  if (i >= results_.size()) throw std::out_of_range("BatchPipeline::waitFor: no item " + std::to_string(i));
  while (results_[i].state == PipelineResult::State::Pending) {
    changed_.wait_for(lock, std::chrono::milliseconds(50));
    if (results_[i].state != PipelineResult::State::Pending) break;
    if (tick) {
      lock.unlock();
      tick();
      lock.lock();
    }
  }
  return results_[i];
}

}  // namespace crucible::engine_detail
