// SPDX-License-Identifier: GPL-3.0-or-later
// The language-model proposer of one run, made the same way by crucible-cli
// (`run --proposer llm`, `resume`) and the workbench (Run control's
// "Language model"): a chat client for the settings' API, the proposer
// checking its kernels with the run's compiler and cancelled by the run's
// token, and, once the run exists, the project as its context (the run's
// reference, best kernel, elites, recent failures) and as the source of the
// outcomes its model bandit learns from.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include "backends/proposers/llm/llm_proposer.h"
#include "core/model/ids.h"

namespace crucible::llm {

// The settings' client. apiKey (ClientSettings::apiKey): the key from memory
// (the workbench's keychain); none: the environment variable apiKeyEnv names,
// read at each request.
std::shared_ptr<ChatClient> makeRunChatClient(const LlmSettings& settings, std::function<std::string()> apiKey = {});

// The proposer over `client`; compiler (may be null) checks its kernels, and
// requests in flight end when `cancel` fires.
std::unique_ptr<LlmProposer> makeRunModel(const LlmSettings& settings, std::shared_ptr<ChatClient> client,
                                          Compiler* compiler, const CancelToken& cancel);

// Installs the run's store context and outcome source; a resumed run's
// kernels (read from the project) are not proposed again.
void attachRunModel(LlmProposer& model, const std::string& projectPath, RunId run, bool resumed);

// The same for a model made before its run exists (the workbench creates the
// run on its engine's thread and learns its id afterwards): the model is
// given a context provider and an outcome source that give nothing until
// bind() names the run (a fresh run's first prompts then lack only the
// run's reference, which the prompt takes from the task's baseline instead,
// and no outcome is lost: the first call after bind() reads them all).
// Thread-safe; the binding may be dropped before the model.
class RunModelBinding {
public:
  explicit RunModelBinding(LlmProposer& model);
  void bind(const std::string& projectPath, RunId run);
  bool bound() const;

private:
  struct State;
  std::shared_ptr<State> state_;
};

// A client whose requests a front end can interrupt and let go on again: the
// workbench pauses a run (requests in flight end as cancelled, new ones are
// refused until resume()) and resumes it; a CancelToken alone cannot be
// re-armed. The proposer's own token is honoured too: a request is refused
// when it was cancelled before the request started.
class InterruptibleChatClient final : public ChatClient {
public:
  explicit InterruptibleChatClient(std::shared_ptr<ChatClient> inner);
  ChatReply send(const ChatRequest& request, const CancelToken& cancel) override;
  void pause();   // cancels the requests in flight and those that start before resume()
  void resume();  // requests go ahead again
  bool paused() const;

private:
  std::shared_ptr<ChatClient> inner_;
  mutable std::mutex mutex_;
  CancelToken current_;
};

}  // namespace crucible::llm
