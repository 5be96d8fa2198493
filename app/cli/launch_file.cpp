// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/launch_file.h"
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include "core/model/model_json.h"

namespace crucible::cli {

LaunchRule parseLaunchFile(const std::string& text, const std::string& path) {
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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parseLaunchFile(text.str(), path);
}

}  // namespace crucible::cli
