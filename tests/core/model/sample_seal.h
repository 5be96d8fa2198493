// SPDX-License-Identifier: GPL-3.0-or-later
// A seal with every field set, for tests that store, show or export one.
#pragma once
#include "core/model/seal.h"

namespace crucible::testing {

inline Seal sampleSeal(TaskId task, RunId run, CandidateId c) {
  Seal s;
  s.taskId = task;
  s.runId = run;
  s.candidateId = c;
  s.speedup = 1.75;
  s.medianUs = 57.125;
  s.validationReportJson = R"({"trials":5,"passed":5})";
  s.performanceReportJson = R"({"samples":200,"iqr_us":0.4})";
  s.fingerprint = {"NVIDIA H200", "sm_90", "580.159.04", "13.0", "13.0", 1980, 3201, "gpu-node-7"};
  s.sealedAt = 1700000000;
  return s;
}

}  // namespace crucible::testing
