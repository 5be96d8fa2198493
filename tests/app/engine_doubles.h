// SPDX-License-Identifier: GPL-3.0-or-later
// Backends for driving the engine in GUI tests without a GPU: a proposer that
// proposes nothing, a compiler that compiles nothing, and a machine without
// GPUs whose evaluators() can be held closed to keep a run in progress.
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include "core/engine/interfaces.h"

namespace crucible::test_support {

class NoProposer : public Proposer {
public:
  std::string name() const override { return "test-none"; }
  std::vector<Proposal> seeds(const Task&, std::uint64_t) override { return {}; }
  Proposal propose(const ProposalContext&) override { return {{}, false, "the test proposer proposes nothing"}; }
  std::vector<MetaPrompt> initialStrategies() const override { return {}; }
};

class FailingCompiler : public Compiler {
public:
  CompileResult compile(const CompileRequest&) override {
    CompileResult r;
    r.report.ok = false;
    r.report.log = "the test compiler compiles nothing";
    return r;
  }
};

// A machine without GPUs. evaluators() can be held closed to keep a run in progress.
class NoGpus : public Dispatcher {
public:
  std::string name() const override { return "test-no-gpus"; }
  std::vector<Evaluator*> evaluators() override {
    std::unique_lock lock(mutex_);
    ++calls_;
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::seconds(10), [this] { return !hold_; });
    return {};
  }
  void hold() {
    std::lock_guard lock(mutex_);
    hold_ = true;
  }
  void release() {
    std::lock_guard lock(mutex_);
    hold_ = false;
    changed_.notify_all();
  }
  bool waitForCall(std::chrono::seconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [this] { return calls_ > 0; });
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool hold_ = false;
  int calls_ = 0;
};

}  // namespace crucible::test_support
