// SPDX-License-Identifier: GPL-3.0-or-later
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "backends/proposers/llm/clients.h"
#include "core/io/utf8_text.h"

namespace crucible::llm {

const char* chatErrorKindName(ChatErrorKind kind) {
  switch (kind) {
    case ChatErrorKind::Timeout: return "timeout";
    case ChatErrorKind::HttpStatus: return "http-status";
    case ChatErrorKind::ConnectionDropped: return "connection-dropped";
    case ChatErrorKind::MalformedReply: return "malformed-reply";
    case ChatErrorKind::ResponseTooLarge: return "response-too-large";
    case ChatErrorKind::Cancelled: return "cancelled";
    case ChatErrorKind::Budget: return "budget";
    case ChatErrorKind::Configuration: return "configuration";
  }
  return "unknown";
}

namespace {

using Clock = std::chrono::steady_clock;

void initCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string trimmed(std::string s) {
  auto notSpace = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
  s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
  return s;
}

std::string scrub(std::string text, const std::string& key) {
  if (key.empty()) return text;
  for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    text.replace(at, key.size(), "[redacted]");
    at += 10;
  }
  return text;
}

std::string secondsText(std::chrono::milliseconds d) {
  std::ostringstream out;
  out << static_cast<double>(d.count()) / 1000.0 << " s";
  return out.str();
}

// The server's own explanation, when its error body has one (both APIs put
// it at error.message), shortened; otherwise the start of the body.
std::string serverMessage(const std::string& body) {
  auto doc = nlohmann::json::parse(body, nullptr, false);
  std::string message;
  if (doc.is_object() && doc.contains("error")) {
    const auto& error = doc["error"];
    if (error.is_object() && error.contains("message") && error["message"].is_string())
      message = error["message"].get<std::string>();
    else if (error.is_string())
      message = error.get<std::string>();
  }
  if (message.empty()) message = utf8Repaired(body);  // an HTML page from a proxy, in any encoding
  if (message.size() > 300) message = utf8Prefix(message, 300) + "...";
  return message;
}

struct Attempt {
  CURLcode code = CURLE_OK;
  long status = 0;
  std::string body;
  std::size_t cap = 0;
  bool tooLarge = false;
  std::optional<std::chrono::milliseconds> retryAfter;
  const CancelToken* cancel = nullptr;
  double seconds = 0;
  std::string curlMessage;
};

size_t onBody(char* data, size_t size, size_t count, void* user) {
  auto* attempt = static_cast<Attempt*>(user);
  const size_t length = size * count;
  if (attempt->body.size() + length > attempt->cap) {
    attempt->tooLarge = true;
    return 0;  // makes libcurl stop with CURLE_WRITE_ERROR
  }
  attempt->body.append(data, length);
  return length;
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
  auto* attempt = static_cast<Attempt*>(user);
  const size_t length = size * count;
  std::string line(data, length);
  if (line.rfind("HTTP/", 0) == 0) attempt->retryAfter.reset();  // a new response (after 100 or a redirect)
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name == "retry-after") {
      const std::string value = trimmed(line.substr(colon + 1));
      // Delta-seconds only; an HTTP date falls back to our own backoff.
      if (!value.empty() && std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }) &&
          value.size() < 10)
        attempt->retryAfter = std::chrono::seconds(std::stol(value));
    }
  }
  return length;
}

int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* attempt = static_cast<Attempt*>(user);
  return attempt->cancel->cancelled() ? 1 : 0;  // non-zero aborts the transfer
}

Attempt perform(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                const ClientSettings& settings, std::chrono::milliseconds timeout, const CancelToken& cancel) {
  initCurlOnce();
  Attempt attempt;
  attempt.cap = settings.maxResponseBytes;
  attempt.cancel = &cancel;
  CURL* curl = curl_easy_init();
  if (!curl) {
    attempt.code = CURLE_FAILED_INIT;
    attempt.curlMessage = "libcurl could not start a transfer";
    return attempt;
  }
  curl_slist* list = nullptr;
  list = curl_slist_append(list, "Content-Type: application/json");
  list = curl_slist_append(list, "Expect:");  // no 100-continue round trip for large prompts
  for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
  char errorBuffer[CURL_ERROR_SIZE] = {0};

  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(settings.connectTimeout.count()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &attempt);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, onHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &attempt);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &attempt);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode

  // The easy handle is driven by a multi handle rather than
  // curl_easy_perform, whose internal poll sleeps up to a second between
  // progress callbacks: polling in 50 ms steps makes a cancel take effect
  // within 50 ms. The progress callback stays as a second guard.
  const auto start = Clock::now();
  attempt.code = CURLE_OK;
  CURLM* multi = curl_multi_init();
  if (!multi || curl_multi_add_handle(multi, curl) != CURLM_OK) {
    attempt.code = CURLE_FAILED_INIT;
  } else {
    for (int running = 1; running;) {
      if (curl_multi_perform(multi, &running) != CURLM_OK) {
        attempt.code = CURLE_FAILED_INIT;
        break;
      }
      if (!running) break;
      if (cancel.cancelled()) {
        attempt.code = CURLE_ABORTED_BY_CALLBACK;
        break;
      }
      curl_multi_poll(multi, nullptr, 0, 50, nullptr);
    }
    if (attempt.code == CURLE_OK) {
      int left = 0;
      while (CURLMsg* message = curl_multi_info_read(multi, &left))
        if (message->msg == CURLMSG_DONE && message->easy_handle == curl) attempt.code = message->data.result;
    }
    curl_multi_remove_handle(multi, curl);
  }
  if (multi) curl_multi_cleanup(multi);
  attempt.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &attempt.status);
  attempt.curlMessage = errorBuffer[0] ? errorBuffer : curl_easy_strerror(attempt.code);
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  return attempt;
}

bool retryableStatus(long status) { return status == 408 || status == 429 || (status >= 500 && status <= 599); }

std::string statusHint(long status, const std::string& keyEnv) {
  if (status == 401 || status == 403)
    return keyEnv.empty() ? " (the server wants a key: name its environment variable in the settings)"
                          : " (check that the environment variable " + keyEnv + " holds a valid key)";
  if (status == 404) return " (check the endpoint URL and the model name)";
  if (status == 429) return " (rate limited: lower the concurrency or wait)";
  return "";
}

}  // namespace

HttpChatClient::HttpChatClient(ClientSettings settings) : settings_(std::move(settings)), rng_(std::random_device{}()) {
  if (settings_.maxAttempts < 1) settings_.maxAttempts = 1;
  if (settings_.maxConcurrent < 1) settings_.maxConcurrent = 1;
}

void HttpChatClient::acquireSlot(const CancelToken& cancel) {
  std::unique_lock lock(slotMutex_);
  // Polls the token: a cancel elsewhere does not signal this condition.
  while (active_ >= settings_.maxConcurrent) {
    if (cancel.cancelled()) throw ChatError(ChatErrorKind::Cancelled, "cancelled while waiting for a free request slot");
    slotFreed_.wait_for(lock, std::chrono::milliseconds(20));
  }
  if (cancel.cancelled()) throw ChatError(ChatErrorKind::Cancelled, "cancelled before the request was sent");
  ++active_;
}

void HttpChatClient::releaseSlot() {
  {
    std::lock_guard lock(slotMutex_);
    --active_;
  }
  slotFreed_.notify_one();
}

std::chrono::milliseconds HttpChatClient::backoff(int attempt) {
  const double base = static_cast<double>(settings_.initialBackoff.count()) * std::pow(2.0, attempt - 1);
  const double capped = std::min(base, static_cast<double>(settings_.maxBackoff.count()));
  std::lock_guard lock(rngMutex_);
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  return std::chrono::milliseconds(static_cast<long long>(capped * jitter(rng_)));
}

ChatReply HttpChatClient::send(const ChatRequest& request, const CancelToken& cancel) {
  std::string key;
  if (settings_.apiKey) {
    key = trimmed(settings_.apiKey());
    if (key.empty())
      throw ChatError(ChatErrorKind::Configuration,
                      std::string("no ") + apiName() + " API key is stored in the system keychain" +
                          (settings_.apiKeyEnv.empty() ? std::string() : " for " + settings_.apiKeyEnv) +
                          " (Preferences > Language models)");
  } else if (!settings_.apiKeyEnv.empty()) {
    const char* value = std::getenv(settings_.apiKeyEnv.c_str());
    key = trimmed(value ? value : "");
    if (key.empty())
      throw ChatError(ChatErrorKind::Configuration,
                      "the environment variable " + settings_.apiKeyEnv + " that should hold the " + apiName() +
                          " API key is not set or empty");
  }
  try {
    ChatReply reply = sendUnscrubbed(request, cancel, key);
    reply.text = scrub(std::move(reply.text), key);
    return reply;
  } catch (const ChatError& e) {
    throw ChatError(e.kind(), scrub(e.what(), key), e.httpStatus(), scrub(e.rawBody(), key), e.attempts());
  }
}

ChatReply HttpChatClient::sendUnscrubbed(const ChatRequest& request, const CancelToken& cancel, const std::string& key) {
  if (settings_.endpoint.empty())
    throw ChatError(ChatErrorKind::Configuration, std::string("no endpoint is set for the ") + apiName() + " client");
  const std::string target = url();
  const std::string payload = body(request);
  const auto headerList = headers(key);

  for (int attempt = 1;; ++attempt) {
    if (cancel.cancelled()) throw ChatError(ChatErrorKind::Cancelled, "cancelled", 0, {}, attempt - 1);
    acquireSlot(cancel);
    Attempt result;
    try {
      result = perform(target, headerList, payload, settings_, request.timeout, cancel);
    } catch (...) {
      releaseSlot();
      throw;
    }
    releaseSlot();

    // Classify: success, an error to report now, or one worth retrying.
    std::optional<ChatError> retryable;
    if (result.code == CURLE_ABORTED_BY_CALLBACK || (result.code != CURLE_OK && cancel.cancelled())) {
      throw ChatError(ChatErrorKind::Cancelled, "cancelled while waiting for " + target, 0, {}, attempt);
    } else if (result.code == CURLE_WRITE_ERROR && result.tooLarge) {
      throw ChatError(ChatErrorKind::ResponseTooLarge,
                      "the reply from " + target + " exceeded " + std::to_string(settings_.maxResponseBytes) +
                          " bytes and was cut off (raise maxResponseBytes if the server is right)",
                      static_cast<int>(result.status), result.body, attempt);
    } else if (result.code == CURLE_OPERATION_TIMEDOUT) {
      throw ChatError(ChatErrorKind::Timeout,
                      "no complete reply from " + target + " within " + secondsText(request.timeout) +
                          " (raise the request timeout for slow models, or check the server)",
                      static_cast<int>(result.status), result.body, attempt);
    } else if (result.code == CURLE_COULDNT_CONNECT || result.code == CURLE_RECV_ERROR ||
               result.code == CURLE_SEND_ERROR || result.code == CURLE_GOT_NOTHING ||
               result.code == CURLE_PARTIAL_FILE) {
      const bool connected = result.code != CURLE_COULDNT_CONNECT;
      retryable = ChatError(ChatErrorKind::ConnectionDropped,
                            (connected ? "the connection to " + target + " dropped before the reply was complete: "
                                       : "could not connect to " + target + ": ") +
                                result.curlMessage,
                            static_cast<int>(result.status), result.body, attempt);
    } else if (result.code != CURLE_OK) {
      throw ChatError(ChatErrorKind::ConnectionDropped, "request to " + target + " failed: " + result.curlMessage,
                      static_cast<int>(result.status), result.body, attempt);
    } else if (result.status >= 200 && result.status < 300) {
      try {
        ChatReply reply = parse(result.body);
        reply.httpStatus = static_cast<int>(result.status);
        reply.attempts = attempt;
        reply.latencySeconds = result.seconds;
        return reply;
      } catch (const ChatError& e) {
        throw ChatError(ChatErrorKind::MalformedReply,
                        std::string("malformed reply from ") + target + ": " + e.what() +
                            " (the raw reply is kept with this error)",
                        static_cast<int>(result.status), result.body, attempt);
      }
    } else {
      ChatError error(ChatErrorKind::HttpStatus,
                      "HTTP " + std::to_string(result.status) + " from " + target + ": " + serverMessage(result.body) +
                          statusHint(result.status, settings_.apiKeyEnv),
                      static_cast<int>(result.status), result.body, attempt);
      if (!retryableStatus(result.status)) throw error;
      retryable = error;
    }

    if (attempt >= settings_.maxAttempts)
      throw ChatError(retryable->kind(),
                      std::string(retryable->what()) + " (gave up after " + std::to_string(attempt) + " attempts)",
                      retryable->httpStatus(), retryable->rawBody(), attempt);
    std::chrono::milliseconds wait = backoff(attempt);
    if (result.retryAfter) wait = std::min(*result.retryAfter, settings_.maxRetryAfter);
    if (cancel.waitFor(wait))
      throw ChatError(ChatErrorKind::Cancelled, "cancelled while waiting to retry " + target, retryable->httpStatus(),
                      retryable->rawBody(), attempt);
  }
}

std::unique_ptr<ChatClient> makeChatClient(ChatApi api, ClientSettings settings) {
  if (api == ChatApi::Anthropic) return std::make_unique<AnthropicChatClient>(std::move(settings));
  return std::make_unique<OpenAiChatClient>(std::move(settings));
}

}  // namespace crucible::llm
