// SPDX-License-Identifier: GPL-3.0-or-later
// Device memory a candidate can address but must never write, each region
// with the hash of what the harness last put there.
//
// A kernel can write anywhere it can address without a fault, and memcheck
// does not report a write into another valid allocation. A kernel that kept
// its results in the harness's memory could copy them out at a later launch
// instead of computing them. The hash is recorded when the harness writes a
// region (or makes it), never when timing starts: a kernel could otherwise
// write its results during validation, where they are right anyway, and only
// read them while it is timed, and a hash taken then would include them.
// Every region must still hash as the harness left it at every check (after
// each validation trial, at the checked timed launches and after timing).
//
// The hash is keyed (HarnessKernels::hashBytes): a kernel that knows the hash
// function cannot change a region and then fix one word so that it still
// hashes the same, because it does not know the key.
#pragma once
#include <cuda.h>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace crucible::cuda {

class HarnessMemoryWatch {
public:
  // The hash of `bytes` at `where` as the device holds them once queued work is done.
  using Hasher = std::function<std::uint64_t(CUdeviceptr where, std::size_t bytes)>;
  explicit HarnessMemoryWatch(Hasher hash) : hash_(std::move(hash)) {}

  // The harness has just written all of the `bytes` at `where`, or made
  // them: what they hold now is what they must keep. Replaces a region
  // recorded at the same address. Record again only what the harness
  // rewrote in full: a record of more would take in whatever a kernel left
  // in the rest. `what` names the region in firstChange's answer. Empty
  // regions are not recorded.
  void record(std::string what, CUdeviceptr where, std::size_t bytes);
  // Whether the region recorded at `where` still hashes as recorded (false
  // for an address never recorded: a logic error in the caller).
  bool unchanged(CUdeviceptr where) const;
  // "" when every region hashes as recorded; else the `what` of the first that does not.
  std::string firstChange() const;
  std::size_t regionCount() const { return regions_.size(); }

private:
  struct Region {
    std::string what;
    CUdeviceptr where = 0;
    std::size_t bytes = 0;
    std::uint64_t hash = 0;
  };
  Hasher hash_;
  std::vector<Region> regions_;
};

}  // namespace crucible::cuda
