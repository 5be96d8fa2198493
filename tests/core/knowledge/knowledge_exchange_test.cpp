// SPDX-License-Identifier: GPL-3.0-or-later
// The knowledge exchange file (kb export / kb import): what travels, how a
// bad file is refused (the message names the field), and that import keeps
// what a project learnt itself.
#include "core/knowledge/knowledge_exchange.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace crucible {
namespace {

KnowledgeEntry claim(const std::string& decision, double effect, KnowledgeStatus status = KnowledgeStatus::Validated) {
  KnowledgeEntry k;
  k.id = 7;
  k.scopeArch = "sm_90";
  k.scopeFamily = "softmax";
  k.scopeShape = "rows>=1024";
  k.decision = decision;
  k.claim = "vector: 1 -> 4 helps softmax on sm_90";
  k.effect = effect;
  k.observations = 9;
  k.status = status;
  k.evidence = {11, 12, 13};
  return k;
}

TEST(KnowledgeExchange, ClaimsTravelWithoutTheirEvidence) {
  KnowledgeExchange out{"a.crucible", 1764633600, {claim("vector: 1 -> 4", 1.31), claim("memory: smem -> registers", 0.9,
                                                                                    KnowledgeStatus::Refuted)}};
  const KnowledgeExchange back = parseKnowledgeExchange(knowledgeExchangeJson(out));
  EXPECT_EQ(back.source, "a.crucible");
  EXPECT_EQ(back.exportedAt, 1764633600);
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[0].decision, "vector: 1 -> 4");
  EXPECT_DOUBLE_EQ(back.entries[0].effect, 1.31);
  EXPECT_EQ(back.entries[0].observations, 9);
  EXPECT_EQ(back.entries[0].scopeShape, "rows>=1024");
  EXPECT_EQ(back.entries[1].status, KnowledgeStatus::Refuted);
  EXPECT_EQ(back.entries[0].id, 0);
  EXPECT_TRUE(back.entries[0].evidence.empty()) << "candidate ids belong to the exporting project";
  EXPECT_EQ(nlohmann::json::parse(knowledgeExchangeJson(out))["entries"][0].count("evidence"), 0u);
}

std::string fileWith(const nlohmann::json& entry) {
  return nlohmann::json{{"kind", "crucible-knowledge"}, {"format", 1}, {"entries", nlohmann::json::array({entry})}}.dump();
}

void expectRefused(const std::string& text, const std::string& message) {
  try {
    parseKnowledgeExchange(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const KnowledgeExchangeError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(KnowledgeExchange, ABadFileIsRefusedNamingTheField) {
  const nlohmann::json good = nlohmann::json::parse(knowledgeExchangeJson({"", 0, {claim("vector: 1 -> 4", 1.2)}}))["entries"][0];
  EXPECT_NO_THROW(parseKnowledgeExchange(fileWith(good)));
  expectRefused("{", "not JSON");
  expectRefused(R"({"kind": "crucible-knowledge", "format": 1e999})", "not JSON");  // nlohmann: out_of_range
  expectRefused(R"({"kind": "something-else", "format": 1, "entries": []})", "not a Crucible knowledge file");
  expectRefused(R"({"kind": "crucible-knowledge", "format": 2, "entries": []})", "format");
  // 2^32 + 1 is not format 1, though its low 32 bits are.
  expectRefused(R"({"kind": "crucible-knowledge", "format": 4294967297, "entries": []})", "format");
  expectRefused(R"({"kind": "crucible-knowledge", "format": 1, "entries": {}})", "entries: must be an array");
  auto bad = good;
  bad["effect"] = -1;
  expectRefused(fileWith(bad), "entries[0].effect: must be a finite number > 0");
  bad = good;
  bad["effect"] = "fast";
  expectRefused(fileWith(bad), "entries[0].effect: must be a number");
  bad = good;
  bad["observations"] = 0;
  expectRefused(fileWith(bad), "entries[0].observations");
  bad = good;
  bad["status"] = "certain";
  expectRefused(fileWith(bad), "entries[0].status: must be validated, hypothesis or refuted, not 'certain'");
  bad = good;
  bad.erase("decision");
  expectRefused(fileWith(bad), "entries[0].decision: missing");
  bad = good;
  bad["claim"] = std::string(kKnowledgeExchangeMaxText + 1, 'x');
  expectRefused(fileWith(bad), "entries[0].claim: longer than");
  // Claims are printed to a terminal: an escape sequence or a NUL in any text field is refused.
  bad = good;
  bad["claim"] = "\x1B[2Jall clear";
  expectRefused(fileWith(bad), "entries[0].claim: contains the control character U+001B");
  bad = good;
  bad["decision"] = std::string("vector: 1 -> 4\0", 15);
  expectRefused(fileWith(bad), "entries[0].decision: contains the control character U+0000");
  bad = good;
  bad["userClaim"] = "\xC2\x9B" "31m";
  expectRefused(fileWith(bad), "entries[0].userClaim: contains the control character U+009B");
  bad = good;
  bad["evidence"] = nlohmann::json::array({1, 2});
  expectRefused(fileWith(bad), "entries[0].evidence: unknown field");
  const std::string twice = nlohmann::json{{"kind", "crucible-knowledge"}, {"format", 1},
                                           {"entries", nlohmann::json::array({good, good})}}.dump();
  expectRefused(twice, "entries[1]: a second claim for the same scope and decision");
  expectRefused(std::string(kKnowledgeExchangeMaxBytes + 1, ' '), "larger than");
}

TEST(KnowledgeExchange, ImportKeepsWhatTheProjectLearntItself) {
  const std::vector<KnowledgeEntry> own = {claim("vector: 1 -> 4", 1.5)};
  KnowledgeEntry otherArch = claim("vector: 1 -> 4", 1.1);
  otherArch.scopeArch = "sm_100";
  const KnowledgeImportPlan plan =
      planKnowledgeImport(own, {claim("vector: 1 -> 4", 1.1), otherArch, claim("memory: smem -> registers", 1.2)});
  ASSERT_EQ(plan.alreadyKnown.size(), 1u);
  EXPECT_DOUBLE_EQ(plan.alreadyKnown[0].effect, 1.1) << "the incoming one is left out, the project's own stays";
  ASSERT_EQ(plan.add.size(), 2u);
  EXPECT_EQ(plan.add[0].scopeArch, "sm_100");
  EXPECT_EQ(plan.add[1].decision, "memory: smem -> registers");
  for (const auto& k : plan.add) {
    EXPECT_EQ(k.id, 0);
    EXPECT_TRUE(k.evidence.empty());
  }
}

}  // namespace
}  // namespace crucible

namespace crucible {
namespace {

TEST(KnowledgeExchange, PinnedDisabledAndTheUsersWordingTravel) {
  KnowledgeEntry pinned = claim("vector: 1 -> 4", 1.31);
  pinned.pinned = true;
  pinned.userClaim = "Wide loads pay on short rows";
  KnowledgeEntry disabled = claim("memory: smem -> registers", 0.9);
  disabled.disabled = true;
  KnowledgeEntry added = claim("vector=8", 1.0, KnowledgeStatus::Hypothesis);
  added.pinned = true;
  added.userAdded = true;
  added.observations = 0;  // the user's word, nothing measured yet
  const std::string text = knowledgeExchangeJson({"a.crucible", 0, {pinned, disabled, added, claim("grid: 1 -> 2", 1.1)}});
  const KnowledgeExchange back = parseKnowledgeExchange(text);
  ASSERT_EQ(back.entries.size(), 4u);
  EXPECT_TRUE(back.entries[0].pinned);
  EXPECT_FALSE(back.entries[0].disabled);
  EXPECT_EQ(back.entries[0].userClaim, "Wide loads pay on short rows");
  EXPECT_TRUE(back.entries[1].disabled);
  EXPECT_FALSE(back.entries[1].pinned);
  EXPECT_TRUE(back.entries[2].pinned);
  EXPECT_EQ(back.entries[2].observations, 0);
  EXPECT_FALSE(back.entries[3].pinned || back.entries[3].disabled);
  EXPECT_EQ(nlohmann::json::parse(text)["entries"][3].count("pinned"), 0u) << "written only when set";

  // A user's claim may have several lines (the knowledge browser's editor), and tabs.
  KnowledgeEntry lines = claim("vector: 1 -> 2", 1.1);
  lines.userClaim = "Wide loads pay:\n\t- short rows\r\n\t- odd lengths";
  EXPECT_EQ(parseKnowledgeExchange(knowledgeExchangeJson({"", 0, {lines}})).entries[0].userClaim, lines.userClaim);

  nlohmann::json bad = nlohmann::json::parse(text)["entries"][0];
  bad["pinned"] = "yes";
  expectRefused(fileWith(bad), "entries[0].pinned: must be true or false");
  bad = nlohmann::json::parse(text)["entries"][3];
  bad["observations"] = 0;
  expectRefused(fileWith(bad), "entries[0].observations: must be a whole number >= 1");
}

}  // namespace
}  // namespace crucible
