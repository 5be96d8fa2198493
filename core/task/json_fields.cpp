// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/json_fields.h"

#include <cmath>
#include <limits>
#include "core/io/json_integer.h"
#include "core/io/utf8_text.h"
#include "core/task/task_spec.h"

namespace crucible::taskjson {

namespace {
constexpr std::size_t kLongestQuoted = 128;
std::string shortened(const std::string& text) {
  return text.size() > kLongestQuoted ? utf8Prefix(text, 32) + "..." : text;
}
}  // namespace

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? shortened(key) : path + "." + shortened(key);
}

std::string quotedValue(const std::string& text) { return "'" + shortened(text) + "'"; }

std::string index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

Fields::Fields(const json& object, std::string path) : object_(object), path_(std::move(path)) {
  if (!object_.is_object()) throw TaskSpecError(path_.empty() ? "document" : path_, "must be a JSON object");
}

const json* Fields::optional(const std::string& key) const {
  auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

const json& Fields::required(const std::string& key) const {
  auto it = object_.find(key);
  if (it == object_.end()) throw TaskSpecError(path(key), "missing");
  return *it;
}

void Fields::rejectUnknown(std::initializer_list<const char*> allowed) const {
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    bool known = false;
    for (const char* a : allowed) known = known || it.key() == a;
    if (!known) throw TaskSpecError(path(it.key()), "unknown field");
  }
}

std::string asString(const json& j, const std::string& path) {
  if (!j.is_string()) throw TaskSpecError(path, "must be a string");
  return j.get<std::string>();
}

std::string asPrintableText(const json& j, const std::string& path) {
  std::string s = asString(j, path);
  if (const auto problem = controlCharacterProblem(s)) throw TaskSpecError(path, *problem);
  return s;
}

std::string asNonEmptyString(const json& j, const std::string& path) {
  std::string s = asString(j, path);
  if (s.find_first_not_of(" \t\r\n") == std::string::npos) throw TaskSpecError(path, "must not be empty");
  return s;
}

std::int64_t asInteger(const json& j, const std::string& path) {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
      throw TaskSpecError(path, "integer too large");
    return j.get<std::int64_t>();
  }
  throw TaskSpecError(path, "must be an integer");
}

std::int64_t asIntegerIn(const json& j, const std::string& path, std::int64_t low, std::int64_t high) {
  const auto outside = [&] {
    return TaskSpecError(path, "must be an integer from " + std::to_string(low) + " to " + std::to_string(high));
  };
  if (const auto v = jsonIntegerIn(j, low, high)) return *v;
  throw outside();
}

double asFiniteNumber(const json& j, const std::string& path) {
  if (!j.is_number()) throw TaskSpecError(path, "must be a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) throw TaskSpecError(path, "must be finite");
  return v;
}

const json& asArray(const json& j, const std::string& path) {
  if (!j.is_array()) throw TaskSpecError(path, "must be an array");
  return j;
}

const json& asArray(const json& j, const std::string& path, std::size_t maxSize) {
  asArray(j, path);
  if (j.size() > maxSize)
    throw TaskSpecError(path, "lists " + std::to_string(j.size()) + " entries, more than the limit of " + std::to_string(maxSize));
  return j;
}

std::string asExpressionText(const json& j, const std::string& path) {
  if (j.is_number_integer()) return std::to_string(asInteger(j, path));
  if (!j.is_string()) throw TaskSpecError(path, "must be an integer expression (a string or an integer)");
  return asNonEmptyString(j, path);
}

std::string asSourceText(const json& j, const std::string& path) {
  if (j.is_string()) return j.get<std::string>();
  if (!j.is_array()) throw TaskSpecError(path, "must be a string or an array of lines");
  std::string text;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (i) text += '\n';
    text += asString(j[i], index(path, i));
  }
  return text;
}

}  // namespace crucible::taskjson
