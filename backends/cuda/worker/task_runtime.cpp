// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/task_runtime.h"
#include <cstring>
#include <utility>
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/kernel_parameters.h"
#include "backends/cuda/worker/output_check.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/driver_pages_watch.h"

namespace crucible::cuda {
namespace {

// Element `i` of a double buffer masked by maskedCopy with `key`, from its masked bits.
double unmaskedDouble(std::uint64_t masked, std::uint64_t key, std::uint64_t i) {
  const std::uint64_t bits = masked ^ maskBits(key, i);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace

TaskRuntime::TaskRuntime(GpuContext& gpu, TaskSpec spec, const std::string& oracleCubin, const HarnessKernels& harness)
    : gpu_(gpu), harness_(harness), spec_(std::move(spec)),
      guards_(deviceHasher()), harnessMemory_(deviceHasher()) {
  for (const TensorSpec& t : spec_.inputs) {
    inputs_.push_back(std::make_unique<GuardedBuffer>(t.dtype, elementCount(spec_, t)));
    hostInputs_.emplace_back(t.dtype, elementCount(spec_, t));
    drawnInputs_.push_back(DeviceBuffer::wholePages(inputs_.back()->dataBytes()));
  }
  for (const TensorSpec& t : spec_.outputs) {
    const std::int64_t n = elementCount(spec_, t);
    outputs_.push_back(std::make_unique<GuardedBuffer>(t.dtype, n));
    stashedOutputs_.push_back(std::make_unique<GuardedBuffer>(t.dtype, n));
    oracleOutputs_.push_back(std::make_unique<GuardedBuffer>(DType::F64, n));
    outputSlots_[0].emplace_back(t.dtype, n);  // slot 1 is sized on first use
    maskedReference_.push_back(DeviceBuffer::wholePages(static_cast<std::size_t>(n) * sizeof(double)));
    keptOutputs_.push_back(DeviceBuffer::wholePages(outputs_.back()->dataBytes()));
  }
  // Everything above is in whole pages of its own; what no kernel may write
  // is watched from here on. A region is recorded again only where the
  // harness rewrites all of it (the data of the masked copies, the oracle's
  // cleared outputs): what a kernel left in the rest of a page would
  // otherwise be taken into the new record. Guards and the ends of pages are
  // recorded once, here.
  for (const auto& b : inputs_) recordGuards(*b);
  for (const auto& b : outputs_) recordGuards(*b);
  for (std::size_t i = 0; i < spec_.outputs.size(); ++i) {
    const std::string& name = spec_.outputs[i].name;
    for (const auto& [buffer, whose] : {std::pair{stashedOutputs_[i].get(), "the stash of the candidate's output '"},
                                        std::pair{oracleOutputs_[i].get(), "the oracle's buffer for output '"}}) {
      harnessMemory_.record(std::string("guard before ") + whose + name + "'", buffer->leadingGuard(),
                            GuardedBuffer::kGuardBytes);
      harnessMemory_.record(std::string("guard after ") + whose + name + "'", buffer->trailingGuard(),
                            buffer->trailingGuardBytes());
    }
    recordPageEnd("masked reference of output '" + name + "'", maskedReference_[i]);
    recordPageEnd("kept copy of output '" + name + "'", keptOutputs_[i]);
  }
  for (std::size_t i = 0; i < spec_.inputs.size(); ++i)
    recordPageEnd("masked copy of input '" + spec_.inputs[i].name + "'", drawnInputs_[i]);
  recordDrawnCopies();
  recordReferenceCopies();
  recordKeptOutputs();
  harnessMemory_.record("unused end of the page of the harness's result words", harness_.resultPageTail(),
                        harness_.resultPageTailBytes());
  // Every host buffer a trial copies through, at its final size: see
  // host_pinning.h. Validation compares outputs on the device; only the
  // timed checks' failure path downloads them, into slot 0.
  for (auto* group : {&hostInputs_, &outputSlots_[0]})
    for (HostTensor& t : *group) pinning_.pin(t.bytes.data(), t.byteSize());
  for (const std::string& s : spec_.scalars) scalars_.push_back(evalExpression(s, spec_.axes));

  for (auto& b : inputs_) candidateArgs_.push_back(b->data());
  oracleArgs_ = candidateArgs_;
  for (auto& b : outputs_) candidateArgs_.push_back(b->data());
  for (auto& b : oracleOutputs_) oracleArgs_.push_back(b->data());
  for (auto& a : candidateArgs_) candidateParams_.push_back(&a);
  for (auto& a : oracleArgs_) oracleParams_.push_back(&a);
  for (auto& s : scalars_) {
    candidateParams_.push_back(&s);
    oracleParams_.push_back(&s);
  }

  try {
    oracle_ = std::make_unique<KernelModule>(oracleCubin, spec_.oracle.launch.entry);
    oracleGeometry_ = resolveGeometry(spec_.oracle.launch, spec_.axes, gpu_.info().smCount);
    oracle_->prepare(oracleGeometry_, gpu_.info());
    checkParameters(*oracle_, TensorMaps{}, "the task's oracle");
    oracleVariables_ = moduleVariableSpans(oracle_->module(), oracleCubin, /*writableOnly=*/true);
  } catch (const KernelFailure& e) {
    throw KernelFailure(CandidateStatus::Invalid, std::string("the task's oracle cannot run: ") + e.what());
  }
}

void TaskRuntime::randomizeInputs(std::uint64_t seed, const StressCase* stress) {
  // Drawn on the device (host_tensor.h's fillRandom took ~0.1 s per 64M
  // normals on 16 cores); the host copy is for the all-zero check only
  // (inputDamage compares with the masked device copy below).
  queueDraws(seed, stress);
  check(driver().cuStreamSynchronize(gpu_.stream()), "drawing inputs");
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    inputs_[i]->download(hostInputs_[i]);
    if (hostInputs_[i].count > 0 && !anyNonZero(hostInputs_[i]))
      throw std::invalid_argument("input '" + spec_.inputs[i].name +
                                  "': the distribution produced only zeros, which would hide unwritten outputs");
    inputs_[i]->writeGuards();
    recordGuards(*inputs_[i]);
  }
  // The copy inputDamage compares with, masked: a kernel that wrote an input
  // cannot make the copy agree without the key.
  drawnKey_ = keys_();
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    harness_.maskedCopy(drawnInputs_[i].get(), inputs_[i]->data(), static_cast<int>(sizeOf(inputs_[i]->dtype())),
                        inputs_[i]->count(), drawnKey_, gpu_.stream());
  check(driver().cuStreamSynchronize(gpu_.stream()), "keeping a copy of the inputs");
  recordDrawnCopies();
}

void TaskRuntime::computeReference(double timeoutSeconds) {
  for (auto& b : oracleOutputs_) b->fill({std::byte{0xFF}});  // 0xFF.. is a NaN in double
  try {
    launchWith(*oracle_, oracleGeometry_, oracleParams_, TensorMaps{}, "the task's oracle");  // never any maps
    finish("the task's oracle", timeoutSeconds);
  } catch (const KernelFailure& e) {
    throw KernelFailure(e.status() == CandidateStatus::Faulted || e.status() == CandidateStatus::TimedOut
                            ? e.status()
                            : CandidateStatus::Invalid,
                        std::string(e.what()) + " (a task bug, not the candidate's)");
  }
  // The device copy checkOutput compares with, masked with a fresh key. The
  // reference never goes to the host: checkOutput reads the two elements it
  // names from this copy, and the oracle's own check runs on the device (a
  // download of 256 MiB of doubles was most of every oracle check).
  referenceKey_ = keys_();
  for (std::size_t i = 0; i < oracleOutputs_.size(); ++i)
    harness_.maskedCopy(maskedReference_[i].get(), oracleOutputs_[i]->data(), sizeof(double), oracleOutputs_[i]->count(),
                        referenceKey_, gpu_.stream());
  std::string bad;
  for (std::size_t i = 0; i < oracleOutputs_.size() && bad.empty(); ++i)
    bad = describeBadReference(spec_.outputs[i].name,
                               harness_.countNonFinite(oracleOutputs_[i]->data(), oracleOutputs_[i]->count(), gpu_.stream()),
                               oracleOutputs_[i]->count());
  // The results are cleared before any candidate runs again: a kernel that
  // searched device memory for the oracle's doubles finds zeros.
  for (auto& b : oracleOutputs_) b->fill({std::byte{0}});
  recordReferenceCopies();
  if (!bad.empty()) throw KernelFailure(CandidateStatus::Invalid, bad);
}

double TaskRuntime::referenceAt(std::size_t output, std::int64_t i) const {
  std::uint64_t masked = 0;
  check(driver().cuMemcpyDtoH(&masked, maskedReference_[output].get() + static_cast<std::size_t>(i) * sizeof masked,
                              sizeof masked),
        "reading a reference element");
  return unmaskedDouble(masked, referenceKey_, static_cast<std::uint64_t>(i));
}

std::vector<double> TaskRuntime::referenceForTests(std::size_t output) const {
  std::vector<std::uint64_t> masked(static_cast<std::size_t>(oracleOutputs_[output]->count()));
  check(driver().cuMemcpyDtoH(masked.data(), maskedReference_[output].get(), masked.size() * sizeof(std::uint64_t)),
        "reading the reference");
  std::vector<double> ref(masked.size());
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = unmaskedDouble(masked[i], referenceKey_, i);
  return ref;
}

bool TaskRuntime::oracleOutputsCleared() const {
  for (const auto& b : oracleOutputs_) {
    std::vector<std::byte> bytes(b->dataBytes());
    b->download(bytes.data(), bytes.size());
    for (std::byte x : bytes)
      if (x != std::byte{0}) return false;
  }
  return true;
}

void TaskRuntime::fillOutputs(const FillChoice& fill, bool rewriteGuards) {
  for (auto& b : outputs_) {
    if (rewriteGuards) {
      b->writeGuards();
      recordGuards(*b);
    }
    harness_.fill(b->data(), b->dtype(), b->count(), fill, gpu_.stream());
  }
  for (auto& b : stashedOutputs_) harness_.fill(b->data(), b->dtype(), b->count(), fill, gpu_.stream());
  stashPending_ = false;  // the outputs are the fill now, and so is the stash
}

void TaskRuntime::queueDraws(std::uint64_t seed, const StressCase* stress) {
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    harness_.draw(inputs_[i]->data(), inputs_[i]->dtype(), inputs_[i]->count(), distributionOf(spec_, i, stress), seed,
                  i, gpu_.stream());
}

void TaskRuntime::drawTimedInputs(std::uint64_t seed) { queueDraws(seed, nullptr); }

HarnessMemoryWatch::Hasher TaskRuntime::deviceHasher() const {
  return [this](CUdeviceptr where, std::size_t bytes) { return harness_.hashBytes(where, bytes, gpu_.stream()); };
}

void TaskRuntime::recordPageEnd(const std::string& of, const DeviceBuffer& b) {
  harnessMemory_.record("unused end of the page of the " + of, b.get() + b.size(), b.extent() - b.size());
}

void TaskRuntime::recordDrawnCopies() {
  for (std::size_t i = 0; i < drawnInputs_.size(); ++i)
    harnessMemory_.record("masked copy of input '" + spec_.inputs[i].name + "'", drawnInputs_[i].get(),
                          drawnInputs_[i].size());
}

void TaskRuntime::recordReferenceCopies() {
  for (std::size_t i = 0; i < spec_.outputs.size(); ++i) {
    const std::string& name = spec_.outputs[i].name;
    harnessMemory_.record("masked reference of output '" + name + "'", maskedReference_[i].get(),
                          maskedReference_[i].size());
    harnessMemory_.record("oracle's buffer for output '" + name + "'", oracleOutputs_[i]->data(),
                          oracleOutputs_[i]->dataBytes());
  }
}

void TaskRuntime::recordKeptOutputs() {
  for (std::size_t i = 0; i < keptOutputs_.size(); ++i)
    harnessMemory_.record("kept copy of output '" + spec_.outputs[i].name + "'", keptOutputs_[i].get(),
                          keptOutputs_[i].size());
}

void TaskRuntime::recordGuards(const GuardedBuffer& b) {
  guards_.record("leading guard", b.leadingGuard(), GuardedBuffer::kGuardBytes);
  guards_.record("trailing guard", b.trailingGuard(), b.trailingGuardBytes());
}

std::string TaskRuntime::guardDamage(const GuardedBuffer& b, const std::string& verdict) const {
  if (guards_.unchanged(b.leadingGuard()) && guards_.unchanged(b.trailingGuard())) return {};
  return verdict + ": " + std::to_string(b.damagedGuardBytes()) + " bytes of the guard regions around it changed";
}

void TaskRuntime::watchHarnessMemory(std::string what, CUdeviceptr where, std::size_t bytes) {
  harnessMemory_.record(std::move(what), where, bytes);
}

std::string TaskRuntime::harnessMemoryDamage() const {
  const std::string what = harnessMemory_.firstChange();
  if (what.empty()) return {};
  return "a kernel wrote into the harness's own memory (the " + what + "): a kernel may write only its outputs";
}

std::string TaskRuntime::unwrittenSince(std::size_t output, const FillChoice& fillBefore) {
  const HostTensor& got = downloadOutputs(0)[output];
  const std::size_t width = sizeOf(got.dtype);
  const std::vector<std::byte> poison = poisonPattern(got.dtype, fillBefore.poisonIndex());
  std::int64_t stillFill = 0, first = -1;
  for (std::int64_t i = 0; i < got.count; ++i) {
    const std::byte* e = got.bytes.data() + static_cast<std::size_t>(i) * width;
    bool same;
    if (fillBefore.isPoison()) {
      same = std::memcmp(e, poison.data(), width) == 0;
    } else {
      const std::uint64_t bits = randomFiniteBits(got.dtype, fillBefore.seed, static_cast<std::uint64_t>(i));
      same = std::memcmp(e, &bits, width) == 0;
    }
    if (same && first < 0) first = i;
    stillFill += same;
  }
  if (stillFill == 0) return {};
  return std::to_string(stillFill) + " of " + std::to_string(got.count) + " elements of output '" +
         spec_.outputs[output].name + "' still hold the " + fillBefore.describe() +
         " written before the launch, first at index " + std::to_string(first) + " (the kernel did not write them)";
}

std::string TaskRuntime::checkTimedLaunch(const FillChoice& fillBefore, std::uint64_t inputSeed,
                                          double timeoutSeconds) {
  // The reference's launch after the candidate's wrote over its outputs: the candidate's are put back.
  if (std::exchange(stashPending_, false)) {
    queueOutputCopies(outputs_, stashedOutputs_, "restoring the candidate's stashed outputs");
    check(driver().cuStreamSynchronize(gpu_.stream()), "restoring the candidate's stashed outputs");
  }
  if (std::string damage = outputGuardDamage(); !damage.empty()) return damage;
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    if (std::string damage = inputGuardDamage(i); !damage.empty()) return damage;
  // The launch's inputs again (the reference's draw may have replaced them;
  // a change the kernel made to them reaches no other launch, each draws its
  // own, and validation refuses it), and the oracle's outputs for them.
  drawTimedInputs(inputSeed);
  computeReference(timeoutSeconds);
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    const OutputCheck c = checkOutput(i, toleranceOf(spec_, spec_.outputs[i].name), fillBefore.poisonIndex());
    if (c.reason.empty()) continue;
    if (std::string unwritten = unwrittenSince(i, fillBefore); !unwritten.empty()) return unwritten;
    return c.reason;
  }
  return {};
}

OutputCheck TaskRuntime::checkOutput(std::size_t output, const Tolerance& tol, int poison) const {
  const GuardedBuffer& b = *outputs_[output];
  const OutputTally tally = harness_.tallyOutput(b.data(), b.dtype(), b.count(), maskedReference_[output].get(),
                                                 referenceKey_, tol, poisonPattern(b.dtype(), poison), gpu_.stream());
  // The elements the verdict names, one at a time from the device.
  auto gotAt = [&](std::int64_t i) {
    HostTensor one(b.dtype(), 1);
    check(driver().cuMemcpyDtoH(one.bytes.data(), b.data() + static_cast<std::size_t>(i) * one.byteSize(),
                                one.byteSize()),
          "reading an output element");
    return one.valueAt(0);
  };
  auto wantAt = [&](std::int64_t i) { return referenceAt(output, i); };
  return describeOutputCheck(spec_.outputs[output].name, tally, tol, gotAt, wantAt);
}

void TaskRuntime::keepOutputs() {
  keptKey_ = keys_();
  for (std::size_t i = 0; i < outputs_.size(); ++i)
    harness_.maskedCopy(keptOutputs_[i].get(), outputs_[i]->data(), static_cast<int>(sizeOf(outputs_[i]->dtype())),
                        outputs_[i]->count(), keptKey_, gpu_.stream());
  check(driver().cuStreamSynchronize(gpu_.stream()), "keeping outputs");
  recordKeptOutputs();
}

BitwiseDiff TaskRuntime::compareWithKeptOutputs(std::size_t output) const {
  const GuardedBuffer& b = *outputs_[output];
  return harness_.compareElements(b.data(), keptOutputs_[output].get(), static_cast<int>(sizeOf(b.dtype())), b.count(),
                                  /*bMasked=*/true, keptKey_, gpu_.stream());
}

std::vector<HostTensor> TaskRuntime::downloadOutputs() const {
  std::vector<HostTensor> out(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) outputs_[i]->download(out[i]);
  return out;
}

const std::vector<HostTensor>& TaskRuntime::downloadOutputs(int slot) {
  std::vector<HostTensor>& out = outputSlots_[slot == 0 ? 0 : 1];
  out.resize(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) outputs_[i]->download(out[i]);
  return out;
}

std::string TaskRuntime::inputDamage() const {
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    const GuardedBuffer& now = *inputs_[i];
    const BitwiseDiff d = harness_.compareElements(now.data(), drawnInputs_[i].get(), static_cast<int>(sizeOf(now.dtype())),
                                                   now.count(), /*bMasked=*/true, drawnKey_, gpu_.stream());
    if (d.differing > 0)
      return "modified input '" + spec_.inputs[i].name + "': " + std::to_string(d.differing) + " of " +
             std::to_string(now.count()) + " elements changed, first at index " + std::to_string(d.first) +
             " (inputs are read-only)";
    if (std::string damage = inputGuardDamage(i); !damage.empty()) return damage;
  }
  return {};
}

std::string TaskRuntime::inputGuardDamage(std::size_t i) const {
  return guardDamage(*inputs_[i], "wrote out of bounds around input '" + spec_.inputs[i].name + "'");
}

std::string TaskRuntime::outputGuardDamage() const {
  for (std::size_t i = 0; i < outputs_.size(); ++i)
    if (std::string damage = guardDamage(*outputs_[i], "wrote out of bounds of output '" + spec_.outputs[i].name + "'");
        !damage.empty())
      return damage;
  return {};
}

// TMA needs 16-byte aligned global addresses: cuMemAlloc gives 256, and the
// guard in front of the data keeps it.
static_assert(GuardedBuffer::kGuardBytes % 256 == 0, "a tensor's data must keep its allocation's alignment");

TensorMaps TaskRuntime::tensorMaps(const std::vector<TensorMapRule>& rules, const std::string& who) const {
  auto bufferOf = [&](const std::string& tensor) -> CUdeviceptr {
    for (std::size_t i = 0; i < spec_.inputs.size(); ++i)
      if (spec_.inputs[i].name == tensor) return inputs_[i]->data();
    for (std::size_t i = 0; i < spec_.outputs.size(); ++i)
      if (spec_.outputs[i].name == tensor) return outputs_[i]->data();
    throw KernelFailure(CandidateStatus::ResourceError, who + ": no buffer for tensor '" + tensor + "'");
  };
  return TensorMaps(spec_, rules, bufferOf, who);
}

void TaskRuntime::checkParameters(const KernelModule& kernel, const TensorMaps& maps, const std::string& who) const {
  if (std::string problem = parameterProblem(kernel.function(), candidateParams_.size(), maps.size(),
                                             who + " '" + kernel.entry() + "'");
      !problem.empty())
    throw KernelFailure(CandidateStatus::Invalid, problem);
}

std::size_t TaskRuntime::parameterBlockBound(std::size_t tensorMaps) const {
  std::size_t bytes = 0;
  for (std::size_t b : abiParameterSizes(candidateParams_.size(), tensorMaps)) bytes += b;
  return bytes + tensorMaps * (alignof(CUtensorMap) - 1);
}

void TaskRuntime::launchWith(const KernelModule& kernel, const LaunchGeometry& g, std::vector<void*>& params,
                             const TensorMaps& maps, const std::string& who) {
  void** args = params.data();
  if (!maps.empty()) {
    launchParams_.assign(params.begin(), params.end());
    maps.appendParameters(launchParams_);
    args = launchParams_.data();
  }
  CUresult rc = kernel.launch(g, gpu_.stream(), args);
  if (rc == CUDA_SUCCESS) return;
  // A refused launch leaves the context usable; an earlier kernel's sticky
  // fault reported here does not.
  const bool usable = gpu_.stillUsable();
  throw KernelFailure(usable ? CandidateStatus::ResourceError : statusForError(rc),
                      explainError("launching " + who + " '" + kernel.entry() + "' with " + g.describe(), rc));
}

void TaskRuntime::enqueue(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps,
                          const std::string& who) {
  launchWith(kernel, g, candidateParams_, maps, who);
}

void TaskRuntime::stashOutputs() {
  queueOutputCopies(stashedOutputs_, outputs_, "stashing the candidate's outputs");
  stashPending_ = true;
}

void TaskRuntime::queueOutputCopies(const std::vector<std::unique_ptr<GuardedBuffer>>& to,
                                    const std::vector<std::unique_ptr<GuardedBuffer>>& from, const char* what) {
  for (std::size_t i = 0; i < from.size(); ++i)
    check(driver().cuMemcpyDtoDAsync(to[i]->data(), from[i]->data(), from[i]->dataBytes(), gpu_.stream()), what);
}

void TaskRuntime::run(const KernelModule& kernel, const LaunchGeometry& g, const TensorMaps& maps,
                      const std::string& who, double timeoutSeconds) {
  enqueue(kernel, g, maps, who);
  finish(who, timeoutSeconds);
}

void TaskRuntime::finish(const std::string& who, double timeoutSeconds) {
  WaitResult w = gpu_.wait(timeoutSeconds);
  if (w.outcome == WaitOutcome::Done) return;
  if (w.outcome == WaitOutcome::TimedOut)
    throw KernelFailure(CandidateStatus::TimedOut, who + " was still running after " +
                                                       std::to_string(static_cast<int>(timeoutSeconds)) +
                                                       " s (an endless loop or a deadlock); the worker restarts to stop it");
  const bool usable = gpu_.stillUsable();
  const CandidateStatus s = statusForError(w.error);
  if (s == CandidateStatus::Faulted) gpu_.markLost("a kernel faulted: " + describe(w.error));
  throw KernelFailure(usable && s != CandidateStatus::Faulted ? CandidateStatus::ResourceError : s,
                      explainError(who + " failed while running", w.error));
}

}  // namespace crucible::cuda
