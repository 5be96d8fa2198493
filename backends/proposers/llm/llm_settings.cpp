// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/llm_settings.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>

namespace crucible::llm {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxModels = 16;

void rejectUnknown(const json& j, const std::set<std::string>& known, const std::string& prefix) {
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!known.count(it.key())) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw LlmSettingsError(prefix + it.key(), "unknown field (known: " + list + ")");
    }
}

std::string stringField(const json& j, const std::string& key, const std::string& field) {
  if (!j[key].is_string()) throw LlmSettingsError(field, "must be a string");
  return j[key].get<std::string>();
}

double numberIn(const json& j, const std::string& key, const std::string& field, double lo, double hi) {
  if (!j[key].is_number()) throw LlmSettingsError(field, "must be a number");
  const double v = j[key].get<double>();
  if (!std::isfinite(v) || v < lo || v > hi)
    throw LlmSettingsError(field, "must be in [" + json(lo).dump() + ", " + json(hi).dump() + "], not " + json(v).dump());
  return v;
}

int integerIn(const json& j, const std::string& key, const std::string& field, int lo, int hi) {
  if (!j[key].is_number_integer()) throw LlmSettingsError(field, "must be an integer");
  const auto v = j[key].get<std::int64_t>();
  if (v < lo || v > hi)
    throw LlmSettingsError(field, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], not " + std::to_string(v));
  return static_cast<int>(v);
}

bool isVariableName(const std::string& s) {
  if (s.empty() || s.size() > 128 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

const char* chatApiName(ChatApi api) { return api == ChatApi::Anthropic ? "anthropic" : "openai"; }

LlmSettings llmSettingsFromJson(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw LlmSettingsError("(document)", std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object()) throw LlmSettingsError("(document)", "must be a JSON object");
  rejectUnknown(j,
                {"api", "endpoint", "apiKeyEnv", "models", "temperature", "maxTokens", "concurrency", "repairTurns",
                 "timeoutSeconds", "maxAttempts", "useMaxCompletionTokens", "compileArch", "strategySectionMaxChars",
                 "costWeight"},
                "");
  LlmSettings s;
  if (j.contains("api")) {
    const std::string api = stringField(j, "api", "api");
    if (api == "openai") s.api = ChatApi::OpenAiCompatible;
    else if (api == "anthropic") s.api = ChatApi::Anthropic;
    else throw LlmSettingsError("api", "must be \"openai\" (OpenAI-compatible: OpenAI, vLLM, llama.cpp, Ollama, SGLang) or "
                                       "\"anthropic\", not \"" + api + "\"");
  }
  if (!j.contains("endpoint")) throw LlmSettingsError("endpoint", "missing (e.g. \"https://api.openai.com/v1\")");
  s.endpoint = stringField(j, "endpoint", "endpoint");
  if (s.endpoint.rfind("http://", 0) != 0 && s.endpoint.rfind("https://", 0) != 0)
    throw LlmSettingsError("endpoint", "must start with http:// or https://");
  if (j.contains("apiKeyEnv")) {
    s.apiKeyEnv = stringField(j, "apiKeyEnv", "apiKeyEnv");
    // A pasted key ("sk-...") is refused without being repeated in the message.
    if (!s.apiKeyEnv.empty() && !isVariableName(s.apiKeyEnv))
      throw LlmSettingsError("apiKeyEnv", "must be the NAME of an environment variable (letters, digits, '_'), "
                                          "e.g. OPENAI_API_KEY, never the key itself");
  }
  if (!j.contains("models")) throw LlmSettingsError("models", "missing (a list of {\"name\", \"priceInPerMTok\", \"priceOutPerMTok\"})");
  const json& models = j["models"];
  if (!models.is_array() || models.empty() || models.size() > kMaxModels)
    throw LlmSettingsError("models", "must be a list of 1 to " + std::to_string(kMaxModels) + " models");
  std::set<std::string> names;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const std::string field = "models[" + std::to_string(i) + "]";
    const json& m = models[i];
    LlmModelSettings model;
    if (m.is_string()) {
      model.name = m.get<std::string>();
    } else if (m.is_object()) {
      rejectUnknown(m, {"name", "priceInPerMTok", "priceOutPerMTok"}, field + ".");
      if (!m.contains("name")) throw LlmSettingsError(field + ".name", "missing");
      model.name = stringField(m, "name", field + ".name");
      if (m.contains("priceInPerMTok")) model.priceInPerMTok = numberIn(m, "priceInPerMTok", field + ".priceInPerMTok", 0, 1e6);
      if (m.contains("priceOutPerMTok"))
        model.priceOutPerMTok = numberIn(m, "priceOutPerMTok", field + ".priceOutPerMTok", 0, 1e6);
    } else {
      throw LlmSettingsError(field, "must be a model name or an object {name, priceInPerMTok, priceOutPerMTok}");
    }
    if (model.name.empty() || model.name.size() > 256) throw LlmSettingsError(field + ".name", "must be 1 to 256 characters");
    if (!names.insert(model.name).second) throw LlmSettingsError(field + ".name", "\"" + model.name + "\" is listed twice");
    s.models.push_back(model);
  }
  if (j.contains("temperature")) s.temperature = numberIn(j, "temperature", "temperature", 0, 2);
  if (j.contains("maxTokens")) s.maxTokens = integerIn(j, "maxTokens", "maxTokens", 256, 1000000);
  if (j.contains("concurrency")) s.concurrency = integerIn(j, "concurrency", "concurrency", 1, 64);
  if (j.contains("repairTurns")) s.repairTurns = integerIn(j, "repairTurns", "repairTurns", 0, 8);
  if (j.contains("timeoutSeconds")) s.timeoutSeconds = integerIn(j, "timeoutSeconds", "timeoutSeconds", 1, 3600);
  if (j.contains("maxAttempts")) s.maxAttempts = integerIn(j, "maxAttempts", "maxAttempts", 1, 10);
  if (j.contains("useMaxCompletionTokens")) {
    if (!j["useMaxCompletionTokens"].is_boolean()) throw LlmSettingsError("useMaxCompletionTokens", "must be true or false");
    s.useMaxCompletionTokens = j["useMaxCompletionTokens"].get<bool>();
  }
  if (j.contains("compileArch")) {
    s.compileArch = stringField(j, "compileArch", "compileArch");
    if (s.compileArch.rfind("sm_", 0) != 0 || s.compileArch.size() < 5 || s.compileArch.size() > 8)
      throw LlmSettingsError("compileArch", "must look like \"sm_90\"");
  }
  if (j.contains("strategySectionMaxChars"))
    s.strategySectionMaxChars = integerIn(j, "strategySectionMaxChars", "strategySectionMaxChars", 100, 20000);
  if (j.contains("costWeight")) s.costWeight = numberIn(j, "costWeight", "costWeight", 0, 10);
  return s;
}

std::string toJson(const LlmSettings& s) {
  json j;
  j["api"] = chatApiName(s.api);
  j["endpoint"] = s.endpoint;
  j["apiKeyEnv"] = s.apiKeyEnv;
  j["models"] = json::array();
  for (const auto& m : s.models)
    j["models"].push_back({{"name", m.name}, {"priceInPerMTok", m.priceInPerMTok}, {"priceOutPerMTok", m.priceOutPerMTok}});
  j["temperature"] = s.temperature;
  j["maxTokens"] = s.maxTokens;
  j["concurrency"] = s.concurrency;
  j["repairTurns"] = s.repairTurns;
  j["timeoutSeconds"] = s.timeoutSeconds;
  j["maxAttempts"] = s.maxAttempts;
  j["useMaxCompletionTokens"] = s.useMaxCompletionTokens;
  j["compileArch"] = s.compileArch;
  j["strategySectionMaxChars"] = s.strategySectionMaxChars;
  j["costWeight"] = s.costWeight;
  return j.dump(2);
}

ClientSettings clientSettings(const LlmSettings& s) {
  ClientSettings c;
  c.endpoint = s.endpoint;
  c.apiKeyEnv = s.apiKeyEnv;
  c.maxAttempts = s.maxAttempts;
  c.maxConcurrent = s.concurrency;
  c.useMaxCompletionTokens = s.useMaxCompletionTokens;
  return c;
}

std::string resolveApiKey(const LlmSettings& s) {
  if (s.apiKeyEnv.empty()) return "";
  const char* value = std::getenv(s.apiKeyEnv.c_str());
  if (!value || !*value)
    throw ChatError(ChatErrorKind::Configuration,
                    "the environment variable " + s.apiKeyEnv + " named by apiKeyEnv is not set (export it before starting "
                    "Crucible, or clear apiKeyEnv for a server without keys)");
  return value;
}

double costUsd(const LlmModelSettings& model, const ChatUsage& usage) {
  return (static_cast<double>(usage.inputTokens) * model.priceInPerMTok +
          static_cast<double>(usage.outputTokens) * model.priceOutPerMTok) /
         1e6;
}

}  // namespace crucible::llm
