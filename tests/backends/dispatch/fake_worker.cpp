// SPDX-License-Identifier: GPL-3.0-or-later
// A stand-in for crucible-worker: serves the real protocol with an Evaluator
// whose behaviour is chosen by the request's task name, so the engine side
// can be tested against crashes and hangs without a GPU.
//   "ok"     a Valid evaluation that echoes what it received
//   "abort"  std::abort() (SIGABRT)     "segv"  raise(SIGSEGV)
//   "hang"   sleeps forever             "exit"  _exit(3)
//   "throw"  the evaluator throws       "print" writes to stdout first, then ok
//   "faulted-then-exit"  replies Faulted, then exits on the next request without answering it
//   "ok-then-exit"       replies Valid, then exits (the worker's own decision, between calls)
//   "slow"   ok after 150 ms (a GPU busy timing), so a pool's workers overlap
// Its timings carry no interleaved reference and no device: the worker
// server records the device, as it does for crucible-worker.
// FAKE_WORKER_FAIL_AT_START=1 makes it exit with code 1 before its hello.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "backends/dispatch/worker_server.h"

namespace {

using namespace crucible;

class FakeEvaluator : public Evaluator {
public:
  Fingerprint device() const override {
    Fingerprint f;
    f.gpu = "Fake GPU";
    f.arch = "sm_90";
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    f.host = std::string("visible=") + (visible ? visible : "");
    return f;
  }

  Evaluation evaluate(const EvaluationRequest& r) override {
    const std::string name = r.task ? r.task->name : "";
    if (exiting_) ::_exit(3);
    act(name);
    Evaluation e;
    e.status = CandidateStatus::Valid;
    if (name == "faulted-then-exit") {
      // Like crucible-worker after losing its CUDA context: the worker is on
      // its way out, so a request that still reaches it dies with it.
      e.status = CandidateStatus::Faulted;
      exiting_ = true;
    }
    if (name == "ok-then-exit") {
      std::thread([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        ::_exit(3);
      }).detach();
    }
    e.detail = "cubin=" + std::to_string(r.candidate.cubin.size()) + " reference=" +
               std::to_string(r.reference.cubin.size()) + " entry=" + r.candidate.launch.entry +
               " spec=" + (r.task ? r.task->specJson : "");
    for (auto seed : r.seeds) e.trials.push_back(ValidationTrial{seed, true, "", 0, 0, 0});
    Timing t;
    t.samplesUs = {1.0, 2.0, 3.0};
    t.medianUs = 2.0;
    e.timing = t;
    e.gpuSeconds = 0.5;
    return e;
  }

  ProfileResult profile(const Task& task, const KernelBinary& kernel) override {
    act(task.name);
    ProfileResult p;
    p.metrics["cubin_bytes"] = static_cast<double>(kernel.cubin.size());
    return p;
  }

  std::vector<Ceiling> measureCeilings() override {
    return {Ceiling{"Fake GPU", "dram_bw", 4.0e12, 4.8e12, "B/s", 7}};
  }

private:
  bool exiting_ = false;

  static void act(const std::string& name) {
    if (name == "abort") {
      std::fprintf(stderr, "fake worker: aborting as asked\n");
      std::abort();
    }
    if (name == "segv") ::raise(SIGSEGV);
    if (name == "exit") ::_exit(3);
    if (name == "hang")
      for (;;) ::pause();
    if (name == "throw") throw std::runtime_error("the fake evaluator refuses");
    if (name == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(150));
    if (name == "print") {
      std::printf("stray output that must not reach the channel\n");
      std::fflush(stdout);
    }
  }
};

}  // namespace

int main() {
  if (const char* fail = std::getenv("FAKE_WORKER_FAIL_AT_START"); fail && std::string(fail) == "1") {
    std::fprintf(stderr, "fake worker: no device for you\n");
    return 1;
  }
  FakeEvaluator evaluator;
  return crucible::serveWorker(STDIN_FILENO, STDOUT_FILENO, evaluator);
}
