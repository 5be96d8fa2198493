// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/llm/run_model.h"

#include "backends/proposers/llm/clients.h"
#include "backends/proposers/llm/store_context.h"
#include "core/store/project_store.h"

namespace crucible::llm {

std::shared_ptr<ChatClient> makeRunChatClient(const LlmSettings& settings, std::function<std::string()> apiKey) {
  ClientSettings c = clientSettings(settings);
  c.apiKey = std::move(apiKey);
  return std::shared_ptr<ChatClient>(makeChatClient(settings.api, std::move(c)));
}

std::unique_ptr<LlmProposer> makeRunModel(const LlmSettings& settings, std::shared_ptr<ChatClient> client,
                                          Compiler* compiler, const CancelToken& cancel) {
  auto model = std::make_unique<LlmProposer>(settings, std::move(client), compiler);
  model->setCancelToken(cancel);
  return model;
}

void attachRunModel(LlmProposer& model, const std::string& projectPath, RunId run, bool resumed) {
  model.setOwningContextProvider(storeContextProvider(projectPath, run));
  // With several models, the bandit learns from how each model's children ended.
  model.setOutcomeSource(storeOutcomeSource(projectPath, run));
  if (!resumed) return;
  auto store = ProjectStore::open(projectPath, ProjectStore::Mode::ReadOnly);
  for (const CandidateSummary& s : store->candidateSummaries(run))
    if (auto c = store->candidate(s.id); c && !c->source.empty()) model.rememberSource(c->source);
}

struct RunModelBinding::State {
  mutable std::mutex mutex;
  LlmProposer::OwningContextProvider provider;
  LlmProposer::OutcomeSource outcomes;
};

RunModelBinding::RunModelBinding(LlmProposer& model) : state_(std::make_shared<State>()) {
  model.setOwningContextProvider(
      [state = state_](const ProposalContext& ctx, PromptContext& out) -> std::shared_ptr<const void> {
        LlmProposer::OwningContextProvider p;
        {
          std::lock_guard lock(state->mutex);
          p = state->provider;
        }
        return p ? p(ctx, out) : nullptr;
      });
  model.setOutcomeSource([state = state_]() -> std::vector<LlmProposer::ModelOutcome> {
    LlmProposer::OutcomeSource o;
    {
      std::lock_guard lock(state->mutex);
      o = state->outcomes;
    }
    return o ? o() : std::vector<LlmProposer::ModelOutcome>{};
  });
}

void RunModelBinding::bind(const std::string& projectPath, RunId run) {
  auto provider = storeContextProvider(projectPath, run);
  auto outcomes = storeOutcomeSource(projectPath, run);
  std::lock_guard lock(state_->mutex);
  state_->provider = std::move(provider);
  state_->outcomes = std::move(outcomes);
}

bool RunModelBinding::bound() const {
  std::lock_guard lock(state_->mutex);
  return static_cast<bool>(state_->provider);
}

InterruptibleChatClient::InterruptibleChatClient(std::shared_ptr<ChatClient> inner) : inner_(std::move(inner)) {}

ChatReply InterruptibleChatClient::send(const ChatRequest& request, const CancelToken& cancel) {
  CancelToken now;
  {
    std::lock_guard lock(mutex_);
    now = current_;
  }
  if (cancel.cancelled() || now.cancelled())
    throw ChatError(ChatErrorKind::Cancelled, "the request was cancelled: the run is paused or stopping");
  return inner_->send(request, now);
}

void InterruptibleChatClient::pause() {
  std::lock_guard lock(mutex_);
  current_.cancel();
}

void InterruptibleChatClient::resume() {
  std::lock_guard lock(mutex_);
  if (current_.cancelled()) current_ = CancelToken();
}

bool InterruptibleChatClient::paused() const {
  std::lock_guard lock(mutex_);
  return current_.cancelled();
}

}  // namespace crucible::llm
