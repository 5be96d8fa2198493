// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/launch_file.h"
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include "core/io/bounded_file.h"
#include "core/io/json_nesting.h"
#include "core/model/model_json.h"

namespace crucible::cli {

LaunchRule parseLaunchFile(const std::string& text, const std::string& path) {
  if (findJsonNestingBeyond(text) != std::string_view::npos)
    throw std::invalid_argument(path + ": nests deeper than " + std::to_string(kMaxJsonNesting) + " levels");
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw std::invalid_argument(path + ": not a JSON object");
  // An export record carries the rule under "launch"; a bare rule has "entry" and "grid" itself.
  const nlohmann::json& rule = doc.contains("launch") ? doc["launch"] : doc;
  if (!rule.is_object() || !rule.contains("grid"))
    throw std::invalid_argument(path + ": no launch rule (neither a \"launch\" object nor \"entry\"/\"grid\"/\"block\" fields)");
  try {
    return launchRuleFromJson(rule);
  } catch (const std::exception& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

LaunchRule readLaunchFile(const std::string& path) {
  try {
    // A launch rule is a few hundred bytes; a spec's limit is generous.
    return parseLaunchFile(readBoundedFile(path, kMaxTaskSpecFileBytes, "launch file"), path);
  } catch (const BoundedFileError& e) {
    throw std::invalid_argument(e.what());
  }
}

}  // namespace crucible::cli
