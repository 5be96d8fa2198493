// SPDX-License-Identifier: GPL-3.0-or-later
// What one proposal (or a whole run) cost: tokens in and out, time waiting
// for the model, money at the configured prices, requests and repair turns.
// Stored in a candidate's genomeJson under "llm", so a run's total is the sum
// over its candidates (sumLlmUsage).
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "backends/proposers/llm/chat.h"
#include "backends/proposers/llm/llm_settings.h"

namespace crucible::llm {

struct LlmUsage {
  std::string model;            // empty in sums over several models
  std::int64_t tokensIn = 0;
  std::int64_t tokensOut = 0;
  double latencyS = 0;          // summed over the requests (they run one after another per proposal)
  double costUsd = 0;
  int requests = 0;
  int repairs = 0;              // repair turns (wrong signature, bad launch rule, compile error)

  void add(const LlmModelSettings& m, const ChatReply& reply);
  LlmUsage& operator+=(const LlmUsage& other);
};

nlohmann::json toJsonValue(const LlmUsage& u);
// The "llm" object of a candidate's genomeJson; nullopt-like empty usage
// (requests == 0) when it has none or it is not JSON.
LlmUsage llmUsageOfGenome(const std::string& genomeJson);
// The run's total over its candidates' genomeJson documents: their own usage
// ("llm") and the strategy rewrites they carry ("llmStrategy").
LlmUsage sumLlmUsage(const std::vector<std::string>& genomeJsons);

}  // namespace crucible::llm
