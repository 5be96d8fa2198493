// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/cuda_evaluator.h"
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/ceilings.h"
#include "backends/cuda/worker/cupti_profiler.h"
#include "backends/cuda/worker/device_output.h"
#include "backends/cuda/worker/driver_api.h"
#include "backends/cuda/worker/kernel_failure.h"
#include "backends/cuda/worker/kernel_module.h"
#include "backends/cuda/worker/launch_plan.h"
#include "backends/cuda/worker/module_globals_reset.h"
#include "backends/cuda/worker/parameter_ring.h"
#include "backends/cuda/worker/harness_kernels.h"
#include "backends/cuda/worker/leftover_scrub.h"
#include "backends/cuda/worker/task_runtime.h"
#include "backends/cuda/worker/validation.h"
#include "core/task/task_spec.h"

namespace crucible::cuda {
namespace {

// Mixed into a stress case's seed: its inputs differ from every trial's.
constexpr std::uint64_t kStressSeed = 0x57E55CA5E5ull;

// Launches that learn a stream's parameter ring: a ring of up to 16 slots
// (the H100 with driver 580 has 8) shows its period twice.
constexpr int kRingProbeLaunches = 32;
// What the driver's own launches on a stream (async memsets and copies) write
// past a slot's header, at most: 0x38 bytes on the H100 (probe_param_page),
// with room to spare.
constexpr std::size_t kDriverWorkParameterBytes = 512;

// "1.23 s": the wall time since `start`, for the evaluation's account of where its time went.
std::string secondsSince(std::chrono::steady_clock::time_point start) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return text;
}

std::string versionString(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// What a timed candidate launch, and a profiled one, starts from: inputs
// drawn afresh, its module variables as loaded, a fresh output fill (queued
// in this order; the leftover scrub and the L2 flush come after). Returns
// the inputs' seed and the fill, which a checked launch is judged against.
struct FreshLaunchState {
  std::uint64_t inputSeed = 0;
  FillChoice fill;
};
FreshLaunchState queueFreshLaunchState(TaskRuntime& task, const ModuleGlobalsReset& globals, LaunchPlan& plan) {
  FreshLaunchState state;
  state.inputSeed = plan.nextInputSeed();
  task.drawTimedInputs(state.inputSeed);
  globals.restore(task.stream());
  state.fill = plan.nextFill();
  task.fillOutputs(state.fill, /*rewriteGuards=*/false);
  return state;
}

// A candidate's launch rule may leave the entry to the task's default.
LaunchRule withEntry(LaunchRule rule, const TaskSpec& spec) {
  if (rule.entry.empty()) rule.entry = spec.entry;
  return rule;
}

std::vector<std::uint64_t> seedsFor(const EvaluationRequest& r, const CudaEvaluatorOptions& o) {
  std::vector<std::uint64_t> seeds = r.seeds;
  if (seeds.empty())
    for (int i = 1; i <= o.defaultSeeds; ++i) seeds.push_back(static_cast<std::uint64_t>(i));
  if (r.extended) {
    const std::uint64_t base = seeds.empty() ? 0 : seeds.back();
    for (int i = 1; i <= o.extendedExtraSeeds; ++i) seeds.push_back(base * 1000003ull + 7919ull * static_cast<std::uint64_t>(i));
  }
  return seeds;
}

}  // namespace

std::string TimedChecks::describe() const {
  return std::to_string(timedLaunches) + " timed launches, each on inputs drawn afresh, " + std::to_string(checked) +
         " checked against the oracle";
}

CudaEvaluator::CudaEvaluator(std::shared_ptr<Compiler> compiler, CudaEvaluatorOptions options)
    : compiler_(std::move(compiler)), options_(options), gpu_(options.deviceOrdinal), clocks_(gpu_.info().pciBusId) {
  if (!compiler_) throw std::invalid_argument("CudaEvaluator needs a compiler for oracles and ceiling kernels");
}

CudaEvaluator::~CudaEvaluator() = default;

Fingerprint CudaEvaluator::device() const {
  Fingerprint f;
  const DeviceInfo& d = gpu_.info();
  f.gpu = d.name;
  f.arch = d.arch();
  f.smCount = d.smCount;  // GPUs of one name with different SM counts (binned parts) are different hardware
  f.driver = clocks_.driverVersion().empty() ? "CUDA " + versionString(d.driverCudaVersion) + " driver"
                                             : clocks_.driverVersion();
  f.cudaRuntime = versionString(CUDA_VERSION);  // the toolkit the worker was built with
  f.nvrtc = NvrtcCompiler::nvrtcVersion();
  // Current clocks when NVML answers, else the device's nominal peak.
  f.smClockMHz = clocks_.available() ? clocks_.smClockMHz() : d.clockRateKHz / 1000.0;
  f.memClockMHz = clocks_.available() ? clocks_.memClockMHz() : d.memClockRateKHz / 1000.0;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) f.host = host;
  return f;
}

TaskRuntime& CudaEvaluator::runtimeFor(const Task& task) {
  if (runtime_ && runtimeKey_ == task.specJson) return *runtime_;
  runtime_.reset();  // free the previous task's buffers first
  runtimeKey_.clear();
  TaskSpec spec = parseTaskSpec(task.specJson);
  CompileRequest req;
  req.source = spec.oracle.source;
  req.entry = spec.oracle.launch.entry;
  req.arch = gpu_.info().arch();
  CompileResult oracle = compiler_->compile(req);
  if (!oracle.report.ok) {
    std::string why = "the task's oracle does not compile";
    for (const auto& d : oracle.report.diagnostics)
      if (d.severity == "error") {
        why += ": line " + std::to_string(d.line) + ": " + d.message;
        break;
      }
    throw KernelFailure(CandidateStatus::Invalid, why + " (a task bug, not the candidate's)");
  }
  if (!harness_) harness_ = std::make_unique<HarnessKernels>(*compiler_, gpu_.info().arch());
  if (!flusher_) flusher_ = std::make_unique<L2Flusher>(gpu_.info(), *harness_);
  runtime_ = std::make_unique<TaskRuntime>(gpu_, std::move(spec), oracle.cubin, *harness_);
  runtime_->watchHarnessMemory("unused end of the page of the L2 flush's flag", flusher_->flagPageTail(),
                               flusher_->flagPageTailBytes());
  runtimeKey_ = task.specJson;
  return *runtime_;
}

Evaluation CudaEvaluator::evaluate(const EvaluationRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  Evaluation ev;
  if (gpu_.lost()) {
    ev.status = CandidateStatus::Faulted;
    ev.detail = "this worker's CUDA context is unusable (" + gpu_.lostReason() + "); the worker must restart";
    return ev;
  }
  if (!request.task) {
    ev.status = CandidateStatus::Invalid;
    ev.detail = "evaluation request without a task";
    return ev;
  }
  try {
    gpu_.makeCurrent();
    ev = evaluateOnGpu(request);
  } catch (const KernelFailure& e) {
    ev.status = e.status();
    ev.detail = e.what();
  } catch (const TaskSpecError& e) {
    ev.status = CandidateStatus::Invalid;
    ev.detail = std::string("task spec: ") + e.what();
  } catch (const DriverError& e) {
    // A driver call outside a launch failed: after a sticky error every call
    // does. Report it, and let the worker restart if the context is gone.
    gpu_.stillUsable();
    ev.status = gpu_.lost() ? CandidateStatus::Faulted : CandidateStatus::ResourceError;
    ev.detail = e.what();
  } catch (const std::exception& e) {
    ev.status = CandidateStatus::Invalid;
    ev.detail = e.what();
  }
  restoreContextLimits(ev);
  if (deviceOutput_)
    if (DeviceOutput printed = deviceOutput_->take(); printed.bytes > 0) ev.detail += "; " + printed.describe();
  ev.gpuSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (gpu_.lost() && ev.detail.find("worker") == std::string::npos)
    ev.detail += " [the worker restarts: its CUDA context is unusable]";
  return ev;
}

Evaluation CudaEvaluator::evaluateOnGpu(const EvaluationRequest& request) {
  Evaluation ev;
  TaskRuntime& task = runtimeFor(*request.task);
  // Wall seconds of validation (everything but the timing: modules, trials)
  // and of the timing, typed for the engine's phase account (phase_times.h).
  const auto start = std::chrono::steady_clock::now();
  validateAndTime(request, task, ev);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ev.validateSeconds = std::max(0.0, seconds - ev.timeSeconds);
  return ev;
}

void CudaEvaluator::validateAndTime(const EvaluationRequest& request, TaskRuntime& task, Evaluation& ev) {
  const TaskSpec& spec = task.spec();
  const LaunchRule rule = withEntry(request.candidate.launch, spec);
  KernelModule candidate(request.candidate.cubin, rule.entry);
  const LaunchGeometry geometry = resolveGeometry(rule, spec.axes, gpu_.info().smCount);
  candidate.prepare(geometry, gpu_.info(), options_.carveout);
  // Encoded once: they point at the runtime's buffers, the same for every launch.
  const TensorMaps candidateMaps = task.tensorMaps(rule.tensorMaps, "the candidate");
  task.checkParameters(candidate, candidateMaps, "the candidate");
  refuseDeviceHeap(request.candidate.cubin);
  const ModuleGlobalsReset globals(candidate.module(), request.candidate.cubin);
  const LeftoverScrub leftovers(*harness_, gpu_.info(), largestFrameBytes({&candidate}));
  // The driver's launch-parameter slots of the stream every launch uses
  // (parameter_ring.h), learned afresh for each candidate, and the legacy
  // stream's: its ring lay in the page before (H100), as quiet as the
  // stream's own and as reachable, and the driver's own work there
  // (synchronous memsets) writes its slots' heads.
  const ParameterRing ring = ringFrom(harness_->parameterAddresses(kRingProbeLaunches, task.stream()));
  const ParameterRing legacyRing = ringFrom(harness_->parameterAddresses(kRingProbeLaunches, CU_STREAM_LEGACY));
  // A slot's head: the largest parameter block any launch on the stream
  // writes (a checked kernel's is within the task's ABI bound).
  const std::size_t headBytes =
      std::max({harness_->largestParameterBlock(), kDriverWorkParameterBytes,
                task.parameterBlockBound(std::max(candidateMaps.size(), request.reference.launch.tensorMaps.size()))});
  // Recorded straight after the load, before any launch: the driver's memory
  // around every variable whose address the candidate can take and around
  // its stream's parameter slots, less what its launches and the oracle's
  // may change. Its `__constant__` data is among the anchors and stays
  // watched itself: a kernel can write it through a generic address
  // (cvta.const), the write outlives the launch, and its pages read from
  // their start (probe_module_constant on the H100,
  // tests/gpu/adversarial/results/2026-12-06-h100-module-pages.md).
  std::vector<DeviceSpan> mayChange = globals.spans();  // found once, by ModuleGlobalsReset
  mayChange.insert(mayChange.end(), task.oracleVariables().begin(), task.oracleVariables().end());
  for (const ParameterRing* r : {&ring, &legacyRing})
    for (const DeviceSpan& head : slotHeads(*r, headBytes)) mayChange.push_back(head);
  DriverPagesWatch pages(
      task.deviceHasher(), devicePageBytes(),
      {{"the kernel's module variables",
        moduleVariableSpans(candidate.module(), request.candidate.cubin, /*writableOnly=*/false)},
       {"the kernel's launch parameters", slotAnchors(ring)},
       {"the legacy stream's launch parameters", slotAnchors(legacyRing)}},
      std::move(mayChange));
  const CandidateUnderTest under{candidate, geometry, candidateMaps, globals, leftovers, pages};

  const std::vector<std::uint64_t> seeds = seedsFor(request, options_);
  LaunchPlan plan(unpredictableSeed(seeds.empty() ? 0 : seeds.front()));
  ValidationCosts costs;
  // Returns false (with ev filled) when trial i fails.
  auto trial = [&](std::size_t i) {
    const std::uint64_t seed = seeds[i];
    try {
      ev.trials.push_back(runValidationTrial(task, under, plan, seed, options_.launchTimeoutSeconds, /*followsTrial=*/i > 0,
                                             /*mustRerandomise=*/i + 1 == seeds.size(), costs));
    } catch (const KernelFailure& e) {
      ValidationTrial t;
      t.seed = seed;
      t.reason = e.what();
      ev.trials.push_back(t);
      ev.status = e.status();
      ev.detail = "seed " + std::to_string(seed) + ": " + e.what();
      return false;
    }
    if (!ev.trials.back().passed) {
      ev.status = CandidateStatus::Invalid;
      ev.detail = "seed " + std::to_string(seed) + ": " + ev.trials.back().reason;
      return false;
    }
    return true;
  };
  auto stressTrial = [&](std::size_t k) {
    const StressCase& stress = spec.stress[k];
    const std::uint64_t seed = (seeds.empty() ? 0 : seeds.front()) * 0x9E3779B97F4A7C15ull + kStressSeed + k;
    try {
      ev.trials.push_back(runStressTrial(task, under, plan, stress, seed, options_.launchTimeoutSeconds, costs));
    } catch (const KernelFailure& e) {
      ValidationTrial t;
      t.seed = seed;
      t.reason = "stress case '" + stress.name + "': " + e.what();
      ev.trials.push_back(t);
      ev.status = e.status();
      ev.detail = t.reason;
      return false;
    }
    if (!ev.trials.back().passed) {
      ev.status = CandidateStatus::Invalid;
      ev.detail = ev.trials.back().reason;
      return false;
    }
    return true;
  };
  // The last trial runs after timing when there is timing and more than one
  // trial: validation launches come before and after the timed ones, so
  // neither the count nor the order of launches tells a kernel which are
  // checked (and timed launches are checked too).
  const bool lastAfterTiming = request.time && seeds.size() >= 2;
  const std::size_t before = lastAfterTiming ? seeds.size() - 1 : seeds.size();
  for (std::size_t i = 0; i < before; ++i)
    if (!trial(i)) return;
  // The task's stress cases: one launch each on inputs far from the usual
  // ones, before timing (they are not timed; the timed launches draw their
  // inputs from the task's usual distributions).
  for (std::size_t k = 0; k < spec.stress.size(); ++k)
    if (!stressTrial(k)) return;

  std::string timingNote;
  if (request.time) {
    const auto timingStart = std::chrono::steady_clock::now();
    TimedChecks checks;
    ev.timing = timeCandidate(request, task, under, plan, checks);
    ev.timeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - timingStart).count();
    timingNote = ", timing " + secondsSince(timingStart) + " (" + checks.describe() + ")";
  }
  if (lastAfterTiming && !trial(seeds.size() - 1)) {
    ev.timing.reset();
    return;
  }
  ev.status = CandidateStatus::Valid;
  ev.detail = std::to_string(seeds.size()) + " validation trial(s) passed (" + geometry.describe() + ")";
  if (!spec.stress.empty()) ev.detail += ", and " + std::to_string(spec.stress.size()) + " stress case(s)";
  if (globals.count() > 0)
    ev.detail += "; " + std::to_string(globals.count()) + " module variable(s) reset before every launch";
  if (!ring.unknown.empty()) ev.detail += "; the driver's launch-parameter memory is not watched: " + ring.unknown;
  if (!legacyRing.unknown.empty())
    ev.detail += "; the legacy stream's launch-parameter memory is not watched: " + legacyRing.unknown;
  if (request.extended) ev.detail += "; extended validation: more seeds (the sanitizers run in their own process)";
  ev.detail += "; validation took " + costs.describe() + timingNote;
  if (!task.hostPinningNote().empty()) ev.detail += "; " + task.hostPinningNote();
  if (request.time && !clocks_.available()) ev.detail += "; SM clock unknown (" + clocks_.unavailableReason() + ")";
}

Timing CudaEvaluator::timeCandidate(const EvaluationRequest& request, TaskRuntime& task,
                                    const CandidateUnderTest& candidate, LaunchPlan& plan, TimedChecks& checks) {
  const TaskSpec& spec = task.spec();
  // The reference writes the candidate's output buffers, as the candidate does (TaskRuntime::enqueue says why).
  std::unique_ptr<KernelModule> reference;
  LaunchGeometry refGeometry;
  TensorMaps referenceMaps;  // a sealed kernel used as the reference may take tensor maps too
  if (!request.reference.cubin.empty()) {
    const LaunchRule refRule = withEntry(request.reference.launch, spec);
    // Loading the reference writes its variables, perhaps beside the
    // candidate's: checked just before, recorded again just after. (Not the
    // flush's flag: it is reset below, and may hold an earlier evaluation's.)
    if (std::string damage = candidate.pages.damage(); !damage.empty())
      throw KernelFailure(CandidateStatus::Invalid, damage);
    try {
      reference = std::make_unique<KernelModule>(request.reference.cubin, refRule.entry);
      candidate.pages.excludeAndRecord(
          moduleVariableSpans(reference->module(), request.reference.cubin, /*writableOnly=*/false));
      refGeometry = resolveGeometry(refRule, spec.axes, gpu_.info().smCount);
      reference->prepare(refGeometry, gpu_.info(), options_.carveout);
      referenceMaps = task.tensorMaps(refRule.tensorMaps, "the reference");
      task.checkParameters(*reference, referenceMaps, "the reference");
    } catch (const KernelFailure& e) {
      throw KernelFailure(CandidateStatus::ResourceError,
                          std::string("the candidate is correct, but the reference cannot run: ") + e.what());
    }
  }
  const LeftoverScrub leftovers(*harness_, gpu_.info(), largestFrameBytes({&candidate.kernel, reference.get()}));
  TimingHooks hooks;
  hooks.beforeEachLaunch = [&] { leftovers.queue(task.stream()); };
  FreshLaunchState latest;  // the inputs' seed and the fill of the latest candidate launch
  // Fresh inputs before every launch of either kernel, warm-up ones too: nothing tells them apart.
  hooks.beforeReference = [&] { task.drawTimedInputs(plan.nextInputSeed()); };
  hooks.beforeCandidate = [&](int) { latest = queueFreshLaunchState(task, candidate.globals, plan); };
  // The reference writes the candidate's outputs (task_runtime.h, enqueue):
  // when it follows the candidate, the candidate's are stashed for the check.
  hooks.betweenCandidateAndReference = [&] { task.stashOutputs(); };
  hooks.afterPair = [&](int pair, bool last) {
    checks.timedLaunches = pair + 1;
    if (deviceOutput_) deviceOutput_->trim();
    if (!plan.checkAfter(pair, last)) return;
    ++checks.checked;
    refuseWritesToHarnessMemory(task, candidate);
    if (std::string why = task.checkTimedLaunch(latest.fill, latest.inputSeed, options_.launchTimeoutSeconds); !why.empty())
      throw KernelFailure(CandidateStatus::Invalid,
                          "timed launch " + std::to_string(pair + 1) + " (on inputs drawn for it): " + why +
                              " (a kernel that behaves differently when it is timed fails this way)");
  };
  auto launchCandidate = [&] { task.enqueue(candidate.kernel, candidate.geometry, candidate.maps, "the candidate"); };
  std::function<void()> launchReference;
  if (reference)
    launchReference = [&] { task.enqueue(*reference, refGeometry, referenceMaps, "the reference"); };
  auto finish = [&] { task.finish("a timed kernel", options_.launchTimeoutSeconds); };
  flusher_->reset(task.stream());  // nothing an earlier evaluation left is charged to this one
  Timing timing = timeInterleaved(gpu_, *flusher_, clocks_, launchCandidate, launchReference, finish, options_.timing, hooks);
  // One more flush reads what the last launches may have written.
  flusher_->flush(task.stream());
  finish();
  refuseWritesToHarnessMemory(task, candidate);
  // Unloading the reference frees its memory, perhaps beside the candidate's
  // variables: checked just before, recorded again just after.
  if (reference) {
    reference.reset();
    candidate.pages.excludeAndRecord({});
  }
  return timing;
}

void CudaEvaluator::refuseWritesToHarnessMemory(const TaskRuntime& task, const CandidateUnderTest& candidate) {
  if (flusher_->foundWrites())
    throw KernelFailure(CandidateStatus::Invalid,
                        "a timed kernel wrote into the harness's own memory (the buffer the L2 flush reads, which stays "
                        "zero): a kernel may write only its outputs");
  if (std::string damage = task.harnessMemoryDamage(); !damage.empty())
    throw KernelFailure(CandidateStatus::Invalid, damage);
  if (std::string damage = candidate.pages.damage(); !damage.empty())
    throw KernelFailure(CandidateStatus::Invalid, damage);
}

void CudaEvaluator::restoreContextLimits(Evaluation& ev) {
  if (gpu_.lost()) return;
  try {
    const std::size_t before = gpu_.restoreStackLimit();
    if (before != gpu_.initialStackBytes())
      ev.detail += "; the kernel raised the per-thread stack to " + std::to_string(before) + " bytes (restored to " +
                   std::to_string(gpu_.initialStackBytes()) + ")";
  } catch (const DriverError& e) {
    gpu_.stillUsable();
    ev.detail += std::string("; restoring the stack limit failed: ") + e.what();
  }
}

void CudaEvaluator::captureDeviceOutput() {
  if (!deviceOutput_) deviceOutput_ = std::make_unique<DeviceOutputCapture>();
}

ProfileResult CudaEvaluator::profile(const Task& task, const KernelBinary& kernel) {
  ProfileResult result;
  if (gpu_.lost()) {
    result.permitted = true;
    result.detail = "this worker's CUDA context is unusable (" + gpu_.lostReason() + ")";
    return result;
  }
  try {
    gpu_.makeCurrent();
    TaskRuntime& rt = runtimeFor(task);
    const LaunchRule rule = withEntry(kernel.launch, rt.spec());
    KernelModule module(kernel.cubin, rule.entry);
    const LaunchGeometry g = resolveGeometry(rule, rt.spec().axes, gpu_.info().smCount);
    module.prepare(g, gpu_.info(), options_.carveout);
    const TensorMaps maps = rt.tensorMaps(rule.tensorMaps, "the profiled kernel");
    rt.checkParameters(module, maps, "the profiled kernel");
    // Every launch here is prepared as a timed launch is (timeCandidate):
    // inputs drawn afresh, the module's variables as loaded, a fresh output
    // fill, scrubbed shared and local memory, and the L2 emptied. So the
    // figures describe the launch that was timed, and a kernel that kept
    // results anywhere between launches is profiled doing its work, not
    // skipping it. (CUPTI's passes were seen starting from an empty L2
    // anyway, on the H100; the flush puts the draws' dirty lines out of the
    // profiled launch whatever the profiler does.)
    const ModuleGlobalsReset globals(module.module(), kernel.cubin);
    const LeftoverScrub leftovers(*harness_, gpu_.info(), largestFrameBytes({&module}));
    LaunchPlan plan(unpredictableSeed(1));
    auto prepareLaunch = [&] {
      queueFreshLaunchState(rt, globals, plan);
      leftovers.queue(rt.stream());
      flusher_->flush(rt.stream());
      rt.finish("the profiled launch's preparation", options_.launchTimeoutSeconds);
    };
    // One launch first, unprofiled: a module's first launch does one-time
    // work (lazy loading) that no timed launch pays.
    prepareLaunch();
    rt.run(module, g, maps, "the profiled kernel", options_.launchTimeoutSeconds);
    if (!profiler_) profiler_ = std::make_unique<CuptiProfiler>(gpu_);
    const auto profileStart = std::chrono::steady_clock::now();
    result = profiler_->profile([&] { rt.run(module, g, maps, "the profiled kernel", options_.launchTimeoutSeconds); },
                                prepareLaunch);
    result.detail += "; profiled in " + secondsSince(profileStart);
    // Occupancy the hardware allows at this geometry, beside the achieved one.
    const int blocks = module.maxActiveBlocksPerSm(g);
    const int warpsPerBlock = static_cast<int>((g.threadsPerBlock() + 31) / 32);
    int maxWarps = 0;
    check(driver().cuDeviceGetAttribute(&maxWarps, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, gpu_.device()),
          "cuDeviceGetAttribute");
    maxWarps /= 32;
    if (maxWarps > 0)
      result.metrics["crucible__theoretical_occupancy_pct"] = 100.0 * std::min(blocks * warpsPerBlock, maxWarps) / maxWarps;
    result.metrics["crucible__registers_per_thread"] = module.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
    result.metrics["crucible__blocks_per_sm"] = blocks;
  } catch (const std::exception& e) {
    gpu_.stillUsable();
    result.detail = std::string("profiling failed: ") + e.what();
  }
  return result;
}

std::vector<Ceiling> CudaEvaluator::measureCeilings() {
  if (gpu_.lost()) throw std::runtime_error("this worker's CUDA context is unusable (" + gpu_.lostReason() + ")");
  gpu_.makeCurrent();
  return measureDeviceCeilings(gpu_, *compiler_, device().gpu);
}

}  // namespace crucible::cuda
