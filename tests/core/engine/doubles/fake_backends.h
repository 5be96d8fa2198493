// SPDX-License-Identifier: GPL-3.0-or-later
// Fake compiler, evaluator and dispatcher for engine tests: deterministic
// functions of the fake genome, with counters, an optional record file (one
// line per evaluation begin/end, appended and flushed, so a killed process
// leaves an exact trace) and an optional hang to kill a run mid-evaluation.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"

namespace crucible::testing {

class FakeCompiler : public Compiler {
public:
  CompileResult compile(const CompileRequest& request) override;
  std::atomic<int> calls{0};
  int delayMicroseconds = 0;
};

class FakeEvaluator : public Evaluator {
public:
  explicit FakeEvaluator(std::string gpu = "Fake GPU") : gpu_(std::move(gpu)) {}
  Fingerprint device() const override;
  Evaluation evaluate(const EvaluationRequest& request) override;
  ProfileResult profile(const Task& task, const KernelBinary& kernel) override;
  std::vector<Ceiling> measureCeilings() override {
    ++ceilingMeasurements;
    return ceilings;
  }
  std::vector<Ceiling> ceilings;        // what measureCeilings reports
  std::atomic<int> ceilingMeasurements{0};

  std::atomic<int> evaluations{0};      // candidate evaluations (not extended, not the reference)
  std::atomic<int> extendedEvaluations{0};
  std::atomic<int> referenceEvaluations{0};  // the run's reference timed against itself
  std::atomic<int> profiles{0};
  int delayMicroseconds = 0;
  std::string recordPath;               // "" = no record
  int hangAfter = -1;                   // >= 0: the (hangAfter+1)-th candidate evaluation never returns
  bool failExtended = false;            // extended validation finds a failing seed
  int failExtendedFirst = 0;            // ... in the first N extended validations only
  CandidateStatus extendedFailure = CandidateStatus::Invalid;   // the status a failed one reports

private:
  void record(const std::string& line);
  std::string gpu_;
  std::mutex recordMutex_;
};

class FakeDispatcher : public Dispatcher {
public:
  explicit FakeDispatcher(int evaluators = 1);
  std::string name() const override { return "fake"; }
  std::vector<Evaluator*> evaluators() override;
  FakeEvaluator& evaluator(int i) { return *evaluators_[static_cast<std::size_t>(i)]; }
  int totalEvaluations() const;
  std::vector<std::unique_ptr<FakeEvaluator>> evaluators_;
};

}  // namespace crucible::testing
