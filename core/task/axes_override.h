// SPDX-License-Identifier: GPL-3.0-or-later
// A task at a shape other than its file's (`crucible-cli run|eval|task show
// --axes M=4096,N=5003`): the axes given replace the spec's, the spec is
// checked again at that shape (every tensor, launch rule and sanitizer shape
// must still hold), and the result is a task of its own: its name gains the
// axes that changed ("softmax_f32_8192x4096.M-4096.N-5003"), so its runs,
// references and seals never mix with those at the file's shape.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include "core/task/task_spec.h"

namespace crucible {

// The text or the axes are refused; the message names the axis (or the piece of text).
class AxesOverrideError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// An axis is at most this (2^31 - 1: a grid dimension, an `int` index in a kernel).
constexpr std::int64_t kMaxOverrideAxisValue = 2147483647;
// Every tensor of the task together, at the new shape, is at most this many bytes (64 GiB).
constexpr std::int64_t kMaxOverrideTensorBytes = std::int64_t(64) << 30;
// Longer --axes text is refused before it is read.
constexpr std::size_t kMaxAxesOverrideText = 4096;

// "M=4096,N=5003": NAME=INTEGER pairs separated by commas. Strict: no spaces,
// no sign, digits only, each value from 1 to kMaxOverrideAxisValue, each
// name once, at least one pair.
std::map<std::string, std::int64_t> parseAxesOverride(const std::string& text);

// The spec at `axes` (each must be an axis of the spec), as a task of its own:
//   - the name gains ".AXIS-VALUE" for each axis whose value changed, in axis order;
//   - the description says the shape and the file's;
//   - sanitizeAxes above a new value come down to it (the sanitizers never run
//     a shape larger than the task's);
//   - the spec is validated again at the new shape.
// Axes equal to the spec's change nothing: the spec comes back as it is.
// Throws AxesOverrideError naming the axis, or what no longer holds at that
// shape (messages without the option: the command line puts "--axes: " before them).
TaskSpec withAxes(const TaskSpec& spec, const std::map<std::string, std::int64_t>& axes);

// The same on a spec document: the overridden spec as JSON (what a project
// stores), or specText itself when nothing changed.
std::string withAxesText(const std::string& specText, const std::map<std::string, std::int64_t>& axes);

}  // namespace crucible
