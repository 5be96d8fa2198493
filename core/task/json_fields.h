// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a JSON document field by field, where every error names the field
// by its JSON path ("inputs[1].dtype", "baseline.launch.grid[0]"). Private to
// core/task: the spec parser is its only user.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <nlohmann/json.hpp>

namespace crucible::taskjson {

using nlohmann::json;

// A key longer than 128 characters is shortened to its start and "...": paths
// end up in messages, and a hostile key may be megabytes long.
std::string child(const std::string& path, const std::string& key);   // "a" + "b" -> "a.b"; "" + "b" -> "b"
std::string index(const std::string& path, std::size_t i);            // "a" + 1 -> "a[1]"
// A value from the document in quotes for a message, shortened like child()'s keys.
std::string quotedValue(const std::string& text);

// One JSON object and its path. Throws TaskSpecError for a non-object.
class Fields {
public:
  Fields(const json& object, std::string path);
  const json* optional(const std::string& key) const;   // nullptr when absent
  const json& required(const std::string& key) const;   // "<path>.<key>: missing"
  std::string path(const std::string& key) const { return child(path_, key); }
  // A field that is not in `allowed` is a mistake (a typo, or a field of a newer format).
  void rejectUnknown(std::initializer_list<const char*> allowed) const;
  const json& object() const { return object_; }

private:
  const json& object_;
  std::string path_;
};

std::string asString(const json& j, const std::string& path);
std::string asNonEmptyString(const json& j, const std::string& path);
// A string a person reads (a description): printable text, tabs and line
// breaks, no other control character: `task show` prints it to a terminal,
// where a shared task file's escape sequences would act.
std::string asPrintableText(const json& j, const std::string& path);
std::int64_t asInteger(const json& j, const std::string& path);
// An integer in [low, high] (the range of the type that holds it, or tighter):
// nothing is truncated on the way in.
std::int64_t asIntegerIn(const json& j, const std::string& path, std::int64_t low, std::int64_t high);
double asFiniteNumber(const json& j, const std::string& path);
const json& asArray(const json& j, const std::string& path);
// An array of at most maxSize elements: lists in a spec are short, and a cap
// keeps every check over them cheap.
const json& asArray(const json& j, const std::string& path, std::size_t maxSize);
// An integer expression: a JSON string ("ceil_div(M, 16)") or a JSON integer.
std::string asExpressionText(const json& j, const std::string& path);
// CUDA source: one string, or an array of lines joined with '\n'.
std::string asSourceText(const json& j, const std::string& path);

}  // namespace crucible::taskjson
