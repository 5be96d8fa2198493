// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/json_columns.h"

#include <cmath>
#include <limits>


namespace crucible::store_detail {
using nlohmann::json;

namespace {
// JSON has no NaN or infinity: nlohmann writes them as null, so null reads
// back as NaN rather than failing (a figure that was not a number stays one).
double number(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::numeric_limits<double>::quiet_NaN();
  return it->get<double>();
}
}  // namespace

json launchToJson(const LaunchRule& l) {
  return {{"entry", l.entry},
          {"grid", {l.grid[0], l.grid[1], l.grid[2]}},
          {"block", {l.block[0], l.block[1], l.block[2]}},
          {"dynamicSmemBytes", l.dynamicSmemBytes}};
}

LaunchRule launchFromJson(const json& j) {
  LaunchRule l;
  l.entry = j.at("entry").get<std::string>();
  for (int i = 0; i < 3; ++i) {
    l.grid[i] = j.at("grid").at(i).get<std::string>();
    l.block[i] = j.at("block").at(i).get<std::string>();
  }
  l.dynamicSmemBytes = j.at("dynamicSmemBytes").get<std::string>();
  return l;
}

json compileReportToJson(const CompileReport& r) {
  json diagnostics = json::array();
  for (const auto& d : r.diagnostics)
    diagnostics.push_back({{"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
  return {{"ok", r.ok},
          {"arch", r.arch},
          {"diagnostics", diagnostics},
          {"log", r.log},
          {"registers", r.registers},
          {"staticSmemBytes", r.staticSmemBytes},
          {"localBytes", r.localBytes},
          {"spillStoreBytes", r.spillStoreBytes},
          {"spillLoadBytes", r.spillLoadBytes},
          {"maxThreadsPerBlock", r.maxThreadsPerBlock},
          {"features", r.features},
          {"seconds", r.seconds}};
}

CompileReport compileReportFromJson(const json& j) {
  CompileReport r;
  r.ok = j.at("ok").get<bool>();
  r.arch = j.at("arch").get<std::string>();
  for (const auto& d : j.at("diagnostics"))
    r.diagnostics.push_back({d.at("line").get<int>(), d.at("column").get<int>(), d.at("severity").get<std::string>(),
                             d.at("message").get<std::string>()});
  r.log = j.at("log").get<std::string>();
  r.registers = j.at("registers").get<int>();
  r.staticSmemBytes = j.at("staticSmemBytes").get<int>();
  r.localBytes = j.at("localBytes").get<int>();
  r.spillStoreBytes = j.at("spillStoreBytes").get<int>();
  r.spillLoadBytes = j.at("spillLoadBytes").get<int>();
  r.maxThreadsPerBlock = j.at("maxThreadsPerBlock").get<int>();
  r.features = j.at("features").get<std::map<std::string, int>>();
  r.seconds = number(j, "seconds");
  return r;
}

json validationToJson(const std::vector<ValidationTrial>& trials) {
  json a = json::array();
  for (const auto& t : trials)
    a.push_back({{"seed", t.seed},
                 {"passed", t.passed},
                 {"reason", t.reason},
                 {"maxAbsError", t.maxAbsError},
                 {"maxRelError", t.maxRelError},
                 {"mismatches", t.mismatches}});
  return a;
}

std::vector<ValidationTrial> validationFromJson(const json& j) {
  std::vector<ValidationTrial> trials;
  for (const auto& t : j)
    trials.push_back({t.at("seed").get<std::uint64_t>(), t.at("passed").get<bool>(), t.at("reason").get<std::string>(),
                      number(t, "maxAbsError"), number(t, "maxRelError"), t.at("mismatches").get<std::int64_t>()});
  return trials;
}

json timingToJson(const Timing& t) {
  return {{"samplesUs", t.samplesUs},
          {"medianUs", t.medianUs},
          {"iqrUs", t.iqrUs},
          {"referenceMedianUs", t.referenceMedianUs},
          {"referenceIqrUs", t.referenceIqrUs},
          {"speedup", t.speedup},
          {"smClockMHz", t.smClockMHz}};
}

Timing timingFromJson(const json& j) {
  Timing t;
  for (const auto& s : j.at("samplesUs")) t.samplesUs.push_back(s.is_null() ? std::nan("") : s.get<double>());
  t.medianUs = number(j, "medianUs");
  t.iqrUs = number(j, "iqrUs");
  t.referenceMedianUs = number(j, "referenceMedianUs");
  t.referenceIqrUs = number(j, "referenceIqrUs");
  t.speedup = number(j, "speedup");
  t.smClockMHz = number(j, "smClockMHz");
  return t;
}

json profileToJson(const std::map<std::string, double>& profile) { return json(profile); }

std::map<std::string, double> profileFromJson(const json& j) {
  std::map<std::string, double> profile;
  for (const auto& [name, value] : j.items()) profile[name] = value.is_null() ? std::nan("") : value.get<double>();
  return profile;
}

}  // namespace crucible::store_detail
