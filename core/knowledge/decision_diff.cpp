// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/decision_diff.h"

#include <nlohmann/json.hpp>

namespace crucible {
namespace {

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_string()) {
    out[prefix] = j.get<std::string>();
  } else {
    out[prefix] = j.dump();
  }
}

template <typename Map>
std::optional<DecisionChange> singleChange(const Map& a, const Map& b, int& differences) {
  std::optional<DecisionChange> change;
  differences = 0;
  auto note = [&](const std::string& key, const std::string& from, const std::string& to) {
    if (++differences == 1) change = DecisionChange{key, from, to};
  };
  for (const auto& [key, value] : a) {
    auto it = b.find(key);
    if (it == b.end())
      note(key, value, "(none)");
    else if (it->second != value)
      note(key, value, it->second);
  }
  for (const auto& [key, value] : b)
    if (!a.count(key)) note(key, "(none)", value);
  return differences == 1 ? change : std::nullopt;
}

}  // namespace

std::map<std::string, std::string> flattenGenome(const std::string& genomeJson) {
  std::map<std::string, std::string> out;
  auto j = nlohmann::json::parse(genomeJson, nullptr, /*allow_exceptions=*/false);
  if (j.is_object()) flatten(j, "", out);
  return out;
}

std::optional<DecisionChange> singleDifference(const Candidate& parent, const Candidate& child) {
  int differences = 0;
  if (parent.descriptor != child.descriptor) return singleChange(parent.descriptor, child.descriptor, differences);
  return singleChange(flattenGenome(parent.genomeJson), flattenGenome(child.genomeJson), differences);
}

}  // namespace crucible
