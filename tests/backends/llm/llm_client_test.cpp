// SPDX-License-Identifier: GPL-3.0-or-later
// The chat clients against real HTTP servers on 127.0.0.1 (an ephemeral port,
// started inside this process) replaying recorded replies: good replies,
// retries on 429 and 500, timeouts, dropped connections, malformed and
// oversized bodies, cancellation, the concurrency bound, and the API key
// kept out of every error and reply.
#include <gtest/gtest.h>
#include <limits>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>

#include "backends/proposers/llm/clients.h"

namespace crucible::llm {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr const char* kOpenAiOk = R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test",
"choices":[{"index":0,"message":{"role":"assistant","content":"Architecture: tiled.\n```cuda\n__global__ void k() {}\n```"},
"finish_reason":"stop"}],"usage":{"prompt_tokens":42,"completion_tokens":17,"total_tokens":59}})";

constexpr const char* kOpenAiLength = R"({"id":"chatcmpl-2","object":"chat.completion","model":"gpt-test",
"choices":[{"index":0,"message":{"role":"assistant","content":"```cuda\n__global__ void k("},
"finish_reason":"length"}],"usage":{"prompt_tokens":40,"completion_tokens":64}})";

constexpr const char* kOpenAiNoContent = R"({"id":"chatcmpl-3","object":"chat.completion","model":"gpt-test",
"choices":[{"index":0,"message":{"role":"assistant"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":0}})";

constexpr const char* kAnthropicOk = R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-test",
"content":[{"type":"text","text":"Plan: warp-per-row."},{"type":"text","text":" Code follows."}],
"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":30,"output_tokens":12}})";

constexpr const char* kAnthropicMaxTokens = R"({"id":"msg_2","type":"message","role":"assistant","model":"claude-test",
"content":[{"type":"text","text":"```cuda\n__global__"}],"stop_reason":"max_tokens","usage":{"input_tokens":30,"output_tokens":64}})";

constexpr const char* kAnthropicNoContent = R"({"id":"msg_3","type":"message","role":"assistant","model":"claude-test",
"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":0}})";

constexpr const char* kSecret = "sk-test-9f8e7d6c5b4a-SECRET";

// One loopback HTTP server; handlers that block poll `released` so the
// destructor can always stop it promptly.
class LoopbackServer {
public:
  LoopbackServer() { http.set_keep_alive_max_count(1); }
  ~LoopbackServer() {
    released = true;
    http.stop();
    if (thread.joinable()) thread.join();
  }
  void start() {
    port = http.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port, 0);
    thread = std::thread([this] { http.listen_after_bind(); });
    const auto deadline = Clock::now() + 5s;
    while (!http.is_running() && Clock::now() < deadline) std::this_thread::sleep_for(1ms);
    ASSERT_TRUE(http.is_running());
  }
  // Sleeps up to `d`, returning early when the server shuts down.
  void hold(std::chrono::milliseconds d) {
    const auto until = Clock::now() + d;
    while (!released && Clock::now() < until) std::this_thread::sleep_for(5ms);
  }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port); }

  httplib::Server http;
  std::atomic<bool> released{false};
  std::atomic<int> requests{0};
  int port = 0;
  std::thread thread;
};

ClientSettings fastSettings(const std::string& endpoint) {
  ClientSettings s;
  s.endpoint = endpoint;
  s.maxAttempts = 3;
  s.connectTimeout = 2000ms;
  s.initialBackoff = 10ms;
  s.maxBackoff = 40ms;
  return s;
}

ChatRequest sampleRequest() {
  ChatRequest r;
  r.model = "test-model";
  r.system = "You write CUDA kernels.";
  r.messages = {{"user", "Write a row softmax."}};
  r.temperature = 0.3;
  r.maxTokens = 512;
  r.timeout = 3000ms;
  return r;
}

ChatError expectError(ChatClient& client, const ChatRequest& request, const CancelToken& cancel = {}) {
  try {
    const ChatReply reply = client.send(request, cancel);
    ADD_FAILURE() << "expected a ChatError, got a reply: " << reply.text;
  } catch (const ChatError& e) {
    return e;
  }
  return ChatError(ChatErrorKind::Budget, "no error");
}

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void replyJson(httplib::Response& res, const std::string& body, int status = 200) {
  res.status = status;
  res.set_content(body, "application/json");
}

// ---------------------------------------------------------------------------

TEST(LlmClient, OpenAiGoodReply) {
  LoopbackServer server;
  nlohmann::json seen;
  std::string auth;
  server.http.Post("/v1/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
    seen = nlohmann::json::parse(req.body);
    auth = req.get_header_value("Authorization");
    replyJson(res, kOpenAiOk);
  });
  server.start();
  setenv("CRUCIBLE_LLM_TEST_KEY", kSecret, 1);
  auto settings = fastSettings(server.base() + "/v1/");
  settings.apiKeyEnv = "CRUCIBLE_LLM_TEST_KEY";
  OpenAiChatClient client(settings);
  const ChatReply reply = client.send(sampleRequest(), {});
  EXPECT_NE(reply.text.find("__global__ void k()"), std::string::npos);
  EXPECT_EQ(reply.stopReason, "stop");
  EXPECT_EQ(reply.usage.inputTokens, 42);
  EXPECT_EQ(reply.usage.outputTokens, 17);
  EXPECT_EQ(reply.httpStatus, 200);
  EXPECT_EQ(reply.attempts, 1);
  EXPECT_GT(reply.latencySeconds, 0.0);
  EXPECT_EQ(auth, std::string("Bearer ") + kSecret);
  EXPECT_EQ(seen["model"], "test-model");
  EXPECT_EQ(seen["max_tokens"], 512);
  EXPECT_DOUBLE_EQ(seen["temperature"].get<double>(), 0.3);
  ASSERT_EQ(seen["messages"].size(), 2u);
  EXPECT_EQ(seen["messages"][0]["role"], "system");
  EXPECT_EQ(seen["messages"][1]["content"], "Write a row softmax.");
}

TEST(LlmClient, AnthropicGoodReply) {
  LoopbackServer server;
  nlohmann::json seen;
  std::string key, version;
  server.http.Post("/v1/messages", [&](const httplib::Request& req, httplib::Response& res) {
    seen = nlohmann::json::parse(req.body);
    key = req.get_header_value("x-api-key");
    version = req.get_header_value("anthropic-version");
    replyJson(res, kAnthropicOk);
  });
  server.start();
  setenv("CRUCIBLE_LLM_TEST_KEY", kSecret, 1);
  auto settings = fastSettings(server.base());
  settings.apiKeyEnv = "CRUCIBLE_LLM_TEST_KEY";
  AnthropicChatClient client(settings);
  const ChatReply reply = client.send(sampleRequest(), {});
  EXPECT_EQ(reply.text, "Plan: warp-per-row. Code follows.");
  EXPECT_EQ(reply.stopReason, "stop");
  EXPECT_EQ(reply.usage.inputTokens, 30);
  EXPECT_EQ(reply.usage.outputTokens, 12);
  EXPECT_EQ(reply.attempts, 1);
  EXPECT_EQ(key, kSecret);
  EXPECT_EQ(version, "2023-06-01");
  EXPECT_EQ(seen["system"], "You write CUDA kernels.");
  EXPECT_EQ(seen["max_tokens"], 512);
  ASSERT_EQ(seen["messages"].size(), 1u);
  EXPECT_EQ(seen["messages"][0]["role"], "user");
}

TEST(LlmClient, RetryAfterIsHonoured) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    if (server.requests++ == 0) {
      res.set_header("Retry-After", "1");
      replyJson(res, R"({"error":{"message":"Rate limit reached","type":"requests"}})", 429);
    } else {
      replyJson(res, kOpenAiOk);
    }
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  const auto start = Clock::now();
  const ChatReply reply = client.send(sampleRequest(), {});
  EXPECT_GE(secondsSince(start), 0.95);  // the 10 ms backoff would have been far shorter
  EXPECT_LT(secondsSince(start), 3.0);
  EXPECT_EQ(reply.attempts, 2);
  EXPECT_EQ(server.requests, 2);
}

TEST(LlmClient, ServerErrorThenSuccess) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    if (server.requests++ == 0)
      replyJson(res, R"({"error":{"message":"internal"}})", 500);
    else
      replyJson(res, kOpenAiOk);
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  const ChatReply reply = client.send(sampleRequest(), {});
  EXPECT_EQ(reply.attempts, 2);
  EXPECT_EQ(reply.stopReason, "stop");
}

TEST(LlmClient, ServerErrorForeverGivesUp) {
  LoopbackServer server;
  server.http.Post("/v1/messages", [&](const httplib::Request&, httplib::Response& res) {
    ++server.requests;
    replyJson(res, R"({"type":"error","error":{"type":"api_error","message":"Internal server error"}})", 500);
  });
  server.start();
  AnthropicChatClient client(fastSettings(server.base()));
  const ChatError e = expectError(client, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::HttpStatus);
  EXPECT_EQ(e.httpStatus(), 500);
  EXPECT_EQ(e.attempts(), 3);
  EXPECT_EQ(server.requests, 3);
  const std::string what = e.what();
  EXPECT_NE(what.find("HTTP 500"), std::string::npos) << what;
  EXPECT_NE(what.find("Internal server error"), std::string::npos) << what;
  EXPECT_NE(what.find("3 attempts"), std::string::npos) << what;
}

TEST(LlmClient, ClientErrorIsNotRetried) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    ++server.requests;
    replyJson(res, R"({"error":{"message":"The model `nope` does not exist"}})", 404);
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  const ChatError e = expectError(client, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::HttpStatus);
  EXPECT_EQ(e.httpStatus(), 404);
  EXPECT_EQ(server.requests, 1);
  EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
}

TEST(LlmClient, ReplyThatNeverComesTimesOut) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    ++server.requests;
    server.hold(5000ms);
    replyJson(res, kOpenAiOk);
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  ChatRequest request = sampleRequest();
  request.timeout = 300ms;
  const auto start = Clock::now();
  const ChatError e = expectError(client, request);
  EXPECT_EQ(e.kind(), ChatErrorKind::Timeout) << e.what();
  EXPECT_LT(secondsSince(start), 1.5);
  EXPECT_EQ(server.requests, 1);
}

TEST(LlmClient, DroppedConnectionIsRetried) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    if (server.requests++ == 0) {
      // Promise 1000 bytes, send 20, then close the connection.
      res.set_content_provider(1000, "application/json", [](size_t, size_t, httplib::DataSink& sink) {
        sink.write(kOpenAiOk, 20);
        return false;
      });
    } else {
      replyJson(res, kOpenAiOk);
    }
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  const ChatReply reply = client.send(sampleRequest(), {});
  EXPECT_EQ(reply.attempts, 2);
}

TEST(LlmClient, DroppedConnectionForeverGivesUp) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    ++server.requests;
    res.set_content_provider(1000, "application/json", [](size_t, size_t, httplib::DataSink& sink) {
      sink.write(kOpenAiOk, 20);
      return false;
    });
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  const ChatError e = expectError(client, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::ConnectionDropped) << e.what();
  EXPECT_EQ(e.attempts(), 3);
  EXPECT_EQ(server.requests, 3);
}

TEST(LlmClient, NoServerIsAConnectionError) {
  int port = 0;
  {
    LoopbackServer gone;
    gone.start();
    port = gone.port;
  }
  auto settings = fastSettings("http://127.0.0.1:" + std::to_string(port));
  settings.maxAttempts = 2;
  OpenAiChatClient client(settings);
  const ChatError e = expectError(client, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::ConnectionDropped) << e.what();
  EXPECT_NE(std::string(e.what()).find("could not connect"), std::string::npos) << e.what();
}

TEST(LlmClient, TruncatedJsonIsMalformed) {
  LoopbackServer server;
  const std::string truncated = std::string(kOpenAiOk).substr(0, 80);
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    ++server.requests;
    replyJson(res, truncated);
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  const ChatError e = expectError(client, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::MalformedReply);
  EXPECT_EQ(e.rawBody(), truncated);
  EXPECT_EQ(e.httpStatus(), 200);
  EXPECT_EQ(server.requests, 1);
  EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
}

TEST(LlmClient, MissingContentIsMalformed) {
  LoopbackServer server;
  server.http.Post("/chat/completions",
                   [&](const httplib::Request&, httplib::Response& res) { replyJson(res, kOpenAiNoContent); });
  server.http.Post("/v1/messages",
                   [&](const httplib::Request&, httplib::Response& res) { replyJson(res, kAnthropicNoContent); });
  server.start();
  OpenAiChatClient openai(fastSettings(server.base()));
  const ChatError e1 = expectError(openai, sampleRequest());
  EXPECT_EQ(e1.kind(), ChatErrorKind::MalformedReply);
  EXPECT_NE(std::string(e1.what()).find("choices[0].message.content"), std::string::npos) << e1.what();
  EXPECT_EQ(e1.rawBody(), kOpenAiNoContent);
  AnthropicChatClient anthropic(fastSettings(server.base()));
  const ChatError e2 = expectError(anthropic, sampleRequest());
  EXPECT_EQ(e2.kind(), ChatErrorKind::MalformedReply);
  EXPECT_NE(std::string(e2.what()).find("no content array"), std::string::npos) << e2.what();
}

// A server's token counts are what the budget adds up: a negative count counts nothing, and
// one past int64 (2^64 - 1) counts as the most there is, not as -1.
TEST(LlmClient, TokenCountsOutsideAWholeNumberAreBounded) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    replyJson(res, R"({"choices":[{"index":0,"message":{"role":"assistant","content":"k"},"finish_reason":"stop"}],)"
                   R"("usage":{"prompt_tokens":-42,"completion_tokens":18446744073709551615}})");
  });
  server.http.Post("/v1/messages", [&](const httplib::Request&, httplib::Response& res) {
    replyJson(res, R"({"content":[{"type":"text","text":"k"}],"stop_reason":"end_turn",)"
                   R"("usage":{"input_tokens":18446744073709551615,"output_tokens":"12"}})");
  });
  server.start();
  const std::int64_t most = std::numeric_limits<std::int64_t>::max();
  OpenAiChatClient openai(fastSettings(server.base()));
  const ChatReply r1 = openai.send(sampleRequest(), {});
  EXPECT_EQ(r1.usage.inputTokens, 0);
  EXPECT_EQ(r1.usage.outputTokens, most);
  AnthropicChatClient anthropic(fastSettings(server.base()));
  const ChatReply r2 = anthropic.send(sampleRequest(), {});
  EXPECT_EQ(r2.usage.inputTokens, most);
  EXPECT_EQ(r2.usage.outputTokens, 0);
}

TEST(LlmClient, LengthStopIsReportedNotAnError) {
  LoopbackServer server;
  server.http.Post("/chat/completions",
                   [&](const httplib::Request&, httplib::Response& res) { replyJson(res, kOpenAiLength); });
  server.http.Post("/v1/messages",
                   [&](const httplib::Request&, httplib::Response& res) { replyJson(res, kAnthropicMaxTokens); });
  server.start();
  OpenAiChatClient openai(fastSettings(server.base()));
  const ChatReply r1 = openai.send(sampleRequest(), {});
  EXPECT_EQ(r1.stopReason, "length");
  EXPECT_EQ(r1.usage.outputTokens, 64);
  AnthropicChatClient anthropic(fastSettings(server.base()));
  const ChatReply r2 = anthropic.send(sampleRequest(), {});
  EXPECT_EQ(r2.stopReason, "length");
  EXPECT_EQ(r2.text, "```cuda\n__global__");
}

TEST(LlmClient, HugeBodyIsCapped) {
  EXPECT_EQ(ClientSettings{}.maxResponseBytes, std::size_t{4} << 20);
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    replyJson(res, std::string(1 << 20, 'x'));
  });
  server.start();
  auto settings = fastSettings(server.base());
  settings.maxResponseBytes = 64 << 10;
  OpenAiChatClient client(settings);
  const ChatError e = expectError(client, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::ResponseTooLarge) << e.what();
  EXPECT_LE(e.rawBody().size(), settings.maxResponseBytes);
  EXPECT_NE(std::string(e.what()).find("65536 bytes"), std::string::npos) << e.what();
}

TEST(LlmClient, CancelDuringSlowReply) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    server.hold(5000ms);
    replyJson(res, kOpenAiOk);
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(200ms);
    cancel.cancel();
  });
  const auto start = Clock::now();
  const ChatError e = expectError(client, sampleRequest(), cancel);
  const double elapsed = secondsSince(start);
  canceller.join();
  EXPECT_EQ(e.kind(), ChatErrorKind::Cancelled) << e.what();
  EXPECT_LT(elapsed, 0.8);  // the transfer is polled every 50 ms
}

TEST(LlmClient, CancelDuringRetryAfterWait) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    ++server.requests;
    res.set_header("Retry-After", "30");
    replyJson(res, R"({"error":{"message":"slow down"}})", 429);
  });
  server.start();
  OpenAiChatClient client(fastSettings(server.base()));
  CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(300ms);
    cancel.cancel();
  });
  const auto start = Clock::now();
  const ChatError e = expectError(client, sampleRequest(), cancel);
  const double elapsed = secondsSince(start);
  canceller.join();
  EXPECT_EQ(e.kind(), ChatErrorKind::Cancelled) << e.what();
  EXPECT_LT(elapsed, 1.0);
  EXPECT_EQ(server.requests, 1);
}

TEST(LlmClient, ConcurrencyLimitIsHonoured) {
  LoopbackServer server;
  std::atomic<int> active{0}, peak{0};
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    const int now = ++active;
    int seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
    server.hold(150ms);
    --active;
    replyJson(res, kOpenAiOk);
  });
  server.start();
  auto settings = fastSettings(server.base());
  settings.maxConcurrent = 2;
  OpenAiChatClient client(settings);
  std::atomic<int> ok{0};
  std::vector<std::thread> callers;
  for (int i = 0; i < 6; ++i)
    callers.emplace_back([&] {
      try {
        client.send(sampleRequest(), {});
        ++ok;
      } catch (const ChatError& e) {
        ADD_FAILURE() << e.what();
      }
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(ok, 6);
  EXPECT_EQ(peak, 2);
}

TEST(LlmClient, CancelWhileWaitingForASlot) {
  LoopbackServer server;
  server.http.Post("/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
    ++server.requests;
    server.hold(2000ms);
    replyJson(res, kOpenAiOk);
  });
  server.start();
  auto settings = fastSettings(server.base());
  settings.maxConcurrent = 1;
  OpenAiChatClient client(settings);
  CancelToken first, second;
  std::thread holder([&] { EXPECT_EQ(expectError(client, sampleRequest(), first).kind(), ChatErrorKind::Cancelled); });
  while (server.requests == 0) std::this_thread::sleep_for(5ms);  // the only slot is taken
  std::thread canceller([second] {
    std::this_thread::sleep_for(200ms);
    second.cancel();
  });
  const auto start = Clock::now();
  const ChatError e = expectError(client, sampleRequest(), second);
  EXPECT_LT(secondsSince(start), 1.0);
  canceller.join();
  first.cancel();
  const auto t0 = Clock::now();
  holder.join();
  EXPECT_LT(secondsSince(t0), 0.5);  // an in-flight request stops promptly too
  EXPECT_EQ(e.kind(), ChatErrorKind::Cancelled) << e.what();
  EXPECT_NE(std::string(e.what()).find("free request slot"), std::string::npos) << e.what();
  EXPECT_EQ(server.requests, 1);
}

TEST(LlmClient, KeyNeverAppearsInErrorsOrReplies) {
  LoopbackServer server;
  auto echo = [](const httplib::Request& req) {
    std::string dump;
    for (const auto& [name, value] : req.headers) dump += name + ": " + value + "\n";
    return dump;
  };
  std::atomic<bool> keySeen{false};
  server.http.Post("/denied/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
    keySeen = keySeen || req.get_header_value("Authorization").find(kSecret) != std::string::npos;
    replyJson(res, nlohmann::json{{"error", {{"message", "bad key; you sent:\n" + echo(req)}}}}.dump(), 401);
  });
  server.http.Post("/garbled/chat/completions",
                   [&](const httplib::Request& req, httplib::Response& res) { replyJson(res, echo(req)); });
  server.http.Post("/echo/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
    nlohmann::json reply = nlohmann::json::parse(kOpenAiOk);
    reply["choices"][0]["message"]["content"] = echo(req);
    replyJson(res, reply.dump());
  });
  server.http.Post("/v1/messages", [&](const httplib::Request& req, httplib::Response& res) {
    keySeen = keySeen && req.get_header_value("x-api-key") == kSecret;
    replyJson(res, R"({"type":"error","error":{"type":"authentication_error","message":")" + echo(req) + "\"}}", 403);
  });
  server.start();
  setenv("CRUCIBLE_LLM_TEST_KEY", kSecret, 1);
  auto settingsFor = [&](const std::string& path) {
    auto s = fastSettings(server.base() + path);
    s.apiKeyEnv = "CRUCIBLE_LLM_TEST_KEY";
    return s;
  };
  auto clean = [](const std::string& text) { return text.find(kSecret) == std::string::npos; };

  OpenAiChatClient denied(settingsFor("/denied"));
  const ChatError e1 = expectError(denied, sampleRequest());
  EXPECT_EQ(e1.kind(), ChatErrorKind::HttpStatus);
  EXPECT_TRUE(clean(e1.what())) << e1.what();
  EXPECT_TRUE(clean(e1.rawBody())) << e1.rawBody();
  EXPECT_NE(std::string(e1.what()).find("[redacted]"), std::string::npos) << e1.what();
  EXPECT_NE(std::string(e1.what()).find("CRUCIBLE_LLM_TEST_KEY"), std::string::npos) << e1.what();

  OpenAiChatClient garbled(settingsFor("/garbled"));
  const ChatError e2 = expectError(garbled, sampleRequest());
  EXPECT_EQ(e2.kind(), ChatErrorKind::MalformedReply);
  EXPECT_TRUE(clean(e2.what())) << e2.what();
  EXPECT_TRUE(clean(e2.rawBody())) << e2.rawBody();

  OpenAiChatClient echoing(settingsFor("/echo"));
  const ChatReply reply = echoing.send(sampleRequest(), {});
  EXPECT_TRUE(clean(reply.text)) << reply.text;
  EXPECT_NE(reply.text.find("Bearer [redacted]"), std::string::npos) << reply.text;

  AnthropicChatClient anthropic(settingsFor(""));
  const ChatError e3 = expectError(anthropic, sampleRequest());
  EXPECT_EQ(e3.httpStatus(), 403);
  EXPECT_TRUE(clean(e3.what())) << e3.what();
  EXPECT_TRUE(clean(e3.rawBody())) << e3.rawBody();
  EXPECT_TRUE(keySeen);  // the key did reach the server: the scrubbing was tested
}

TEST(LlmClient, UnsetKeyVariableIsAConfigurationError) {
  unsetenv("CRUCIBLE_LLM_TEST_UNSET_KEY");
  auto settings = fastSettings("http://127.0.0.1:1");
  settings.apiKeyEnv = "CRUCIBLE_LLM_TEST_UNSET_KEY";
  OpenAiChatClient client(settings);
  const ChatError e = expectError(client, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::Configuration);
  EXPECT_NE(std::string(e.what()).find("CRUCIBLE_LLM_TEST_UNSET_KEY"), std::string::npos) << e.what();
}

// The GUI's keychain hands the key over in memory: it is used (not the
// environment, which worker processes inherit), asked for per request, and
// scrubbed from what comes back like a key from the environment.
TEST(LlmClient, KeyFromAProviderIsUsedAndScrubbed) {
  LoopbackServer server;
  std::string auth;
  server.http.Post("/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
    auth = req.get_header_value("Authorization");
    nlohmann::json reply = nlohmann::json::parse(kOpenAiOk);
    reply["choices"][0]["message"]["content"] = "you sent " + auth;
    replyJson(res, reply.dump());
  });
  server.start();
  unsetenv("CRUCIBLE_LLM_TEST_PROVIDED_KEY");  // the variable is only the key's name here
  auto settings = fastSettings(server.base());
  settings.apiKeyEnv = "CRUCIBLE_LLM_TEST_PROVIDED_KEY";
  std::atomic<int> asked{0};
  settings.apiKey = [&] {
    ++asked;
    return std::string(kSecret);
  };
  OpenAiChatClient client(settings);
  const ChatReply reply = client.send(sampleRequest(), {});
  EXPECT_EQ(auth, std::string("Bearer ") + kSecret);
  EXPECT_EQ(reply.text.find(kSecret), std::string::npos) << reply.text;
  client.send(sampleRequest(), {});
  EXPECT_EQ(asked, 2);  // per request: a key changed in the keychain is used from the next one

  settings.apiKey = [] { return std::string("  "); };
  OpenAiChatClient none(settings);
  const ChatError e = expectError(none, sampleRequest());
  EXPECT_EQ(e.kind(), ChatErrorKind::Configuration);
  EXPECT_NE(std::string(e.what()).find("keychain"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("CRUCIBLE_LLM_TEST_PROVIDED_KEY"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace crucible::llm
