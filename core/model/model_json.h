// SPDX-License-Identifier: GPL-3.0-or-later
// The one JSON form of the domain types, shared by the project file's JSON
// columns (core/store) and the worker protocol (backends/dispatch) so the two
// cannot drift apart. The keys are the project file's on-disk format: renaming
// one makes existing projects unreadable.
//
// Explicit functions rather than ADL to_json/from_json hooks, so nlohmann
// never picks an encoding implicitly.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "core/model/candidate.h"
#include "core/model/seal.h"
#include "core/model/task.h"

namespace crucible {

// A JSON document that does not decode into a domain type. The message names
// the type and the field, e.g. "Timing: field 'medianUs': expected a number".
// An invalid_argument, like the enum parsers' errors, so callers that already
// report malformed input (the store's row decoding) report this too.
class ModelJsonError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// What a decoder does when a measured figure (a double of CompileReport,
// ValidationTrial or Timing) is absent. A figure written as null always reads
// as NaN: JSON has no NaN, and nlohmann writes NaN and infinities as null.
enum class MissingFigures {
  Reject,     // absent is an error (the worker protocol: both ends are built together)
  ReadAsNaN,  // absent reads as NaN, "not measured" (tolerant of older project rows)
};

nlohmann::json toJson(const TensorMapRule& m);
nlohmann::json toJson(const LaunchRule& l);
nlohmann::json toJson(const CompileDiagnostic& d);
nlohmann::json toJson(const CompileReport& r);
nlohmann::json toJson(const ValidationTrial& t);
nlohmann::json toJson(const std::vector<ValidationTrial>& trials);
nlohmann::json toJson(const Timing& t);
nlohmann::json toJson(const Fingerprint& f);
nlohmann::json toJson(const Ceiling& c);
nlohmann::json toJson(const Task& t);
// Metric name -> value (Candidate::profile, a profiler's metrics).
nlohmann::json profileToJson(const std::map<std::string, double>& profile);

// Decoders throw ModelJsonError naming the type and field that is wrong.
// `what` names the rule in errors, e.g. "LaunchRule.tensorMaps[1]".
TensorMapRule tensorMapRuleFromJson(const nlohmann::json& j, const std::string& what = "TensorMapRule");
LaunchRule launchRuleFromJson(const nlohmann::json& j);
CompileDiagnostic compileDiagnosticFromJson(const nlohmann::json& j);
CompileReport compileReportFromJson(const nlohmann::json& j, MissingFigures missing = MissingFigures::Reject);
ValidationTrial validationTrialFromJson(const nlohmann::json& j, MissingFigures missing = MissingFigures::Reject);
std::vector<ValidationTrial> validationTrialsFromJson(const nlohmann::json& j,
                                                      MissingFigures missing = MissingFigures::Reject);
Timing timingFromJson(const nlohmann::json& j, MissingFigures missing = MissingFigures::Reject);
Fingerprint fingerprintFromJson(const nlohmann::json& j);
Ceiling ceilingFromJson(const nlohmann::json& j);
Task taskFromJson(const nlohmann::json& j);
std::map<std::string, double> profileFromJson(const nlohmann::json& j);

// The field readers behind the decoders, for messages built around these
// types (the worker protocol's envelopes). `what` names the enclosing object
// in the error. T is one of: bool, int, std::int64_t, std::uint64_t, double
// (null reads as NaN), std::string, std::vector<std::uint64_t>.
template <typename T>
T requiredField(const nlohmann::json& j, const char* key, const std::string& what);
const nlohmann::json& requiredMember(const nlohmann::json& j, const char* key, const std::string& what);

}  // namespace crucible
