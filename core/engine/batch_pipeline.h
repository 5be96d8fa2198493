// SPDX-License-Identifier: GPL-3.0-or-later
// Compiles and evaluates candidates with overlap: a pool of compile threads
// works ahead while one thread per evaluator takes compiled candidates in
// proposal order. Results are collected per position so the engine commits
// them in proposal order (determinism), each as soon as it and all earlier
// ones are final. Worker threads never touch the store.
// A pipeline made with acceptsMore stays open: the run loop appends the next
// generation while this one is evaluated, so its compiles run ahead and the
// evaluators go on to it without waiting for proposals (the GPU is not idle
// while the host proposes and commits). Each thread measures where its time
// went (phase_times.h).
// Internal to core/engine.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include "core/engine/comparable_speedup.h"
#include "core/engine/engine_control.h"
#include "core/engine/interfaces.h"
#include "core/engine/phase_times.h"

namespace crucible::engine_detail {

struct PipelineItem {
  Candidate candidate;                       // stored, status Proposed
  std::vector<std::uint64_t> seeds;          // validation seeds
  std::vector<std::uint64_t> extendedSeeds;  // the seal's extended validation
  double profileAbove = 0;                   // profile a Valid result whose fitness exceeds this
  double bestSealedSpeedup = 0;              // the seal bar when the generation started
};

struct PipelineResult {
  enum class State { Pending, Done, Skipped, Failed };
  State state = State::Pending;
  CompileResult compile;
  bool compiled = false;                     // compile finished (ok or not)
  std::optional<Evaluation> evaluation;      // absent when the compile failed
  double fitness = 0;                        // speedup vs the reference; 0 unless Valid and timed
  std::string speedupRefusal;                // Valid and timed, but no speedup across hardware: why
  std::optional<ProfileResult> profile;
  std::optional<Evaluation> extended;
  // The sanitizers' report: present only when the extended validation passed
  // and a sanitizer is configured (they are slow; nothing else needs them).
  std::optional<SanitizerReport> sanitizer;
  // The extended validation passed but the sanitizers were not run now: they
  // had used their share of the run (PipelineConfig::sanitizerShare). Why, in
  // words for the log; the run seals its best candidate when it ends.
  std::string sanitizeDeferred;
  Fingerprint device;                        // where it was evaluated: the timing's device when recorded
  std::string failure;                       // State::Failed: the backend's exception
  // Wall seconds of this item's phases on the pipeline's threads.
  double compileSeconds = 0;
  double waitCompileSeconds = 0;             // its evaluator waited for its compile
  double evaluateSeconds = 0;
  double profileSeconds = 0;
  double extendedSeconds = 0;
  double sanitizeSeconds = 0;
};

struct PipelineConfig {
  Compiler* compiler = nullptr;
  std::vector<Evaluator*> evaluators;
  Sanitizer* sanitizer = nullptr;            // nullptr: nothing can be sealed (the run loop says so)
  int compileThreads = 1;
  std::string compileArch;
  const Task* task = nullptr;
  KernelBinary reference;
  double referenceMedianUs = 0;
  Fingerprint referenceDevice;               // the GPU referenceMedianUs was timed on
  double sealMargin = 0;
  // The share of the pipeline's wall time the sanitizers may take (0: they
  // run for every candidate that passes its extended validation). They take
  // seconds a seal, more on large tensors; past the share a candidate's
  // sanitizers are deferred, so a short run searches instead of waiting on
  // compute-sanitizer. The first seal's cost is guessed from the
  // candidate's evaluation (kFirstSealInEvaluations), later ones from the
  // seals measured.
  double sanitizerShare = 0;
  EngineControl* control = nullptr;
  std::function<void(const Candidate&, const CompileResult&)> onCompiled;  // from compile threads
  // false: the threads end once the constructor's items are done. true: they
  // wait for append() until close() or halt().
  bool acceptsMore = false;
};

class BatchPipeline {
public:
  BatchPipeline(PipelineConfig config, std::vector<PipelineItem> items);
  ~BatchPipeline();   // halts what has not started and joins
  BatchPipeline(const BatchPipeline&) = delete;
  BatchPipeline& operator=(const BatchPipeline&) = delete;

  std::size_t size() const;
  const PipelineItem& item(std::size_t i) const;
  // Blocks until item i is final (Done, Skipped or Failed); calls tick about
  // every 50 ms while waiting so the caller can react to pause/verdicts.
  PipelineResult& waitFor(std::size_t i, const std::function<void()>& tick);
  // More items, after those already given (acceptsMore only; throws
  // std::logic_error otherwise or after close()). Returns the first one's position.
  std::size_t append(std::vector<PipelineItem> items);
  // No more items: the threads end once those given are done.
  void close();
  // Nothing new starts after this (in-flight work finishes).
  void halt();
  // Where the pipeline's threads spent their time so far: compile, the
  // evaluators' waits and calls, the evaluations' own seconds. Wall, propose
  // and commit are the caller's to add.
  PhaseTimes times() const;

private:
  void compileWorker();
  void evaluateWorker(Evaluator* evaluator, int device);
  // Empty when the sanitizers may run now for a candidate whose evaluation
  // took evaluateSeconds; else why they are deferred.
  std::string sanitizerDeferral(double evaluateSeconds);
  bool halted();

  PipelineConfig config_;
  // Deques: append() adds at the end while other threads hold references to
  // earlier elements (taken under mutex_, valid after push_back).
  std::deque<PipelineItem> items_;
  std::deque<PipelineResult> results_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t nextCompile_ = 0;
  std::size_t nextEvaluate_ = 0;
  // The fastest fitness of this batch whose extended validation (and
  // sanitizers, when configured) passed: a
  // slower candidate of the same batch could not be sealed after it, so its
  // extended validation (many seeds at full size) would be wasted.
  double batchBestExtended_ = 0;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  int sanitizerRuns_ = 0;            // sanitizer calls finished (their seconds are in times_)
  bool halt_ = false;
  bool closed_ = false;
  PhaseTimes times_;                 // the threads' sums (under mutex_)
  std::vector<std::thread> threads_;
};

// What the first seal's sanitizers are guessed to cost, in evaluations of the
// candidate: four tools, each a process that loads and runs the kernel once
// as the evaluation does (measured seals replace the guess).
inline constexpr double kFirstSealInEvaluations = 4;

// The seal's two checks, as the evaluator threads run them and as the seal at
// the end of a run does (run_loop_seal.cpp). Each fills its part of r: its
// result and its wall seconds.
// The extended validation: `request` (the candidate's evaluation) again with
// `seeds`; its timing is recorded as measured on r.device unless it says.
void runExtendedValidation(Evaluator& evaluator, EvaluationRequest request, const std::vector<std::uint64_t>& seeds,
                           PipelineResult& r);
// The sanitizers on `device`; a sanitizer that throws gives a report that did not run.
void runSanitizers(Sanitizer& sanitizer, const Task& task, const KernelBinary& kernel, int device, PipelineResult& r);

// The fitness of an evaluation: speedup vs the reference for a Valid, timed
// result (comparableSpeedup: never across hardware); 0 otherwise.
ComparedSpeedup fitnessOf(const Evaluation& e, double referenceMedianUs, const Fingerprint& referenceDevice);

}  // namespace crucible::engine_detail
