// SPDX-License-Identifier: GPL-3.0-or-later
// Cache hints on the accesses of data a kernel streams through once (the row
// families' `hint` gene, rowreduce_space.cpp and expr_rowwise_space.cpp):
//   default      plain loads and stores (what the kernels did before the gene)
//   evict_first  ld.global.cs / st.global.cs (__ldcs / __stcs): the lines go
//                first out of L1 and L2, so streamed data does not push out
//                what is reused (weights, the other rows' partial results)
//   no_allocate  ld.global.nc.L1::no_allocate: read-only path, no L1 line
//                allocated for data read once; stores stay plain
//   evict_last   for rows read more than once from global memory (the row
//                families' memory=global): the sweeps before the last load
//                the row with an L2 evict-last policy, so it is still in L2
//                when the next sweep re-reads it, and the last sweep loads it
//                evict-first (its last use); per-column parameters (weights)
//                evict-last; stores stay plain. torch.compile's reductions do
//                this (Triton eviction_policy); measured on the H200 in
//                tests/bench/results/2026-12-03-h200-l2-reread-rows.md
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

// The hint for data read again: only a kernel that re-reads its rows from global memory takes it.
inline constexpr const char* kRereadHint = "evict_last";

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
  // The hints that change only the loads store plainly.
  const std::string plainStore = R"(template <class P>
__device__ __forceinline__ void hinted_store(void* p, const P& v) {
  *reinterpret_cast<P*>(p) = v;
}

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

)" + plainStore;
  if (hint == kRereadHint) {
    // ld.global with an L1 eviction priority and an L2 cache policy (createpolicy), as Triton emits
    // for eviction_policy: evict-last while a later sweep reads the row again, evict-first at its last read.
    std::string loads = R"(// A row read again by a later sweep: evict-last loads while it will be read again
// (hinted_load_keep), evict-first at its last read (hinted_load), in L1 and in L2.
__device__ __forceinline__ unsigned long long l2_policy_evict_last() {
  unsigned long long policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ unsigned long long l2_policy_evict_first() {
  unsigned long long policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
)";
    struct Width {
      const char *type, *operands, *outputs;
      int address;  // the operand number of the address (the policy's is the next)
    };
    const Width widths[] = {{"unsigned", "u32 %0", "\"=r\"(v)", 1},
                            {"uint2", "v2.u32 {%0, %1}", "\"=r\"(v.x), \"=r\"(v.y)", 2},
                            {"uint4", "v4.u32 {%0, %1, %2, %3}", "\"=r\"(v.x), \"=r\"(v.y), \"=r\"(v.z), \"=r\"(v.w)", 4}};
    for (const char* when : {"last", "first"})
      for (const Width& w : widths) {
        loads += std::string("__device__ __forceinline__ ") + w.type + " ld_evict_" + when + "(const " + w.type +
                 "* p) {\n  " + w.type + " v;\n  asm volatile(\"ld.global.L1::evict_" + when + ".L2::cache_hint." +
                 w.operands + ", [%" + std::to_string(w.address) + "], %" + std::to_string(w.address + 1) +
                 ";\"\n               : " + w.outputs +
                 "\n               : \"l\"(__cvta_generic_to_global(p)), \"l\"(l2_policy_evict_" + when + "()));\n  return v;\n}\n";
      }
    return s + loads + R"(
// The loaded word's bits as the pack of the same size.
template <class P, class Word>
__device__ __forceinline__ P pack_of(const Word& bits) {
  P out;
  memcpy(&out, &bits, sizeof out);
  return out;
}
template <class P>
__device__ __forceinline__ P hinted_load_keep(const void* p) {
  return pack_of<P>(ld_evict_last(reinterpret_cast<const typename HintWord<sizeof(P)>::type*>(p)));
}
template <class P>
__device__ __forceinline__ P hinted_load(const void* p) {
  return pack_of<P>(ld_evict_first(reinterpret_cast<const typename HintWord<sizeof(P)>::type*>(p)));
}

)" + plainStore;
  }
  throw std::logic_error("access hint '" + hint + "'");
}

}  // namespace crucible::templates
