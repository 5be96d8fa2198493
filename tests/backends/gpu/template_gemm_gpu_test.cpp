// SPDX-License-Identifier: GPL-3.0-or-later
// The fp32 GEMM starting points on a real GPU: the bf16x3 split kernels (wgmma on
// fp32 operands split into three bf16 terms; TMA- and cp.async-fed) and the CUDA-core kernel pass
// the task's validation, and the split stays far inside the tolerance: its
// per-k-tile sums leave the tensor cores before their truncating adds drift
// (accumulating everything in the tensor cores measured 4e-4 from exact at
// 1024^3; per-tile sums 1.3e-5, results/2026-11-29-h200-fp32-split.md).
#include <gtest/gtest.h>
#include "backends/proposers/template/kernel_problem.h"
#include "backends/proposers/template/spaces.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/task_spec.h"
#include "gpu_test_support.h"

namespace crucible::gputest {
namespace {

TEST(TemplateGemmOnGpu, Fp32StartingPointsValidateAndTheSplitStaysNearExact) {
  CRUCIBLE_REQUIRE_GPU();
  const Task task = builtinTask("matmul_f32_1024x1024x1024");
  const auto problem = templates::problemFromSpec(parseTaskSpec(task.specJson));
  const auto points = templates::gemmSpace().startingPoints(problem);
  // The split fed by TMA and by cp.async, and the first CUDA-core kernel.
  ASSERT_GE(points.size(), 3u);
  ASSERT_EQ(points[0].gene("pipeline"), "tma");
  ASSERT_EQ(points[1].gene("pipeline"), "warp_specialized");
  ASSERT_EQ(points[2].gene("tensor_core"), "none");
  for (std::size_t i = 0; i < 3; ++i) {
    const Candidate c = TemplateProposer::candidateFor(points[i], problem);
    EvaluationRequest r;
    r.task = &task;
    r.candidate = compileKernel(c.source, c.launch);
    r.seeds = {1, 2};
    r.time = false;
    const Evaluation e = sharedEvaluator().evaluate(r);
    std::cout << "[ verdict  ] " << c.architectureKey << ": " << toString(e.status) << ": " << e.detail << "\n";
    ASSERT_EQ(e.status, CandidateStatus::Valid) << e.detail;
    for (const auto& t : e.trials) {
      std::cout << "[ error    ] seed " << t.seed << ": max abs " << t.maxAbsError << "\n";
      // The task allows 1e-3 (+ rtol); both kernels are an order of magnitude inside it.
      EXPECT_LT(t.maxAbsError, 1e-4) << c.architectureKey;
    }
  }
}

}  // namespace
}  // namespace crucible::gputest
