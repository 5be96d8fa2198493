// SPDX-License-Identifier: GPL-3.0-or-later
// One task made concrete on the GPU: guarded device buffers for its inputs and
// outputs, the oracle's double-precision outputs (masked, on the device only),
// masked device copies of the inputs (to prove a kernel left
// them alone), the device checks of a launch's outputs, and launches that
// wait with a deadline and turn every failure into a KernelFailure with a
// precise reason.
//
// What a candidate can reach is kept apart from what judges it: the oracle's
// device outputs are overwritten as soon as they are copied, and what the
// reference kernel timed beside the candidate writes into the candidate's
// output buffers (both are timed writing the same ones) is overwritten by the
// fill before the candidate's next launch, so no launch of the candidate ever
// finds a correct result in memory. The
// copies validation compares with on the device (the reference, a validated
// launch's outputs) are masked: every element XORed with a stream of bits
// from a key only the host holds, drawn afresh for every copy.
// During timing the inputs are drawn afresh before every launch of either
// kernel, and a timed launch that is checked is checked against the oracle run
// on its own inputs; no validated result is kept on the device unmasked.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "backends/cuda/worker/guarded_buffer.h"
#include "backends/cuda/worker/harness_memory_watch.h"
#include "backends/cuda/worker/host_pinning.h"
#include "backends/cuda/worker/host_tensor.h"
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/launch_plan.h"
#include "backends/cuda/worker/device_span.h"
#include "backends/cuda/worker/output_check.h"
#include "backends/cuda/worker/tensor_maps.h"
#include "core/task/task_spec.h"

namespace crucible::cuda {

class HarnessKernels;

class TaskRuntime {
public:
  // `oracleCubin` is the task's oracle compiled for this GPU; `harness` fills,
  // hashes and compares buffers, and outlives this object.
  TaskRuntime(GpuContext& gpu, TaskSpec spec, const std::string& oracleCubin, const HarnessKernels& harness);
  // Kernel parameters point into this object: it never moves.
  TaskRuntime(const TaskRuntime&) = delete;
  TaskRuntime& operator=(const TaskRuntime&) = delete;

  const TaskSpec& spec() const { return spec_; }
  CUstream stream() const { return gpu_.stream(); }

  // Draws every input from its distribution with `seed` on the device
  // (HarnessKernels::draw) and keeps a host copy (the all-zero check) and a
  // masked device copy (inputDamage), into the same device
  // buffers each time (a kernel cannot tell new inputs by their address).
  // Guards are rewritten too. Throws std::invalid_argument when an input
  // cannot be drawn or came out all zeros. With `stress`, the inputs it names
  // are drawn from its distributions instead.
  void randomizeInputs(std::uint64_t seed, const StressCase* stress = nullptr);
  // Runs the oracle on the current inputs, keeps its outputs masked on the
  // device (checkOutput), then overwrites the oracle's device outputs (no
  // candidate launch may find them); throws KernelFailure (Invalid) naming
  // the task when the oracle fails or leaves non-finite values.
  void computeReference(double timeoutSeconds);
  // The reference of output `output`, unmasked on the host (tests).
  std::vector<double> referenceForTests(std::size_t output) const;
  // True when no oracle output buffer holds anything but zeros (GPU tests).
  bool oracleOutputsCleared() const;

  // Queues `fill` into every candidate output on the stream (ordered before
  // the next launch); with `rewriteGuards`, the guards are rewritten too.
  // The stash (stashOutputs) gets the fill as well: it lies next to the
  // candidate's outputs, and between two candidate launches with no stash
  // between (every other pair of the timing) a kernel could otherwise keep
  // its results there.
  void fillOutputs(const FillChoice& fill, bool rewriteGuards);

  // Timing: queues a draw of every input from the task's distributions with
  // `seed` into the same buffers (no host copy, no wait), before each timed
  // launch of either kernel, a new seed each time. Every timed launch meets
  // inputs no launch met before, so a kernel that kept its results from
  // earlier launches (in any memory, watched or not) has nothing to reuse,
  // and no kernel runs on inputs another launch could have changed.
  void drawTimedInputs(std::uint64_t seed);
  // After a timed candidate launch on inputs drawn with `inputSeed`, whose
  // outputs were filled with `fillBefore`: empty when no guard was touched
  // and every output is within the task's tolerance of the oracle's outputs
  // for those inputs (drawn again, the oracle run on them here); else what is
  // wrong, in words. Throws KernelFailure as computeReference does.
  std::string checkTimedLaunch(const FillChoice& fillBefore, std::uint64_t inputSeed, double timeoutSeconds);
  // The harness's own device memory, none of which any kernel may write
  // (harness_memory_watch.h): the masked copies validation compares with (drawn
  // inputs, reference, kept outputs), the oracle's buffers (cleared outputs
  // and guards), the guards around the stash of the candidate's outputs, the unused ends of
  // their pages, and whatever the evaluator adds (watchHarnessMemory). Each
  // region's hash is recorded when the harness writes it; "" when every
  // region still hashes so, else a verdict naming the first that does not.
  std::string harnessMemoryDamage() const;
  // The harness's keyed hash of device bytes on this runtime's stream (what the watches compare).
  HarnessMemoryWatch::Hasher deviceHasher() const;
  // The oracle's writable module variables: it may change them at every
  // launch, and they may share a page with a candidate's (driver_pages_watch.h).
  const std::vector<DeviceSpan>& oracleVariables() const { return oracleVariables_; }
  // Watches `bytes` at `where` as harness memory from now on (`what` names it).
  void watchHarnessMemory(std::string what, CUdeviceptr where, std::size_t bytes);
  // The stash's and the oracle's buffers for output `output` (tests).
  const GuardedBuffer& stashedOutputForTests(std::size_t output) const { return *stashedOutputs_[output]; }
  const GuardedBuffer& oracleOutputForTests(std::size_t output) const { return *oracleOutputs_[output]; }
  // checkOutput (output_check.h) of candidate output `output` as the device
  // holds it now against the current reference, with `tol` and poison
  // pattern `poison` (0 or 1): the same pass run on the device, the same
  // OutputCheck; only the tally and at most two elements are downloaded.
  OutputCheck checkOutput(std::size_t output, const Tolerance& tol, int poison) const;
  // Keeps a masked device copy of every candidate output as it is now, for
  // compareWithKeptOutputs (the second launch of a validation trial).
  void keepOutputs();
  // compareBitwise (output_check.h) of candidate output `output` now with
  // its copy kept by keepOutputs.
  BitwiseDiff compareWithKeptOutputs(std::size_t output) const;

  std::vector<HostTensor> downloadOutputs() const;
  // The outputs downloaded into host buffers this object keeps (slot 0 or 1),
  // reused from call to call: no allocation or page faulting of hundreds of
  // MiB per launch. The result stays valid until the same slot is reused.
  const std::vector<HostTensor>& downloadOutputs(int slot);

  // Empty when the inputs (and their guards) still hold exactly what was
  // drawn (compared on the device with a copy taken after the draw); else
  // which input changed and how many elements.
  std::string inputDamage() const;
  // Empty when no output guard changed; else which output was overrun.
  std::string outputGuardDamage() const;

  // The tensor maps `rules` ask for, encoded for this runtime's input and
  // output buffers (the same buffers for every launch, so once per kernel).
  // Throws KernelFailure (ResourceError) naming `who` when a rule cannot be encoded.
  TensorMaps tensorMaps(const std::vector<TensorMapRule>& rules, const std::string& who) const;

  // Throws KernelFailure (Invalid) naming `who` when `kernel`'s binary
  // declares parameters other than those the task's ABI passes with `maps`
  // (kernel_parameters.h). Call it before the kernel's first launch.
  void checkParameters(const KernelModule& kernel, const TensorMaps& maps, const std::string& who) const;
  // At most the bytes of the parameter block of a kernel that takes the
  // task's ABI with `tensorMaps` maps (their 64-byte alignment included): what
  // the driver writes into a launch-parameter slot for any checked kernel.
  std::size_t parameterBlockBound(std::size_t tensorMaps) const;

  // Queues `kernel` with the task's ABI (inputs, outputs, scalars, then the
  // kernel's tensor maps) and waits. Throws KernelFailure with the status the
  // failure earns; `who` names the kernel in the message ("candidate", "reference").
  void run(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps, const std::string& who,
           double timeoutSeconds);
  // Queues the launch only (timing); throws KernelFailure if refused. The
  // reference's launches write the candidate's output buffers: where a
  // buffer lies moves a kernel's time (softmax's baseline took 107 us writing
  // the candidate's buffers and 116 us writing buffers of its own on the
  // H100, results/2026-12-07-h100-self-timing-bias.md), so both kernels are
  // timed writing the same ones.
  void enqueue(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps, const std::string& who);
  // Queues a copy of every candidate output into the stash: when the
  // reference's timed launch follows the candidate's, what the candidate
  // wrote is kept, and the next checkTimedLaunch puts it back before judging
  // (the next fillOutputs drops it). No launch runs between the two copies
  // but the reference's and the harness's.
  void stashOutputs();
  // Waits for queued work; throws KernelFailure on a fault or timeout.
  void finish(const std::string& who, double timeoutSeconds);

  std::size_t inputCount() const { return inputs_.size(); }
  CUdeviceptr outputBuffer(std::size_t i) const { return outputs_[i]->data(); }
  const GuardedBuffer& input(std::size_t i) const { return *inputs_[i]; }
  const GuardedBuffer& output(std::size_t i) const { return *outputs_[i]; }
  // "" when the host staging buffers are page-locked; else why they are not.
  const std::string& hostPinningNote() const { return pinning_.note(); }

private:
  void launchWith(const KernelModule& kernel, const LaunchGeometry& g, std::vector<void*>& params,
                  const TensorMaps& maps, const std::string& who);

  // Queues a device copy of each buffer of `from` into the same output's buffer of `to` (data only).
  void queueOutputCopies(const std::vector<std::unique_ptr<GuardedBuffer>>& to,
                         const std::vector<std::unique_ptr<GuardedBuffer>>& from, const char* what);
  // Records the end of `b`'s last page past its size (zero since it was made; `of` names `b`).
  void recordPageEnd(const std::string& of, const DeviceBuffer& b);
  // Record what the harness just wrote in harnessMemory_: the masked copies
  // of the drawn inputs; the masked reference and the oracle's (cleared)
  // buffers; the masked kept outputs.
  void recordDrawnCopies();
  void recordReferenceCopies();
  void recordKeptOutputs();
  // Records the guards of candidate buffer `b` (just written) in guards_.
  void recordGuards(const GuardedBuffer& b);
  // Empty when buffer `b`'s guards hash as recorded; else how many bytes changed, in `verdict`'s words.
  std::string guardDamage(const GuardedBuffer& b, const std::string& verdict) const;
  // Empty when input i's guards are intact; else how many bytes changed.
  std::string inputGuardDamage(std::size_t i) const;
  // Queues the draw of every input with `seed` (from `stress`'s distributions
  // where it names one, else the task's) into the input buffers.
  void queueDraws(std::uint64_t seed, const StressCase* stress);
  // Element `i` of the reference of output `output`, read from its masked device copy.
  double referenceAt(std::size_t output, std::int64_t i) const;
  // "N of M elements of output 'y' still hold the fill ..." after a timed launch
  // filled with `fillBefore`; empty when none does.
  std::string unwrittenSince(std::size_t output, const FillChoice& fillBefore);

  GpuContext& gpu_;
  const HarnessKernels& harness_;
  TaskSpec spec_;
  std::unique_ptr<KernelModule> oracle_;
  std::vector<DeviceSpan> oracleVariables_;
  LaunchGeometry oracleGeometry_;
  std::vector<std::unique_ptr<GuardedBuffer>> inputs_, outputs_, stashedOutputs_, oracleOutputs_;
  bool stashPending_ = false;  // stashOutputs() ran since the last fill: the next check restores it
  std::vector<HostTensor> hostInputs_;
  // Device copies validation compares with, each masked with its own key:
  // the inputs as drawn (inputDamage), the reference (checkOutput) and a
  // launch's outputs (compareWithKeptOutputs).
  std::vector<DeviceBuffer> drawnInputs_, maskedReference_, keptOutputs_;
  // The candidate's input and output guards (checked by name, with a byte
  // count), and the rest of the harness's memory (harnessMemoryDamage).
  HarnessMemoryWatch guards_, harnessMemory_;
  std::uint64_t drawnKey_ = 0, referenceKey_ = 0, keptKey_ = 0;
  std::mt19937_64 keys_{std::random_device{}()};
  // Reused host buffers: two sets of downloaded outputs (downloadOutputs(slot)).
  std::vector<HostTensor> outputSlots_[2];
  // Kernel arguments: device pointers then scalars, and the arrays of their
  // addresses that cuLaunchKernel takes.
  std::vector<CUdeviceptr> candidateArgs_, oracleArgs_;
  std::vector<long long> scalars_;
  std::vector<void*> candidateParams_, oracleParams_;
  // candidateParams_ followed by a kernel's tensor maps, rebuilt for each launch that has some.
  std::vector<void*> launchParams_;
  // Registrations of the host buffers above, all sized once in the
  // constructor and never reallocated. Declared last: unregistered before
  // the buffers are freed.
  HostPinning pinning_;
};

}  // namespace crucible::cuda
