// SPDX-License-Identifier: GPL-3.0-or-later
// What a kernel's PTX uses: vector widths of its global memory accesses,
// tensor-core instructions, asynchronous copies, shuffles, atomics, barriers.
// Pure text analysis, so behavioural descriptors and knowledge claims can be
// checked against what the compiler actually emitted, not what the source hoped.
#pragma once
#include <map>
#include <string>
#include <string_view>

namespace crucible {

// Counts of static PTX instructions by short stable key. Only keys with a
// non-zero count are present. Keys:
//   "ld.global", "st.global"                  every global load / store
//   "ld.global.v2|v4|v8", "st.global.v2|v4|v8" vector global accesses by lane count
//   "ld.global.4B|8B|16B|32B", "st.global.…B"  global accesses by bytes per thread
//                                             (vector lanes x element size; scalar
//                                             accesses of 1-2 bytes are "1B"/"2B")
//   "ld.shared", "st.shared"                  shared-memory loads / stores, with the
//                                             same ".v4" / ".16B" breakdown as global ones
//   "mma"            mma.sync (warp-level tensor core)
//   "wmma"           wmma.mma.sync (nvcuda::wmma)
//   "ldmatrix", "stmatrix"
//   "wgmma"          wgmma.mma_async (Hopper warpgroup tensor core)
//   "tcgen05.mma"    Blackwell tensor core
//   "cp.async"       cp.async.ca / .cg copies (not commit/wait)
//   "cp.async.bulk"  every bulk copy, tensor or not (TMA)
//   "cp.async.bulk.tensor"  the tensor-map subset of the above
//   "shfl"           shfl.sync
//   "atom", "red"    atomics and reductions in any state space
//   "bar.sync"       bar.sync / barrier.sync (__syncthreads and named barriers)
//   "setmaxnreg"
// Instructions are counted once per occurrence in the text (static count),
// including inline assembly.
std::map<std::string, int> scanPtxFeatures(std::string_view ptx);

}  // namespace crucible
