// SPDX-License-Identifier: GPL-3.0-or-later
// The engine settings of one run, stored as JSON in Run::settingsJson so a
// resumed run continues with the settings it was started with.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "core/engine/search_strategy.h"

namespace crucible {

// How one behavioural descriptor dimension is binned into archive cells.
// Empty edges: the value is categorical and used verbatim ("smem", "regs").
// Edges e0 < e1 < ... : a numeric value v falls in bin i where e(i-1) <= v < e(i)
// (bin 0 below e0, bin n at or above the last edge); the key shows the bin's range.
struct DimensionBinning {
  std::string dimension;
  std::vector<double> edges;
};

enum class TuningStrategy { Random, GreedyLocal, ModelBased };
const char* toString(TuningStrategy s);
TuningStrategy tuningStrategyFromString(const std::string& s);  // throws std::invalid_argument

enum class ProfileMode { None, Elites, All };
const char* toString(ProfileMode m);
ProfileMode profileModeFromString(const std::string& s);        // throws std::invalid_argument

// Where a run on a sealed task starts: from the seal's architecture (its
// candidate seeds the archive), or deliberately away from it (the seal is only
// the reference and its architecture is not entered into the archive).
enum class SealStart { FromSeal, AwayFromSeal };
const char* toString(SealStart s);
SealStart sealStartFromString(const std::string& s);            // throws std::invalid_argument

struct RunSettings {
  // Which search picks parents and strategies (search_strategy.h). Runs
  // stored before this field existed read as map-elites.
  SearchStrategy search = SearchStrategy::MapElites;
  // Archive: the dimensions that form a cell key. Empty = every descriptor
  // dimension a candidate declares, categorical. When non-empty, dimensions
  // not listed are ignored.
  std::vector<DimensionBinning> binning;
  int batchSize = 8;                  // children proposed per generation
  int islands = 1;                    // independent archives
  int migrationInterval = 5;          // generations between migrations (islands > 1)
  double explorationWeight = 1.0;     // curiosity vs fitness in parent selection
  double crossoverRate = 0.1;         // share of children with two parents
  double tuningShare = 0.25;          // share of children that tune inside an elite's architecture
  TuningStrategy tuningStrategy = TuningStrategy::ModelBased;
  int tuningBudgetPerArchitecture = 16;  // tuned configurations measured per architecture
  ProfileMode profile = ProfileMode::Elites;
  double sealMargin = 0.05;           // seal a kernel at least this much faster than the reference
  int validationSeeds = 3;            // validation trials per candidate
  int extendedValidationSeeds = 16;   // trials in the seal's extended validation
  int compileThreads = 2;
  // Propose and compile the next generation while this one is evaluated (its
  // parents are then drawn from the archive as the generation before this one
  // left it), so the GPU is not idle while the host proposes, compiles and
  // commits. Results are still committed in proposal order. Gated runs never
  // look ahead (a verdict must be applied before the next generation).
  bool lookAhead = true;
  std::string compileArch;            // "" = the first evaluator's device arch
  double strategyVariationRate = 0.1; // chance that a generation varies a good strategy
  SealStart sealStart = SealStart::FromSeal;
  int maxGenerations = 0;             // 0 = no limit (the budget decides)
  // What language-model proposals may cost, beside Run::budget's evaluations
  // and time (0 = no limit): the run finishes once the spend recorded with its
  // candidates reaches either. Checked between generations, so the last
  // generation's proposals may go past it (at most batchSize proposals' worth).
  double maxModelCostUsd = 0;
  std::int64_t maxModelTokens = 0;
  // Knowledge statistics: a claim is validated/refuted after this many
  // consistent observations whose geometric-mean effect passes the threshold.
  int knowledgeMinObservations = 5;
  double knowledgeEffectThreshold = 0.03;  // |log effect| must exceed log(1 + threshold)
};

// Throws std::invalid_argument naming the field on malformed JSON, a wrong
// type or an out-of-range value. Unknown fields are ignored, missing fields
// keep their defaults.
std::string toJson(const RunSettings& s);
RunSettings runSettingsFromJson(const std::string& json);
// Checks ranges; throws std::invalid_argument naming the field.
void validate(const RunSettings& s);

}  // namespace crucible
