// SPDX-License-Identifier: GPL-3.0-or-later
// The two HTTP chat clients: OpenAI-compatible chat completions (OpenAI,
// vLLM, llama.cpp, Ollama, SGLang, ...) and the Anthropic Messages API. They
// share one transport (libcurl) with retries, backoff, Retry-After,
// cancellation, a response size cap and a bound on concurrent requests.
#pragma once
#include <condition_variable>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "backends/proposers/llm/chat.h"

namespace crucible::llm {

enum class ChatApi { OpenAiCompatible, Anthropic };

// Shared transport and retry policy; a subclass says how one API builds its
// request and reads its reply.
class HttpChatClient : public ChatClient {
public:
  explicit HttpChatClient(ClientSettings settings);
  ChatReply send(const ChatRequest& request, const CancelToken& cancel) override;
  const ClientSettings& settings() const { return settings_; }

protected:
  virtual const char* apiName() const = 0;
  virtual std::string url() const = 0;
  // Headers besides Content-Type; `key` is empty when no key is configured.
  virtual std::vector<std::string> headers(const std::string& key) const = 0;
  virtual std::string body(const ChatRequest& request) const = 0;
  // Reads text, stop reason and usage; throws ChatError(MalformedReply) with
  // what is missing (the caller adds status, raw body and attempts).
  virtual ChatReply parse(const std::string& body) const = 0;

private:
  ChatReply sendUnscrubbed(const ChatRequest& request, const CancelToken& cancel, const std::string& key);
  void acquireSlot(const CancelToken& cancel);
  void releaseSlot();
  std::chrono::milliseconds backoff(int attempt);

  ClientSettings settings_;
  std::mutex slotMutex_;
  std::condition_variable slotFreed_;
  int active_ = 0;
  std::mutex rngMutex_;
  std::mt19937_64 rng_;
};

class OpenAiChatClient : public HttpChatClient {
public:
  using HttpChatClient::HttpChatClient;

protected:
  const char* apiName() const override { return "OpenAI-compatible"; }
  std::string url() const override;
  std::vector<std::string> headers(const std::string& key) const override;
  std::string body(const ChatRequest& request) const override;
  ChatReply parse(const std::string& body) const override;
};

class AnthropicChatClient : public HttpChatClient {
public:
  using HttpChatClient::HttpChatClient;

protected:
  const char* apiName() const override { return "Anthropic"; }
  std::string url() const override;
  std::vector<std::string> headers(const std::string& key) const override;
  std::string body(const ChatRequest& request) const override;
  ChatReply parse(const std::string& body) const override;
};

std::unique_ptr<ChatClient> makeChatClient(ChatApi api, ClientSettings settings);

}  // namespace crucible::llm
