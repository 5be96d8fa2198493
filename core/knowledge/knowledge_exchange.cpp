// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/knowledge/knowledge_exchange.h"

#include <cmath>
#include <limits>
#include <set>
#include <tuple>
#include <nlohmann/json.hpp>
#include "core/io/json_integer.h"
#include "core/io/utf8_text.h"

namespace crucible {
namespace {

using nlohmann::json;

constexpr const char* kKind = "crucible-knowledge";
constexpr int kFormat = 1;

std::string textField(const json& object, const char* name, const std::string& where, bool mayBeEmpty) {
  const std::string path = where + "." + name;
  if (!object.contains(name)) throw KnowledgeExchangeError(path + ": missing");
  const json& v = object.at(name);
  if (!v.is_string()) throw KnowledgeExchangeError(path + ": must be a string");
  std::string s = v.get<std::string>();
  if (s.size() > kKnowledgeExchangeMaxText)
    throw KnowledgeExchangeError(path + ": longer than " + std::to_string(kKnowledgeExchangeMaxText) + " characters");
  if (!mayBeEmpty && s.empty()) throw KnowledgeExchangeError(path + ": must not be empty");
  // `kb import` and `kb list` print claims to a terminal: no escape sequences, no NULs.
  if (const auto problem = controlCharacterProblem(s)) throw KnowledgeExchangeError(path + ": " + *problem);
  return s;
}

KnowledgeEntry entryFrom(const json& e, const std::string& where) {
  if (!e.is_object()) throw KnowledgeExchangeError(where + ": must be an object");
  static const std::set<std::string> known = {"arch",   "family",       "shape",  "decision", "claim",  "effect",
                                              "observations", "status", "probe", "pinned", "disabled", "userClaim"};
  for (const auto& [key, value] : e.items())
    if (!known.count(key)) throw KnowledgeExchangeError(where + "." + key + ": unknown field");
  KnowledgeEntry k;
  k.scopeArch = textField(e, "arch", where, false);
  k.scopeFamily = textField(e, "family", where, true);
  k.scopeShape = textField(e, "shape", where, true);
  k.decision = textField(e, "decision", where, false);
  k.claim = textField(e, "claim", where, false);
  k.probe = e.contains("probe") ? textField(e, "probe", where, true) : "";
  if (!e.contains("effect") || !e.at("effect").is_number())
    throw KnowledgeExchangeError(where + ".effect: must be a number");
  k.effect = e.at("effect").get<double>();
  if (!std::isfinite(k.effect) || k.effect <= 0)
    throw KnowledgeExchangeError(where + ".effect: must be a finite number > 0, not " + e.at("effect").dump());
  for (const char* flag : {"pinned", "disabled"})
    if (e.contains(flag) && !e.at(flag).is_boolean())
      throw KnowledgeExchangeError(where + "." + flag + ": must be true or false");
  k.pinned = e.value("pinned", false);
  k.disabled = e.value("disabled", false);
  k.userClaim = e.contains("userClaim") ? textField(e, "userClaim", where, true) : "";
  // A pinned claim stands on the user's word: it may have no observation yet.
  const std::int64_t least = k.pinned ? 0 : 1;
  const auto observations = e.contains("observations")
                                ? jsonIntegerIn(e.at("observations"), least, std::numeric_limits<std::int64_t>::max())
                                : std::nullopt;
  if (!observations)
    throw KnowledgeExchangeError(where + ".observations: must be a whole number >= " + std::to_string(least));
  k.observations = *observations;
  const std::string status = textField(e, "status", where, false);
  try {
    k.status = knowledgeStatusFromString(status);
  } catch (const std::exception&) {
    throw KnowledgeExchangeError(where + ".status: must be validated, hypothesis or refuted, not '" + status + "'");
  }
  return k;
}

using ScopeKey = std::tuple<std::string, std::string, std::string, std::string>;
ScopeKey keyOf(const KnowledgeEntry& k) { return {k.scopeArch, k.scopeFamily, k.scopeShape, k.decision}; }

}  // namespace

std::string knowledgeExchangeJson(const KnowledgeExchange& exchange) {
  json entries = json::array();
  for (const KnowledgeEntry& k : exchange.entries) {
    json e = {{"arch", k.scopeArch},
              {"family", k.scopeFamily},
              {"shape", k.scopeShape},
              {"decision", k.decision},
              {"claim", k.claim},
              {"effect", k.effect},
              {"observations", k.observations},
              {"status", toString(k.status)},
              {"probe", k.probe}};
    // The user's word travels with the claim; written only when given.
    if (k.pinned) e["pinned"] = true;
    if (k.disabled) e["disabled"] = true;
    if (!k.userClaim.empty()) e["userClaim"] = k.userClaim;
    entries.push_back(std::move(e));
  }
  return json{{"kind", kKind},
              {"format", kFormat},
              {"source", exchange.source},
              {"exportedAt", exchange.exportedAt},
              {"entries", entries}}
             .dump(2) + "\n";
}

KnowledgeExchange parseKnowledgeExchange(const std::string& text) {
  if (text.size() > kKnowledgeExchangeMaxBytes)
    throw KnowledgeExchangeError("the file is larger than " + std::to_string(kKnowledgeExchangeMaxBytes >> 20) + " MiB");
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    throw KnowledgeExchangeError(std::string("not JSON: ") + e.what());
  }
  if (!doc.is_object() || doc.value("kind", json()) != kKind)
    throw KnowledgeExchangeError("kind: not a Crucible knowledge file (expected \"kind\": \"crucible-knowledge\")");
  if (!doc.contains("format") || !jsonIntegerIn(doc.at("format"), kFormat, kFormat))
    throw KnowledgeExchangeError("format: this build reads format 1 only");
  KnowledgeExchange out;
  out.source = doc.contains("source") ? textField(doc, "source", "file", true) : "";
  if (doc.contains("exportedAt") && doc.at("exportedAt").is_number_integer()) out.exportedAt = doc.at("exportedAt").get<std::int64_t>();
  if (!doc.contains("entries") || !doc.at("entries").is_array()) throw KnowledgeExchangeError("entries: must be an array");
  const json& entries = doc.at("entries");
  if (entries.size() > kKnowledgeExchangeMaxEntries)
    throw KnowledgeExchangeError("entries: more than " + std::to_string(kKnowledgeExchangeMaxEntries));
  std::set<ScopeKey> seen;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string where = "entries[" + std::to_string(i) + "]";
    KnowledgeEntry k = entryFrom(entries[i], where);
    if (!seen.insert(keyOf(k)).second)
      throw KnowledgeExchangeError(where + ": a second claim for the same scope and decision ('" + k.decision + "')");
    out.entries.push_back(std::move(k));
  }
  return out;
}

KnowledgeImportPlan planKnowledgeImport(const std::vector<KnowledgeEntry>& existing,
                                        const std::vector<KnowledgeEntry>& incoming) {
  std::set<ScopeKey> known;
  for (const KnowledgeEntry& k : existing) known.insert(keyOf(k));
  KnowledgeImportPlan plan;
  for (KnowledgeEntry k : incoming) {
    k.id = 0;
    k.evidence.clear();
    (known.insert(keyOf(k)).second ? plan.add : plan.alreadyKnown).push_back(std::move(k));
  }
  return plan;
}

}  // namespace crucible
