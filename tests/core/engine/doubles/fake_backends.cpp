// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/core/engine/doubles/fake_backends.h"

#include <fcntl.h>
#include <algorithm>
#include <unistd.h>
#include <chrono>
#include <thread>
#include "core/engine/tuning_cache.h"
#include "tests/core/engine/doubles/fake_genome.h"

namespace crucible::testing {

CompileResult FakeCompiler::compile(const CompileRequest& request) {
  ++calls;
  if (delayMicroseconds) std::this_thread::sleep_for(std::chrono::microseconds(delayMicroseconds));
  CompileResult r;
  r.report.arch = request.arch;
  auto g = parseFakeSource(request.source);
  if (g && !fakeCompiles(*g)) {
    r.report.ok = false;
    r.report.diagnostics.push_back({3, 1, "error", "vector width 8 needs warp granularity"});
    return r;
  }
  r.report.ok = true;
  r.report.registers = 32;
  r.cubin = request.source;   // the fake "binary" is the source, so the evaluator can read the genome
  return r;
}

Fingerprint FakeEvaluator::device() const {
  Fingerprint f;
  f.gpu = gpu_;
  f.arch = "sm_90";
  f.driver = "fake";
  f.smClockMHz = 1980;
  return f;
}

void FakeEvaluator::record(const std::string& line) {
  if (recordPath.empty()) return;
  std::lock_guard lock(recordMutex_);
  // O_APPEND + one write per line: the trace survives a SIGKILL intact.
  int fd = ::open(recordPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  std::string text = line + "\n";
  (void)!::write(fd, text.data(), text.size());
  ::close(fd);
}

Evaluation FakeEvaluator::evaluate(const EvaluationRequest& request) {
  auto g = parseFakeSource(request.candidate.cubin);
  std::string id = configKey("", {}, request.candidate.cubin);
  // The run's reference is timed against itself (a sealed fake kernel can be
  // the next run's reference): that is not a candidate evaluation.
  bool reference = request.candidate.cubin == request.reference.cubin;
  if (reference) {
    ++referenceEvaluations;
    g.reset();
  }
  int n = -1;
  if (g && !request.extended) {
    n = evaluations++;
    record("begin " + id);
    if (hangAfter >= 0 && n >= hangAfter) std::this_thread::sleep_for(std::chrono::hours(1));
  }
  bool failThis = false;
  if (g && request.extended) {
    const int k = extendedEvaluations++;
    failThis = failExtended || k < failExtendedFirst;
  }
  if (delayMicroseconds) std::this_thread::sleep_for(std::chrono::microseconds(delayMicroseconds));

  Evaluation e;
  auto timed = parseFakeSource(request.candidate.cubin);
  double t = timed ? fakeTimeUs(*timed) : 100.0;   // anything else is the task's baseline
  bool correct = !timed || fakeIsCorrect(*timed);
  for (std::size_t i = 0; i < request.seeds.size(); ++i) {
    ValidationTrial trial;
    trial.seed = request.seeds[i];
    trial.passed = correct && !(failThis && i + 1 == request.seeds.size());
    if (!trial.passed) {
      trial.reason = "mismatches: 17";
      trial.mismatches = 17;
    }
    e.trials.push_back(trial);
  }
  bool allPassed = std::all_of(e.trials.begin(), e.trials.end(), [](auto& tr) { return tr.passed; });
  e.status = allPassed ? CandidateStatus::Valid : failThis ? extendedFailure : CandidateStatus::Invalid;
  e.detail = allPassed ? "" : "validation failed";
  if (allPassed) {
    Timing timing;
    timing.samplesUs.assign(5, t);
    timing.medianUs = t;
    timing.referenceMedianUs = 100.0;
    timing.speedup = 100.0 / t;
    timing.smClockMHz = 1980;
    e.timing = timing;
  }
  e.gpuSeconds = 0.001;
  if (g && !request.extended) record("end " + id);
  return e;
}

ProfileResult FakeEvaluator::profile(const Task&, const KernelBinary& kernel) {
  ++profiles;
  ProfileResult p;
  auto g = parseFakeSource(kernel.cubin);
  p.metrics["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = g ? 50.0 + 10.0 * g->vec : 40.0;
  return p;
}

FakeDispatcher::FakeDispatcher(int evaluators) {
  for (int i = 0; i < evaluators; ++i)
    evaluators_.push_back(std::make_unique<FakeEvaluator>("Fake GPU " + std::to_string(i)));
}

std::vector<Evaluator*> FakeDispatcher::evaluators() {
  std::vector<Evaluator*> out;
  for (auto& e : evaluators_) out.push_back(e.get());
  return out;
}

int FakeDispatcher::totalEvaluations() const {
  int n = 0;
  for (const auto& e : evaluators_) n += e->evaluations;
  return n;
}

}  // namespace crucible::testing
