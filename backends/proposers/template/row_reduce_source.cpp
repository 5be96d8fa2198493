// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/row_reduce_source.h"

namespace crucible {

std::string rowReduceSource(RowReduceKind kind, int warpsPerRow) {
  if (kind == RowReduceKind::SharedTree)
    return R"(// Combines the values of a row's THREADS_PER_ROW threads with a tree in shared
// memory (buffer holds one value per thread of the block). Every thread gets the result.
template <class T, class Op>
__device__ __forceinline__ T row_reduce(T v, Op op, T* buffer) {
  const int lane = threadIdx.x % THREADS_PER_ROW;
  buffer[threadIdx.x] = v;
  __syncthreads();
#pragma unroll
  for (int stride = THREADS_PER_ROW / 2; stride > 0; stride /= 2) {
    if (lane < stride) buffer[threadIdx.x] = op(buffer[threadIdx.x], buffer[threadIdx.x + stride]);
    __syncthreads();
  }
  v = buffer[threadIdx.x - lane];
  __syncthreads();  // the buffer is free for the next reduction
  return v;
}

)";
  if (warpsPerRow == 1)
    return R"(// Combines the values of the 32 lanes of a row's warp; every lane gets the result.
template <class T, class Op>
__device__ __forceinline__ T row_reduce(T v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, shfl_xor(v, offset));
  return v;
}

)";
  return R"(// Combines the values of a row's THREADS_PER_ROW threads: shuffles inside each
// warp, then the row's warps meet in shared memory. Every thread gets the result.
template <class T, class Op>
__device__ __forceinline__ T row_reduce(T v, Op op, T (*partials)[WARPS_PER_ROW]) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, shfl_xor(v, offset));
  const int row_in_block = threadIdx.x / THREADS_PER_ROW;
  if (threadIdx.x % 32 == 0) partials[row_in_block][threadIdx.x % THREADS_PER_ROW / 32] = v;
  __syncthreads();
  v = partials[row_in_block][0];
#pragma unroll
  for (int w = 1; w < WARPS_PER_ROW; ++w) v = op(v, partials[row_in_block][w]);
  __syncthreads();  // the partials are free for the next reduction
  return v;
}

)";
}

std::string subWarpRowReduceSource() {
  return R"(// Combines the values of a row's THREADS_PER_ROW lanes, an aligned group of
// a warp that holds 32 / THREADS_PER_ROW rows: XOR offsets below THREADS_PER_ROW
// never leave the group. Every lane of the warp takes part (rows past the end
// too), so the full mask is exact; every lane of the group gets the result.
template <class T, class Op>
__device__ __forceinline__ T row_reduce(T v, Op op) {
#pragma unroll
  for (int offset = THREADS_PER_ROW / 2; offset > 0; offset /= 2) v = op(v, shfl_xor(v, offset));
  return v;
}

)";
}

}  // namespace crucible
