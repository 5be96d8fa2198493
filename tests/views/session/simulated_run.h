// SPDX-License-Identifier: GPL-3.0-or-later
// A run as the engine writes it, without an engine: on a thread of its own
// and through its own connection, marks a run running, then at a steady rate
// proposes candidates, evaluates the ones proposed before (valid, timed),
// logs, places elites, seals one and records a claim; finally marks the run
// stopped. For the GUI tests and benchmarks that watch the views meanwhile.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>
#include "core/store/project_store.h"
#include "tests/core/model/sample_seal.h"
#include "tests/views/models/sample_project.h"

namespace crucible::test_support {

class SimulatedRun {
public:
  struct Pace {
    int candidatesPerSecond = 200;
    int batchesPerSecond = 20;  // commits per second (the engine commits per candidate or per batch)
    std::chrono::milliseconds duration{1500};
  };

  SimulatedRun(std::string path, RunId run, Pace pace) : path_(std::move(path)), run_(run), pace_(pace) {}
  ~SimulatedRun() { join(); }

  // Marks the run running, then writes on a thread until the duration is over.
  void start() {
    auto store = ProjectStore::open(path_);
    crucible::Run r = *store->run(run_);
    r.status = RunStatus::Running;
    store->updateRun(r);
    thread_ = std::thread([this, store = std::move(store)]() mutable { write(*store); });
  }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  bool finished() const { return finished_.load(); }
  int written() const { return written_.load(); }
  std::string failure() const { return finished_ ? failure_ : std::string(); }

private:
  void write(ProjectStore& store) {
    try {
      const auto end = std::chrono::steady_clock::now() + pace_.duration;
      const auto period = std::chrono::microseconds(1000000 / std::max(1, pace_.batchesPerSecond));
      const int perBatch = std::max(1, pace_.candidatesPerSecond / std::max(1, pace_.batchesPerSecond));
      std::vector<CandidateId> proposed;
      int index = 0;
      bool sealed = false;
      while (std::chrono::steady_clock::now() < end) {
        store.transaction([&] {
          for (CandidateId id : proposed) {  // the previous batch is evaluated
            Candidate c = *store.candidate(id);
            c.status = CandidateStatus::Valid;
            Timing t;
            t.medianUs = 10.0 + index % 7;
            t.referenceMedianUs = 20.0;
            t.speedup = t.referenceMedianUs / t.medianUs;
            t.samplesUs = {t.medianUs};
            c.timing = t;
            c.fitness = t.speedup;
            store.updateCandidate(c);
          }
          if (!proposed.empty()) {
            store.putArchiveCell(ArchiveCell{run_, 0, "vec=" + std::to_string(index % 5), proposed.front(),
                                             1.0 + index % 5, 0, 0});
            if (!sealed) {
              store.addSeal(crucible::testing::sampleSeal(store.run(run_)->taskId, run_, proposed.front()));
              KnowledgeEntry k;
              k.scopeArch = "sm_90";
              k.claim = "wider loads help";
              k.decision = "vec=4";
              k.effect = 1.2;
              k.observations = 1;
              k.evidence = {proposed.front()};
              store.addKnowledge(k);
              sealed = true;
            }
          }
          proposed.clear();
          for (int i = 0; i < perBatch; ++i, ++index) {
            Candidate c = makeCandidate(run_, index);
            c.status = CandidateStatus::Proposed;
            c.timing.reset();
            proposed.push_back(store.addCandidate(c));
          }
          store.appendLog(run_, "info", "generation " + std::to_string(index / perBatch));
          crucible::Run r = *store.run(run_);
          r.evaluationsDone = index;
          store.updateRun(r);
        });
        written_ = index;
        std::this_thread::sleep_for(period);
      }
      crucible::Run r = *store.run(run_);
      r.status = RunStatus::Stopped;
      store.updateRun(r);
    } catch (const std::exception& e) {
      failure_ = e.what();
    }
    finished_ = true;
  }

  std::string path_;
  RunId run_;
  Pace pace_;
  std::thread thread_;
  std::atomic<bool> finished_{false};
  std::atomic<int> written_{0};
  std::string failure_;
};

}  // namespace crucible::test_support
