// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/template/row_bulk.h"
#include "backends/proposers/template/kernel_source.h"

namespace crucible::templates {

std::string rowBulkHelpers(bool evictFirst) {
  std::string s = R"(// fill=bulk: the copy engine fetches rows into shared memory; an mbarrier per stage counts
// the bytes down (cp.async.bulk needs 16-byte aligned addresses and sizes in whole 16 bytes).
__device__ __forceinline__ unsigned bulk_smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void bulk_bar_init(unsigned long long* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bulk_smem_address(bar)) : "memory");
}
// Makes the initialised barriers visible to the other threads and to the copy engine.
__device__ __forceinline__ void bulk_bars_fence() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
// The one arrival of a stage's phase, announcing the bytes its copies will count down.
__device__ __forceinline__ void bulk_expect(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bulk_smem_address(bar)), "r"(bytes)
               : "memory");
}
)";
  if (evictFirst)
    s += R"(// `bytes` from global `src` to shared `dst` by the copy engine, completing on `bar`; the lines
// are marked evict-first in L2 (hint=evict_first: the rows are read once).
__device__ __forceinline__ void bulk_fetch(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;\n"
      ::"r"(bulk_smem_address(dst)), "l"(src), "r"(bytes), "r"(bulk_smem_address(bar)), "l"(policy)
      : "memory");
}
)";
  else
    s += R"(// `bytes` from global `src` to shared `dst` by the copy engine, completing on `bar`.
__device__ __forceinline__ void bulk_fetch(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
               ::"r"(bulk_smem_address(dst)), "l"(src), "r"(bytes), "r"(bulk_smem_address(bar))
               : "memory");
}
)";
  s += R"(// Waits (acquire) until the phase of parity `parity` of `bar` has completed: the stage's bytes landed.
__device__ __forceinline__ void bulk_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred complete;\nmbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
        "selp.u32 %0, 1, 0, complete;\n}\n"
        : "=r"(done)
        : "r"(bulk_smem_address(bar)), "r"(parity)
        : "memory");
  } while (!done);
}
// This thread's accesses to a stage, ordered before the copy engine's next writes into it.
__device__ __forceinline__ void bulk_release_stage() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

)";
  return s;
}

namespace {
// Lines indented by four spaces, by two.
std::string unindent(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size() - 1;
    std::string line = text.substr(at, end - at + 1);
    if (line.rfind("    ", 0) == 0) line = line.substr(2);
    out += line;
    at = end + 1;
  }
  return out;
}
}  // namespace

std::string bulkRowLoopSource(const BulkRowLoop& loop) {
  const std::string& P = loop.prefix;
  const std::string R = std::to_string(loop.rowsPerBlock);
  // Per tensor: its row bytes, its fetch into a stage, its stage pointer and its alignment check.
  std::string rowBytes, groupRowBytes, fetches, stagePointers, checks, offset = "0u";
  for (const auto& t : loop.tensors) {
    const std::string bytes = P + "row_bytes_" + t.global;
    rowBytes += "  const unsigned " + bytes + " = (unsigned)(" + P + "row_elems * sizeof(" + t.type + "));\n";
    groupRowBytes += (groupRowBytes.empty() ? "" : " + ") + bytes;
    fetches += "bulk_fetch(" + P + "base + " + offset + ", " + t.global + " + " + P + "first * " + P + "row_elems, " + P +
               "fetch_rows * " + bytes + ", &" + P + "bulk_bar[" + P + "fetch_stage]);\n";
    stagePointers += "    " + t.type + "* const " + P + "stage_" + t.global + " = reinterpret_cast<" + t.type + "*>(" + P +
                     "bulk_smem + " + P + "stage * " + P + "stage_bytes + " + offset + ");\n";
    checks += "    if ((((unsigned long long)" + t.global + " | " + bytes + ") & 15) != 0) __trap();\n";
    offset += " + " + R + "u * " + bytes;
  }
  // The fetch of group <P>fetch_group into stage <P>fetch_stage, by thread 0. Written out where
  // it is used: as a lambda capturing the kernel's locals, NVRTC kept them in local memory.
  const std::string fetch = render(R"(const long long {{P}}first = {{P}}fetch_group * {{R}};
const unsigned {{P}}fetch_rows = (unsigned)min((long long){{R}}, {{P}}rows_total - {{P}}first);
unsigned char* const {{P}}base = {{P}}bulk_smem + {{P}}fetch_stage * {{P}}stage_bytes;
bulk_expect(&{{P}}bulk_bar[{{P}}fetch_stage], {{P}}fetch_rows * {{P}}group_row_bytes);
)",
                                   {{"P", P}, {"R", R}}) +
                            fetches;
  if (!loop.persistent)
    return render(R"(  // fill=bulk: the block's group of {{R}} row(s) of each row tensor, fetched into shared memory by the copy engine.
  extern __shared__ __align__(128) unsigned char {{P}}bulk_smem[];
  __shared__ __align__(8) unsigned long long {{P}}bulk_bar[STAGES];
  const long long {{P}}rows_total = {{ROWS}};
  const long long {{P}}row_elems = {{N}};
{{ROW_BYTES}}  const unsigned {{P}}group_row_bytes = {{GROUP_ROW_BYTES}};
  const unsigned {{P}}stage_bytes = {{R}}u * {{P}}group_row_bytes;
  const long long {{P}}group = blockIdx.x;
  const int {{P}}stage = 0;
  if (threadIdx.x == 0) {
    // The copy engine moves whole 16-byte units from and to 16-byte aligned addresses.
{{CHECKS}}    bulk_bar_init(&{{P}}bulk_bar[0]);
    bulk_bars_fence();
    const long long {{P}}fetch_group = {{P}}group;
    const int {{P}}fetch_stage = 0;
{{FETCH4}}  }
  __syncthreads();
  bulk_wait(&{{P}}bulk_bar[0], 0);  // the group's rows have landed
{{STAGE_POINTERS2}}{{WORK2}})",
                  {{"P", P},
                   {"R", R},
                   {"ROWS", loop.rows},
                   {"N", loop.rowLength},
                   {"ROW_BYTES", rowBytes},
                   {"GROUP_ROW_BYTES", groupRowBytes},
                   {"CHECKS", checks},
                   {"FETCH4", indentLines(fetch, 4)},
                   {"STAGE_POINTERS2", unindent(stagePointers)},
                   {"WORK2", loop.work}});
  return render(R"(  // fill=bulk: STAGES groups of {{R}} row(s) of each row tensor in shared memory, fetched by the copy engine.
  extern __shared__ __align__(128) unsigned char {{P}}bulk_smem[];
  __shared__ __align__(8) unsigned long long {{P}}bulk_bar[STAGES];
  const long long {{P}}rows_total = {{ROWS}};
  const long long {{P}}row_elems = {{N}};
{{ROW_BYTES}}  const unsigned {{P}}group_row_bytes = {{GROUP_ROW_BYTES}};
  const unsigned {{P}}stage_bytes = {{R}}u * {{P}}group_row_bytes;
  const long long {{P}}groups = ({{P}}rows_total + {{R}} - 1) / {{R}};
  if (threadIdx.x == 0) {
    // The copy engine moves whole 16-byte units from and to 16-byte aligned addresses.
{{CHECKS}}    for (int {{P}}s = 0; {{P}}s < STAGES; ++{{P}}s) bulk_bar_init(&{{P}}bulk_bar[{{P}}s]);
    bulk_bars_fence();
    for (int {{P}}fetch_stage = 0; {{P}}fetch_stage < STAGES; ++{{P}}fetch_stage) {
      const long long {{P}}fetch_group = blockIdx.x + (long long){{P}}fetch_stage * gridDim.x;
      if ({{P}}fetch_group < {{P}}groups) {
{{FETCH8}}      }
    }
  }
  __syncthreads();
  int {{P}}trip = 0;
  for (long long {{P}}group = blockIdx.x; {{P}}group < {{P}}groups; {{P}}group += gridDim.x, ++{{P}}trip) {
    const int {{P}}stage = {{P}}trip % STAGES;
    bulk_wait(&{{P}}bulk_bar[{{P}}stage], ({{P}}trip / STAGES) & 1);  // the group's rows have landed
{{STAGE_POINTERS}}    {
{{WORK}}    }
    // Every thread is done with the stage before the copy engine refills it, STAGES trips ahead.
    bulk_release_stage();
    __syncthreads();
    const long long {{P}}fetch_group = {{P}}group + (long long)STAGES * gridDim.x;
    if (threadIdx.x == 0 && {{P}}fetch_group < {{P}}groups) {
      const int {{P}}fetch_stage = {{P}}stage;
{{FETCH6}}    }
  }
)",
                {{"P", P},
                 {"R", R},
                 {"ROWS", loop.rows},
                 {"N", loop.rowLength},
                 {"ROW_BYTES", rowBytes},
                 {"GROUP_ROW_BYTES", groupRowBytes},
                 {"CHECKS", checks},
                 {"FETCH8", indentLines(fetch, 8)},
                 {"STAGE_POINTERS", stagePointers},
                 {"WORK", indentLines(loop.work, 4)},
                 {"FETCH6", indentLines(fetch, 6)}});
}

std::string bulkRowSmemExpr(std::int64_t stages, std::int64_t rowsPerBlock, const std::string& rowLengthExpr,
                            const std::vector<std::int64_t>& elementBytes) {
  std::int64_t bytes = 0;
  for (std::int64_t b : elementBytes) bytes += b;
  return std::to_string(stages * rowsPerBlock * bytes) + " * " + rowLengthExpr;
}

}  // namespace crucible::templates
