// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <cstdint>
#include <string>
#include "core/model/fingerprint.h"
#include "core/model/ids.h"

namespace crucible {

// A frozen, validated kernel: the reference for the next run on its task.
struct Seal {
  SealId id = 0;
  TaskId taskId = 0;
  CandidateId candidateId = 0;
  RunId runId = 0;
  double speedup = 0;           // vs the reference it beat
  double medianUs = 0;
  std::string validationReportJson = "{}";
  std::string performanceReportJson = "{}";
  Fingerprint fingerprint;
  std::int64_t sealedAt = 0;
};

// A meta-prompt or mutation strategy: individuals that evolve with the kernels.
struct MetaPrompt {
  MetaPromptId id = 0;
  RunId runId = 0;             // 0 = global
  MetaPromptId parent = 0;
  std::string name;            // "mutate:vector_width", or an LLM prompt's title
  std::string text;            // the prompt text or strategy parameters
  std::int64_t uses = 0;
  std::int64_t improvements = 0;
};

// A measured ceiling of a device, with its datasheet value (roofline roofs).
struct Ceiling {
  std::string device;          // fingerprint gpu name
  std::string name;            // "dram_bw", "l2_bw", "fp32_fma", "bf16_tensor"
  double measured = 0;         // bytes/s or FLOP/s
  double datasheet = 0;
  std::string unit;            // "B/s" | "FLOP/s"
  std::int64_t measuredAt = 0;
};

}  // namespace crucible
