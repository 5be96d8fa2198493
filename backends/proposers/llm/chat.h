// SPDX-License-Identifier: GPL-3.0-or-later
// The contract between a proposer and a language model behind HTTP: one chat
// request in, one reply (text, why it stopped, tokens used, how long it took)
// or one ChatError out. Plain C++, no Qt: crucible-cli uses it on GPU servers.
#pragma once
#include <functional>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/proposers/llm/cancel_token.h"

namespace crucible::llm {

struct ChatMessage {
  std::string role;  // "user" or "assistant"
  std::string text;
};

struct ChatRequest {
  std::string model;
  std::string system;  // empty: no system prompt
  std::vector<ChatMessage> messages;
  double temperature = 0.7;
  int maxTokens = 4096;
  // Limit on one attempt (connect, send, wait, receive); retries get their own.
  std::chrono::milliseconds timeout{180000};
};

struct ChatUsage {
  std::int64_t inputTokens = 0;
  std::int64_t outputTokens = 0;
};

struct ChatReply {
  std::string text;
  // Normalised: "stop" (natural end or stop sequence), "length" (hit
  // maxTokens: the text is cut), otherwise the server's own word
  // ("content_filter", "tool_use", "refusal", ...).
  std::string stopReason;
  ChatUsage usage;
  double latencySeconds = 0;  // of the successful attempt
  int httpStatus = 0;
  int attempts = 0;  // 1 when the first attempt succeeded
};

enum class ChatErrorKind {
  Timeout,           // no (complete) reply within the request's timeout
  HttpStatus,        // the server answered with an error status
  ConnectionDropped, // could not connect, or the connection broke mid-reply
  MalformedReply,    // not JSON, truncated, or a required field missing
  ResponseTooLarge,  // the body exceeded ClientSettings::maxResponseBytes
  Cancelled,         // the caller's CancelToken fired
  Budget,            // refused before sending: a token or money budget is spent (raised by callers)
  Configuration,     // unusable settings: no endpoint, key variable unset, ...
};

const char* chatErrorKindName(ChatErrorKind kind);

// Never carries the API key: messages and the raw body are scrubbed of it.
class ChatError : public std::runtime_error {
public:
  ChatError(ChatErrorKind kind, const std::string& message, int httpStatus = 0, std::string rawBody = {},
            int attempts = 0)
      : std::runtime_error(message), kind_(kind), httpStatus_(httpStatus), rawBody_(std::move(rawBody)),
        attempts_(attempts) {}
  ChatErrorKind kind() const { return kind_; }
  int httpStatus() const { return httpStatus_; }       // 0 when no status was received
  const std::string& rawBody() const { return rawBody_; }  // the reply as received, for inspection
  int attempts() const { return attempts_; }

private:
  ChatErrorKind kind_;
  int httpStatus_;
  std::string rawBody_;
  int attempts_;
};

// How a client reaches its server. Shared by both APIs.
struct ClientSettings {
  // OpenAI-compatible: the base URL ending before /chat/completions, e.g.
  // https://api.openai.com/v1 or http://localhost:8000/v1. Anthropic: the
  // base URL before /v1/messages, e.g. https://api.anthropic.com.
  std::string endpoint;
  // NAME of the environment variable holding the key (e.g. OPENAI_API_KEY).
  // Empty: send no key (local servers). Set but missing: Configuration error.
  std::string apiKeyEnv;
  // The key itself, asked for at each request (the GUI's system keychain,
  // app/gui/key_store.h): used instead of the environment when set, so the
  // key is in no environment a worker process inherits. Returns "" when there
  // is none (a Configuration error naming apiKeyEnv). Must be thread-safe.
  std::function<std::string()> apiKey;
  int maxAttempts = 4;                               // bounded retries on 429, 5xx, dropped connections
  std::chrono::milliseconds connectTimeout{10000};
  std::chrono::milliseconds initialBackoff{1000};    // doubled each retry, with jitter
  std::chrono::milliseconds maxBackoff{30000};
  std::chrono::milliseconds maxRetryAfter{60000};    // a server's Retry-After is capped to this
  std::size_t maxResponseBytes = std::size_t{4} << 20;
  int maxConcurrent = 4;                             // requests beyond it wait (cancellably)
  // OpenAI's reasoning models want max_completion_tokens; most servers take max_tokens.
  bool useMaxCompletionTokens = false;
};

class ChatClient {
public:
  virtual ~ChatClient() = default;
  // Blocks until a reply, an error, or cancellation. Thread-safe.
  // Throws ChatError.
  virtual ChatReply send(const ChatRequest& request, const CancelToken& cancel) = 0;
};

}  // namespace crucible::llm
