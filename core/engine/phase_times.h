// SPDX-License-Identifier: GPL-3.0-or-later
// Where one engine session's wall time went, phase by phase: proposing,
// compiling, evaluators waiting for a compiled candidate or for any work,
// validation, timing, profiling, the seal's extended validation and
// sanitizers, committing. Measured on the engine's own threads (steady
// clock) and on the worker (an Evaluation's validate/time seconds), so the
// lead can see on a GPU which serial point keeps the GPU waiting.
// Plain data; internal sums are made by the batch pipeline and the run loop.
#pragma once
#include <string>

namespace crucible {

struct PhaseTimes {
  double wallSeconds = 0;          // this session's wall time (pauses excluded)
  int evaluators = 0;              // evaluator threads (GPUs) the session drove
  long long evaluations = 0;       // candidates evaluated this session
  // Run loop (the committing thread).
  double proposeSeconds = 0;       // proposing a generation and storing its admissions
  double commitSeconds = 0;        // committing results to the store (transactions and events)
  // Compile threads (summed over threads: they run in parallel).
  double compileSeconds = 0;
  // Evaluator threads (summed over evaluators).
  double waitCompileSeconds = 0;   // an evaluator's next candidate was proposed but not compiled yet
  double waitWorkSeconds = 0;      // an evaluator had no candidate at all (proposing, committing, the end)
  double evaluateSeconds = 0;      // evaluate() calls as the engine saw them (worker, IPC)
  double validateSeconds = 0;      // of which the worker's validation trials (when it says)
  double timeSeconds = 0;          // of which the worker's interleaved timing (when it says)
  double gpuSeconds = 0;           // the evaluations' own gpuSeconds (what evaluations per GPU-minute count)
  double profileSeconds = 0;       // profile() calls (CUPTI range profiler)
  int profiles = 0;
  double extendedSeconds = 0;      // the seal's extended validation
  double sanitizeSeconds = 0;      // the sanitizers

  // Seconds an evaluator held its GPU with a request (evaluate, profile,
  // extended validation, sanitizers).
  double busySeconds() const { return evaluateSeconds + profileSeconds + extendedSeconds + sanitizeSeconds; }
  // The share of the evaluators' wall time in which they had no request on
  // their GPU: 1 - busy / (wall * evaluators); 0 when nothing was measured.
  double gpuIdleShare() const;
  // Evaluations per minute of wall, and per minute of the evaluations' gpuSeconds.
  double evaluationsPerWallMinute() const;
  double evaluationsPerGpuMinute() const;

  PhaseTimes& operator+=(const PhaseTimes& o);
};

// One line for a log or a console:
// "pipeline: 96 evaluations in 60.0 s wall (96.0/wall-min, 150.2/GPU-min); propose 1.20 s, compile 30.10 s
//  (2 threads' sum), wait for compile 0.80 s, wait for work 2.10 s, evaluate 38.40 s (validate 20.00 s,
//  time 17.00 s), profile 12.00 s (40), extended 0.00 s, sanitize 0.00 s, commit 1.10 s; GPU idle 15.3%"
std::string describe(const PhaseTimes& t);

}  // namespace crucible
