// SPDX-License-Identifier: GPL-3.0-or-later
// Knowledge: claims about hardware mechanisms, their evidence, and FTS5 search.
#include "core/store/project_store.h"

#include <sqlite3.h>

#include <cctype>
#include <map>

#include "core/store/queries.h"
#include "core/store/row_codec.h"
#include "core/store/schema.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

namespace {

// A search box's words as an FTS5 query: each word quoted (so "16-byte" or
// "sm_90" are not read as FTS5 syntax), all words required; a trailing '*'
// keeps its prefix meaning.
std::string ftsQueryFromWords(const std::string& text) {
  std::string query;
  std::size_t i = 0;
  // Control characters separate words too: FTS5 reads its query as a C string,
  // so a NUL inside a quoted word leaves it unterminated (a syntax error).
  const auto separates = [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return std::isspace(c) || std::iscntrl(c);
  };
  while (i < text.size()) {
    while (i < text.size() && separates(text[i])) ++i;
    std::size_t end = i;
    while (end < text.size() && !separates(text[end])) ++end;
    if (end == i) break;
    std::string word = text.substr(i, end - i);
    i = end;
    bool prefix = false;
    while (!word.empty() && word.back() == '*') {
      word.pop_back();
      prefix = true;
    }
    if (word.empty()) continue;
    std::string quoted = "\"";
    for (char ch : word) quoted += (ch == '"') ? std::string("\"\"") : std::string(1, ch);
    quoted += '"';
    if (prefix) quoted += '*';
    query += (query.empty() ? "" : " ") + quoted;
  }
  return query;
}


// user_state: "pinned", "disabled", "added", comma-separated, in this order.
std::string userStateText(const KnowledgeEntry& k) {
  std::string s;
  auto add = [&s](bool on, const char* word) {
    if (on) s += (s.empty() ? "" : ",") + std::string(word);
  };
  add(k.pinned, "pinned");
  add(k.disabled, "disabled");
  add(k.userAdded, "added");
  return s;
}

// Unknown words are ignored: a later build's state reads as none of these.
void readUserState(const std::string& text, KnowledgeEntry& k) {
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string word = text.substr(begin, end - begin);
    if (word == "pinned") k.pinned = true;
    if (word == "disabled") k.disabled = true;
    if (word == "added") k.userAdded = true;
    begin = end + 1;
  }
}

}  // namespace

// ---------------------------------------------------------------- knowledge

namespace {
void writeEvidence(StatementCache& statements, KnowledgeId id, const std::vector<CandidateId>& evidence) {
  {
    auto clear = statements.get("DELETE FROM knowledge_evidence WHERE knowledge_id = ?1");
    clear->bindAll(id);
    clear->execute();
  }
  auto s = statements.get("INSERT INTO knowledge_evidence(knowledge_id, position, candidate_id) VALUES (?1, ?2, ?3)");
  for (std::size_t i = 0; i < evidence.size(); ++i) {
    s->bindAll(id, static_cast<std::int64_t>(i), evidence[i]);
    s->execute();
    s->reset();
  }
}
}  // namespace

KnowledgeId ProjectStore::addKnowledge(const KnowledgeEntry& k) {
  KnowledgeId id = 0;
  write("add knowledge", [&] {
    {
      auto s = statements_->get(
          "INSERT INTO knowledge(scope_arch, scope_family, scope_shape, claim, decision, effect, observations, status, "
          "probe, updated_at, user_state, user_claim) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
      s->bindAll(k.scopeArch, k.scopeFamily, k.scopeShape, k.claim, k.decision, k.effect, k.observations,
                 toString(k.status), k.probe, k.updatedAt != 0 ? k.updatedAt : nowSeconds(), userStateText(k),
                 k.userClaim);
      s->execute();
      id = sqlite3_last_insert_rowid(db_);
    }
    writeEvidence(*statements_, id, k.evidence);
  });
  return id;
}

void ProjectStore::updateKnowledge(const KnowledgeEntry& k) {
  write("update knowledge", [&] {
    {
      auto s = statements_->get(
          "UPDATE knowledge SET scope_arch = ?2, scope_family = ?3, scope_shape = ?4, claim = ?5, decision = ?6, "
          "effect = ?7, observations = ?8, status = ?9, probe = ?10, updated_at = ?11 WHERE id = ?1");
      s->bindAll(k.id, k.scopeArch, k.scopeFamily, k.scopeShape, k.claim, k.decision, k.effect, k.observations,
                 toString(k.status), k.probe, k.updatedAt != 0 ? k.updatedAt : nowSeconds());
      s->execute();
      if (sqlite3_changes(db_) != 1) throw StoreError(path_ + ": no knowledge entry " + std::to_string(k.id));
    }
    writeEvidence(*statements_, k.id, k.evidence);
  });
}

void ProjectStore::setKnowledgeUserState(KnowledgeId id, bool pinned, bool disabled, const std::string& userClaim) {
  write("set the user's word on a claim", [&] {
    auto read = statements_->get("SELECT user_state FROM knowledge WHERE id = ?1");
    read->bindAll(id);
    if (!read->step()) throw StoreError(path_ + ": no knowledge entry " + std::to_string(id));
    KnowledgeEntry k;
    readUserState(read->textAt(0), k);
    read->reset();
    k.pinned = pinned;
    k.disabled = disabled;
    auto s = statements_->get("UPDATE knowledge SET user_state = ?2, user_claim = ?3 WHERE id = ?1");
    s->bindAll(id, userStateText(k), userClaim);
    s->execute();
  });
}

namespace {
// The columns knowledge() reads: the measured ones, then the user's (absent
// from a file older than v4 opened read-only: read as '').
std::string knowledgeColumns(int schemaVersion) {
  return std::string(queries::kKnowledgeColumns) +
         (schemaVersion >= kKnowledgeUserStateSchemaVersion ? ", k.user_state, k.user_claim" : ", '', ''");
}

KnowledgeEntry decodeKnowledgeWithUserState(const Statement& s) {
  KnowledgeEntry k = decodeKnowledge(s);
  readUserState(s.textAt(11), k);
  k.userClaim = s.textAt(12);
  return k;
}

// Attaches evidence (ordered by knowledge id, then position) to entries ordered by id.
void attachEvidence(StatementCache& statements, std::vector<KnowledgeEntry>& entries) {
  std::map<KnowledgeId, KnowledgeEntry*> byId;
  for (auto& k : entries) byId[k.id] = &k;
  auto s = statements.get("SELECT knowledge_id, candidate_id FROM knowledge_evidence ORDER BY knowledge_id, position");
  while (s->step()) {
    const auto it = byId.find(s->int64At(0));
    if (it != byId.end()) it->second->evidence.push_back(s->int64At(1));
  }
}
}  // namespace

std::vector<KnowledgeEntry> ProjectStore::knowledge() const {
  std::vector<KnowledgeEntry> out;
  {
    const std::string columns = knowledgeColumns(schemaVersion());
    auto s = statements_->get(queries::select(columns.c_str(), "FROM knowledge k ORDER BY k.id"));
    while (s->step()) out.push_back(decodeRow(path_, "knowledge entry", *s, decodeKnowledgeWithUserState));
  }
  attachEvidence(*statements_, out);
  return out;
}

std::vector<KnowledgeEntry> ProjectStore::searchKnowledge(const std::string& query) const {
  const std::string match = ftsQueryFromWords(query);
  if (match.empty()) return knowledge();  // an empty search box shows everything
  std::vector<KnowledgeEntry> out;
  {
    const std::string columns = knowledgeColumns(schemaVersion());
    auto s = statements_->get(queries::select(columns.c_str(),
                                  "FROM knowledge_fts f JOIN knowledge k ON k.id = f.rowid "
                                  "WHERE knowledge_fts MATCH ?1 ORDER BY f.rank, k.id"));
    s->bindAll(match);
    while (s->step()) out.push_back(decodeRow(path_, "knowledge entry", *s, decodeKnowledgeWithUserState));
  }
  attachEvidence(*statements_, out);
  return out;
}

}  // namespace crucible
