// SPDX-License-Identifier: GPL-3.0-or-later
// How the row families cut a row of any length into vector packs. Row r of a
// [rows, N] tensor starts at element r * N: with N not a multiple of VEC most
// rows start off a VEC-element boundary, so packs counted from the row's start
// would be misaligned. Instead the packs sit on the tensor's aligned VEC-element
// grid: pack j of a row covers columns [j * VEC - shift, j * VEC - shift + VEC),
// where shift (0 <= shift < VEC) is how far the row's first element lies past
// the boundary before it, read from the row's actual address. Pack 0 is then a
// partial head (its first `shift` slots are before the row), the last pack may
// be a partial tail, and every pack between is whole and aligned. Partial packs
// move element by element; whole ones in one access.
//
// The functions are written once, in CR_ROW_PACKS_CODE: the host instantiates
// them here (constexpr, unit-tested for every misalignment in
// tests/backends/template/row_packs_test.cpp) and rowPackCuda() emits the same
// text, stringified, as __device__ functions of the kernels. Nothing else of the
// pack arithmetic is written twice.
#pragma once
#include <string>

// QUAL: `constexpr inline` on the host, `__device__ __forceinline__` in kernels.
// No comments inside: the macro is also stringified into kernel source.
#define CR_ROW_PACKS_CODE(QUAL)                                                                              \
  QUAL int cr_row_shift(unsigned long long address, int element_bytes, int vec) {                           \
    return (int)(address / (unsigned long long)element_bytes % (unsigned long long)vec);                    \
  }                                                                                                          \
  QUAL int cr_pack_column(int pack, int shift, int vec) { return pack * vec - shift; }                      \
  QUAL int cr_pack_count(int cols, int shift, int vec) { return (cols + shift + vec - 1) / vec; }           \
  QUAL bool cr_pack_whole(int col, int cols, int vec) { return col >= 0 && col + vec <= cols; }             \
  QUAL bool cr_in_row(int col, int cols) { return (unsigned)col < (unsigned)cols; }

#define CR_ROW_PACKS_STRINGIFY_(...) #__VA_ARGS__
#define CR_ROW_PACKS_STRINGIFY(...) CR_ROW_PACKS_STRINGIFY_(__VA_ARGS__)

namespace crucible::templates::row_packs {

// cr_row_shift(address, element_bytes, vec): the row's first element's distance
//   past the VEC-element boundary before it (0 when the row starts on one).
// cr_pack_column(pack, shift, vec): the first column of a pack (negative for a head).
// cr_pack_count(cols, shift, vec): the packs a row of `cols` spans.
// cr_pack_whole(col, cols, vec): the pack at `col` lies inside the row: one aligned access.
// cr_in_row(col, cols): column `col` belongs to the row (a partial pack's valid slots).
CR_ROW_PACKS_CODE(constexpr inline)

}  // namespace crucible::templates::row_packs

namespace crucible::templates {

// The functions above as CUDA (`__device__`), then the pack accesses built on
// them, for emitted kernels. Expects a constexpr int VEC, to_f / from_f<T> and
// PackOf<T> / load_vec / store_vec (expr_cuda.h: mixedPackHelpers) in scope.
inline std::string rowPackCuda() {
  return std::string("// The row's pack grid (backends/proposers/template/row_packs.h): packs sit on VEC-element\n"
                     "// boundaries of memory, so a row that starts between two has a partial head and tail.\n") +
         CR_ROW_PACKS_STRINGIFY(CR_ROW_PACKS_CODE(__device__ __forceinline__)) + "\n" + R"(
// A partial pack: the slots whose column lies in the row, one element at a time; the others read as 0.
template <class T>
__device__ __forceinline__ void load_part(const T* row, int col, int cols, float (&v)[VEC]) {
#pragma unroll
  for (int k = 0; k < VEC; ++k) v[k] = cr_in_row(col + k, cols) ? to_f(row[col + k]) : 0.0f;
}

template <class T>
__device__ __forceinline__ void store_part(T* row, int col, int cols, const float (&v)[VEC]) {
#pragma unroll
  for (int k = 0; k < VEC; ++k)
    if (cr_in_row(col + k, cols)) row[col + k] = from_f<T>(v[k]);
}

// A whole pack's store as one instruction the compiler cannot take apart. With
// store_vec, the compiler may merge a whole pack's store with the partial
// branch's element stores into VEC predicated scalar stores (seen in the PTX of
// a 5003-column row: one of five packs). Plain asm store, no memory clobber:
// the kernels never read back what they write, and their pointers are __restrict__.
__device__ __forceinline__ void st_global_word(void* p, unsigned w) {
  asm volatile("st.global.b32 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "r"(w));
}
__device__ __forceinline__ void st_global_word(void* p, uint2 w) {
  asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(p)), "r"(w.x), "r"(w.y));
}
__device__ __forceinline__ void st_global_word(void* p, uint4 w) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(__cvta_generic_to_global(p)), "r"(w.x), "r"(w.y),
               "r"(w.z), "r"(w.w));
}
template <int BYTES> struct RowWordOf;
template <> struct RowWordOf<4> { using type = unsigned; };
template <> struct RowWordOf<8> { using type = uint2; };
template <> struct RowWordOf<16> { using type = uint4; };

template <class T>
__device__ __forceinline__ void store_whole(T* p, const float (&v)[VEC]) {
  PackOf<T> pack;
#pragma unroll
  for (int k = 0; k < VEC; ++k) pack.v[k] = from_f<T>(v[k]);
  typename RowWordOf<sizeof(PackOf<T>)>::type bits;
  memcpy(&bits, &pack, sizeof bits);
  st_global_word(p, bits);
}

// A whole pack of a [N] column tensor: it starts at column 0, on a boundary, so
// its packs are aligned only in rows whose shift is 0. One access there, else
// VEC (the same choice for the whole row: no divergence inside a row's threads).
template <class T>
__device__ __forceinline__ void load_vec_any(const T* p, float (&v)[VEC]) {
  if (reinterpret_cast<unsigned long long>(p) % sizeof(PackOf<T>) == 0) {
    load_vec(p, v);
  } else {
#pragma unroll
    for (int k = 0; k < VEC; ++k) v[k] = to_f(p[k]);
  }
}

)";
}

}  // namespace crucible::templates
