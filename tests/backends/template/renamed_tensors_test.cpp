// SPDX-License-Identifier: GPL-3.0-or-later
// A built-in family's task whose tensors have the user's names ("lhs" rather
// than "A"): its kernels take the task's names (the kernel ABI) and pass them
// to the family's code, which keeps the role names, unchanged; tensor maps
// name the task's tensors. The names rotated over the roles (A, B, C named
// B, C, A) are the hardest case: every name is one the family's code uses.
#include <gtest/gtest.h>

#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/kernel_problem.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/task/kernel_abi.h"
#include "tests/backends/template/suite_tasks.h"

namespace crucible {
namespace {

using templates::Genome;

// The code after a kernel's (or the renamed kernel's body function's) parameter list.
std::string bodyAfter(const std::string& source, const std::string& head) {
  const auto at = source.rfind(head);
  if (at == std::string::npos) return "<no " + head + ">";
  return source.substr(source.find(") {\n", at));
}

const std::string kKernelHead = "extern \"C\" __global__ void";
const std::string kBodyHead = std::string("void ") + templates::kRenamedBodyName + "(";

std::vector<std::string> tensorNames(const TaskSpec& spec) {
  std::vector<std::string> names;
  for (const auto& t : spec.inputs) names.push_back(t.name);
  for (const auto& t : spec.outputs) names.push_back(t.name);
  return names;
}

TEST(RenamedTensors, EveryFamilysSeedsTakeTheTasksNamesAndRunTheFamilysCodeUnchanged) {
  std::vector<testing_support::ShapeCase> cases;
  for (const auto& family : testing_support::suiteFamilies())
    for (const auto& shape : testing_support::shapeCases(family)) cases.push_back(shape);
  // Batched GEMMs: each block first moves the tensors to its entry, in the family's code.
  for (const auto& family : {"matmul", "matmul_bias_relu"})
    for (const bool batchedB : {true, false}) {
      const TaskSpec spec = testing_support::batchedGemm(testing_support::shapeCases(family).front().spec, 4, batchedB);
      cases.push_back({spec.name, spec});
    }
  TemplateProposer proposer;
  for (const auto& shape : cases) {
    SCOPED_TRACE(shape.label);
    const TaskSpec renamed = testing_support::withTensorNamesRotated(shape.spec);
    ASSERT_NE(renamed.inputs[0].name, shape.spec.inputs[0].name);
    const auto p = templates::problemFromSpec(renamed);
    EXPECT_TRUE(p.renamed());
    EXPECT_FALSE(templates::problemFromSpec(shape.spec).renamed());
    EXPECT_EQ(p.tensorName(shape.spec.inputs[0].name), renamed.inputs[0].name);

    const auto seeds = proposer.seedsFor(renamed, 3);
    const auto original = proposer.seedsFor(shape.spec, 3);
    ASSERT_EQ(seeds.size(), original.size());
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      ASSERT_TRUE(seeds[i].ok) << seeds[i].error;
      const Candidate& c = seeds[i].candidate;
      const Candidate& o = original[i].candidate;
      EXPECT_EQ(c.genomeJson, o.genomeJson);
      EXPECT_TRUE(sourceHasSignature(c.source, renamed, KernelRole::Candidate, c.launch.entry, c.launch.tensorMaps))
          << c.source;
      EXPECT_TRUE(tensorMapProblems(renamed, c.launch.tensorMaps).empty());
      ASSERT_EQ(c.launch.tensorMaps.size(), o.launch.tensorMaps.size());
      for (std::size_t m = 0; m < c.launch.tensorMaps.size(); ++m)
        EXPECT_EQ(c.launch.tensorMaps[m].tensor, p.tensorName(o.launch.tensorMaps[m].tensor));
      // The family's code is the one the original names get, word for word.
      EXPECT_EQ(bodyAfter(c.source, kBodyHead), bodyAfter(o.source, kKernelHead)) << c.source;
      // ... and the kernel only hands the task's tensors on.
      const std::string kernel = c.source.substr(c.source.find(kKernelHead));
      const std::string wrapper = kernel.substr(0, kernel.find("}\n"));
      for (const auto& name : tensorNames(renamed)) EXPECT_NE(wrapper.find(name), std::string::npos) << wrapper;
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(c.launch.grid[d], o.launch.grid[d]);
        EXPECT_EQ(c.launch.block[d], o.launch.block[d]);
      }
    }
  }
}

TEST(RenamedTensors, ChildrenOfARenamedTaskKeepItsSignature) {
  TemplateProposer proposer;
  for (const char* family : {"matmul_bias_relu", "layernorm", "cross_entropy"}) {
    SCOPED_TRACE(family);
    const TaskSpec renamed = testing_support::withTensorNamesRotated(testing_support::shapeCases(family).at(1).spec);
    const auto p = templates::problemFromSpec(renamed);
    templates::Rng rng(7);
    for (int i = 0; i < 40; ++i) {
      const Candidate c = TemplateProposer::candidateFor(templates::randomGenome(p, rng), p);
      EXPECT_TRUE(sourceHasSignature(c.source, renamed, KernelRole::Candidate, c.launch.entry, c.launch.tensorMaps))
          << c.genomeJson;
      for (const auto& m : c.launch.tensorMaps) EXPECT_NO_THROW(tensorMatrix(renamed, m.tensor)) << m.tensor;
    }
  }
}

TEST(RenamedTensors, NamesTheFamilysCodeCannotTakeBesideTheRolesAreRefusedWithTheReason) {
  // A scalar named as a role would be a second parameter of that name in the family's code.
  TaskSpec spec = testing_support::withTensorNamesRotated(testing_support::makeTask("softmax", DType::F32, {{"M", 64}, {"N", 64}}));
  spec.axes["x"] = 3;
  spec.scalars.push_back("x");
  try {
    templates::problemFromSpec(spec);
    ADD_FAILURE() << "a scalar named x was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("scalars: 'x' is a name the softmax template kernels give to the tensor y"),
              std::string::npos)
        << e.what();
  }
  // The function that holds the family's code.
  spec = testing_support::makeTask("gelu", DType::F32, {{"N", 64}});
  spec.inputs[0].name = templates::kRenamedBodyName;
  try {
    templates::problemFromSpec(spec);
    ADD_FAILURE() << "a tensor named " << templates::kRenamedBodyName << " was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("inputs[0] (cr_kernel_body): 'cr_kernel_body' is a name the gelu template "
                                         "kernels use themselves"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace crucible
