// SPDX-License-Identifier: GPL-3.0-or-later
// The engine log.
#include "core/store/project_store.h"

#include "core/store/queries.h"
#include "core/store/row_codec.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

// ---------------------------------------------------------------- engine log

void ProjectStore::appendLog(RunId run, const std::string& level, const std::string& text) {
  if (level != "info" && level != "warning" && level != "error")
    throw StoreError(path_ + ": log level '" + level + "' is not one of info, warning, error");
  write("append log", [&] {
    auto s = statements_->get("INSERT INTO engine_log(run_id, at, level, text) VALUES (?1, ?2, ?3, ?4)");
    s->bindIdOrNull(1, run);
    s->bind(2, nowMilliseconds());
    s->bind(3, level);
    s->bind(4, text);
    s->execute();
  });
}

std::vector<LogLine> ProjectStore::log(RunId run, std::int64_t afterId, int limit) const {
  auto s = statements_->get(run == 0 ? queries::kLogAfter : queries::kLogOfRun);
  if (run != 0) s->bind(1, run);
  s->bind(2, afterId);
  s->bind(3, limit);
  std::vector<LogLine> out;
  while (s->step()) out.push_back({s->int64At(0), s->int64At(1), s->int64At(2), s->textAt(3), s->textAt(4)});
  return out;
}

}  // namespace crucible
