// SPDX-License-Identifier: GPL-3.0-or-later
// `crucible-cli run --kernel K.cu [--tune K.tune.json]`: the user's starting
// kernels read from disk and turned into the run's proposer. With starting
// kernels, the tunable-kernel proposer and the template proposer compete in
// one run (backends/proposers/combined); without, the template proposer
// works alone, as before.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "app/cli/options.h"
#include "backends/proposers/combined/combined_proposer.h"
#include "backends/proposers/template/template_proposer.h"
#include "backends/proposers/tunable/tunable_proposer.h"

namespace crucible::cli {

// Where a kernel's parameters and launch rule are read from, first found wins:
//   1. the --tune file given after its --kernel;
//   2. K.tune.json beside K.cu (the same stem);
//   3. a `/* crucible-tune { ...the same JSON... } */` comment in K.cu.
// None of them: a UsageError saying so. Files are read with bounded work
// (core/io/bounded_file.h); every error names the file and the field.
StartingKernel readStartingKernel(const KernelOption& option);
std::vector<StartingKernel> readStartingKernels(const Options& o);

// Each kernel checked against the task (signature, names, a legal starting
// point) before a run is created: a UsageError listing every kernel that
// does not fit, with the reason.
void checkStartingKernels(const std::vector<StartingKernel>& kernels, const std::string& taskSpecJson);

// The proposer of a run: the template proposer alone without starting
// kernels (unless combineAlways, for `resume`, whose stored candidates may be
// tunable kernels'), else the starting kernels' tunable proposer and the
// template proposer competing, the starting kernels' seeds first.
// Another kernel writer (`--proposer llm`: the language model) takes the
// template proposer's place: alone, or after the tunable proposer in the
// same way (it gets every candidate the tunable proposer does not own).
class RunProposer {
public:
  explicit RunProposer(std::vector<StartingKernel> kernels = {}, bool combineAlways = false,
                       std::unique_ptr<Proposer> writer = nullptr);
  Proposer& get() { return *active_; }
  TunableKernelProposer& tunable() { return tunable_; }

private:
  TemplateProposer template_;
  std::unique_ptr<Proposer> writer_;
  TunableKernelProposer tunable_;
  std::unique_ptr<CombinedProposer> combined_;
  Proposer* active_ = nullptr;
};

}  // namespace crucible::cli
