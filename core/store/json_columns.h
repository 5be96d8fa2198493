// SPDX-License-Identifier: GPL-3.0-or-later
// How the candidate's structured fields are written to the store's JSON
// columns. Internal to core/store: explicit functions (not ADL to_json hooks)
// so they cannot collide with other layers' JSON encodings of the same types.
#pragma once
#include <map>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "core/model/candidate.h"

namespace crucible::store_detail {

nlohmann::json launchToJson(const LaunchRule& l);
LaunchRule launchFromJson(const nlohmann::json& j);

nlohmann::json compileReportToJson(const CompileReport& r);
CompileReport compileReportFromJson(const nlohmann::json& j);

nlohmann::json validationToJson(const std::vector<ValidationTrial>& trials);
std::vector<ValidationTrial> validationFromJson(const nlohmann::json& j);

nlohmann::json timingToJson(const Timing& t);
Timing timingFromJson(const nlohmann::json& j);

nlohmann::json profileToJson(const std::map<std::string, double>& profile);
std::map<std::string, double> profileFromJson(const nlohmann::json& j);

}  // namespace crucible::store_detail
