// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/task/axes_override.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace crucible {
namespace {

std::string shapeSuffix(const std::map<std::string, std::int64_t>& changed) {
  std::string suffix;
  for (const auto& [name, value] : changed) suffix += "." + name + "-" + std::to_string(value);
  return suffix;
}

std::string axisList(const std::map<std::string, std::int64_t>& axes) {
  std::string list;
  for (const auto& [name, value] : axes) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

std::map<std::string, std::int64_t> parseAxesOverride(const std::string& text) {
  if (text.size() > kMaxAxesOverrideText)
    throw AxesOverrideError(std::to_string(text.size()) + " characters, more than the limit of " +
                            std::to_string(kMaxAxesOverrideText));
  if (text.empty()) throw AxesOverrideError("empty (write NAME=VALUE[,NAME=VALUE...], e.g. M=4096,N=5003)");
  std::map<std::string, std::int64_t> axes;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string piece = text.substr(at, comma - at);
    const std::size_t eq = piece.find('=');
    if (piece.empty()) throw AxesOverrideError("'" + text + "': an empty NAME=VALUE between commas");
    if (eq == std::string::npos)
      throw AxesOverrideError("'" + text + "': '" + piece + "' is not NAME=VALUE (e.g. M=4096)");
    const std::string name = piece.substr(0, eq), value = piece.substr(eq + 1);
    const bool nameOk = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                        std::all_of(name.begin(), name.end(),
                                    [](unsigned char c) { return std::isalnum(c) || c == '_'; });
    if (!nameOk) throw AxesOverrideError("'" + text + "': '" + name + "' is not an axis name");
    std::int64_t v = 0;
    const bool digits = !value.empty() && std::all_of(value.begin(), value.end(),
                                                      [](unsigned char c) { return std::isdigit(c); });
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (!digits || (ec != std::errc() && ec != std::errc::result_out_of_range) || end != value.data() + value.size())
      throw AxesOverrideError("axis " + name + " must be a whole number, not '" + value + "'");
    if (ec == std::errc::result_out_of_range || v < 1 || v > kMaxOverrideAxisValue)
      throw AxesOverrideError("axis " + name + " must be from 1 to " + std::to_string(kMaxOverrideAxisValue) +
                              ", not " + value);
    if (!axes.emplace(name, v).second) throw AxesOverrideError("axis " + name + " is given twice");
    at = comma + 1;
  }
  return axes;
}

TaskSpec withAxes(const TaskSpec& spec, const std::map<std::string, std::int64_t>& axes) {
  std::map<std::string, std::int64_t> changed;
  for (const auto& [name, value] : axes) {
    const auto it = spec.axes.find(name);
    if (it == spec.axes.end())
      throw AxesOverrideError("task " + spec.name + " has no axis " + name + " (its axes: " +
                              axisList(spec.axes) + ")");
    if (value < 1 || value > kMaxOverrideAxisValue)
      throw AxesOverrideError("axis " + name + " must be from 1 to " + std::to_string(kMaxOverrideAxisValue) +
                              ", not " + std::to_string(value));
    if (it->second != value) changed[name] = value;
  }
  if (changed.empty()) return spec;

  TaskSpec out = spec;
  for (const auto& [name, value] : changed) out.axes[name] = value;
  for (auto& [name, value] : out.sanitizeAxes) value = std::min(value, out.axes.at(name));
  out.name = spec.name + shapeSuffix(changed);
  out.description = (spec.description.empty() ? spec.name : spec.description) + " [at " + describeAxes(out.axes) +
                    " by --axes; the file's shape: " + describeAxes(spec.axes) + "]";
  const std::string at = "at " + describeAxes(changed) + ", ";
  // Every tensor together is bounded: a shape no GPU holds is refused here, not after a compile.
  std::int64_t bytes = 0;
  for (const auto* list : {&out.inputs, &out.outputs})
    for (const TensorSpec& t : *list) {
      std::int64_t n = 0;
      try {
        n = elementCount(out, t);
      } catch (const TaskSpecError& e) {
        throw AxesOverrideError(at + "tensor " + t.name + ": " + e.what());
      }
      const auto size = static_cast<std::int64_t>(sizeOf(t.dtype));
      if (n > kMaxOverrideTensorBytes / size || (bytes += n * size) > kMaxOverrideTensorBytes)
        throw AxesOverrideError(at + "the task's tensors hold more than " +
                                std::to_string(kMaxOverrideTensorBytes >> 30) + " GiB (tensor " + t.name + ")");
    }
  // Everything the spec's own checks hold at the file's shape must hold at this one
  // (extents, launch limits of the baseline and oracle, the name's length).
  try {
    return parseTaskSpec(toJson(out));
  } catch (const TaskSpecError& e) {
    throw AxesOverrideError(at + "the task is not valid: " + e.what());
  }
}

std::string withAxesText(const std::string& specText, const std::map<std::string, std::int64_t>& axes) {
  const TaskSpec spec = parseTaskSpec(specText);
  const TaskSpec overridden = withAxes(spec, axes);
  return overridden.name == spec.name ? specText : toJson(overridden);
}

}  // namespace crucible
