// SPDX-License-Identifier: GPL-3.0-or-later
// fill=bulk, a design both row families share (row_designs.h): the copy engine
// moves each group of rows into shared memory (cp.async.bulk, one copy per row
// tensor per group, completing on an mbarrier) and the threads' sweeps read the
// rows from there. With schedule=persistent a block keeps STAGES groups in
// flight and fetches the next one as soon as it is done with a stage, so the
// DRAM queue stays full while the block reduces: no registers spent on loads in
// flight, no per-thread address arithmetic, a whole row per instruction.
// This file holds the CUDA text both emitters use (helpers and the kernel's
// loop over groups); the genes' rules are in row_designs.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace crucible::templates {

// The mbarrier and bulk-copy helpers: bulk_bar_init, bulk_bars_fence, bulk_expect,
// bulk_fetch (with an L2 evict-first policy when `evictFirst`), bulk_wait and
// bulk_release_stage.
std::string rowBulkHelpers(bool evictFirst);

// A tensor of the row's shape whose rows the copy engine fetches.
struct BulkRowTensor {
  std::string global;  // the kernel's pointer parameter
  std::string type;    // its CUDA element type
};

// What the loop over groups needs from its emitter. Local names start with `prefix`.
struct BulkRowLoop {
  std::string prefix;               // "cr_" or ""
  std::vector<BulkRowTensor> tensors;
  std::string rows;                 // CUDA expression: the number of rows
  std::string rowLength;            // CUDA expression: elements per row
  std::int64_t rowsPerBlock = 1;    // rows of a group
  // The code of one group, run by every thread: it sees <prefix>group (long long) and,
  // per tensor i, <prefix>stage_<global> (a `const T*` to the group's first row in
  // shared memory; row r of the group is r * rowLength elements past it).
  std::string work;
  // A persistent grid loops over the groups, STAGES in flight; otherwise each block takes
  // group blockIdx.x alone, without a loop (a loop around the sweeps cost NVRTC ~70
  // registers a thread: 53 -> 122 for a 512-thread log-softmax, as the persistent grid's).
  bool persistent = false;
};

// The kernel body: shared declarations, the first STAGES fetches, then per group: wait,
// work, and (persistent) release the stage and fetch the group STAGES trips ahead.
// The kernel must define STAGES (1 for a grid of one group per block).
std::string bulkRowLoopSource(const BulkRowLoop& loop);

// Dynamic shared memory of the loop, as a launch-rule expression:
// STAGES x rowsPerBlock x the sum of the tensors' row bytes.
std::string bulkRowSmemExpr(std::int64_t stages, std::int64_t rowsPerBlock, const std::string& rowLengthExpr,
                            const std::vector<std::int64_t>& elementBytes);

}  // namespace crucible::templates
