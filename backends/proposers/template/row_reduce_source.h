// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA text of row_reduce(), the reduction of a row's values over the
// threads that hold them, shared by the row families (emit_rowreduce.cpp and
// emit_expr_rowwise.cpp): one source for the code both generate.
#pragma once
#include <string>

namespace crucible {

enum class RowReduceKind {
  Shuffle,     // warp shuffles; with several warps per row, the warps meet in shared memory (partials)
  SharedTree,  // a tree in shared memory over one value per thread (buffer)
};

// The template `row_reduce(v, op[, scratch])` for this kind and number of warps per row.
// It expects shfl_xor() overloads for its value types (Shuffle) and THREADS_PER_ROW,
// WARPS_PER_ROW defined.
std::string rowReduceSource(RowReduceKind kind, int warpsPerRow);

// row_reduce(v, op) for rows shorter than a warp's share: THREADS_PER_ROW (< 32,
// a power of two) lanes per row, several rows per warp, shuffles within the
// row's aligned group of lanes. Every lane of the warp must call it.
std::string subWarpRowReduceSource();

}  // namespace crucible
