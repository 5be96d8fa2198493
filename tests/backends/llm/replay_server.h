// SPDX-License-Identifier: GPL-3.0-or-later
// A loopback HTTP server (cpp-httplib on 127.0.0.1, an ephemeral port) that
// answers chat requests in the OpenAI or the Anthropic format with scripted
// replies, and records what it was sent. Recorded model replies live in
// tests/backends/llm/replies/.
#pragma once
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace crucible::llm::testing {

inline std::string recordedReply(const std::string& name) {
  const std::string path = std::string(CRUCIBLE_LLM_REPLIES_DIR) + "/" + name;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "missing recorded reply " << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ScriptedReply {
  int status = 200;
  std::string text;                         // the model's text
  std::string finish = "stop";              // "stop" | "length"
  std::map<std::string, std::string> headers;
  std::optional<std::string> rawBody;       // sent verbatim instead of an envelope
  int inputTokens = 1000;
  int outputTokens = 200;
};

inline ScriptedReply say(const std::string& text, const std::string& finish = "stop") {
  ScriptedReply r;
  r.text = text;
  r.finish = finish;
  return r;
}

class ReplayServer {
public:
  enum class Api { OpenAi, Anthropic };
  using Script = std::function<ScriptedReply(const nlohmann::json& request, int index)>;

  explicit ReplayServer(Api api = Api::OpenAi) : api_(api) {
    http_.set_keep_alive_max_count(1);
    const char* path = api == Api::OpenAi ? "/v1/chat/completions" : "/v1/messages";
    http_.Post(path, [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); });
    port_ = http_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { http_.listen_after_bind(); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!http_.is_running() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~ReplayServer() {
    http_.stop();
    if (thread_.joinable()) thread_.join();
  }

  // Replies in order; a request beyond the list gets a 500 and fails the test.
  void queue(std::vector<ScriptedReply> replies) {
    script([replies](const nlohmann::json&, int i) {
      if (i < static_cast<int>(replies.size())) return replies[static_cast<std::size_t>(i)];
      ADD_FAILURE() << "unexpected request #" << i;
      ScriptedReply r;
      r.status = 500;
      return r;
    });
  }
  void script(Script s) {
    std::lock_guard lock(mutex_);
    script_ = std::move(s);
  }

  // OpenAI-compatible endpoints end in /v1; Anthropic's is the bare base.
  std::string endpoint() const {
    const std::string base = "http://127.0.0.1:" + std::to_string(port_);
    return api_ == Api::OpenAi ? base + "/v1" : base;
  }
  std::vector<nlohmann::json> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  std::vector<std::string> credentials() const {
    std::lock_guard lock(mutex_);
    return credentials_;
  }
  // The text of the last user message of request i.
  std::string lastUserText(std::size_t i) const {
    const auto r = requests();
    if (i >= r.size()) return "";
    const auto& messages = r[i]["messages"];
    for (auto it = messages.rbegin(); it != messages.rend(); ++it)
      if ((*it)["role"] == "user") return textOf((*it)["content"]);
    return "";
  }
  static std::string textOf(const nlohmann::json& content) {
    if (content.is_string()) return content.get<std::string>();
    std::string out;
    if (content.is_array())
      for (const auto& part : content)
        if (part.contains("text")) out += part["text"].get<std::string>();
    return out;
  }

private:
  void answer(const httplib::Request& req, httplib::Response& res) {
    int index = 0;
    Script s;
    const nlohmann::json parsed = nlohmann::json::parse(req.body, nullptr, false);
    {
      std::lock_guard lock(mutex_);
      index = static_cast<int>(requests_.size());
      requests_.push_back(parsed);
      credentials_.push_back(req.get_header_value(api_ == Api::OpenAi ? "Authorization" : "x-api-key"));
      s = script_;
    }
    const ScriptedReply r = s ? s(parsed, index) : ScriptedReply{};
    res.status = r.status;
    for (const auto& [k, v] : r.headers) res.set_header(k, v);
    if (r.rawBody) {
      res.set_content(*r.rawBody, "application/json");
      return;
    }
    nlohmann::json body;
    if (api_ == Api::OpenAi) {
      body = {{"id", "chatcmpl-replay"},
              {"object", "chat.completion"},
              {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", r.text}}}, {"finish_reason", r.finish}}}},
              {"usage", {{"prompt_tokens", r.inputTokens}, {"completion_tokens", r.outputTokens}}}};
    } else {
      body = {{"id", "msg_replay"},
              {"type", "message"},
              {"role", "assistant"},
              {"content", {{{"type", "text"}, {"text", r.text}}}},
              {"stop_reason", r.finish == "length" ? "max_tokens" : "end_turn"},
              {"usage", {{"input_tokens", r.inputTokens}, {"output_tokens", r.outputTokens}}}};
    }
    if (r.status != 200) body = {{"error", {{"message", "scripted status"}}}};
    res.set_content(body.dump(), "application/json");
  }

  Api api_;
  httplib::Server http_;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  Script script_;
  std::vector<nlohmann::json> requests_;
  std::vector<std::string> credentials_;
};

}  // namespace crucible::llm::testing
