// SPDX-License-Identifier: GPL-3.0-or-later
#include <set>
#include "backends/cuda/worker/cubin_globals.h"
#include "tests/fuzz/fuzz_entries.h"

namespace crucible::fuzz {

void cubinImageEntry(const std::uint8_t* data, std::size_t size) {
  const std::string image(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<cuda::CubinGlobal> writable = cuda::writableGlobals(image);
    const std::vector<cuda::CubinGlobal> addressable = cuda::addressableGlobals(image);
    // Every writable variable is addressable too (the page watch anchors on the latter).
    std::set<std::string> names;
    for (const cuda::CubinGlobal& g : addressable) names.insert(g.name);
    for (const cuda::CubinGlobal& g : writable)
      if (!names.count(g.name)) throw FuzzPropertyError("writable variable '" + g.name + "' is not addressable");
    cuda::deviceHeapCalls(image);
  } catch (const cuda::CubinFormatError&) {
  }
}

}  // namespace crucible::fuzz
