// SPDX-License-Identifier: GPL-3.0-or-later
// A slow proposer (a language model takes tens of seconds per reply) gets up
// to concurrentProposals() calls at once; the run stays reproducible and
// still stops and pauses. And a failed proposal the proposer asks to keep is
// stored for inspection, never compiled or evaluated.
#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include "core/engine/engine.h"
#include "core/engine/seeding.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include "tests/core/engine/doubles/fake_proposer.h"
#include "tests/core/engine/engine_fixture.h"

namespace crucible {
namespace {

using namespace std::chrono_literals;
using testing::FakeCompiler;
using testing::FakeDispatcher;
using testing::FakeProposer;
using testing::RecordingObserver;
using testing::TempProject;

// FakeProposer's proposals, each after a sleep that delay() draws from the
// slot's seed (so calls end out of slot order). Records how many calls ran at
// once, the seed each source was made from, and runs onCall(n) at the start
// of the n-th call (on the calling thread).
class SlowProposer : public FakeProposer {
public:
  SlowProposer(int width, std::function<std::chrono::milliseconds(std::uint64_t seed)> delay)
      : FakeProposer(Options{3, true, ""}), width_(width), delay_(std::move(delay)) {}

  int concurrentProposals() const override { return width_; }

  Proposal propose(const ProposalContext& ctx) override {
    const int running = ++running_;
    for (int seen = maxRunning.load(); running > seen && !maxRunning.compare_exchange_weak(seen, running);) {}
    if (afterStop) ++startedAfterStop;
    const int call = ++calls;
    if (onCall) onCall(call);
    std::this_thread::sleep_for(delay_(ctx.seed));
    Proposal p = FakeProposer::propose(ctx);
    {
      std::lock_guard lock(seedsMutex_);
      seedOfSource_[p.candidate.source] = ctx.seed;
    }
    --running_;
    return p;
  }

  std::uint64_t seedOf(const std::string& source) const {
    std::lock_guard lock(seedsMutex_);
    auto it = seedOfSource_.find(source);
    return it == seedOfSource_.end() ? 0 : it->second;
  }

  std::atomic<int> calls{0};
  std::atomic<int> maxRunning{0};
  std::atomic<bool> afterStop{false};     // set by a test's onCall once it stopped or paused the run
  std::atomic<int> startedAfterStop{0};
  std::function<void(int call)> onCall;   // set before the run starts

private:
  int width_;
  std::function<std::chrono::milliseconds(std::uint64_t)> delay_;
  std::atomic<int> running_{0};
  mutable std::mutex seedsMutex_;
  std::map<std::string, std::uint64_t> seedOfSource_;
};

RunSettings settingsFor(int batchSize) {
  RunSettings s = testing::smallSettings();
  s.batchSize = batchSize;
  s.tuningShare = 0;   // every slot asks the proposer
  return s;
}

struct SlowBench {
  SlowBench(int width, std::function<std::chrono::milliseconds(std::uint64_t)> delay)
      : proposer(width, std::move(delay)) {}
  TempProject project;
  SlowProposer proposer;
  FakeCompiler compiler;
  FakeDispatcher dispatcher{1};
  RecordingObserver observer;
  Engine engine{project.path(), proposer, compiler, dispatcher, &observer};
};

std::vector<std::string> runSlow(int width, std::function<std::chrono::milliseconds(std::uint64_t)> delay,
                                 int* maxRunning = nullptr) {
  SlowBench b(width, std::move(delay));
  RunId run = b.engine.createRun(b.project.task(), "slow", 11, Budget{40, 0, 0}, false, settingsFor(8));
  b.engine.run(run);
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->evaluationsDone, 40);
  if (maxRunning) *maxRunning = b.proposer.maxRunning;

  // Each generation's candidates, in the order stored, come from its slots in slot order.
  std::map<int, std::vector<std::uint64_t>> seedsByGeneration;
  for (const auto& s : store->candidateSummaries(run)) {
    if (s.generation == 0 || s.status == CandidateStatus::Reference) continue;
    seedsByGeneration[s.generation].push_back(b.proposer.seedOf(store->candidate(s.id)->source));
  }
  EXPECT_GE(seedsByGeneration.size(), 3u);
  for (const auto& [generation, seeds] : seedsByGeneration)
    for (std::size_t slot = 0; slot < seeds.size(); ++slot)
      EXPECT_EQ(seeds[slot], deriveSeed(11, generation, static_cast<std::int64_t>(slot), SeedPurpose::Proposal))
          << "generation " << generation << " slot " << slot;
  return testing::candidateSequence(*store, run);
}

TEST(ConcurrentProposals, UpToTheProposersWidthRunAtOnceAndResultsKeepSlotOrder) {
  // Two timings that finish the calls of a generation in different orders.
  auto rising = [](std::uint64_t seed) { return std::chrono::milliseconds(5 + 10 * (seed % 4)); };
  auto falling = [](std::uint64_t seed) { return std::chrono::milliseconds(35 - 10 * (seed % 4)); };
  int maxRising = 0, maxFalling = 0;
  const auto a = runSlow(4, rising, &maxRising);
  const auto b = runSlow(4, falling, &maxFalling);
  EXPECT_EQ(maxRising, 4) << "four calls at once";
  EXPECT_EQ(maxFalling, 4);
  EXPECT_EQ(a, b) << "the run does not depend on which call returned first";
}

TEST(ConcurrentProposals, AProposerOfWidthOneIsCalledOneAtATime) {
  int maxRunning = 0;
  runSlow(1, [](std::uint64_t) { return 2ms; }, &maxRunning);
  EXPECT_EQ(maxRunning, 1);
}

// The run's generation 1 has 8 slots on 4 threads, every call 100 ms: calls
// 1-4 start at once, 5-8 once those returned. Call 6 acts 30 ms into itself,
// while the engine waits for call 5.
SlowBench& startSlowGeneration(SlowBench& b, std::function<void()> act) {
  b.proposer.onCall = [&b, act = std::move(act)](int call) {
    if (call != 6) return;
    std::this_thread::sleep_for(30ms);
    act();
    b.proposer.afterStop = true;
  };
  return b;
}

TEST(ConcurrentProposals, AStopWhileProposalsAreInFlightStartsNoMoreAndReturns) {
  SlowBench b(4, [](std::uint64_t) { return 100ms; });
  startSlowGeneration(b, [&] { b.engine.stop(); });
  RunId run = b.engine.createRun(b.project.task(), "stop", 3, Budget{40, 0, 0}, false, settingsFor(16));
  const auto begin = std::chrono::steady_clock::now();
  b.engine.run(run);
  const auto took = std::chrono::steady_clock::now() - begin;
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Stopped);
  EXPECT_EQ(b.proposer.startedAfterStop, 0) << "no call starts after the stop";
  EXPECT_EQ(b.proposer.calls, 8) << "the calls in flight returned; the other 8 slots were never proposed";
  EXPECT_LT(took, 10s);
  // What the calls in flight made is kept and evaluated when the run resumes.
  EXPECT_EQ(store->candidatesWithStatus(run, CandidateStatus::Proposed).size(), 8u);
  b.proposer.onCall = nullptr;
  b.engine.run(run);
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->evaluationsDone, 40);
}

TEST(ConcurrentProposals, APauseWhileProposalsAreInFlightStartsNoMoreUntilResumed) {
  SlowBench b(4, [](std::uint64_t) { return 100ms; });
  startSlowGeneration(b, [&] { b.engine.pause(); });
  RunId run = b.engine.createRun(b.project.task(), "pause", 3, Budget{40, 0, 0}, false, settingsFor(16));
  std::thread worker([&] { b.engine.run(run); });
  for (int i = 0; i < 1000 && b.observer.count<events::RunPaused>() == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(b.observer.count<events::RunPaused>(), 1);
  std::this_thread::sleep_for(400ms);   // the calls in flight return within 200 ms
  EXPECT_EQ(b.proposer.calls, 8) << "no call starts while paused";
  EXPECT_EQ(b.proposer.startedAfterStop, 0);
  b.proposer.afterStop = false;
  b.engine.resume();
  worker.join();
  auto store = b.project.open();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->evaluationsDone, 40);
  EXPECT_GT(b.proposer.calls, 8);
  EXPECT_EQ(b.observer.count<events::RunResumed>(), 1);
}

// ------------------------------------------------------------ kept failures

// FakeProposer, except that some replies fail: call % 6 == 1 with a candidate
// to keep (a reply with no code), == 3 without one, == 5 with keep set on a
// candidate whose status is no failure. Its first seed is a kept failure too.
class FailingReplies : public FakeProposer {
public:
  FailingReplies() : FakeProposer(Options{3, true, ""}) {}
  std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) override {
    std::vector<Proposal> out = FakeProposer::seeds(task, seed);
    out.insert(out.begin(), reply("seed reply", CandidateStatus::Invalid, true));
    return out;
  }
  Proposal propose(const ProposalContext& ctx) override {
    const int call = ++calls;
    const std::string text = "reply " + std::to_string(call) + ": shared memory tiles would help";
    if (call % 6 == 1) return reply(text, CandidateStatus::CompileFailed, true);
    if (call % 6 == 3) return reply(text, CandidateStatus::CompileFailed, false);
    if (call % 6 == 5) return reply(text, CandidateStatus::Proposed, true);
    return FakeProposer::propose(ctx);
  }
  static Proposal reply(const std::string& text, CandidateStatus status, bool keep) {
    Proposal p;
    p.ok = false;
    p.keep = keep;
    p.error = "no-code: the reply has no code block";
    p.candidate.source = text;
    p.candidate.status = status;
    p.candidate.statusDetail = "no-code: the reply has no code block";
    p.candidate.architectureKey = "llm:unplanned";
    return p;
  }
  std::atomic<int> calls{0};
};

class SourceRecordingCompiler : public FakeCompiler {
public:
  CompileResult compile(const CompileRequest& request) override {
    {
      std::lock_guard lock(mutex);
      sources.insert(request.source);
    }
    return FakeCompiler::compile(request);
  }
  std::mutex mutex;
  std::set<std::string> sources;
};

TEST(KeptProposals, AFailedReplyToKeepIsStoredAsItIsAndNeverEvaluated) {
  TempProject project;
  FailingReplies proposer;
  SourceRecordingCompiler compiler;
  FakeDispatcher dispatcher(1);
  RecordingObserver observer;
  Engine engine(project.path(), proposer, compiler, dispatcher, &observer);
  RunId run = engine.createRun(project.task(), "kept", 5, Budget{30, 0, 0}, false, settingsFor(4));
  engine.run(run);
  auto store = project.open();
  ASSERT_EQ(store->run(run)->status, RunStatus::Finished);
  EXPECT_EQ(store->run(run)->evaluationsDone, 30) << "kept failures use no evaluation";

  int kept = 0, evaluated = 0;
  std::set<CandidateId> keptIds;
  for (const auto& s : store->candidateSummaries(run)) {
    if (s.status == CandidateStatus::Reference) continue;
    const Candidate c = *store->candidate(s.id);
    const bool reply = c.source.find("reply") != std::string::npos;
    if (!reply) {
      ++evaluated;
      continue;
    }
    ++kept;
    keptIds.insert(c.id);
    EXPECT_EQ(c.statusDetail, "no-code: the reply has no code block");
    EXPECT_EQ(c.runId, run);
    EXPECT_EQ(c.proposer, "fake");
    EXPECT_EQ(compiler.sources.count(c.source), 0u) << "never compiled: " << c.source;
    if (c.source == "seed reply") {
      EXPECT_EQ(c.status, CandidateStatus::Invalid);
      EXPECT_EQ(c.generation, 0);
    } else {
      EXPECT_EQ(c.status, CandidateStatus::CompileFailed);
      EXPECT_GE(c.generation, 1);
      const int call = std::stoi(c.source.substr(6));
      EXPECT_EQ(call % 6, 1) << "only failures with keep and a failure status are stored: " << c.source;
    }
  }
  EXPECT_EQ(evaluated, 30) << "the failures without keep were not stored";
  const int keptCalls = (proposer.calls + 5) / 6;   // calls 1, 7, 13, ...
  EXPECT_EQ(kept, 1 + keptCalls);
  EXPECT_GE(kept, 4) << "the run asked for enough replies to see each kind of failure";

  std::set<CandidateId> announced;
  for (const auto& p : observer.all<events::CandidateProposed>())
    if (keptIds.count(p.candidate)) {
      announced.insert(p.candidate);
      EXPECT_NE(p.status, CandidateStatus::Proposed);
    }
  EXPECT_EQ(announced, keptIds) << "each kept failure is announced as proposed";
  for (const auto& e : observer.all<events::CandidateEvaluated>()) EXPECT_EQ(keptIds.count(e.candidate), 0u);

  bool refusedSaid = false;
  for (const auto& line : store->log(run)) refusedSaid |= line.text.find("which is not a failure") != std::string::npos;
  EXPECT_TRUE(refusedSaid) << "a kept proposal with status proposed is refused in the log";
}

}  // namespace
}  // namespace crucible
