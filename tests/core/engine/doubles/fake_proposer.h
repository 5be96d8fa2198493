// SPDX-License-Identifier: GPL-3.0-or-later
// A deterministic proposer for engine tests: mutates one gene chosen by its
// strategy ("mutate:memory", ...), crosses genes of two parents, draws fresh
// genomes without parents, and exposes BLOCK/UNROLL as tunable parameters.
#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"
#include "tests/core/engine/doubles/fake_genome.h"

namespace crucible::testing {

class FakeProposer : public Proposer {
public:
  struct Options {
    int seedCount = 3;
    bool uniqueSources = false;   // every proposal gets a nonce: no two sources repeat (benchmark)
    // Non-empty: every seed and proposal fails with this error, as a template
    // proposer does for an operator family it has no template for.
    std::string cannotPropose;
  };
  FakeProposer() = default;
  explicit FakeProposer(Options o) : options_(o) {}

  std::string name() const override { return "fake"; }
  std::vector<Proposal> seeds(const Task& task, std::uint64_t seed) override;
  Proposal propose(const ProposalContext& ctx) override;
  void setDevice(const Fingerprint& device) override {
    std::lock_guard lock(mutex);
    deviceTold = device.gpu;
  }
  std::vector<MetaPrompt> initialStrategies() const override;
  MetaPrompt varyStrategy(const MetaPrompt& s, std::uint64_t seed) const override;
  std::vector<TunableParameter> tunables(const Candidate& c) const override;
  ParameterPoint parametersOf(const Candidate& c) const override;
  Proposal withParameters(const Task& task, const Candidate& base, const ParameterPoint& p) override;

  static Candidate candidateOf(const FakeGenome& g);

  // What the engine passed (for assertions).
  std::atomic<int> proposals{0};
  std::atomic<int> crossovers{0};
  std::atomic<int> tunings{0};
  std::atomic<std::size_t> maxKnowledgeSeen{0};
  std::mutex mutex;
  std::vector<std::string> strategiesUsed;
  std::string deviceTold;                 // the GPU setDevice named ("" before)
  std::atomic<bool> seededBeforeDevice{false};

private:
  Options options_;
};

}  // namespace crucible::testing
