// SPDX-License-Identifier: GPL-3.0-or-later
// One libFuzzer executable per entry in fuzz_entries.h: CMake compiles this
// file once per target with CRUCIBLE_FUZZ_TARGET set to the entry's name.
#include <cstdio>
#include <cstdlib>
#include "tests/fuzz/fuzz_entries.h"

#ifndef CRUCIBLE_FUZZ_TARGET
#error "CRUCIBLE_FUZZ_TARGET names the entry (tests/fuzz/CMakeLists.txt sets it)"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const crucible::fuzz::FuzzEntry entry = [] {
    const auto found = crucible::fuzz::findFuzzEntry(CRUCIBLE_FUZZ_TARGET);
    if (!found) {
      std::fprintf(stderr, "no fuzz entry named '%s'\n", CRUCIBLE_FUZZ_TARGET);
      std::abort();
    }
    return found;
  }();
  entry(data, size);  // an exception escaping here aborts: libFuzzer reports it as a crash
  return 0;
}
