// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the slots of a generation with up to `width` proposer calls at once.
// Each slot is planned on the calling thread, in slot order; its call runs on
// a thread of its own (width > 1) or on the calling thread (width 1); its
// result is settled on the calling thread, in slot order. A slot is planned
// once the slot `width` places before it has settled, so what it is planned
// from (the settled slots, the slots in flight) never depends on which call
// returned first: a run stays reproducible whatever the proposer's timing.
// Internal to core/engine.
#pragma once
#include <functional>
#include "core/engine/interfaces.h"

namespace crucible::engine_detail {

struct SlotWork {
  // The proposer call. Empty: the slot needs none (it was decided when
  // planned); settle then gets a default Proposal. With width > 1 it runs on
  // another thread: it must own (or point to nothing but constant data)
  // everything it reads.
  std::function<Proposal()> call;
  std::function<void(Proposal)> settle;   // on the calling thread, in slot order
};

struct ProposalWindowControl {
  // Asked before each slot is planned; false plans no more slots (the run is
  // stopping). It may block (the run is paused): calls in flight go on.
  std::function<bool()> mayPlan;
  // Called about every 50 ms while waiting for a call to return.
  std::function<void()> tick;
};

// plan(slot, inFlight): inFlight = slots planned before it and not settled
// yet. Returns the number of slots planned (all settled), fewer than `slots`
// when mayPlan said no. Waits for every call it started, also when a settle
// throws (then rethrows once they all returned).
int runProposalWindow(int slots, int width, const std::function<SlotWork(int slot, int inFlight)>& plan,
                      const ProposalWindowControl& control);

}  // namespace crucible::engine_detail
