// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's memory for a stream's launch parameters, as a kernel reaches it.
//
// A `__grid_constant__` parameter's address (what TMA kernels pass for their
// tensor maps, and what cvta.param gives) is a generic global address. On
// the H100 with driver 580 each launch's parameters lay 0x210 bytes into a
// 64 KiB slot of a ring of 8, each stream with its own ring, used in turn.
// The driver writes only a slot's head at a launch (its 0x210-byte header and
// the parameters), and marks a kernel left past them outlived every later
// launch: about 480 KiB where a kernel could keep results between launches,
// which nothing the harness resets reaches. The driver does not know the ring
// as an allocation (cuMemGetAddressRange refuses it), so it is learned from
// where a harness kernel's own parameters lie over more launches than it has
// slots (tests/gpu/adversarial/results/2026-12-06-h100-param-ring.md,
// 2026-12-06-h100-param-pages.md). The evaluator watches the pages that hold
// the candidate's stream's ring, less every slot's head (DriverPagesWatch).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>
#include "backends/cuda/worker/device_span.h"

namespace crucible::cuda {

struct ParameterRing {
  std::vector<std::uint64_t> parameters;  // where a launch's parameters start, one per slot, ascending
  std::string unknown;                    // why the ring could not be learned; "" when it was
};

// The ring that consecutive launches whose parameters lay at `addresses` went
// round: the shortest period after which every address repeats. Unknown (with
// the reason) when no period of at most half the launches fits, or an address
// is null.
ParameterRing ringFrom(const std::vector<std::uint64_t>& addresses);

// What the driver writes into each slot at a launch whose parameter block has
// at most `parameterBytes`: from the start of the 4 KiB block holding the
// parameters' start (the header before them: 0x210 bytes on the H100) to
// `parameterBytes` past it. Empty for an unknown ring.
std::vector<DeviceSpan> slotHeads(const ParameterRing& ring, std::size_t parameterBytes);

// Each slot's first parameter byte, as anchors for the pages to watch.
std::vector<DeviceSpan> slotAnchors(const ParameterRing& ring);

}  // namespace crucible::cuda
