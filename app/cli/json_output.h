// SPDX-License-Identifier: GPL-3.0-or-later
// What the commands print or write as JSON for scripts (--json, export). The
// text comes from the project: a damaged or older one can hold bytes that are
// not UTF-8, and nlohmann::json::dump throws on them, failing the whole output
// over one record. Here such a byte becomes U+FFFD and the rest is written.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace crucible::cli {

inline std::string jsonText(const nlohmann::json& j, int indent = 2) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace crucible::cli
