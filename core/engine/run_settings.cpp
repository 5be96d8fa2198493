// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/run_settings.h"

#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <nlohmann/json.hpp>
#include "core/model/enum_names.h"

namespace crucible {
namespace {

constexpr EnumNames<TuningStrategy, 3> kTuning{{
    {TuningStrategy::Random, "random"}, {TuningStrategy::GreedyLocal, "greedy"},
    {TuningStrategy::ModelBased, "model"}}};
constexpr EnumNames<ProfileMode, 3> kProfile{{
    {ProfileMode::None, "none"}, {ProfileMode::Elites, "elites"}, {ProfileMode::All, "all"}}};
constexpr EnumNames<SealStart, 2> kSealStart{{
    {SealStart::FromSeal, "from-seal"}, {SealStart::AwayFromSeal, "away-from-seal"}}};

// Reads j[key] into out when present; a value of the wrong type names the field.
template <typename T>
void read(const nlohmann::json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  try {
    out = it->get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("run settings: field '") + key + "' has the wrong type (" +
                                it->type_name() + ")");
  }
}

// Reads the enum named j[key] when present and not null; an unknown name throws.
template <typename E, typename Parse>
void readEnum(const nlohmann::json& j, const char* key, E& out, Parse parse) {
  std::string name;
  read(j, key, name);
  if (j.contains(key) && !j[key].is_null()) out = parse(name);
}

void require(bool ok, const char* field, const std::string& what) {
  if (!ok) throw std::invalid_argument(std::string("run settings: '") + field + "' " + what);
}

}  // namespace

const char* toString(TuningStrategy s) { return nameOf(kTuning, s); }
TuningStrategy tuningStrategyFromString(const std::string& s) { return parseName(kTuning, s, "tuning strategy"); }
const char* toString(ProfileMode m) { return nameOf(kProfile, m); }
ProfileMode profileModeFromString(const std::string& s) { return parseName(kProfile, s, "profile mode"); }
const char* toString(SealStart s) { return nameOf(kSealStart, s); }
SealStart sealStartFromString(const std::string& s) { return parseName(kSealStart, s, "seal start"); }

std::string toJson(const RunSettings& s) {
  nlohmann::json binning = nlohmann::json::array();
  for (const auto& b : s.binning) binning.push_back({{"dimension", b.dimension}, {"edges", b.edges}});
  nlohmann::json j = {
      {"search", toString(s.search)},
      {"binning", binning},
      {"batchSize", s.batchSize},
      {"islands", s.islands},
      {"migrationInterval", s.migrationInterval},
      {"explorationWeight", s.explorationWeight},
      {"crossoverRate", s.crossoverRate},
      {"tuningShare", s.tuningShare},
      {"tuningStrategy", toString(s.tuningStrategy)},
      {"tuningBudgetPerArchitecture", s.tuningBudgetPerArchitecture},
      {"profile", toString(s.profile)},
      {"sealMargin", s.sealMargin},
      {"validationSeeds", s.validationSeeds},
      {"extendedValidationSeeds", s.extendedValidationSeeds},
      {"compileThreads", s.compileThreads},
      {"lookAhead", s.lookAhead},
      {"compileArch", s.compileArch},
      {"strategyVariationRate", s.strategyVariationRate},
      {"sealStart", toString(s.sealStart)},
      {"maxGenerations", s.maxGenerations},
      {"maxModelCostUsd", s.maxModelCostUsd},
      {"maxModelTokens", s.maxModelTokens},
      {"knowledgeMinObservations", s.knowledgeMinObservations},
      {"knowledgeEffectThreshold", s.knowledgeEffectThreshold},
  };
  return j.dump();
}

RunSettings runSettingsFromJson(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.empty() ? std::string("{}") : text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    throw std::invalid_argument(std::string("run settings: not valid JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument("run settings: expected a JSON object");
  RunSettings s;
  readEnum(j, "search", s.search, searchStrategyFromString);
  if (auto it = j.find("binning"); it != j.end() && !it->is_null()) {
    require(it->is_array(), "binning", "must be an array of {dimension, edges}");
    for (const auto& b : *it) {
      require(b.is_object() && b.contains("dimension") && b["dimension"].is_string(), "binning",
              "entries need a string 'dimension'");
      DimensionBinning d;
      d.dimension = b["dimension"].get<std::string>();
      if (b.contains("edges")) {
        require(b["edges"].is_array(), "binning.edges", "must be an array of numbers");
        for (const auto& e : b["edges"]) {
          require(e.is_number(), "binning.edges", "must be an array of numbers");
          d.edges.push_back(e.get<double>());
        }
      }
      s.binning.push_back(std::move(d));
    }
  }
  read(j, "batchSize", s.batchSize);
  read(j, "islands", s.islands);
  read(j, "migrationInterval", s.migrationInterval);
  read(j, "explorationWeight", s.explorationWeight);
  read(j, "crossoverRate", s.crossoverRate);
  read(j, "tuningShare", s.tuningShare);
  readEnum(j, "tuningStrategy", s.tuningStrategy, tuningStrategyFromString);
  read(j, "tuningBudgetPerArchitecture", s.tuningBudgetPerArchitecture);
  readEnum(j, "profile", s.profile, profileModeFromString);
  read(j, "sealMargin", s.sealMargin);
  read(j, "validationSeeds", s.validationSeeds);
  read(j, "extendedValidationSeeds", s.extendedValidationSeeds);
  read(j, "compileThreads", s.compileThreads);
  read(j, "lookAhead", s.lookAhead);
  read(j, "compileArch", s.compileArch);
  read(j, "strategyVariationRate", s.strategyVariationRate);
  readEnum(j, "sealStart", s.sealStart, sealStartFromString);
  read(j, "maxGenerations", s.maxGenerations);
  read(j, "maxModelCostUsd", s.maxModelCostUsd);
  read(j, "maxModelTokens", s.maxModelTokens);
  read(j, "knowledgeMinObservations", s.knowledgeMinObservations);
  read(j, "knowledgeEffectThreshold", s.knowledgeEffectThreshold);
  validate(s);
  return s;
}

void validate(const RunSettings& s) {
  for (const auto& b : s.binning) {
    require(!b.dimension.empty(), "binning.dimension", "must not be empty");
    for (std::size_t i = 1; i < b.edges.size(); ++i)
      require(b.edges[i - 1] < b.edges[i], "binning.edges", "must be strictly ascending (dimension '" +
                                                                 b.dimension + "')");
  }
  require(s.batchSize >= 1, "batchSize", "must be at least 1");
  require(s.islands >= 1, "islands", "must be at least 1");
  // Islands are MAP-Elites' diversity; the other searches keep one lineage or none.
  require(s.islands == 1 || s.search == SearchStrategy::MapElites, "islands",
          std::string("must be 1 with search '") + toString(s.search) + "' (islands are MAP-Elites' only)");
  require(s.migrationInterval >= 1, "migrationInterval", "must be at least 1");
  require(s.explorationWeight >= 0 && std::isfinite(s.explorationWeight), "explorationWeight",
          "must be a finite number >= 0");
  require(s.crossoverRate >= 0 && s.crossoverRate <= 1, "crossoverRate", "must be in [0, 1]");
  require(s.tuningShare >= 0 && s.tuningShare <= 1, "tuningShare", "must be in [0, 1]");
  require(s.tuningBudgetPerArchitecture >= 0, "tuningBudgetPerArchitecture", "must be >= 0");
  require(s.sealMargin >= 0 && std::isfinite(s.sealMargin), "sealMargin", "must be a finite number >= 0");
  require(s.validationSeeds >= 1, "validationSeeds", "must be at least 1");
  require(s.extendedValidationSeeds >= 1, "extendedValidationSeeds", "must be at least 1");
  require(s.compileThreads >= 1, "compileThreads", "must be at least 1");
  require(s.strategyVariationRate >= 0 && s.strategyVariationRate <= 1, "strategyVariationRate",
          "must be in [0, 1]");
  require(s.maxGenerations >= 0, "maxGenerations", "must be >= 0");
  require(s.maxModelCostUsd >= 0 && std::isfinite(s.maxModelCostUsd), "maxModelCostUsd",
          "must be a finite number >= 0 (0 = no limit)");
  require(s.maxModelTokens >= 0, "maxModelTokens", "must be >= 0 (0 = no limit)");
  require(s.knowledgeMinObservations >= 1, "knowledgeMinObservations", "must be at least 1");
  require(s.knowledgeEffectThreshold >= 0, "knowledgeEffectThreshold", "must be >= 0");
}

}  // namespace crucible
