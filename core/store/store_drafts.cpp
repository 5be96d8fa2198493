// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor's unsaved drafts (issue 17: nothing typed is lost).
#include "core/store/project_store.h"

#include "core/model/model_json.h"
#include "core/store/row_codec.h"
#include "core/store/schema.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

namespace {

constexpr const char* kDraftColumns = "run_id, parent_id, saved_at, origin, note, launch_json, source";

KernelDraft decodeDraft(const Statement& s) {
  KernelDraft d;
  d.runId = s.int64At(0);
  d.parent = s.int64At(1);
  d.savedAt = s.int64At(2);
  d.origin = s.textAt(3);
  d.note = s.textAt(4);
  d.launch = launchRuleFromJson(nlohmann::json::parse(s.textAt(5)));
  d.source = s.textAt(6);
  return d;
}

}  // namespace

void ProjectStore::saveDraft(const KernelDraft& d) {
  if (d.runId == 0) throw StoreError(path_ + ": cannot save draft: it names no run");
  write("save draft", [&] {
    auto s = statements_->get(
        std::string("INSERT INTO drafts(") + kDraftColumns +
        ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(run_id, parent_id) DO UPDATE SET "
        "saved_at = excluded.saved_at, origin = excluded.origin, note = excluded.note, "
        "launch_json = excluded.launch_json, source = excluded.source");
    s->bindAll(d.runId, d.parent, d.savedAt != 0 ? d.savedAt : nowMilliseconds(), d.origin, d.note,
               toJson(d.launch).dump(), d.source);
    s->execute();
  });
}

std::vector<KernelDraft> ProjectStore::drafts() const {
  // A version-2 file opened read-only has no drafts table: it holds no draft.
  if (schemaVersion() < kDraftsSchemaVersion) return {};
  auto s = statements_->get(std::string("SELECT ") + kDraftColumns + " FROM drafts ORDER BY saved_at DESC, id DESC");
  std::vector<KernelDraft> out;
  while (s->step()) out.push_back(decodeRow(path_, "draft of run", *s, decodeDraft));
  return out;
}

std::optional<KernelDraft> ProjectStore::draft(RunId run, CandidateId parent) const {
  if (schemaVersion() < kDraftsSchemaVersion) return std::nullopt;
  auto s = statements_->get(std::string("SELECT ") + kDraftColumns + " FROM drafts WHERE run_id = ?1 AND parent_id = ?2");
  s->bindAll(run, parent);
  if (!s->step()) return std::nullopt;
  return decodeRow(path_, "draft of run", *s, decodeDraft);
}

void ProjectStore::deleteDraft(RunId run, CandidateId parent) {
  write("delete draft", [&] {
    auto s = statements_->get("DELETE FROM drafts WHERE run_id = ?1 AND parent_id = ?2");
    s->bindAll(run, parent);
    s->execute();
  });
}

}  // namespace crucible
