// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/validation.h"
#include <chrono>
#include <cstdio>
#include "backends/cuda/worker/output_check.h"

namespace crucible::cuda {
namespace {

// The seed of the re-randomised inputs: distinct from every trial seed the
// engine is likely to use (small integers), and a function of the trial's.
constexpr std::uint64_t kRerandomise = 0x5EEDF00D5EEDF00Dull;

// Checks one launch's outputs against the current reference, on the device
// (TaskRuntime::checkOutput runs checkOutput's pass there); returns the first
// failure's reason (empty if none) and accumulates error figures.
std::string checkLaunch(TaskRuntime& task, const CandidateUnderTest& candidate, int poison, ValidationTrial& trial,
                        const StressCase* stress = nullptr) {
  if (std::string damage = task.inputDamage(); !damage.empty()) return damage;
  if (std::string damage = task.outputGuardDamage(); !damage.empty()) return damage;
  if (std::string damage = task.harnessMemoryDamage(); !damage.empty()) return damage;
  if (std::string damage = candidate.pages.damage(); !damage.empty()) return damage;
  const TaskSpec& spec = task.spec();
  std::string reason;
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
    const std::string& name = spec.outputs[i].name;
    OutputCheck c = task.checkOutput(i, toleranceOf(spec, name, stress), poison);
    trial.maxAbsError = std::max(trial.maxAbsError, c.maxAbsError);
    trial.maxRelError = std::max(trial.maxRelError, c.maxRelError);
    trial.mismatches += c.unwritten + c.nonFinite + c.mismatches;
    if (reason.empty()) reason = c.reason;
  }
  return reason;
}

// Adds the wall time of `step` to `into`.
template <typename F>
decltype(auto) timed(double& into, F&& step) {
  struct Add {
    double& into;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    ~Add() { into += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  } add{into};
  return step();
}

// Outputs filled as `fill` says, the candidate's module variables and
// leftovers reset as before every launch, one launch; its outputs stay on the device.
void launchCandidate(TaskRuntime& task, const CandidateUnderTest& candidate, const FillChoice& fill, double timeout,
                     ValidationCosts& costs) {
  timed(costs.candidate, [&] {
    candidate.globals.restore(task.stream());
    candidate.leftovers.queue(task.stream());  // as before every timed launch
    task.fillOutputs(fill, /*rewriteGuards=*/true);
    task.run(candidate.kernel, candidate.geometry, candidate.maps, "the candidate", timeout);
  });
}

// "x ~ normal(60, 20)": the inputs a stress case draws differently, for its reason.
std::string describeStress(const StressCase& stress) {
  std::string s;
  for (const auto& [input, d] : stress.inputs) {
    char text[160];
    std::snprintf(text, sizeof text, "%s ~ %s(%g, %g)", input.c_str(), d.kind.c_str(), d.a, d.b);
    s += (s.empty() ? "" : ", ") + std::string(text);
  }
  return s;
}

}  // namespace

std::string ValidationCosts::describe() const {
  char text[160];
  std::snprintf(text, sizeof text, "inputs %.2f s, oracle %.2f s, candidate %.2f s, checks %.2f s", inputs, oracle,
                candidate, checks);
  return text;
}

ValidationTrial runValidationTrial(TaskRuntime& task, const CandidateUnderTest& candidate, LaunchPlan& plan,
                                   std::uint64_t seed, double timeout, bool followsTrial, bool mustRerandomise,
                                   ValidationCosts& costs) {
  ValidationTrial trial;
  trial.seed = seed;
  const TaskSpec& spec = task.spec();

  // Fresh inputs drawn from `inputSeed`, and the oracle's outputs for them.
  auto drawInputs = [&](std::uint64_t inputSeed) {
    timed(costs.inputs, [&] { task.randomizeInputs(inputSeed); });
    timed(costs.oracle, [&] { task.computeReference(timeout); });
  };
  auto launch = [&](const FillChoice& fill) { launchCandidate(task, candidate, fill, timeout, costs); };

  drawInputs(seed);
  const FillChoice firstFill = plan.nextFill(/*mustBePoison=*/true);
  launch(firstFill);
  if (std::string why = timed(costs.checks, [&] { return checkLaunch(task, candidate, firstFill.poisonIndex(), trial); });
      !why.empty()) {
    trial.reason = followsTrial ? why + "; the inputs were re-randomised in place since the previous trial passed "
                                        "(a kernel that caches results between launches fails this way, as does one "
                                        "that is wrong only for some inputs)"
                                : why;
    return trial;
  }

  timed(costs.checks, [&] { task.keepOutputs(); });  // masked on the device, for the comparison with the second launch
  const FillChoice secondFill = plan.nextFill();
  launch(secondFill);
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
    const BitwiseDiff d = timed(costs.checks, [&] { return task.compareWithKeptOutputs(i); });
    if (d.differing > 0) {
      trial.mismatches += d.differing;
      trial.reason = "nondeterministic: output '" + spec.outputs[i].name + "' differs in " +
                     std::to_string(d.differing) + " of " + std::to_string(elementCount(spec, spec.outputs[i])) +
                     " elements between two launches on the same inputs, first at index " + std::to_string(d.first) +
                     " (outputs filled with " + firstFill.describe() + " before the first, " + secondFill.describe() +
                     " before the second: a race, an element written only sometimes, unordered atomics, or a kernel "
                     "that reads its outputs before writing them)";
      return trial;
    }
  }

  if (!mustRerandomise) {
    trial.passed = true;
    return trial;
  }
  drawInputs(seed ^ kRerandomise);
  const FillChoice thirdFill = plan.nextFill(/*mustBePoison=*/true);
  launch(thirdFill);
  ValidationTrial ignored;  // the error figures reported are those of the trial's own inputs
  if (std::string why = timed(costs.checks, [&] { return checkLaunch(task, candidate, thirdFill.poisonIndex(), ignored); });
      !why.empty()) {
    trial.mismatches += ignored.mismatches;
    trial.reason = "after the inputs were re-randomised in place (same buffers): " + why +
                   " (a kernel that caches results between launches fails this way)";
    return trial;
  }
  trial.passed = true;
  return trial;
}

ValidationTrial runStressTrial(TaskRuntime& task, const CandidateUnderTest& candidate, LaunchPlan& plan,
                               const StressCase& stress, std::uint64_t seed, double timeout, ValidationCosts& costs) {
  ValidationTrial trial;
  trial.seed = seed;
  timed(costs.inputs, [&] { task.randomizeInputs(seed, &stress); });
  timed(costs.oracle, [&] { task.computeReference(timeout); });
  const FillChoice fill = plan.nextFill(/*mustBePoison=*/true);
  launchCandidate(task, candidate, fill, timeout, costs);
  if (std::string why = timed(costs.checks, [&] { return checkLaunch(task, candidate, fill.poisonIndex(), trial, &stress); });
      !why.empty()) {
    trial.reason = "stress case '" + stress.name + "' (" + describeStress(stress) + "): " + why +
                   " (a kernel right only for the task's usual inputs fails this way: a softmax or log-sum-exp "
                   "without the max subtraction, a one-pass variance)";
    return trial;
  }
  trial.passed = true;
  return trial;
}

}  // namespace crucible::cuda
