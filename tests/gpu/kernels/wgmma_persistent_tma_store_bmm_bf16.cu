// Launch: crucible-cli eval --task tests/tasks/any-operator/bmm_bf16_16x2048x2048x2048.json --kernel tests/gpu/kernels/wgmma_persistent_tma_store_bmm_bf16.cu --grid 'min(ceil_div(N, 256) * ceil_div(M, 128) * Bt, sm_count)' --block 384 --smem 230528 --tensor-map A:128x64:128B --tensor-map B:64x64:128B --tensor-map C:64x64:128B
// Crucible template kernel: GEMM on Hopper warpgroup tensor cores (wgmma m64n256k16 bf16, fp32 accumulate, 128B-swizzled shared-memory operands), warp-specialized, persistent: one block per SM looping over the tiles of every batch entry, 1 TMA producer thread (bulk tensor copies) running ahead across tiles, 2 consumer warpgroups, 4-stage mbarrier ring, C stored by the copy engine (bulk tensor stores) from 2 swizzled buffer(s) per warpgroup
// task:   bmm_bf16_16x2048x2048x2048 (matmul, Bt=16, K=2048, M=2048, N=2048)
// genes:  epilogue=tma pipeline=tma schedule=persistent split_k=none tensor_core=wgmma vector=8
// params: BLOCK_K=64 BLOCK_M=128 BLOCK_N=256 CLUSTER_M=1 EPI_BUFFERS=2 STAGES=4 WARPGROUPS=2
#include <cuda_bf16.h>

constexpr int BLOCK_M = 128;
constexpr int BLOCK_N = 256;  // the N of every wgmma
constexpr int BLOCK_K = 64;  // one 128-byte swizzle row of bf16
constexpr int CONSUMERS = 2;  // consumer warpgroups; each owns BLOCK_M / CONSUMERS rows
constexpr int STAGES = 4;  // shared-memory ring depth
constexpr int GROUP_M = 8;  // block rows per raster group: neighbours share B panels in L2
constexpr int THREADS = 384;  // the producer warpgroup, then the consumers
constexpr int EPI_COLS = 64;  // columns of C staged per epilogue step
constexpr int EPI_BUFFERS = 2;  // staging buffers per consumer warpgroup, used in turn
constexpr int PRODUCER_THREADS = 128;
constexpr int CONSUMER_THREADS = 128 * CONSUMERS;
constexpr int SLABS = BLOCK_M / CONSUMERS / 64;         // m64 wgmma slabs per consumer warpgroup
constexpr int ROW_BYTES = BLOCK_K * 2;                  // 128: one swizzle row
constexpr int SWIZZLE_BYTES = 1024;                     // 8 rows of 128 bytes: the swizzle pattern's period
constexpr int A_STAGE_BYTES = BLOCK_M * ROW_BYTES;      // [BLOCK_M rows][128 B]
constexpr int B_PANEL_BYTES = BLOCK_K * ROW_BYTES;      // one 64-column panel: [BLOCK_K k-rows][128 B]
constexpr int B_STAGE_BYTES = BLOCK_N / 64 * B_PANEL_BYTES;
constexpr int STAGE_BYTES = A_STAGE_BYTES + B_STAGE_BYTES;
constexpr int RING_BYTES = STAGES * STAGE_BYTES;
constexpr int B_PANELS = BLOCK_N / 64;                  // bulk copies of B per stage: 64 k-rows x 64 columns
constexpr int WG_ROWS = SLABS * 64;                     // rows of C per consumer warpgroup
constexpr int EPI_BYTES = WG_ROWS * EPI_COLS * 2;       // one: a TMA box of 64 bf16 columns, 128-byte swizzled
constexpr int EPI_WG_BYTES = EPI_BUFFERS * EPI_BYTES;   // a consumer warpgroup's staging
static_assert(EPI_COLS * 2 == 128 && EPI_BYTES % SWIZZLE_BYTES == 0, "every buffer is whole 128-byte swizzle periods");
static_assert(A_STAGE_BYTES % SWIZZLE_BYTES == 0 && B_PANEL_BYTES % SWIZZLE_BYTES == 0,
              "every tile starts on a swizzle period");
static_assert(BLOCK_N % EPI_COLS == 0, "the epilogue steps cover the tile's columns");

struct alignas(64) CUtensorMap { unsigned long long opaque[16]; };  // the driver's tensor map, passed by value

__device__ __forceinline__ unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Orders prior register and shared-memory accesses of the warpgroup before the next wgmma.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }

// Waits until at most PENDING committed wgmma groups of this warpgroup are still running.
template <int PENDING>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
}

// Ties the accumulators to this point of the instruction stream, so the compiler
// reads them only after the wgmma_wait before it.
template <int N>
__device__ __forceinline__ void pin_accumulators(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// A shared-memory matrix descriptor with 128-byte swizzling: start address, leading and
// stride byte offsets, each >> 4, in bits 0-13, 16-29 and 32-45; swizzle mode 1 in bits 62-63.
__device__ __forceinline__ unsigned long long smem_descriptor(unsigned address, unsigned leading_bytes,
                                                              unsigned stride_bytes) {
  return static_cast<unsigned long long>((address & 0x3FFFF) >> 4) |
         static_cast<unsigned long long>((leading_bytes & 0x3FFFF) >> 4) << 16 |
         static_cast<unsigned long long>((stride_bytes & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}

// mbarrier helpers; `bar` is a shared-window address of an 8-byte mbarrier.
__device__ __forceinline__ void mbarrier_init(unsigned bar, unsigned expected_arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(expected_arrivals) : "memory");
}

// One arrival (release semantics: this thread's prior accesses happen before the phase completes).
__device__ __forceinline__ void mbarrier_arrive(unsigned bar) {
  asm volatile("{\n.reg .b64 state;\nmbarrier.arrive.shared::cta.b64 state, [%0];\n}\n" ::"r"(bar) : "memory");
}

// One arrival that also announces `bytes` of transactions: the phase completes once the
// arrival is made and the bulk copies have counted that many bytes down.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

// The box of `map` at element coordinates (column, row) -> shared memory at `dst`, by the copy
// engine (swizzled as the map says); its bytes complete on `bar`. Past the edges it writes zeros.
__device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap& map, int column, int row, unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
      ::"r"(dst), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(column), "r"(row), "r"(bar)
      : "memory");
}

// Waits (acquire) until the phase with parity `parity` has completed: the current phase
// if it has that parity, else the one before it, which has already completed.
__device__ __forceinline__ void mbarrier_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n.reg .pred complete;\nmbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
        "selp.u32 %0, 1, 0, complete;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// Synchronises the consumer warpgroups only (named barrier 1; the producer may have exited).
__device__ __forceinline__ void consumers_sync() {
  asm volatile("bar.sync 1, %0;\n" ::"n"(CONSUMER_THREADS) : "memory");
}

// This thread's writes to shared memory, made visible to the copy engine (the async proxy).
__device__ __forceinline__ void fence_shared_to_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// The box of shared memory at `src` -> `map`'s tensor at element coordinates (column, row), by the
// copy engine (un-swizzled as the map says), committed as one bulk group of this thread. Rows
// and columns past the tensor's edges are not written.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap& map, unsigned src, int column, int row) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n"
               ::"l"(reinterpret_cast<unsigned long long>(&map)), "r"(column), "r"(row), "r"(src)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

// Four 8 x 8 matrices of 16-bit values from the warp's registers into shared memory: lanes
// 8m .. 8m + 7 give the addresses of matrix m's eight 16-byte rows; r[m] holds this lane's pair
// of matrix m (row lane / 4, columns 2 (lane % 4) and + 1), the layout of an mma or wgmma
// accumulator fragment.
__device__ __forceinline__ void stmatrix_x4(unsigned address, const unsigned (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
               ::"r"(address), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
               : "memory");
}

// Waits until at most `pending` of this thread's bulk groups are still reading shared memory.
template <int pending>
__device__ __forceinline__ void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(pending) : "memory");
}

// Waits until every bulk group of this thread has completed.
__device__ __forceinline__ void tma_store_wait_all() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }

// Synchronises the 128 threads of one consumer warpgroup only (named barrier 2 + consumer;
// 0 is __syncthreads, 1 consumers_sync): the other warpgroup runs on.
__device__ __forceinline__ void warpgroup_sync(int consumer) {
  asm volatile("bar.sync %0, 128;\n" ::"r"(consumer + 2) : "memory");
}

// Output tile `tile` of the block's sequence (the batch entries one after another, each in
// grouped raster order: GROUP_M block rows advance together across the columns): its batch
// entry and the first row and column of C it covers.
__device__ __forceinline__ void tile_position(int tile, int tiles_m, int tiles_n, int& entry, long long& block_row,
                                              long long& block_col) {
  const int entry_tiles = tiles_m * tiles_n;
  entry = tile / entry_tiles;
  const int in_entry = tile - entry * entry_tiles;
  const int group_blocks = GROUP_M * tiles_n;
  const int first_m = in_entry / group_blocks * GROUP_M;
  const int group_rows = min(tiles_m - first_m, GROUP_M);
  const int in_group = in_entry % group_blocks;
  block_row = static_cast<long long>(first_m + in_group % group_rows) * BLOCK_M;
  block_col = static_cast<long long>(in_group / group_rows) * BLOCK_N;
}

// d (this warpgroup's 64 x 256 fp32 accumulators) += A (64 x 16, K-major) * B (16 x 256, N-major).
// Asynchronous: d must not be touched until a wgmma_wait covers this call's group.
// Trailing immediates: scale-a = scale-b = 1 (no negation), A not transposed, B transposed (N-major).
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], unsigned long long a_desc, unsigned long long b_desc) {
  asm volatile(
      "{\n"
      ".reg .pred accumulate;\n"
      "setp.ne.b32 accumulate, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127},\n"
      "%128, %129, accumulate, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a_desc), "l"(b_desc), "r"(1));
}

// d (this warpgroup's 64 x 256 fp32 accumulators) = A (64 x 16, K-major) * B (16 x 256, N-major).
// Asynchronous: d must not be touched until a wgmma_wait covers this call's group.
// Trailing immediates: scale-a = scale-b = 1 (no negation), A not transposed, B transposed (N-major).
// d's old values are neither read nor kept: d is an output only ("=f"), so they need not
// be live before the call (a tile's first k16 step, instead of zeroing d).
__device__ __forceinline__ void wgmma_m64n256k16_overwrite(float (&d)[128], unsigned long long a_desc, unsigned long long b_desc) {
  asm volatile(
      "{\n"
      ".reg .pred accumulate;\n"
      "setp.ne.b32 accumulate, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127},\n"
      "%128, %129, accumulate, 1, 1, 0, 1;\n"
      "}\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7]),
        "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]), "=f"(d[14]), "=f"(d[15]),
        "=f"(d[16]), "=f"(d[17]), "=f"(d[18]), "=f"(d[19]), "=f"(d[20]), "=f"(d[21]), "=f"(d[22]), "=f"(d[23]),
        "=f"(d[24]), "=f"(d[25]), "=f"(d[26]), "=f"(d[27]), "=f"(d[28]), "=f"(d[29]), "=f"(d[30]), "=f"(d[31]),
        "=f"(d[32]), "=f"(d[33]), "=f"(d[34]), "=f"(d[35]), "=f"(d[36]), "=f"(d[37]), "=f"(d[38]), "=f"(d[39]),
        "=f"(d[40]), "=f"(d[41]), "=f"(d[42]), "=f"(d[43]), "=f"(d[44]), "=f"(d[45]), "=f"(d[46]), "=f"(d[47]),
        "=f"(d[48]), "=f"(d[49]), "=f"(d[50]), "=f"(d[51]), "=f"(d[52]), "=f"(d[53]), "=f"(d[54]), "=f"(d[55]),
        "=f"(d[56]), "=f"(d[57]), "=f"(d[58]), "=f"(d[59]), "=f"(d[60]), "=f"(d[61]), "=f"(d[62]), "=f"(d[63]),
        "=f"(d[64]), "=f"(d[65]), "=f"(d[66]), "=f"(d[67]), "=f"(d[68]), "=f"(d[69]), "=f"(d[70]), "=f"(d[71]),
        "=f"(d[72]), "=f"(d[73]), "=f"(d[74]), "=f"(d[75]), "=f"(d[76]), "=f"(d[77]), "=f"(d[78]), "=f"(d[79]),
        "=f"(d[80]), "=f"(d[81]), "=f"(d[82]), "=f"(d[83]), "=f"(d[84]), "=f"(d[85]), "=f"(d[86]), "=f"(d[87]),
        "=f"(d[88]), "=f"(d[89]), "=f"(d[90]), "=f"(d[91]), "=f"(d[92]), "=f"(d[93]), "=f"(d[94]), "=f"(d[95]),
        "=f"(d[96]), "=f"(d[97]), "=f"(d[98]), "=f"(d[99]), "=f"(d[100]), "=f"(d[101]), "=f"(d[102]), "=f"(d[103]),
        "=f"(d[104]), "=f"(d[105]), "=f"(d[106]), "=f"(d[107]), "=f"(d[108]), "=f"(d[109]), "=f"(d[110]), "=f"(d[111]),
        "=f"(d[112]), "=f"(d[113]), "=f"(d[114]), "=f"(d[115]), "=f"(d[116]), "=f"(d[117]), "=f"(d[118]), "=f"(d[119]),
        "=f"(d[120]), "=f"(d[121]), "=f"(d[122]), "=f"(d[123]), "=f"(d[124]), "=f"(d[125]), "=f"(d[126]), "=f"(d[127])
      : "l"(a_desc), "l"(b_desc), "r"(0));
}

extern "C" __global__ void __launch_bounds__(THREADS, 1) matmul_kernel(const __nv_bfloat16* __restrict__ A,
                                                                       const __nv_bfloat16* __restrict__ B,
                                                                       __nv_bfloat16* __restrict__ C,
                                                                       long long Bt,
                                                                       long long M,
                                                                       long long N,
                                                                       long long K,
                                                                       const __grid_constant__ CUtensorMap tmap_A,
                                                                       const __grid_constant__ CUtensorMap tmap_B,
                                                                       const __grid_constant__ CUtensorMap tmap_C) {
  extern __shared__ __align__(1024) unsigned char smem[];
  // The swizzle is applied to absolute shared addresses: the ring starts on a 1024-byte
  // boundary (the launch reserves 1 KiB for this). Stage s: A tile, then B's panels.
  // After the ring: the consumers' epilogue staging (CONSUMERS x EPI_WG_BYTES), then
  // full[STAGES], then empty[STAGES], then the staging buffers' full[CONSUMERS][EPI_BUFFERS] and free[CONSUMERS][EPI_BUFFERS].
  const unsigned ring = (smem_address(smem) + (SWIZZLE_BYTES - 1)) & ~unsigned(SWIZZLE_BYTES - 1);
  const unsigned staging_buffers = ring + RING_BYTES;
  const unsigned full_bars = staging_buffers + CONSUMERS * EPI_WG_BYTES, empty_bars = full_bars + STAGES * 8;
  const unsigned epi_full_bars = empty_bars + STAGES * 8;  // a staging buffer written by its warpgroup's 4 warps
  const unsigned epi_free_bars = epi_full_bars + CONSUMERS * EPI_BUFFERS * 8;  // ... and read by its store
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      mbarrier_init(full_bars + s * 8, 1);                  // the producer's expect_tx arrival; the bytes do the rest
      mbarrier_init(empty_bars + s * 8, CONSUMER_THREADS / 32);  // one arrival per consumer warp
    }
#pragma unroll
    for (int b = 0; b < CONSUMERS * EPI_BUFFERS; ++b) {
      mbarrier_init(epi_full_bars + b * 8, 128 / 32);  // the warps of the buffer's warpgroup
      mbarrier_init(epi_free_bars + b * 8, 1);         // the store issuer
    }
    // Makes the initialisation visible to the other threads and the asynchronous arrivals.
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  // The tiles: every batch entry's, entry after entry. Block b takes b, b + gridDim.x, ...
  const int tiles_m = static_cast<int>((M + BLOCK_M - 1) / BLOCK_M);
  const int tiles_n = static_cast<int>((N + BLOCK_N - 1) / BLOCK_N);
  const int tiles = tiles_m * tiles_n * static_cast<int>(Bt);
  const int k_tiles = static_cast<int>((K + BLOCK_K - 1) / BLOCK_K);
  const int warpgroup = threadIdx.x / 128;  // warp-uniform: wgmma needs whole warpgroups

  if (warpgroup == 0) {
    // ---------------------------------------------------------------- producer
    if (threadIdx.x == 0) {
      // One stream of k-tiles over all of this block's tiles: stage and phase never restart,
      // exactly as the consumers walk it.
      int stage = 0;
      unsigned phase = 0;  // parity of the current round of the ring
      for (int tile = static_cast<int>(blockIdx.x); tile < tiles; tile += static_cast<int>(gridDim.x)) {
        int entry;
        long long block_row, block_col;
        tile_position(tile, tiles_m, tiles_n, entry, block_row, block_col);
        for (int t = 0; t < k_tiles; ++t) {
          mbarrier_wait(empty_bars + stage * 8, phase ^ 1);  // the consumers released round - 1 of this stage
          const int k0 = t * BLOCK_K;
          const int b_row = k0 + static_cast<int>(entry * K);
          const unsigned a_tile = ring + stage * STAGE_BYTES, b_tile = a_tile + A_STAGE_BYTES;
          const unsigned full = full_bars + stage * 8;
          mbarrier_arrive_expect_tx(full, STAGE_BYTES);
          tma_load_2d(a_tile, tmap_A, k0, static_cast<int>(entry * M + block_row), full);
#pragma unroll
          for (int panel = 0; panel < B_PANELS; ++panel)
            tma_load_2d(b_tile + panel * B_PANEL_BYTES, tmap_B, static_cast<int>(block_col) + panel * 64, b_row, full);
          if (++stage == STAGES) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
    if (threadIdx.x == 64) {
      // C's bulk tensor stores, issued for the consumers: each warpgroup's staging buffer once its
      // 4 warps have written it (full), handed back once the copy engine has read it (free). The
      // consumers never wait for a store or a warpgroup barrier in their epilogue, only for a
      // buffer's previous store (EPI_BUFFERS steps before) to have read it; then they return to
      // the tensor cores. On the H200 (bmm 16 x 2048^3, 128 x 256, 4 buffers) that was 1.5% faster
      // than the consumers storing between warpgroup barriers (results/2026-12-04-h200-store-issuer.md).
      // Warpgroup c's boxes are used in turn, as its consumers use them, and a box's barriers'
      // phases flip once per use. In registers (an array indexed by pingpong's owner would live in
      // local memory): bits 8c .. 8c + 3 of `boxes` hold c's next box, bit 8c + b of `phases` box b's parity.
      unsigned boxes = 0, phases = 0;
      for (int tile = static_cast<int>(blockIdx.x); tile < tiles; tile += static_cast<int>(gridDim.x)) {
        int entry;
        long long block_row, block_col;
        tile_position(tile, tiles_m, tiles_n, entry, block_row, block_col);
#pragma unroll
        for (int step = 0; step < BLOCK_N / EPI_COLS; ++step) {
#pragma unroll
          for (int c = 0; c < CONSUMERS; ++c) {
            const int b = static_cast<int>(boxes >> (8 * c) & 0xfu);
            mbarrier_wait(epi_full_bars + (c * EPI_BUFFERS + b) * 8, phases >> (8 * c + b) & 1u);
            tma_store_2d(tmap_C, staging_buffers + c * EPI_WG_BYTES + b * EPI_BYTES, static_cast<int>(block_col) + step * EPI_COLS,
                         static_cast<int>(entry * M + block_row + c * WG_ROWS));
            tma_store_wait_read<0>();  // the copy engine has read the buffer: the warpgroup may write it again
            mbarrier_arrive(epi_free_bars + (c * EPI_BUFFERS + b) * 8);
            phases ^= 1u << (8 * c + b);
            boxes = (boxes & ~(0xfu << (8 * c))) | static_cast<unsigned>(b + 1 == EPI_BUFFERS ? 0 : b + 1) << (8 * c);
          }
        }
      }
      tma_store_wait_all();  // C's writes, before the block's shared memory goes
    }
    return;
  }

  // ------------------------------------------------------------------ consumers
  const int consumer = warpgroup - 1;
  // Stage 0's descriptors; a stage, slab or k16 step adds its byte offset >> 4 to the start address.
  // A: this warpgroup's first row; leading offset unused (swizzled K-major), 8 rows -> next 8 rows = 1024.
  // B: leading offset = 64 columns -> next 64 (a panel), stride = 8 k-rows -> next 8 = 1024.
  const unsigned long long a_desc = smem_descriptor(ring + consumer * SLABS * 64 * ROW_BYTES, 16, SWIZZLE_BYTES);
  const unsigned long long b_desc = smem_descriptor(ring + A_STAGE_BYTES, B_PANEL_BYTES, SWIZZLE_BYTES);
  const int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
  const int consumer_thread = threadIdx.x % 128;
  const unsigned staging_address = staging_buffers + consumer * EPI_WG_BYTES;
  int epi_buffer = 0;  // the staging buffer of the next step: they alternate across steps and tiles
  unsigned epi_phases = 0;  // bit b: the parity of buffer b's uses so far

  int stage = 0;
  unsigned phase = 0;  // continues across tiles with the producer's
  float acc[SLABS][BLOCK_N / 2];
  for (int tile = static_cast<int>(blockIdx.x); tile < tiles; tile += static_cast<int>(gridDim.x)) {
    // The tile's first k-tile: its first k16 step overwrites the accumulators instead of a zeroing
    // loop (128 moves a thread with the tensor cores idle: 1-2 us of 355 on bmm 16 x 2048^3, H200,
    // results/2026-12-04-h200-gemm-feed.md). Peeled, so the accumulators' old values are dead
    // from the epilogue's last read on, as they were with the zeroing (ptxas spilled 128 bytes for
    // sm_90 when a flag chose the step inside the loop and kept them live across the epilogue).
    mbarrier_wait(full_bars + stage * 8, phase);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BLOCK_K / 16; ++kk) {
#pragma unroll
      for (int s = 0; s < SLABS; ++s)  // A: 32 bytes further along the rows per k16; B: 16 k-rows further
        if (kk == 0)
          wgmma_m64n256k16_overwrite(acc[s], a_desc + ((stage * STAGE_BYTES + s * 64 * ROW_BYTES + kk * 32) >> 4),
                  b_desc + ((stage * STAGE_BYTES + kk * 16 * ROW_BYTES) >> 4));
        else
          wgmma_m64n256k16(acc[s], a_desc + ((stage * STAGE_BYTES + s * 64 * ROW_BYTES + kk * 32) >> 4),
                  b_desc + ((stage * STAGE_BYTES + kk * 16 * ROW_BYTES) >> 4));
    }
    wgmma_commit();
    if (++stage == STAGES) {
      stage = 0;
      phase ^= 1;
    }
    for (int t = 0 + 1; t < k_tiles; ++t) {
      mbarrier_wait(full_bars + stage * 8, phase);  // k-tile t of this tile has landed
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < BLOCK_K / 16; ++kk) {
#pragma unroll
        for (int s = 0; s < SLABS; ++s)  // A: 32 bytes further along the rows per k16; B: 16 k-rows further
          wgmma_m64n256k16(acc[s], a_desc + ((stage * STAGE_BYTES + s * 64 * ROW_BYTES + kk * 32) >> 4),
                    b_desc + ((stage * STAGE_BYTES + kk * 16 * ROW_BYTES) >> 4));
      }
      wgmma_commit();
      wgmma_wait<1>();  // this warp's wgmmas of k-tile t - 1 are done: hand its stage back
      if (lane == 0) {
        const int previous = stage == 0 ? STAGES - 1 : stage - 1;
        mbarrier_arrive(empty_bars + previous * 8);
      }
      if (++stage == STAGES) {
        stage = 0;
        phase ^= 1;
      }
    }
    wgmma_wait<0>();
#pragma unroll
    for (int s = 0; s < SLABS; ++s) pin_accumulators(acc[s]);
    // Every wgmma of this warp is done: hand the tile's last stage back too, so the producer
    // fills the ring with the next tile's k-tiles during this epilogue.
    if (lane == 0) {
      const int previous = stage == 0 ? STAGES - 1 : stage - 1;
      mbarrier_arrive(empty_bars + previous * 8);
    }
    // Where the tile lies, worked out only now: nothing of it is live during the k-loop.
    int entry;
    long long block_row, block_col;
    tile_position(tile, tiles_m, tiles_n, entry, block_row, block_col);
    // Epilogue, EPI_COLS columns per step: this warpgroup's fragments into one of its swizzled
    // buffers, then one bulk tensor store of the buffer by the copy engine. Warp w holds rows
    // 16w + lane / 4 and 16w + lane / 4 + 8 of each m64 slab, columns 8j + 2 (lane % 4) + {0, 1}:
    // acc[s][4j], [4j + 1] on the first row, [4j + 2], [4j + 3] on the second. That is the fragment of stmatrix's 8 x 8
    // matrices, so one stmatrix.x4 writes columns 8j .. 8j + 15 of the warp's 16 rows (matrix m:
    // chunk j + m / 2, rows 8 (m % 2) ..; lanes 8m .. 8m + 7 address its rows), a quarter of the
    // instructions of 4-byte stores. In the 128-byte swizzle, 16-byte chunk c of staged row r sits
    // at chunk c ^ (r % 8): a matrix's 8 rows write 32 different banks. Side by side on the H200
    // against the 4-byte stores: 0.6-1.2 us faster of 360 on bmm 16 x 2048^3, 0.4-3.8 of 1480 at
    // 8192^3, 0.9-1.5 of 181 with bias + ReLU at 4096^3 (results/2026-12-04-h200-epilogue-stores.md).
#pragma unroll
    for (int step = 0; step < BLOCK_N / EPI_COLS; ++step) {
      const unsigned buffer = staging_address + epi_buffer * EPI_BYTES;
      // The store issued from this buffer EPI_BUFFERS steps ago has read it (the issuer says so).
      mbarrier_wait(epi_free_bars + (consumer * EPI_BUFFERS + epi_buffer) * 8, ((epi_phases >> epi_buffer) & 1u) ^ 1u);
#pragma unroll
      for (int s = 0; s < SLABS; ++s) {
        const int address_row = s * 64 + warp * 16 + (lane & 7) + (lane >> 3 & 1) * 8;
#pragma unroll
        for (int j0 = 0; j0 < EPI_COLS / 8; j0 += 2) {
          unsigned packed[4];  // matrices (j0, rows 0-7), (j0, rows 8-15), (j0 + 1, ...), (j0 + 1, ...)
#pragma unroll
          for (int q = 0; q < 2; ++q) {
            const int j = j0 + q;
            const int a = (step * EPI_COLS / 8 + j) * 4;  // a compile-time index: the loops are unrolled
#pragma unroll
            for (int half = 0; half < 2; ++half) {
              const __nv_bfloat162 v = __floats2bfloat162_rn(acc[s][a + half * 2], acc[s][a + half * 2 + 1]);
              packed[q * 2 + half] = *reinterpret_cast<const unsigned*>(&v);
            }
          }
          const int chunk = j0 + (lane >> 4);
          stmatrix_x4(buffer + address_row * 128 + ((chunk ^ (address_row & 7)) << 4), packed);
        }
      }
      fence_shared_to_async();  // this thread's writes, visible to the copy engine
      __syncwarp();             // ... and the warp's, before its arrival (release) tells the issuer
      if (lane == 0) mbarrier_arrive(epi_full_bars + (consumer * EPI_BUFFERS + epi_buffer) * 8);
      epi_phases ^= 1u << epi_buffer;
      if (++epi_buffer == EPI_BUFFERS) epi_buffer = 0;
    }
  }
}
