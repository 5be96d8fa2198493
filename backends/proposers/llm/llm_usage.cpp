// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/llm_usage.h"

#include <nlohmann/json.hpp>

namespace crucible::llm {

void LlmUsage::add(const LlmModelSettings& m, const ChatReply& reply) {
  if (model.empty()) model = m.name;
  tokensIn += reply.usage.inputTokens;
  tokensOut += reply.usage.outputTokens;
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
  tokensIn += o.tokensIn;
  tokensOut += o.tokensOut;
  latencyS += o.latencyS;
  costUsd += o.costUsd;
  requests += o.requests;
  repairs += o.repairs;
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
  try {
  u.model = l.value("model", "");
  u.tokensIn = l.value("tokensIn", std::int64_t{0});
  u.tokensOut = l.value("tokensOut", std::int64_t{0});
  u.latencyS = l.value("latencyS", 0.0);
  u.costUsd = l.value("costUsd", 0.0);
  u.requests = l.value("requests", 0);
  u.repairs = l.value("repairs", 0);
  } catch (const nlohmann::json::exception&) {
    return LlmUsage{};  // a field of the wrong type: count nothing rather than part of it
  }
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
