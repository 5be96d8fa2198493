// SPDX-License-Identifier: GPL-3.0-or-later
// The engine works per candidate against projects of 100k candidates: every
// query on that path must be an index lookup (O(log n)), never a table scan.
// Checked on the real query text (core/store/queries.h) and the real schema.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "core/store/project_store.h"
#include "core/store/queries.h"
#include "tests/core/store/store_test_support.h"

using namespace crucible;
using namespace crucible::store_test;

namespace {

std::vector<std::string> planOf(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  const std::string explain = "EXPLAIN QUERY PLAN " + sql;
  if (sqlite3_prepare_v2(db, explain.c_str(), -1, &s, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string(sqlite3_errmsg(db)) + " in: " + sql);
  std::vector<std::string> details;
  while (sqlite3_step(s) == SQLITE_ROW) details.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 3)));
  sqlite3_finalize(s);
  return details;
}

TEST(StoreQueryPlans, PerCandidateQueriesUseIndices) {
  ScratchDir dir;
  const auto path = dir.file("p.crucible");
  {
    // Some rows, so that the planner's statistics (PRAGMA optimize on close) are realistic.
    auto store = ProjectStore::create(path);
    const RunId run = store->addRun(sampleRun(store->addTask(sampleTask())));
    CandidateId previous = 0;
    store->transaction([&] {
      for (int i = 0; i < 300; ++i) {
        previous = store->addCandidate(fullCandidate(run, previous ? std::vector<CandidateId>{previous} : std::vector<CandidateId>{}));
        store->appendLog(run, "info", "x");
      }
    });
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  for (const auto& [name, sql] : store_detail::queries::indexedQueries()) {
    const auto plan = planOf(db, *sql);
    ASSERT_FALSE(plan.empty()) << name;
    for (const auto& step : plan) EXPECT_NE(step.rfind("SCAN", 0), 0u) << name << ": " << step << "\n  in: " << *sql;
  }
  sqlite3_close(db);
}

}  // namespace
