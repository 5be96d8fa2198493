// SPDX-License-Identifier: GPL-3.0-or-later
// Tunable kernels, in the manner of Kernel Tuner: a user's CUDA kernel with a
// table of tunable integer parameters, restrictions over the parameters and
// the task's axes, and a launch rule written as expressions over both (and
// sm_count, the GPU's SM count; restrictions may not use it). The
// format (a `K.tune.json` file beside `K.cu`, or the same JSON in a
// `/* crucible-tune ... */` comment of the source) is documented in
// resources/tasks/README.md, "Tunable kernels".
//
// A point (one value per parameter) reaches the source as `#define NAME value`
// lines prepended to it (sourceAt), and the launch rule reaches the engine
// with every parameter replaced by its value (launchAt), so a tuned kernel is
// an ordinary candidate: the engine evaluates and validates it like any other.
//
// Reading is bounded for any input: parameter, value and restriction counts
// are capped, and so is the size of the space (the product of the value
// counts); searches for a legal point stop after a fixed amount of expression
// text evaluated (kMaxLegalPointWork).
// Errors are TaskSpecError naming the field ("parameters.BLOCK_M[2]",
// "restrictions[1]", "launch.grid[0]").
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>
#include "core/engine/interfaces.h"
#include "core/model/candidate.h"
#include "core/task/task_spec.h"

namespace crucible {

constexpr std::size_t kMaxTuneParameters = 32;
constexpr std::size_t kMaxTuneValuesPerParameter = 256;
constexpr std::size_t kMaxTuneRestrictions = 64;
constexpr std::uint64_t kMaxTuneSpacePoints = 10'000'000;
// Values are written into source and launch expressions: kept well inside 32 bits.
constexpr std::int64_t kMaxTuneValueMagnitude = 1'000'000'000;
// A tune document is small; a bigger one is a mistake (or hostile).
constexpr std::size_t kMaxTuneDocumentBytes = 256 * 1024;
// What one search for a legal point (the first one, or a neighbour) may
// evaluate, in characters of restriction and launch expressions: every check
// parses its expression, so a count of checks alone does not bound the work (64
// restrictions of 4096 characters made two million checks take an hour). About
// two million checks of 16-character restrictions; under a second in a release
// build.
constexpr std::uint64_t kMaxLegalPointWork = 32'000'000;

// The parsed tune document (format 1). Nothing in it is checked against a task yet.
struct TuneSpec {
  int formatVersion = 1;
  std::string entry;                           // the __global__ function; "" = the task's entry
  std::vector<TunableParameter> parameters;    // in name order; values ascending, distinct
  std::vector<std::string> restrictions;       // each must hold ("BLOCK_M * BLOCK_N <= 16384")
  LaunchRule launch;                           // expressions over parameters and axes (entry not used)
  ParameterPoint defaultPoint;                 // empty: the first legal point
};

// Parses and checks the document on its own; throws TaskSpecError naming the field.
TuneSpec parseTuneSpec(const std::string& json);
// The canonical JSON of a spec (parseTuneSpec(tuneSpecToJson(s)) gives s back).
std::string tuneSpecToJson(const TuneSpec& spec);

// The JSON text of a `/* crucible-tune {...} */` comment in the source, or
// nullopt when the source has none. Throws TaskSpecError("source", ...) for an
// unterminated comment.
std::optional<std::string> embeddedTuneText(const std::string& source);

// A restriction: `expr OP expr` with OP one of == != <= >= < >, or a bare
// expression that holds when it is not zero; clauses may be joined by && and
// || (&& binds tighter; no parentheses around comparisons). The expressions
// are those of core/task/expression.h. Throws ExpressionError.
bool evaluateRestriction(const std::string& text, const std::map<std::string, std::int64_t>& names);

// Why `source` does not declare the task's kernel under `entry`: the first
// parameter that differs from the kernel ABI, named ("parameter 3 is 'float* y',
// the task expects 'float* __restrict__ y'"), or nullopt when it does.
std::optional<std::string> signatureProblem(const std::string& source, const TaskSpec& task, const std::string& entry);

// A tunable kernel bound to one task: names checked against the task's axes
// and tensors, the signature against the kernel ABI, every expression's names
// known, and a legal starting point found.
class TunableKernel {
public:
  // `name`: what the user calls it (the file's stem). Throws TaskSpecError:
  // the field names the tune document's field, or "source" for the kernel.
  TunableKernel(std::string name, std::string source, TuneSpec tune, const TaskSpec& task);

  const std::string& name() const { return name_; }
  const std::string& source() const { return source_; }   // as the user wrote it
  const TuneSpec& tune() const { return tune_; }
  const std::string& entry() const { return entry_; }
  const std::vector<TunableParameter>& parameters() const { return tune_.parameters; }
  // Identifies the kernel as an architecture: "tunable:<name>@<hash of source and tune document>".
  const std::string& architectureKey() const { return architectureKey_; }
  // The default point, or the first legal one in table order.
  const ParameterPoint& startingPoint() const { return start_; }

  // Why the point is illegal (a parameter missing, unknown or not in its
  // table; a restriction false; a launch dimension outside CUDA's limits), or
  // nullopt when it is legal.
  std::optional<std::string> problem(const ParameterPoint& p) const;
  // The source with the point's `#define` lines prepended (header() + source()).
  std::string sourceAt(const ParameterPoint& p) const;
  // The lines sourceAt prepends: a comment, one `#define NAME value` per parameter, a closing comment.
  std::string header(const ParameterPoint& p) const;
  // The launch rule with every parameter replaced by its value (expressions over the axes only).
  LaunchRule launchAt(const ParameterPoint& p) const;

  // A random legal point that differs from `from` in one or two parameters
  // (`changes`), or nullopt when none exists.
  std::optional<ParameterPoint> neighbour(const ParameterPoint& from, int changes, std::mt19937_64& rng) const;

private:
  std::optional<std::string> restrictionProblem(const std::map<std::string, std::int64_t>& names) const;
  // Why the launch rule does not fit CUDA's limits over `names` (axes, parameters and, when
  // the rule uses it, sm_count); `note` says which SM count was assumed.
  std::optional<std::string> launchProblem(const std::map<std::string, std::int64_t>& names, const std::string& note) const;
  ParameterPoint firstLegalPoint() const;

  std::string name_;
  std::string source_;
  TuneSpec tune_;
  std::string entry_;
  std::map<std::string, std::int64_t> axes_;
  std::string architectureKey_;
  ParameterPoint start_;
};

// The marker closing the header sourceAt() prepends; sourceBeforeParameters() cuts there.
extern const char* const kTuneHeaderEnd;
// The user's source from a candidate's source (everything after the header),
// or nullopt when the source carries no header.
std::optional<std::string> sourceBeforeParameters(const std::string& candidateSource);

}  // namespace crucible
