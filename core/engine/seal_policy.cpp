// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/seal_policy.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace crucible {

bool deservesExtendedValidation(CandidateStatus status, double fitness, double margin, double bestSealedSpeedup) {
  if (status != CandidateStatus::Valid) return false;
  double bar = (1.0 + margin) * std::max(1.0, bestSealedSpeedup);
  return fitness >= bar;
}

double speedupOf(const Timing& timing, double referenceMedianUs) {
  if (timing.medianUs <= 0) return 0;
  if (timing.speedup > 0) return timing.speedup;
  if (timing.referenceMedianUs > 0) return timing.referenceMedianUs / timing.medianUs;
  if (referenceMedianUs > 0) return referenceMedianUs / timing.medianUs;
  return 0;
}

std::optional<std::string> extendedValidationFailure(const Evaluation& extended, double margin) {
  if (extended.status != CandidateStatus::Valid)
    return std::string("extended validation: ") + toString(extended.status) +
           (extended.detail.empty() ? "" : ": " + extended.detail);
  if (extended.trials.empty()) return std::string("extended validation ran no trials");
  for (const auto& t : extended.trials)
    if (!t.passed)
      return "extended validation: seed " + std::to_string(t.seed) + " failed: " + t.reason;
  if (!extended.timing) return std::string("extended validation returned no timing");
  double s = speedupOf(*extended.timing, 0);
  if (s < 1.0 + margin)
    return "extended validation: speedup " + std::to_string(s) + " is under the seal margin (" +
           std::to_string(1.0 + margin) + ")";
  return std::nullopt;
}

std::optional<Demotion> demotionFor(const Evaluation& extended) {
  const ValidationTrial* failed = nullptr;
  for (const auto& t : extended.trials)
    if (!t.passed && !failed) failed = &t;
  if (extended.status == CandidateStatus::Valid && !failed) return std::nullopt;
  Demotion d;
  switch (extended.status) {
    case CandidateStatus::Faulted:
    case CandidateStatus::TimedOut:
    case CandidateStatus::ResourceError: d.status = extended.status; break;
    default: d.status = CandidateStatus::Invalid; break;   // Invalid, or a Valid status with a failed trial
  }
  std::string why = extended.detail;
  if (failed) {
    std::string seed = "seed " + std::to_string(failed->seed) + ": " + failed->reason;
    why = why.empty() ? seed : why + " (" + seed + ")";
  }
  if (why.empty()) why = toString(extended.status);
  d.detail = "extended validation at seal time failed: " + why;
  return d;
}

void demote(Candidate& candidate, const Demotion& demotion, const Evaluation& extended) {
  candidate.status = demotion.status;
  candidate.statusDetail = demotion.detail;
  candidate.fitness = 0;
  candidate.validation.insert(candidate.validation.end(), extended.trials.begin(), extended.trials.end());
}

std::optional<std::string> sanitizerRefusal(const SanitizerReport* report) {
  if (!report)
    return std::string("no sanitizer is configured, and a seal needs a clean compute-sanitizer run");
  if (!report->ran)
    return "the sanitizers did not run: " +
           (report->unavailableReason.empty() ? std::string("no reason given") : report->unavailableReason);
  if (report->clean) return std::nullopt;
  // One clause per tool that objected, in the order the tools ran.
  std::vector<std::string> order = report->tools;
  for (const auto& f : report->findings)
    if (std::find(order.begin(), order.end(), f.tool) == order.end()) order.push_back(f.tool);
  std::string text;
  for (const std::string& tool : order) {
    int listed = 0;
    const SanitizerFinding* first = nullptr;
    for (const auto& f : report->findings) {
      if (f.tool != tool) continue;
      if (!first) first = &f;
      ++listed;
    }
    if (!first) continue;
    auto it = report->reportedErrors.find(tool);
    const int reported = it == report->reportedErrors.end() ? 0 : it->second;
    std::string clause = tool;
    if (reported > 0) {
      const int n = std::max(reported, listed);
      const char* noun = tool == "racecheck" ? "hazard" : "error";
      clause += " found " + std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
    }
    clause += ": " + first->message;
    text += (text.empty() ? "" : "; ") + clause;
  }
  if (text.empty()) text = "the sanitizers did not run clean, and named no finding";
  if (!report->shape.empty()) text += " (at " + report->shape + ")";
  return text;
}

Seal makeSeal(TaskId task, RunId run, const Candidate& candidate, const Evaluation& extended,
              const Fingerprint& device, double referenceMedianUs, std::int64_t sealedAt,
              const SanitizerReport* sanitizer) {
  Seal s;
  s.taskId = task;
  s.candidateId = candidate.id;
  s.runId = run;
  const Timing& t = *extended.timing;
  s.speedup = speedupOf(t, referenceMedianUs);
  s.medianUs = t.medianUs;
  nlohmann::json trials = nlohmann::json::array();
  for (const auto& tr : extended.trials)
    trials.push_back({{"seed", tr.seed}, {"passed", tr.passed}, {"reason", tr.reason},
                      {"maxAbsError", tr.maxAbsError}, {"maxRelError", tr.maxRelError},
                      {"mismatches", tr.mismatches}});
  nlohmann::json validation{{"extended", true},
                             {"status", toString(extended.status)},
                             {"detail", extended.detail},
                             {"trials", trials}};
  if (sanitizer)
    // The shape says where the tools ran: a task's sanitizeAxes, smaller than the timed shape.
    validation["sanitizer"] = {{"clean", sanitizer->clean}, {"tools", sanitizer->tools},
                               {"seconds", sanitizer->seconds}, {"shape", sanitizer->shape}};
  s.validationReportJson = validation.dump();
  s.performanceReportJson = nlohmann::json{{"medianUs", t.medianUs},
                                           {"iqrUs", t.iqrUs},
                                           {"referenceMedianUs", t.referenceMedianUs},
                                           {"referenceIqrUs", t.referenceIqrUs},
                                           {"speedup", s.speedup},
                                           {"smClockMHz", t.smClockMHz},
                                           {"samples", t.samplesUs.size()},
                                           {"gpuSeconds", extended.gpuSeconds}}
                                .dump();
  s.fingerprint = device;
  s.sealedAt = sealedAt;
  return s;
}

}  // namespace crucible
