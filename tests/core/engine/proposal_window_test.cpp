// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include "core/engine/proposal_window.h"

namespace crucible::engine_detail {
namespace {

using namespace std::chrono_literals;

// Records what the window did: plans (slot, in flight), settles, calls at once.
struct Trace {
  std::mutex mutex;
  std::vector<std::string> steps;   // "plan 3/2", "settle 3"
  std::atomic<int> running{0};
  std::atomic<int> maxRunning{0};
  std::atomic<int> calls{0};
  void add(std::string step) {
    std::lock_guard lock(mutex);
    steps.push_back(std::move(step));
  }
};

Proposal slowCall(Trace& t, int slot, std::chrono::milliseconds sleep) {
  const int now = ++t.running;
  for (int seen = t.maxRunning.load(); now > seen && !t.maxRunning.compare_exchange_weak(seen, now);) {}
  ++t.calls;
  std::this_thread::sleep_for(sleep);
  --t.running;
  Proposal p;
  p.candidate.source = std::to_string(slot);
  return p;
}

ProposalWindowControl always() { return {[] { return true; }, [] {}}; }

TEST(ProposalWindow, SlotsAreSettledInOrderWhateverOrderTheirCallsEnd) {
  Trace t;
  const int slots = 9;
  const int planned = runProposalWindow(
      slots, 3,
      [&](int slot, int inFlight) {
        t.add("plan " + std::to_string(slot) + "/" + std::to_string(inFlight));
        // Later slots of each group of three end first.
        const auto sleep = std::chrono::milliseconds(40 - 15 * (slot % 3));
        return SlotWork{[&t, slot, sleep] { return slowCall(t, slot, sleep); },
                        [&t, slot](Proposal p) {
                          EXPECT_EQ(p.candidate.source, std::to_string(slot));
                          t.add("settle " + std::to_string(slot));
                        }};
      },
      always());
  EXPECT_EQ(planned, slots);
  EXPECT_EQ(t.maxRunning, 3);
  // Slot j is planned once slot j-3 settled, so its plan sees the same state however the calls end.
  const std::vector<std::string> expected{"plan 0/0", "plan 1/1", "plan 2/2", "settle 0", "plan 3/2", "settle 1",
                                          "plan 4/2", "settle 2", "plan 5/2", "settle 3", "plan 6/2", "settle 4",
                                          "plan 7/2", "settle 5", "plan 8/2", "settle 6", "settle 7", "settle 8"};
  EXPECT_EQ(t.steps, expected);
}

TEST(ProposalWindow, WidthOneCallsOnTheCallingThreadOneAtATime) {
  Trace t;
  const auto caller = std::this_thread::get_id();
  runProposalWindow(
      4, 1,
      [&](int slot, int inFlight) {
        EXPECT_EQ(inFlight, 0);
        return SlotWork{[&, slot] {
                          EXPECT_EQ(std::this_thread::get_id(), caller);
                          return slowCall(t, slot, 1ms);
                        },
                        [](Proposal) {}};
      },
      always());
  EXPECT_EQ(t.calls, 4);
  EXPECT_EQ(t.maxRunning, 1);
}

TEST(ProposalWindow, ASlotWithoutACallIsSettledInItsPlace) {
  Trace t;
  runProposalWindow(
      4, 2,
      [&](int slot, int) {
        SlotWork w;
        if (slot != 1) w.call = [&t, slot] { return slowCall(t, slot, 10ms); };
        w.settle = [&t, slot](Proposal) { t.add("settle " + std::to_string(slot)); };
        return w;
      },
      always());
  EXPECT_EQ(t.calls, 3);
  EXPECT_EQ(t.steps, (std::vector<std::string>{"settle 0", "settle 1", "settle 2", "settle 3"}));
}

TEST(ProposalWindow, WhenMayPlanSaysNoTheCallsInFlightAreSettledAndNoMoreStart) {
  Trace t;
  int asked = 0;
  ProposalWindowControl control{[&] { return ++asked <= 5; }, [] {}};
  const int planned = runProposalWindow(
      20, 4,
      [&](int slot, int) {
        return SlotWork{[&t, slot] { return slowCall(t, slot, 20ms); },
                        [&t, slot](Proposal) { t.add("settle " + std::to_string(slot)); }};
      },
      control);
  EXPECT_EQ(planned, 5);
  EXPECT_EQ(t.calls, 5);
  EXPECT_EQ(t.steps.size(), 5u) << "every call started was settled";
  EXPECT_EQ(asked, 6) << "not asked again once it said no";
}

TEST(ProposalWindow, TicksWhileWaitingForACall) {
  std::atomic<int> ticks{0};
  ProposalWindowControl control{[] { return true; }, [&] { ++ticks; }};
  Trace t;
  runProposalWindow(
      2, 2,
      [&](int slot, int) {
        return SlotWork{[&t, slot] { return slowCall(t, slot, 180ms); }, [](Proposal) {}};
      },
      control);
  EXPECT_GE(ticks, 2);
}

TEST(ProposalWindow, AFailingCallIsRethrownOnceEveryCallReturned) {
  Trace t;
  std::atomic<bool> slowReturned{false};
  EXPECT_THROW(runProposalWindow(
                   3, 3,
                   [&](int slot, int) {
                     SlotWork w;
                     if (slot == 0)
                       w.call = []() -> Proposal { throw std::runtime_error("the model's server went away"); };
                     else
                       w.call = [&, slot] {
                         Proposal p = slowCall(t, slot, 100ms);
                         slowReturned = true;
                         return p;
                       };
                     w.settle = [](Proposal) {};
                     return w;
                   },
                   always()),
               std::runtime_error);
  EXPECT_TRUE(slowReturned) << "nothing a call uses goes away while it runs";
}

}  // namespace
}  // namespace crucible::engine_detail
