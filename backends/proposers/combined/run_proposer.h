// SPDX-License-Identifier: GPL-3.0-or-later
// The proposer of one run, the same in the CLI (`crucible-cli run --kernel`,
// `resume`) and the GUI (Run control's starting kernels, File > Resume run):
// a kernel writer (the template proposer, or a language model) alone when
// the run has no starting kernels, else the starting kernels' tunable
// proposer and the writer competing (combined_proposer.h), the starting
// kernels' seeds first. The writer gets every candidate the tunable
// proposer does not own (the baseline, a seal, its own kernels).
#pragma once
#include <memory>
#include <vector>
#include "backends/proposers/combined/combined_proposer.h"
#include "backends/proposers/template/template_proposer.h"
#include "backends/proposers/tunable/tunable_proposer.h"

namespace crucible {

class RunProposer {
public:
  // writer null: the built-in template proposer. combineAlways (`resume`):
  // combined even without starting kernels, since a resumed run's stored
  // candidates may be tunable kernels'.
  explicit RunProposer(std::vector<StartingKernel> kernels = {}, bool combineAlways = false,
                       std::unique_ptr<Proposer> writer = nullptr);
  // The same with a writer owned elsewhere (the GUI's, shared by its runs); it must outlive this.
  RunProposer(std::vector<StartingKernel> kernels, bool combineAlways, Proposer& writer);
  RunProposer(const RunProposer&) = delete;
  RunProposer& operator=(const RunProposer&) = delete;

  Proposer& get() { return *active_; }
  TunableKernelProposer& tunable() { return tunable_; }

private:
  void assemble(bool combineAlways);

  TemplateProposer template_;
  std::unique_ptr<Proposer> ownedWriter_;
  Proposer* writer_ = nullptr;
  TunableKernelProposer tunable_;
  std::unique_ptr<CombinedProposer> combined_;
  Proposer* active_ = nullptr;
};

}  // namespace crucible
