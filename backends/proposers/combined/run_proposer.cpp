// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/proposers/combined/run_proposer.h"

namespace crucible {

RunProposer::RunProposer(std::vector<StartingKernel> kernels, bool combineAlways, std::unique_ptr<Proposer> writer)
    : ownedWriter_(std::move(writer)), tunable_(std::move(kernels)) {
  writer_ = ownedWriter_ ? ownedWriter_.get() : &template_;
  assemble(combineAlways);
}

RunProposer::RunProposer(std::vector<StartingKernel> kernels, bool combineAlways, Proposer& writer)
    : writer_(&writer), tunable_(std::move(kernels)) {
  assemble(combineAlways);
}

void RunProposer::assemble(bool combineAlways) {
  if (tunable_.kernels().empty() && !combineAlways) {
    active_ = writer_;
    return;
  }
  combined_ = std::make_unique<CombinedProposer>(std::vector<CombinedProposer::Member>{
      {&tunable_, [](const Candidate& c) { return TunableKernelProposer::owns(c); }},
      // Every other candidate (the template's or the model's, the baseline, a seal) goes to the writer, as it
      // did alone.
      {writer_, [](const Candidate& c) { return !TunableKernelProposer::owns(c); }},
  });
  active_ = combined_.get();
}

}  // namespace crucible
