// SPDX-License-Identifier: GPL-3.0-or-later
// A prepared SQLite statement that finalizes itself, and a per-connection
// cache of them so hot statements (add/update candidate) are parsed once.
// Internal to core/store.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace crucible::store_detail {

// The message of the connection's last error, prefixed with the file's name.
std::string describeError(sqlite3* db, std::string_view context);

class Statement {
public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based, as in SQLite.
  void bind(int index, std::int64_t value);
  void bind(int index, int value) { bind(index, static_cast<std::int64_t>(value)); }
  void bind(int index, bool value) { bind(index, static_cast<std::int64_t>(value ? 1 : 0)); }
  void bind(int index, double value);
  void bind(int index, std::string_view value);
  void bind(int index, const std::string& value) { bind(index, std::string_view(value)); }
  void bind(int index, const char* value) { bind(index, std::string_view(value)); }
  void bind(int index, std::nullptr_t);
  // Row ids use 0 for "none"; the schema stores that as NULL so foreign keys hold.
  void bindIdOrNull(int index, std::int64_t id);

  template <typename... Values>
  void bindAll(const Values&... values) {
    int index = 1;
    (bind(index++, values), ...);
  }

  bool step();      // true while a row is available; throws StoreError on failure
  void execute();   // steps to completion, ignoring rows
  void reset();     // ends the statement's read so the connection does not pin a snapshot

  bool isNull(int column) const;
  std::int64_t int64At(int column) const;
  int intAt(int column) const { return static_cast<int>(int64At(column)); }
  double doubleAt(int column) const;
  std::string textAt(int column) const;

  int lastErrorCode() const { return lastError_; }  // extended code of the last failed step

private:
  friend class ScopedStatement;
  friend class StatementCache;
  bool inUse_ = false;  // a ScopedStatement holds it: a second user would clobber its bindings
  [[noreturn]] void fail(std::string_view what) const;
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
  int lastError_ = 0;
};

// Resets its statement when it goes out of scope (also on exceptions).
class ScopedStatement {
public:
  explicit ScopedStatement(Statement& s) : s_(&s) {}
  ~ScopedStatement() {
    s_->reset();
    s_->inUse_ = false;
  }
  ScopedStatement(const ScopedStatement&) = delete;
  ScopedStatement& operator=(const ScopedStatement&) = delete;
  Statement* operator->() const { return s_; }
  Statement& operator*() const { return *s_; }

private:
  Statement* s_;
};

class StatementCache {
public:
  explicit StatementCache(sqlite3* db) : db_(db) {}
  // The cached statement for this SQL text, reset and with no bindings.
  ScopedStatement get(std::string_view sql);
  void clear() { cache_.clear(); }
  // Called before every statement is handed out (the store's owning-thread
  // check); empty: no check.
  void setGuard(std::function<void()> guard) { guard_ = std::move(guard); }

private:
  sqlite3* db_;
  std::function<void()> guard_;
  std::map<std::string, std::unique_ptr<Statement>, std::less<>> cache_;
};

// Runs SQL text with no parameters and no rows (DDL, BEGIN, PRAGMA...).
void executeScript(sqlite3* db, std::string_view sql);

}  // namespace crucible::store_detail
