// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/proposal_window.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <exception>
#include <future>
#include <optional>

namespace crucible::engine_detail {
namespace {

struct InFlight {
  SlotWork work;
  std::optional<Proposal> ready;        // made on the calling thread (width 1, or no call)
  std::future<Proposal> pending;        // made on a thread of its own
};

}  // namespace

int runProposalWindow(int slots, int width, const std::function<SlotWork(int slot, int inFlight)>& plan,
                      const ProposalWindowControl& control) {
  width = std::max(1, width);
  std::deque<InFlight> window;
  int planned = 0;
  bool planning = true;
  // On an exception the futures' destructors wait for their calls (std::async):
  // nothing a call reads goes away while it runs.
  for (;;) {
    while (planning && planned < slots && static_cast<int>(window.size()) < width) {
      if (!control.mayPlan()) {
        planning = false;
        break;
      }
      InFlight slot;
      slot.work = plan(planned, static_cast<int>(window.size()));
      ++planned;
      if (!slot.work.call)
        slot.ready = Proposal{};
      else if (width == 1)
        slot.ready = slot.work.call();
      else
        slot.pending = std::async(std::launch::async, slot.work.call);
      window.push_back(std::move(slot));
    }
    if (window.empty()) return planned;
    InFlight& oldest = window.front();
    if (!oldest.ready) {
      while (oldest.pending.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) control.tick();
      oldest.ready = oldest.pending.get();
    }
    InFlight done = std::move(window.front());
    window.pop_front();
    done.work.settle(std::move(*done.ready));
  }
}

}  // namespace crucible::engine_detail
