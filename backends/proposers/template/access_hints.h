// SPDX-License-Identifier: GPL-3.0-or-later
// Cache hints on the accesses of data a kernel streams through once (the row
// families' `hint` gene, rowreduce_space.cpp and expr_rowwise_space.cpp):
//   default      plain loads and stores (what the kernels did before the gene)
//   evict_first  ld.global.cs / st.global.cs (__ldcs / __stcs): the lines go
//                first out of L1 and L2, so streamed data does not push out
//                what is reused (weights, the other rows' partial results)
//   no_allocate  ld.global.nc.L1::no_allocate: read-only path, no L1 line
//                allocated for data read once; stores stay plain
// Hinted accesses move whole 8- or 16-byte words (a pack of that size): with
// 4-byte packs the hinted loads cost registers the compiler would not spend on
// plain ones (NVRTC + nvJitLink sm_90: a sub-warp layernorm row cache of 63
// floats took 255 registers and spilled, against 113 unhinted).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace crucible::templates {

inline std::vector<std::string> accessHintValues() { return {"default", "evict_first", "no_allocate"}; }

// Why a hint cannot apply to packs of `packBytes` bytes; empty when it can.
inline std::string accessHintViolation(const std::string& hint, std::int64_t packBytes) {
  if (hint == "default" || packBytes == 8 || packBytes == 16) return "";
  return "hint=" + hint + " moves whole 8- or 16-byte words (packs here are " + std::to_string(packBytes) + " bytes)";
}

// CUDA defining, for a trivially copyable P of 4, 8 or 16 bytes,
//   P hinted_load<P>(const void* p)   and   void hinted_store<P>(void* p, const P& v)
// with the hint's cache policy. Empty for "default" (the kernels use plain accesses).
inline std::string accessHintCuda(const std::string& hint) {
  if (hint == "default") return "";
  std::string s = R"(// The pack moved as the unsigned word of its size, for the hinted accesses below.
template <int BYTES> struct HintWord;
template <> struct HintWord<4> { using type = unsigned; };
template <> struct HintWord<8> { using type = uint2; };
template <> struct HintWord<16> { using type = uint4; };

)";
  if (hint == "evict_first")
    return s + R"(// Streamed data is touched once: evict-first loads (ld.global.cs) and stores (st.global.cs).
template <class P>
__device__ __forceinline__ P hinted_load(const void* p) {
  using Word = typename HintWord<sizeof(P)>::type;
  const Word bits = __ldcs(reinterpret_cast<const Word*>(p));
  P out;
  memcpy(&out, &bits, sizeof out);
  return out;
}

template <class P>
__device__ __forceinline__ void hinted_store(void* p, const P& v) {
  using Word = typename HintWord<sizeof(P)>::type;
  Word bits;
  memcpy(&bits, &v, sizeof bits);
  __stcs(reinterpret_cast<Word*>(p), bits);
}

)";
  if (hint == "no_allocate")
    return s + R"(// Streamed data is read once: the read-only path without an L1 line
// (ld.global.nc.L1::no_allocate); the inputs are never written by the kernel.
__device__ __forceinline__ unsigned ld_no_allocate(const unsigned* p) {
  unsigned v;
  asm("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(p)));
  return v;
}
__device__ __forceinline__ uint2 ld_no_allocate(const uint2* p) {
  uint2 v;
  asm("ld.global.nc.L1::no_allocate.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(__cvta_generic_to_global(p)));
  return v;
}
__device__ __forceinline__ uint4 ld_no_allocate(const uint4* p) {
  uint4 v;
  asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(__cvta_generic_to_global(p)));
  return v;
}

template <class P>
__device__ __forceinline__ P hinted_load(const void* p) {
  using Word = typename HintWord<sizeof(P)>::type;
  const Word bits = ld_no_allocate(reinterpret_cast<const Word*>(p));
  P out;
  memcpy(&out, &bits, sizeof out);
  return out;
}

template <class P>
__device__ __forceinline__ void hinted_store(void* p, const P& v) {
  *reinterpret_cast<P*>(p) = v;
}

)";
  throw std::logic_error("access hint '" + hint + "'");
}

}  // namespace crucible::templates
