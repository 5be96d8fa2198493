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

Seal makeSeal(TaskId task, RunId run, const Candidate& candidate, const Evaluation& extended,
              const Fingerprint& device, double referenceMedianUs, std::int64_t sealedAt) {
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
  s.validationReportJson = nlohmann::json{{"extended", true},
                                          {"status", toString(extended.status)},
                                          {"detail", extended.detail},
                                          {"trials", trials}}
                               .dump();
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
