// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/statement.h"

#include <sqlite3.h>

#include <stdexcept>

#include "core/store/project_store.h"

namespace crucible::store_detail {

std::string describeError(sqlite3* db, std::string_view context) {
  const char* file = sqlite3_db_filename(db, "main");
  std::string message = (file && *file) ? file : ":memory:";
  message += ": ";
  message += context;
  message += ": ";
  message += sqlite3_errmsg(db);
  return message;
}

namespace {
std::string shortSql(std::string_view sql) {
  constexpr std::size_t kMax = 60;
  std::string s(sql.substr(0, kMax));
  for (char& c : s)
    if (c == '\n') c = ' ';
  if (sql.size() > kMax) s += "...";
  return s;
}
}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db), sql_(sql) {
  // PERSISTENT: these statements live as long as the connection.
  if (sqlite3_prepare_v3(db_, sql_.data(), static_cast<int>(sql_.size()), SQLITE_PREPARE_PERSISTENT, &stmt_,
                         nullptr) != SQLITE_OK)
    throw StoreError(describeError(db_, "cannot prepare '" + shortSql(sql_) + "'"));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::fail(std::string_view what) const {
  throw StoreError(describeError(db_, std::string(what) + " '" + shortSql(sql_) + "'"));
}

void Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail("cannot bind");
}
void Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail("cannot bind");
}
void Statement::bind(int index, std::string_view value) {
  if (sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
    fail("cannot bind");
}
void Statement::bind(int index, std::nullptr_t) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail("cannot bind");
}
void Statement::bindIdOrNull(int index, std::int64_t id) {
  if (id == 0)
    bind(index, nullptr);
  else
    bind(index, id);
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  lastError_ = sqlite3_extended_errcode(db_);
  fail("cannot run");
}

void Statement::execute() {
  while (step()) {
  }
}

void Statement::reset() {
  // The error of a failed step was already reported by step().
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::isNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
std::int64_t Statement::int64At(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::doubleAt(int column) const { return sqlite3_column_double(stmt_, column); }
std::string Statement::textAt(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (!text) return {};
  return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

ScopedStatement StatementCache::get(std::string_view sql) {
  if (guard_) guard_();
  auto it = cache_.find(sql);
  if (it == cache_.end()) it = cache_.emplace(std::string(sql), std::make_unique<Statement>(db_, sql)).first;
  Statement& s = *it->second;
  if (s.inUse_) throw std::logic_error("store: statement used re-entrantly: " + std::string(sql));
  s.inUse_ = true;
  return ScopedStatement(s);
}

void executeScript(sqlite3* db, std::string_view sql) {
  const std::string text(sql);
  char* error = nullptr;
  if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errmsg(db);
    sqlite3_free(error);
    const char* file = sqlite3_db_filename(db, "main");
    throw StoreError(std::string((file && *file) ? file : ":memory:") + ": " + message + " (in '" +
                     shortSql(sql) + "')");
  }
}

}  // namespace crucible::store_detail
