// SPDX-License-Identifier: GPL-3.0-or-later
// Settings: JSON round trip, errors that name the field, the key read from
// the environment at use time and never serialised.
#include <gtest/gtest.h>

#include <cstdlib>

#include "backends/proposers/llm/llm_settings.h"

namespace crucible::llm {
namespace {

constexpr const char* kSecret = "sk-settings-test-abcdef-SECRET";
constexpr const char* kVariable = "CRUCIBLE_LLM_SETTINGS_TEST_KEY";

constexpr const char* kFull = R"J({
  "api": "anthropic",
  "endpoint": "https://api.anthropic.com",
  "apiKeyEnv": "CRUCIBLE_LLM_SETTINGS_TEST_KEY",
  "models": [{"name": "claude-sonnet-4-5", "priceInPerMTok": 3, "priceOutPerMTok": 15}, "local-model"],
  "temperature": 0.4, "maxTokens": 16000, "concurrency": 6, "repairTurns": 3, "timeoutSeconds": 120,
  "maxAttempts": 5, "useMaxCompletionTokens": true, "compileArch": "sm_90a", "strategySectionMaxChars": 1500
})J";

TEST(LlmSettings, ReadsEveryField) {
  const LlmSettings s = llmSettingsFromJson(kFull);
  EXPECT_EQ(s.api, ChatApi::Anthropic);
  EXPECT_EQ(s.endpoint, "https://api.anthropic.com");
  EXPECT_EQ(s.apiKeyEnv, kVariable);
  ASSERT_EQ(s.models.size(), 2u);
  EXPECT_EQ(s.models[0].name, "claude-sonnet-4-5");
  EXPECT_EQ(s.models[0].priceInPerMTok, 3);
  EXPECT_EQ(s.models[0].priceOutPerMTok, 15);
  EXPECT_EQ(s.models[1].name, "local-model");
  EXPECT_EQ(s.models[1].priceOutPerMTok, 0);
  EXPECT_DOUBLE_EQ(s.temperature, 0.4);
  EXPECT_EQ(s.maxTokens, 16000);
  EXPECT_EQ(s.concurrency, 6);
  EXPECT_EQ(s.repairTurns, 3);
  EXPECT_EQ(s.timeoutSeconds, 120);
  EXPECT_EQ(s.maxAttempts, 5);
  EXPECT_TRUE(s.useMaxCompletionTokens);
  EXPECT_EQ(s.compileArch, "sm_90a");
  EXPECT_EQ(s.strategySectionMaxChars, 1500);
  const ClientSettings c = clientSettings(s);
  EXPECT_EQ(c.endpoint, s.endpoint);
  EXPECT_EQ(c.apiKeyEnv, kVariable);
  EXPECT_EQ(c.maxConcurrent, 6);
  EXPECT_EQ(c.maxAttempts, 5);
}

TEST(LlmSettings, RoundTrip) {
  const LlmSettings s = llmSettingsFromJson(kFull);
  const LlmSettings again = llmSettingsFromJson(toJson(s));
  EXPECT_EQ(toJson(again), toJson(s));
  EXPECT_EQ(again.models[1].name, "local-model");
}

TEST(LlmSettings, CostWeightDefaultsAndIsRead) {
  EXPECT_DOUBLE_EQ(llmSettingsFromJson(R"J({"endpoint": "http://x", "models": ["m"]})J").costWeight, 0.5);
  const LlmSettings s = llmSettingsFromJson(R"J({"endpoint": "http://x", "models": ["m"], "costWeight": 0})J");
  EXPECT_DOUBLE_EQ(s.costWeight, 0.0);
  EXPECT_DOUBLE_EQ(llmSettingsFromJson(toJson(s)).costWeight, 0.0);
}

TEST(LlmSettings, ErrorsNameTheField) {
  struct Case {
    const char* json;
    const char* field;
  } cases[] = {
      {R"J({"models": ["m"]})J", "endpoint"},
      {R"J({"endpoint": "ftp://x", "models": ["m"]})J", "endpoint"},
      {R"J({"endpoint": "http://x"})J", "models"},
      {R"J({"endpoint": "http://x", "models": []})J", "models"},
      {R"J({"endpoint": "http://x", "models": [{"name": "m", "priceInPerMTok": -1}]})J", "models[0].priceInPerMTok"},
      {R"J({"endpoint": "http://x", "models": ["m", {"name": "m"}]})J", "models[1].name"},
      {R"J({"endpoint": "http://x", "models": [{"name": "m", "price": 1}]})J", "models[0].price"},
      {R"J({"endpoint": "http://x", "models": ["m"], "api": "gemini"})J", "api"},
      {R"J({"endpoint": "http://x", "models": ["m"], "temperature": 3})J", "temperature"},
      {R"J({"endpoint": "http://x", "models": ["m"], "repairTurns": 99})J", "repairTurns"},
      {R"J({"endpoint": "http://x", "models": ["m"], "maxTokens": "many"})J", "maxTokens"},
      {R"J({"endpoint": "http://x", "models": ["m"], "concurency": 2})J", "concurency"},
      {R"J({"endpoint": "http://x", "models": ["m"], "compileArch": "hopper"})J", "compileArch"},
      {R"J({"endpoint": "http://x", "models": ["m"], "costWeight": -0.1})J", "costWeight"},
      {R"J([1, 2])J", "(document)"},
  };
  for (const Case& c : cases) {
    try {
      llmSettingsFromJson(c.json);
      ADD_FAILURE() << "accepted " << c.json;
    } catch (const LlmSettingsError& e) {
      EXPECT_EQ(e.field(), c.field) << c.json << " -> " << e.what();
    }
  }
}

TEST(LlmSettings, APastedKeyIsRefusedWithoutBeingRepeated) {
  const std::string json = std::string(R"J({"endpoint": "http://x", "models": ["m"], "apiKeyEnv": ")J") + kSecret + "\"}";
  try {
    llmSettingsFromJson(json);
    ADD_FAILURE() << "a key in apiKeyEnv was accepted";
  } catch (const LlmSettingsError& e) {
    EXPECT_EQ(e.field(), "apiKeyEnv");
    EXPECT_EQ(std::string(e.what()).find(kSecret), std::string::npos) << e.what();
  }
}

TEST(LlmSettings, KeyResolvedAtUseTimeAndNeverSerialised) {
  unsetenv(kVariable);
  LlmSettings s = llmSettingsFromJson(kFull);
  EXPECT_THROW(resolveApiKey(s), ChatError);
  setenv(kVariable, kSecret, 1);
  EXPECT_EQ(resolveApiKey(s), kSecret);  // read now, not when the settings were parsed
  const std::string json = toJson(s);
  EXPECT_EQ(json.find(kSecret), std::string::npos) << json;
  EXPECT_NE(json.find(kVariable), std::string::npos);
  s.apiKeyEnv.clear();
  EXPECT_EQ(resolveApiKey(s), "");
  unsetenv(kVariable);
}

TEST(LlmSettings, CostPerMillionTokens) {
  const LlmModelSettings m{"m", 3.0, 15.0};
  EXPECT_NEAR(costUsd(m, ChatUsage{1'000'000, 200'000}), 3.0 + 3.0, 1e-12);
  EXPECT_EQ(costUsd(LlmModelSettings{"local", 0, 0}, ChatUsage{5000, 5000}), 0.0);
}

}  // namespace
}  // namespace crucible::llm
