// SPDX-License-Identifier: GPL-3.0-or-later
// What differs between the two APIs: the URL, the headers, the request body
// and where the reply keeps its text, stop reason and token counts.
#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "backends/proposers/llm/clients.h"
#include "core/io/utf8_text.h"

namespace crucible::llm {

namespace {

using nlohmann::json;

std::string withoutTrailingSlash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

[[noreturn]] void missing(const std::string& what) { throw ChatError(ChatErrorKind::MalformedReply, what); }

json parseObject(const std::string& body) {
  json doc;
  try {
    doc = json::parse(body);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    missing(std::string("the body is not valid JSON (truncated?): ") + utf8Repaired(e.what()));
  }
  if (!doc.is_object()) missing("the body is JSON but not an object");
  return doc;
}

// A server's token count: a whole number from 0 up. A negative one counts nothing; one past
// int64 counts as the most there is (a budget over it is spent, not wrapped to a negative sum).
std::int64_t tokenCount(const json& usage, const char* field) {
  if (!usage.is_object() || !usage.contains(field)) return 0;
  const json& v = usage[field];
  if (v.is_number_unsigned())
    return static_cast<std::int64_t>(
        std::min<std::uint64_t>(v.get<std::uint64_t>(), std::numeric_limits<std::int64_t>::max()));
  if (!v.is_number_integer()) return 0;
  return std::max<std::int64_t>(0, v.get<std::int64_t>());
}

}  // namespace

// --- OpenAI-compatible chat completions -------------------------------------

std::string OpenAiChatClient::url() const { return withoutTrailingSlash(settings().endpoint) + "/chat/completions"; }

std::vector<std::string> OpenAiChatClient::headers(const std::string& key) const {
  if (key.empty()) return {};
  return {"Authorization: Bearer " + key};
}

std::string OpenAiChatClient::body(const ChatRequest& request) const {
  json messages = json::array();
  if (!request.system.empty()) messages.push_back({{"role", "system"}, {"content", request.system}});
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.text}});
  json doc = {{"model", request.model},
              {"messages", std::move(messages)},
              {"temperature", request.temperature},
              {"stream", false}};
  doc[settings().useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens"] = request.maxTokens;
  return doc.dump();
}

ChatReply OpenAiChatClient::parse(const std::string& body) const {
  const json doc = parseObject(body);
  if (!doc.contains("choices") || !doc["choices"].is_array() || doc["choices"].empty())
    missing("no choices[0] in the reply");
  const json& choice = doc["choices"][0];
  if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object())
    missing("no choices[0].message in the reply");
  const json& message = choice["message"];
  if (!message.contains("content") || !message["content"].is_string())
    missing("choices[0].message.content is missing or not a string (finish_reason: " +
            (choice.contains("finish_reason") ? choice["finish_reason"].dump() : std::string("absent")) + ")");
  ChatReply reply;
  reply.text = message["content"].get<std::string>();
  if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
    reply.stopReason = choice["finish_reason"].get<std::string>();
  // Servers that leave usage out get zero counts rather than a failed reply.
  if (doc.contains("usage")) {
    reply.usage.inputTokens = tokenCount(doc["usage"], "prompt_tokens");
    reply.usage.outputTokens = tokenCount(doc["usage"], "completion_tokens");
  }
  return reply;
}

// --- Anthropic Messages -----------------------------------------------------

std::string AnthropicChatClient::url() const {
  const std::string base = withoutTrailingSlash(settings().endpoint);
  return endsWith(base, "/v1") ? base + "/messages" : base + "/v1/messages";
}

std::vector<std::string> AnthropicChatClient::headers(const std::string& key) const {
  std::vector<std::string> list{"anthropic-version: 2023-06-01"};
  if (!key.empty()) list.push_back("x-api-key: " + key);
  return list;
}

std::string AnthropicChatClient::body(const ChatRequest& request) const {
  json messages = json::array();
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.text}});
  json doc = {{"model", request.model},
              {"max_tokens", request.maxTokens},
              {"temperature", request.temperature},
              {"messages", std::move(messages)}};
  if (!request.system.empty()) doc["system"] = request.system;
  return doc.dump();
}

ChatReply AnthropicChatClient::parse(const std::string& body) const {
  const json doc = parseObject(body);
  if (!doc.contains("content") || !doc["content"].is_array()) missing("no content array in the reply");
  ChatReply reply;
  bool anyText = false;
  for (const auto& block : doc["content"]) {
    if (block.is_object() && block.value("type", "") == "text" && block.contains("text") && block["text"].is_string()) {
      reply.text += block["text"].get<std::string>();
      anyText = true;
    }
  }
  const std::string stop = doc.contains("stop_reason") && doc["stop_reason"].is_string()
                               ? doc["stop_reason"].get<std::string>()
                               : std::string();
  if (!anyText) missing("no text block in content (stop_reason: " + (stop.empty() ? "absent" : stop) + ")");
  if (stop == "end_turn" || stop == "stop_sequence")
    reply.stopReason = "stop";
  else if (stop == "max_tokens")
    reply.stopReason = "length";
  else
    reply.stopReason = stop;
  if (doc.contains("usage")) {
    reply.usage.inputTokens = tokenCount(doc["usage"], "input_tokens");
    reply.usage.outputTokens = tokenCount(doc["usage"], "output_tokens");
  }
  return reply;
}

}  // namespace crucible::llm
