// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/project_file_check.h"

#include <sqlite3.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/store/project_store.h"
#include "core/store/schema.h"

namespace crucible::store_detail {
namespace {

// Every SQLite 3 database starts with these 16 bytes.
constexpr std::array<char, 16> kSqliteMagic{'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                            'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};

[[noreturn]] void reject(const std::string& path, const std::string& reason) {
  throw StoreError(path + ": " + reason);
}

void checkHeader(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) reject(path, "no such file");
  if (!std::filesystem::is_regular_file(status)) reject(path, "not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) reject(path, "cannot be read");
  std::array<char, 16> header{};
  in.read(header.data(), header.size());
  if (in.gcount() != static_cast<std::streamsize>(header.size()) || header != kSqliteMagic)
    reject(path, "not a Crucible project (not an SQLite database)");
}

struct ConnectionCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StatementFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

// Runs a read-only PRAGMA and hands each row's first column to onRow.
// SQLite reports damage as SQLITE_CORRUPT or SQLITE_NOTADB: that is the
// answer "corrupt"; any other failure (I/O, locking) keeps SQLite's message.
template <typename OnRow>
void readPragma(const std::string& path, sqlite3* db, const char* pragma, OnRow onRow) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db, pragma, -1, &raw, nullptr);
  std::unique_ptr<sqlite3_stmt, StatementFinalizer> statement(raw);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(raw, 0));
      onRow(sqlite3_column_int64(raw, 0), std::string(text ? text : ""));
    }
    if (rc == SQLITE_DONE) return;
  }
  const int code = sqlite3_extended_errcode(db) & 0xff;
  const std::string message = sqlite3_errmsg(db);
  if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) reject(path, "the file is corrupt (" + message + ")");
  reject(path, std::string("cannot read (") + pragma + "): " + message);
}

}  // namespace

int inspectProjectFile(const std::string& path, const StorageFacts& facts) {
  checkHeader(path);

  std::unique_ptr<sqlite3, ConnectionCloser> db(openReadConnection(path, accessForInspection(facts)));
  sqlite3* raw = db.get();
  sqlite3_busy_timeout(raw, 5000);

  std::int64_t applicationId = 0;
  try {
    readPragma(path, raw, "PRAGMA application_id", [&](std::int64_t v, const std::string&) { applicationId = v; });
  } catch (const StoreError&) {
    // Reading a -wal needs a -shm beside it; on read-only storage it cannot
    // be made, and reading the file alone would miss committed changes.
    if (facts.notWritable.empty() || !facts.walHasContent) throw;
    reject(path, "its write-ahead log (" + path + "-wal) may hold changes not yet in the file, and SQLite " +
                     "cannot read it without a -shm file, which cannot be made here (" + facts.notWritable +
                     "): open the project once where it can be written");
  }
  if (applicationId != kApplicationId) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08llx", static_cast<unsigned long long>(applicationId) & 0xffffffffULL);
    reject(path, std::string("not a Crucible project (SQLite database with application_id ") + hex + ")");
  }

  int version = 0;
  readPragma(path, raw, "PRAGMA user_version", [&](std::int64_t v, const std::string&) { version = static_cast<int>(v); });
  if (version > latestSchemaVersion())
    reject(path, "written by a newer Crucible (schema " + std::to_string(version) + "; this build reads up to " +
                     std::to_string(latestSchemaVersion()) + ")");
  if (version < 1) reject(path, "not a Crucible project (schema version " + std::to_string(version) + ")");

  std::string problems;
  int problemCount = 0;
  readPragma(path, raw, "PRAGMA quick_check", [&](std::int64_t, const std::string& line) {
    if (line == "ok") return;
    if (problemCount++ < 3) problems += (problems.empty() ? "" : "; ") + line;
  });
  if (problemCount > 0) reject(path, "the file is corrupt (" + problems + (problemCount > 3 ? "; ..." : "") + ")");
  return version;
}

}  // namespace crucible::store_detail
