// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/llm_usage.h"

#include <algorithm>
#include <climits>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include "core/io/json_integer.h"
#include "core/model/saturating_count.h"

namespace crucible::llm {

void LlmUsage::add(const LlmModelSettings& m, const ChatReply& reply) {
  if (model.empty()) model = m.name;
  tokensIn = saturatingAdd(tokensIn, reply.usage.inputTokens);
  tokensOut = saturatingAdd(tokensOut, reply.usage.outputTokens);
  latencyS += reply.latencySeconds;
  costUsd += llm::costUsd(m, reply.usage);
  ++requests;
}

LlmUsage& LlmUsage::operator+=(const LlmUsage& o) {
  const auto none = [](const LlmUsage& u) { return u.requests == 0 && u.tokensIn == 0 && u.tokensOut == 0; };
  if (none(o)) return *this;
  // The model names the sum only while every part used the same one.
  if (none(*this)) model = o.model;
  else if (model != o.model) model.clear();
  // Sums of what project files record: any figure.
  tokensIn = saturatingAdd(tokensIn, o.tokensIn);
  tokensOut = saturatingAdd(tokensOut, o.tokensOut);
  latencyS += o.latencyS;
  costUsd += o.costUsd;
  const auto addCount = [](int a, int b) {
    return static_cast<int>(std::min<std::int64_t>(std::int64_t{a} + b, INT_MAX));
  };
  requests = addCount(requests, o.requests);
  repairs = addCount(repairs, o.repairs);
  return *this;
}

nlohmann::json toJsonValue(const LlmUsage& u) {
  return {{"model", u.model},       {"tokensIn", u.tokensIn}, {"tokensOut", u.tokensOut}, {"latencyS", u.latencyS},
          {"costUsd", u.costUsd},   {"requests", u.requests}, {"repairs", u.repairs}};
}

namespace {

LlmUsage usageAt(const nlohmann::json& j, const char* key) {
  LlmUsage u;
  if (!j.is_object() || !j.contains(key) || !j[key].is_object()) return u;
  const nlohmann::json& l = j[key];
  // A field of the wrong type, or a count outside 0..its type's range: count nothing rather than part of it.
  const auto count = [&](const char* field, std::int64_t most) -> std::optional<std::int64_t> {
    return l.contains(field) ? jsonIntegerIn(l[field], 0, most) : std::optional<std::int64_t>{0};
  };
  const auto tokensIn = count("tokensIn", std::numeric_limits<std::int64_t>::max());
  const auto tokensOut = count("tokensOut", std::numeric_limits<std::int64_t>::max());
  const auto requests = count("requests", INT_MAX), repairs = count("repairs", INT_MAX);
  if (!tokensIn || !tokensOut || !requests || !repairs) return u;
  try {
    u.model = l.value("model", "");
    u.latencyS = l.value("latencyS", 0.0);
    u.costUsd = l.value("costUsd", 0.0);
  } catch (const nlohmann::json::exception&) {
    return LlmUsage{};
  }
  u.tokensIn = *tokensIn;
  u.tokensOut = *tokensOut;
  u.requests = static_cast<int>(*requests);
  u.repairs = static_cast<int>(*repairs);
  return u;
}

}  // namespace

LlmUsage llmUsageOfGenome(const std::string& genomeJson) {
  const nlohmann::json j = nlohmann::json::parse(genomeJson, nullptr, false);
  return j.is_discarded() ? LlmUsage{} : usageAt(j, "llm");
}

LlmUsage sumLlmUsage(const std::vector<std::string>& genomeJsons) {
  LlmUsage total;
  for (const auto& g : genomeJsons) {
    const nlohmann::json j = nlohmann::json::parse(g, nullptr, false);
    if (j.is_discarded()) continue;
    total += usageAt(j, "llm");
    total += usageAt(j, "llmStrategy");  // strategy rewrites carried by this candidate
  }
  return total;
}

}  // namespace crucible::llm
