// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/search_strategy.h"

#include "core/model/enum_names.h"

namespace crucible {
namespace {
constexpr EnumNames<SearchStrategy, 3> kSearch{{{SearchStrategy::MapElites, "map-elites"},
                                                {SearchStrategy::HillClimb, "hill-climb"},
                                                {SearchStrategy::Random, "random"}}};
}  // namespace

const char* toString(SearchStrategy s) { return nameOf(kSearch, s); }
SearchStrategy searchStrategyFromString(const std::string& s) { return parseName(kSearch, s, "search strategy"); }

}  // namespace crucible
