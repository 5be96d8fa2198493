// SPDX-License-Identifier: GPL-3.0-or-later
// How the language-model proposer reaches its models: endpoint, API kind,
// models with their prices, sampling, concurrency, repair turns, and the NAME
// of the environment variable that holds the key. The key itself is never in
// these settings: it is read from the environment when a request is sent.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/proposers/llm/chat.h"
#include "backends/proposers/llm/clients.h"

namespace crucible::llm {

struct LlmModelSettings {
  std::string name;              // as the server knows it: "gpt-4.1", "claude-sonnet-4-5", "qwen2.5-coder:32b"
  double priceInPerMTok = 0;     // USD per million input tokens (0 for a local server)
  double priceOutPerMTok = 0;    // USD per million output tokens
};

struct LlmSettings {
  ChatApi api = ChatApi::OpenAiCompatible;
  std::string endpoint;          // see ClientSettings::endpoint
  std::string apiKeyEnv;         // NAME of the variable holding the key; empty: no key (local servers)
  std::vector<LlmModelSettings> models;  // at least one
  double temperature = 0.7;
  int maxTokens = 8192;          // per reply
  int concurrency = 4;           // requests in flight per client
  int repairTurns = 2;           // extra turns after a wrong signature or a compile error, per proposal
  int timeoutSeconds = 300;      // one attempt of one request
  int maxAttempts = 4;           // retries on 429 / 5xx / dropped connections
  bool useMaxCompletionTokens = false;  // OpenAI reasoning models
  std::string compileArch = "sm_90";    // what the proposer's own compile check targets
  int strategySectionMaxChars = 2000;   // a rewritten meta-prompt section longer than this is refused
  // With several models, how much a model's cost per proposal counts against
  // the improvements its children bring (model_bandit.h): the most expensive
  // model's score is lowered by this much (improvement rate, 0..1 per child),
  // the others in proportion to their cost; 0 ignores cost.
  double costWeight = 0.5;
};

// Names the offending field: "models[1].priceInPerMTok: must be a number >= 0".
class LlmSettingsError : public std::runtime_error {
public:
  LlmSettingsError(const std::string& field, const std::string& message)
      : std::runtime_error(field + ": " + message), field_(field) {}
  const std::string& field() const { return field_; }

private:
  std::string field_;
};

const char* chatApiName(ChatApi api);  // "openai" | "anthropic"

// Parses and validates; unknown fields are refused (a misspelt field would
// silently fall back to its default). Throws LlmSettingsError.
LlmSettings llmSettingsFromJson(const std::string& json);
std::string toJson(const LlmSettings& settings);  // pretty-printed; never holds a key

// The client settings these describe.
ClientSettings clientSettings(const LlmSettings& settings);

// The key from the environment at the time of the call: empty when no variable
// is named; throws ChatError(Configuration) when it is named but unset.
std::string resolveApiKey(const LlmSettings& settings);

// Cost in USD of one exchange with `model` (0 when the model has no price).
double costUsd(const LlmModelSettings& model, const ChatUsage& usage);

}  // namespace crucible::llm
