// SPDX-License-Identifier: GPL-3.0-or-later
// The row families' pack grid (backends/proposers/template/row_packs.h) on the
// CPU: for every vector width, element size and misalignment of a row's start,
// and row lengths odd, short and long, the packs the emitted loops visit cover
// each column exactly once, every whole pack is aligned to its size, and a
// partial pack touches only columns of the row. The loops below walk the packs
// the way the emitted kernels do (emit_expr_rowwise.cpp: the register cache and
// the streaming sweeps), with the same functions the kernels are given, and
// the emitted PACKS_PER_THREAD is read from real generated sources.
#include <gtest/gtest.h>

#include <regex>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/row_packs.h"
#include "tests/backends/template/operator_tasks.h"

namespace crucible {
namespace {

using namespace templates::row_packs;

constexpr unsigned long long kBase = 1ull << 20;  // a cudaMalloc-like base: aligned to 256 bytes and more

struct Walk {
  std::vector<int> touched;  // per column, how many accesses covered it
  int wholePacks = 0, partialPacks = 0, misaligned = 0, outside = 0;
};

// One pack at column `col`, as the emitted pack code treats it.
void visit(Walk& w, unsigned long long rowAddress, int elementBytes, int vec, int col, int cols) {
  if (cr_pack_whole(col, cols, vec)) {
    ++w.wholePacks;
    if ((rowAddress + static_cast<unsigned long long>(col) * elementBytes) % (static_cast<unsigned long long>(vec) * elementBytes) != 0)
      ++w.misaligned;
    for (int k = 0; k < vec; ++k) ++w.touched.at(col + k);
  } else {
    ++w.partialPacks;
    for (int k = 0; k < vec; ++k) {
      if (!cr_in_row(col + k, cols)) continue;
      if (col + k < 0 || col + k >= cols) ++w.outside;
      else ++w.touched.at(col + k);
    }
  }
}

// The register-cache loop: for (i < packsPerThread) col = (i * THREADS_PER_ROW + lane) * VEC - shift.
Walk registerWalk(unsigned long long rowAddress, int elementBytes, int vec, int cols, int threadsPerRow, int packsPerThread) {
  Walk w;
  w.touched.assign(static_cast<std::size_t>(cols), 0);
  const int shift = cr_row_shift(rowAddress, elementBytes, vec);
  for (int lane = 0; lane < threadsPerRow; ++lane)
    for (int i = 0; i < packsPerThread; ++i) {
      const int col = cr_pack_column(i * threadsPerRow + lane, shift, vec);
      if (col < cols) visit(w, rowAddress, elementBytes, vec, col, cols);
    }
  return w;
}

// The streaming loop: for (base = lane * VEC - shift; base < cols; base += IN_FLIGHT * THREADS_PER_ROW * VEC).
Walk streamingWalk(unsigned long long rowAddress, int elementBytes, int vec, int cols, int threadsPerRow, int inFlight) {
  Walk w;
  w.touched.assign(static_cast<std::size_t>(cols), 0);
  const int shift = cr_row_shift(rowAddress, elementBytes, vec);
  for (int lane = 0; lane < threadsPerRow; ++lane)
    for (int base = lane * vec - shift; base < cols; base += inFlight * threadsPerRow * vec)
      for (int i = 0; i < inFlight; ++i) {
        const int col = base + i * threadsPerRow * vec;
        if (col < cols) visit(w, rowAddress, elementBytes, vec, col, cols);
      }
  return w;
}

void expectExactCover(const Walk& w, int vec, int cols, const std::string& where) {
  for (int c = 0; c < cols; ++c) ASSERT_EQ(w.touched[static_cast<std::size_t>(c)], 1) << where << " column " << c;
  EXPECT_EQ(w.misaligned, 0) << where;
  EXPECT_EQ(w.outside, 0) << where;
  EXPECT_LE(w.partialPacks, vec == 1 ? 0 : 2) << where;  // a head and a tail at most
}

std::vector<int> rowLengths() {
  std::vector<int> out;
  for (int n = 1; n <= 70; ++n) out.push_back(n);
  for (int n : {1000, 1001, 1003, 4096, 5003, 8191}) out.push_back(n);
  return out;
}

TEST(RowPacks, ShiftHeadAndCountForEveryMisalignment) {
  for (int elementBytes : {2, 4})
    for (int vec : {1, 2, 4, 8}) {
      if (vec * elementBytes > 16) continue;
      for (int shift = 0; shift < vec; ++shift) {
        const unsigned long long address = kBase + static_cast<unsigned long long>(shift) * elementBytes;
        EXPECT_EQ(cr_row_shift(address, elementBytes, vec), shift);
        // The first whole pack starts at the first aligned address of the row: the head is vec - shift columns.
        const int head = (vec - shift) % vec;
        EXPECT_EQ(cr_pack_column(0, shift, vec), -shift);
        EXPECT_EQ(cr_pack_column(1, shift, vec), vec - shift);
        EXPECT_EQ((address + static_cast<unsigned long long>(head) * elementBytes) % (vec * elementBytes), 0u);
        for (int cols : rowLengths()) {
          const int count = cr_pack_count(cols, shift, vec);
          // The kernels' loops stop at `col < cols`: exactly cr_pack_count packs.
          EXPECT_LT(cr_pack_column(count - 1, shift, vec), cols);
          EXPECT_GE(cr_pack_column(count, shift, vec), cols);
          EXPECT_LE(count, (cols + vec - 1) / vec + 1);
        }
      }
    }
}

TEST(RowPacks, RowsOfAnyLengthAreCoveredOnceByAlignedWholePacks) {
  for (int elementBytes : {2, 4})
    for (int vec : {1, 2, 4, 8}) {
      if (vec * elementBytes > 16) continue;
      for (int cols : rowLengths())
        for (int threadsPerRow : {32, 256}) {
          // Rows r of a [rows, cols] tensor: r * cols elements past the base, every misalignment in turn.
          for (int row = 0; row < 2 * vec; ++row) {
            const unsigned long long address = kBase + static_cast<unsigned long long>(row) * cols * elementBytes;
            const std::string where = "vec " + std::to_string(vec) + ", " + std::to_string(elementBytes) +
                                      "-byte elements, cols " + std::to_string(cols) + ", row " + std::to_string(row) +
                                      ", " + std::to_string(threadsPerRow) + " threads";
            const int span = cols % vec == 0 ? cols : cols + vec - 1;  // as the emitter sizes the cache
            const int packsPerThread = (span + threadsPerRow * vec - 1) / (threadsPerRow * vec);
            expectExactCover(registerWalk(address, elementBytes, vec, cols, threadsPerRow, packsPerThread), vec, cols,
                             where + " (registers)");
            expectExactCover(streamingWalk(address, elementBytes, vec, cols, threadsPerRow, 4), vec, cols,
                             where + " (streaming)");
            if (::testing::Test::HasFailure()) return;
          }
        }
    }
}

// The emitted kernels: a row that is not whole packs gets the pack grid (the
// same text as the host functions above) and enough cached packs for its worst
// shift; a row of whole packs keeps the code it had (no shift, a trap on a
// length that is not whole packs).
TEST(RowPacks, EmittedRowKernelsCarryTheGridAndSizeTheCacheForTheHead) {
  using testing_support::makeOperatorTask;
  const OperatorSpec logSoftmax{"rowwise", "x - m - log(s)", {{"m", "max", "x"}, {"s", "sum", "exp(x - m)"}}};
  const std::regex packsPerThread("constexpr int PACKS_PER_THREAD = ([0-9]+);");
  int raggedSources = 0;
  for (int cols : {7, 1001, 5003, 4096}) {
    const TaskSpec spec = makeOperatorTask("t", logSoftmax, {{"x", DType::F32, {"M", "N"}}}, {"y", DType::F32, {"M", "N"}},
                                           {{"M", 64}, {"N", cols}});
    const auto p = templates::problemFromSpec(spec);
    const auto& space = templates::designSpaceFor(p.family);
    for (const auto& genes : templates::legalArchitectures(p)) {
      const auto points = templates::legalParameterPoints(p, genes);
      ASSERT_FALSE(points.empty());
      const templates::Genome g{p.family, genes, points.front()};
      const std::string src = space.emit(g, p).source;
      const int vec = std::stoi(genes.at("vector"));
      const bool ragged = cols % vec != 0;
      const std::string where = "cols " + std::to_string(cols) + " " + g.genesText() + " " + g.paramsText();
      EXPECT_EQ(src.find(templates::rowPackCuda()) != std::string::npos, ragged) << where;
      EXPECT_EQ(src.find("const int cr_shift = cr_row_shift((unsigned long long)cr_row_x") != std::string::npos, ragged)
          << where;
      EXPECT_EQ(src.find("% VEC != 0) __trap();") != std::string::npos, vec > 1 && !ragged) << where;
      if (ragged) ++raggedSources;
      std::smatch m;
      if (genes.at("memory") != "registers") continue;
      ASSERT_TRUE(std::regex_search(src, m, packsPerThread)) << where;
      const std::string& granularity = genes.at("granularity");
      const int threadsPerRow = granularity == "subwarp" ? static_cast<int>(g.param("LANES_PER_ROW"))
                                : granularity == "warp"  ? 32
                                                         : 32 * static_cast<int>(g.param("WARPS_PER_ROW"));
      // Rows of whole packs start on the grid (shift 0, pack-aligned bases); a ragged row at any shift.
      for (int shift = 0; shift < (ragged ? vec : 1); ++shift)
        EXPECT_LE(cr_pack_count(cols, shift, vec), std::stoi(m[1]) * threadsPerRow) << where << " shift " << shift;
    }
  }
  EXPECT_GT(raggedSources, 10);
}

}  // namespace
}  // namespace crucible
