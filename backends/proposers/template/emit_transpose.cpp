// SPDX-License-Identifier: GPL-3.0-or-later
// Emits a tiled transpose. A block owns a TILE x TILE tile of x; its threads
// are (TILE / VEC) wide and (TILE / ROWS_PER_THREAD) tall, each moving
// ROWS_PER_THREAD packs of VEC elements. hint: the cache policy of the staged
// tile's global loads and stores; order=diagonal: block (bx, by) takes tile
// column (bx + by) % gridDim.x (a rotation per block row: every tile once);
// order=column_major: blockIdx.x walks the tile rows, blockIdx.y the columns.
// A genome without these genes emits the same text as before they existed.
#include "backends/proposers/template/access_hints.h"
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/kernel_source.h"
#include "backends/proposers/template/spaces.h"

namespace crucible::templates {

EmittedKernel emitTranspose(const Genome& g, const KernelProblem& p) {
  const ProblemTensor& x = p.input("x");
  const std::string& staging = g.gene("staging");
  const std::string hint = geneOr(g.genes, "hint", "default");
  const std::string order = geneOr(g.genes, "order", "row_major");
  const bool diagonal = order == "diagonal", columnMajor = order == "column_major";
  const std::int64_t vec = std::stoll(g.gene("vector"));
  const std::string T = cudaTypeName(x.dtype);
  const std::map<std::string, std::string> vars = {
      {"M", p.extentCode(x, 0)}, {"N", p.extentCode(x, 1)}, {"T", T}};

  std::string summary = "transpose, ";
  summary += staging == "direct"        ? "no staging (coalesced reads, strided writes)"
             : staging == "smem_plain"  ? "tile staged in shared memory"
             : staging == "smem_padded" ? "tile staged in shared memory padded against bank conflicts"
                                        : "tile staged in shared memory with an XOR swizzle";
  summary += ", " + std::to_string(vec * sizeOf(x.dtype)) + "-byte accesses";
  if (hint != "default") summary += ", " + hint + " cache hints";
  if (diagonal) summary += ", tiles taken in diagonal order";
  if (columnMajor) summary += ", tiles taken down the columns";

  std::string src = headerComment(g, p, summary);
  src += includes(p) + "\n";
  src += constant("TILE", g.param("TILE"));
  src += constant("VEC", vec, "elements per access");
  src += constant("ROWS_PER_THREAD", g.param("ROWS_PER_THREAD"));
  src += "constexpr int BLOCK_X = TILE / VEC;\n";
  src += "constexpr int BLOCK_Y = TILE / ROWS_PER_THREAD;\n\n";
  src += packHelpers(x.dtype, staging == "direct") + "\n";
  src += accessHintCuda(hint);
  if (staging == "smem_swizzled")
    src += "// Column c of tile row r is stored at c ^ (r % 32): a warp walking a row or a\n"
           "// column of the tile touches 32 different banks.\n"
           "__device__ __forceinline__ int swizzle(int r, int c) { return c ^ (r & 31); }\n\n";
  src += p.signature("BLOCK_X * BLOCK_Y") + " {\n";
  if (columnMajor) {
    src += "  // Column-major order: consecutive blocks take the tiles down a column of x, so together\n"
           "  // they write whole rows of y.\n"
           "  const long long row0 = (long long)blockIdx.x * TILE;  // first row of x in this tile\n"
           "  const long long col0 = (long long)blockIdx.y * TILE;  // first column of x in this tile\n";
  } else {
    src += "  const long long row0 = (long long)blockIdx.y * TILE;  // first row of x in this tile\n";
    if (diagonal)
      src += "  // Diagonal order: block row by takes its tiles rotated by by, so concurrent blocks write\n"
             "  // rows of y far apart.\n"
             "  const long long col0 = (long long)((blockIdx.x + blockIdx.y) % gridDim.x) * TILE;  // first column of x in this tile\n";
    else
      src += "  const long long col0 = (long long)blockIdx.x * TILE;  // first column of x in this tile\n";
  }

  if (staging == "direct") {
    src += render(R"(#pragma unroll
  for (int i = 0; i < ROWS_PER_THREAD; ++i) {
    const long long row = row0 + threadIdx.y + i * BLOCK_Y;
    const long long col = col0 + threadIdx.x * VEC;
    if (row < {{M}} && col < {{N}}) {
      float v[VEC];
      load_pack(x + row * {{N}} + col, v);
#pragma unroll
      for (int k = 0; k < VEC; ++k) y[(col + k) * {{M}} + row] = {{FROM}};
    }
  }
}
)",
                  {{"M", vars.at("M")}, {"N", vars.at("N")}, {"FROM", fromFloat(x.dtype, "v[k]")}});
  } else {
    const bool padded = staging == "smem_padded";
    const bool swizzled = staging == "smem_swizzled";
    const std::string at = swizzled ? "tile[r][swizzle(r, c)]" : "tile[r][c]";
    src += std::string("  __shared__ ") + T + " tile[TILE][TILE" + (padded ? " + 1" : "") + "];" +
           (padded ? "  // +1: a column walk crosses all 32 banks" : "") + "\n";
    // Packs are addressed as elements of a Pack array starting at the tile's
    // part of a row: NVVM (CUDA 13) was seen splitting the 16-byte store at
    // `(Pack*)(y + out_row * M + row0 + threadIdx.x * VEC)` into four scalar stores.
    src += render(R"(  // This thread's packs of the x tile: every load is issued before the
  // shared-memory stores that wait on them.
  Pack in[ROWS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ROWS_PER_THREAD; ++i) {
    const long long row = row0 + threadIdx.y + i * BLOCK_Y;
    if (row < {{M}} && col0 + threadIdx.x * VEC < {{N}})
      in[i] = {{LOAD}};
  }
#pragma unroll
  for (int i = 0; i < ROWS_PER_THREAD; ++i) {
    const int r = threadIdx.y + i * BLOCK_Y;
    if (row0 + r < {{M}} && col0 + threadIdx.x * VEC < {{N}}) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const int c = threadIdx.x * VEC + k;
        {{AT}} = in[i].v[k];
      }
    }
  }
  __syncthreads();
  // Row r of the output tile is column r of the input tile.
#pragma unroll
  for (int i = 0; i < ROWS_PER_THREAD; ++i) {
    const int out_r = threadIdx.y + i * BLOCK_Y;
    const long long out_row = col0 + out_r;  // a row of y is a column of x
    if (out_row < {{N}} && row0 + threadIdx.x * VEC < {{M}}) {
      Pack out;
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const int r = threadIdx.x * VEC + k, c = out_r;
        out.v[k] = {{AT}};
      }
      {{STORE}};
    }
  }
}
)",
                  {{"M", vars.at("M")},
                   {"N", vars.at("N")},
                   {"AT", at},
                   {"LOAD", hint == "default" ? "reinterpret_cast<const Pack*>(x + row * " + vars.at("N") + " + col0)[threadIdx.x]"
                                              : "hinted_load<Pack>(reinterpret_cast<const Pack*>(x + row * " + vars.at("N") +
                                                    " + col0) + threadIdx.x)"},
                   {"STORE", hint == "default" ? "reinterpret_cast<Pack*>(y + out_row * " + vars.at("M") + " + row0)[threadIdx.x] = out"
                                               : "hinted_store(reinterpret_cast<Pack*>(y + out_row * " + vars.at("M") +
                                                     " + row0) + threadIdx.x, out)"}});
  }

  EmittedKernel k;
  k.source = std::move(src);
  k.launch.entry = p.entry;
  const std::string tile = std::to_string(g.param("TILE"));
  const std::string tileColumns = "ceil_div(" + p.extentExpr(x, 1) + ", " + tile + ")";
  const std::string tileRows = "ceil_div(" + p.extentExpr(x, 0) + ", " + tile + ")";
  k.launch.grid[0] = columnMajor ? tileRows : tileColumns;
  k.launch.grid[1] = columnMajor ? tileColumns : tileRows;
  k.launch.block[0] = std::to_string(g.param("TILE") / vec);
  k.launch.block[1] = std::to_string(g.param("TILE") / g.param("ROWS_PER_THREAD"));
  return k;
}

}  // namespace crucible::templates
