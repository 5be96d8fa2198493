// SPDX-License-Identifier: GPL-3.0-or-later
// Times a candidate and its reference INTERLEAVED in one process: alternating
// samples (the order flips every pair), each launch bracketed by device
// events, the L2 flushed before every sample, after a warm-up that lasts until
// the SM clock has left idle. The speedup is a ratio of medians from one run.
#pragma once
#include <functional>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/nvml_clocks.h"
#include "core/model/candidate.h"

namespace crucible::cuda {

class HarnessKernels;

struct TimingOptions {
  int minSamples = 30;              // per kernel
  int maxSamples = 5000;            // per kernel
  // Stop as soon as the speedup is known this precisely: the half-width of a
  // distribution-free 95% interval of each median, relative to it, combined
  // for the ratio of the two (speedupPrecision). Steady memory-bound kernels
  // get there in tens of pairs, where a fixed 0.2 s of sampling took 300-700
  // pairs and a third of every evaluation; a noisy pair samples on until
  // targetSeconds. The noise left is measured by tests/bench/harness_cost.py
  // (a baseline timed against itself).
  double precisionTarget = 0.002;
  // Keep sampling at most this long for a pair that does not reach the
  // precision (once minSamples are in).
  double targetSeconds = 0.2;
  double maxSeconds = 30;           // never longer (slow kernels stop after minSamples, or 5, whichever first)
  // Slow pairs (a naive reference of 100+ ms against a fast candidate): past
  // this much time, slowMinSamples pairs are enough. Their spread is small
  // (the 167 ms bf16 8192^3 baseline: IQR 51-140 us over 30 samples on the
  // H200, under 0.1%), and 30 pairs of it took 5.4 s of every candidate's
  // evaluation.
  double slowSeconds = 2.0;
  int slowMinSamples = 10;
  // Pairs of at least this long (a GEMM timed beside its naive baseline: 21 ms
  // at 4096^3, 42 ms for the batched 16 x 2048^3) may stop on precision from
  // slowMinSamples on: 30 of them were 0.6-1.3 s of every such evaluation, and
  // their spread is tenths of a percent.
  double slowPairSeconds = 0.005;
  // The warm-up's least length, once the SM clock has left idle: in a run the
  // clock is already up (the previous evaluation), and the timed launches
  // flush L2 anyway, so 10 ms (tens of launches of a memory-bound pair) is
  // enough; 50 ms was as long as the whole precise timing.
  double warmupMinSeconds = 0.01;
  double warmupMaxSeconds = 1.0;    // give up waiting for the clock after this
  double idleFallbackSeconds = 0.2; // warm-up length when NVML is missing
  double clockReadyFraction = 0.8;  // "left idle": SM clock >= this fraction of its maximum
  double launchTimeoutSeconds = 10;
};

// Whether interleaved sampling may stop after `pairs` pairs and `elapsed`
// seconds of sampling, the speedup known to `precision` (speedupPrecision;
// see TimingOptions).
bool enoughSamples(int pairs, double elapsed, double precision, const TimingOptions& o);
// The fewest pairs after which the precision may end sampling: minSamples, or
// slowMinSamples for pairs of slowPairSeconds and more.
int precisionMinSamples(int pairs, double elapsed, const TimingOptions& o);

// Half the width of the distribution-free 95% confidence interval of the
// median of `samples` (between the order statistics n/2 -+ 0.98 sqrt(n)),
// relative to the median; infinity for fewer than 8 samples or a median <= 0.
double medianRelativeHalfWidth(std::vector<double> samples);
// The same for the ratio of two medians (the candidate's and the
// reference's, independent samples): the root of the sum of squares. With no
// reference samples, the candidate's alone.
double speedupPrecision(const std::vector<double>& candidate, const std::vector<double>& reference);

// Empties L2 before every timed launch: all SMs read a zeroed buffer of twice
// the L2 size (HarnessKernels::readThrough), so the next kernel finds none of
// its data there. Reading, not writing: a write flush (a memset, as here until
// 2026-12-03 and in triton's do_bench) leaves L2 full of dirty lines that are
// written back while the next kernel runs and charged to it. On the H200 that
// cost cuBLAS's batched GEMM 11% (404.7 against 362.5 us) and made cache-hint
// variants of row kernels win that lose once L2 is clean, so the search chose
// them (results/2026-12-03-h200-gemm-tma-store.md); the write-backs of the
// output fills and input draws queued before the flush land in the flush too.
//
// The buffer is zero and only ever read, so it must stay zero: it is the
// largest piece of the harness's own memory, and a kernel that found it could
// keep anything there from one launch to the next. The flush marks a flag
// when it reads a word that is not zero.
class L2Flusher {
public:
  L2Flusher(const DeviceInfo& device, const HarnessKernels& harness);
  void flush(CUstream stream);
  std::size_t bytes() const { return buffer_.extent(); }
  // Zeroes the buffer and the flag (before a candidate's timing, so nothing
  // an earlier evaluation left is charged to it).
  void reset(CUstream stream);
  // Whether a flush since the last reset read a word that was not zero (call
  // once the stream has finished).
  bool foundWrites();
  CUdeviceptr bufferForTests() const { return buffer_.get(); }
  // The rest of the whole page the flag lies in: zero, written by no kernel
  // of the harness (the evaluator watches it: TaskRuntime::watchHarnessMemory).
  CUdeviceptr flagPageTail() const { return written_.get() + written_.size(); }
  std::size_t flagPageTailBytes() const { return written_.extent() - written_.size(); }
private:
  // Both in whole pages of their own (DeviceBuffer::wholePages); the flush
  // reads all of the buffer's pages.
  DeviceBuffer buffer_;
  DeviceBuffer written_;  // the flag: 0, or 1 once a flush read a word that was not zero
  const HarnessKernels& harness_;
  int smCount_;
};

// What the harness does around the candidate's timed launches (launch_plan.h),
// outside the timed region. Either may be empty.
struct TimingHooks {
  // Before each candidate launch, warm-up ones included (pair -1), ahead of
  // the L2 flush: queue the output fill and the inputs' draw.
  std::function<void(int pair)> beforeCandidate;
  // Before each reference launch, warm-up ones included, ahead of the L2
  // flush: the reference's own inputs' draw (so that both kernels' launches
  // follow the same work, and neither runs on inputs the other could change).
  std::function<void()> beforeReference;
  // Before every launch of either kernel, warm-up ones included, ahead of the
  // L2 flush (after beforeCandidate): the leftover scrubs (leftover_scrub.h).
  std::function<void()> beforeEachLaunch;
  // In a measured pair whose candidate launch went first, between it and the
  // reference's hooks: the reference writes the candidate's output buffers,
  // so what the candidate wrote is kept here for the pair's check.
  std::function<void()> betweenCandidateAndReference;
  // After each measured pair has finished; `last` when sampling stops after
  // it. May throw KernelFailure (a timed launch whose output is wrong). Its
  // time is not counted as sampling time (TimingOptions' seconds).
  std::function<void(int pair, bool last)> afterPair;
};

// `candidate` and `reference` each queue one launch on the context's stream
// (and throw KernelFailure if it is refused); `reference` may be empty, then
// only the candidate is timed and the speedup is 0. `finish` waits for the
// queued work and throws KernelFailure on a fault or timeout.
Timing timeInterleaved(GpuContext& gpu, L2Flusher& flusher, const NvmlClocks& clocks,
                       const std::function<void()>& candidate, const std::function<void()>& reference,
                       const std::function<void()>& finish, const TimingOptions& options,
                       const TimingHooks& hooks = {});

// Median and interquartile range (linear interpolation between order statistics).
double median(std::vector<double> v);
double interquartileRange(std::vector<double> v);

}  // namespace crucible::cuda
