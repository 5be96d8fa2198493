// SPDX-License-Identifier: GPL-3.0-or-later
// Opening, creating and closing projects; transactions. The entity
// operations live in store_*.cpp, one file per part of the domain.
#include "core/store/project_store.h"

#include <sqlite3.h>

#include <filesystem>

#include "core/store/project_creation.h"
#include "core/store/project_file_check.h"
#include "core/store/schema.h"
#include "core/store/statement.h"
#include "core/store/storage_access.h"

namespace crucible {
using store_detail::Statement;

namespace {

sqlite3* openConnection(const std::string& path, int flags) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string reason = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    throw StoreError(path + ": cannot open: " + reason);
  }
  sqlite3_extended_result_codes(db, 1);
  return db;
}

// Per-connection settings: these are not stored in the file (except WAL).
void configureConnection(sqlite3* db, bool readOnly) {
  sqlite3_busy_timeout(db, 5000);  // wait for another connection's write rather than fail at once
  store_detail::executeScript(db, "PRAGMA foreign_keys = ON");
  if (readOnly) {
    // write() refuses first; this is the backstop for any statement that slips past it.
    store_detail::executeScript(db, "PRAGMA query_only = ON");
    return;
  }
  // WAL: the GUI's reader runs beside the engine's writer; NORMAL sync in WAL
  // loses nothing committed when the process dies (only on power loss).
  Statement wal(db, "PRAGMA journal_mode = WAL");
  if (!wal.step() || wal.textAt(0) != "wal")
    throw StoreError(store_detail::describeError(db, "cannot switch to WAL journal mode"));
  store_detail::executeScript(db, "PRAGMA synchronous = NORMAL");
}

}  // namespace

// ---------------------------------------------------------------- lifetime

ProjectStore::ProjectStore(std::string path, sqlite3* db)
    : path_(std::move(path)), db_(db), statements_(std::make_unique<store_detail::StatementCache>(db)) {}

// ---------------------------------------------------------------- owning thread

void ProjectStore::bindToThread(std::thread::id owner, std::string why) {
  ownerWhy_ = std::move(why);
  owner_.store(owner);
}

void ProjectStore::setThreadCheck(bool on) {
  if (on && owner_.load() == std::thread::id()) owner_.store(std::this_thread::get_id());
  threadCheck_.store(on);
  if (on) statements_->setGuard([this] { checkThread(); });
  else statements_->setGuard({});
}

void ProjectStore::checkThread() const {
  if (!threadCheck_.load() || std::this_thread::get_id() == owner_.load()) return;
  throw StoreError(path_ + ": store used on a thread that does not own it" +
                   (ownerWhy_.empty() ? std::string() : " (it belongs to " + ownerWhy_ + ")"));
}

ProjectStore::~ProjectStore() {
  statements_.reset();  // statements must be finalized before the connection closes
  if (!readOnly_) sqlite3_exec(db_, "PRAGMA optimize", nullptr, nullptr, nullptr);
  sqlite3_close_v2(db_);
}

int ProjectStore::currentSchemaVersion() { return store_detail::latestSchemaVersion(); }

std::unique_ptr<ProjectStore> ProjectStore::create(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(path, ec)) || !store_detail::publishNewProject(path))
    throw StoreError(path + ": cannot create: the file already exists");
  return open(path, Mode::ReadWrite);
}

std::unique_ptr<ProjectStore> ProjectStore::openOrCreate(const std::string& path) {
  std::error_code ec;
  // Losing the race to another creator is fine: its project is the one to open.
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) store_detail::publishNewProject(path);
  return open(path, Mode::ReadWrite);
}

std::string ProjectStore::writeProblem(const std::string& path) { return store_detail::probeStorage(path).notWritable; }

std::unique_ptr<ProjectStore> ProjectStore::open(const std::string& path, Mode mode) {
  const store_detail::StorageFacts storage = store_detail::probeStorage(path);
  // Every check runs on a connection that only reads: a file we refuse is never written.
  const int version = store_detail::inspectProjectFile(path, storage);
  const bool readOnly = mode == Mode::ReadOnly || !storage.notWritable.empty();
  if (readOnly && version < store_detail::oldestReadableSchemaVersion())
    throw StoreError(path + ": schema " + std::to_string(version) + " is older than this build's " +
                     std::to_string(currentSchemaVersion()) +
                     (storage.notWritable.empty()
                          ? " and a read-only open cannot migrate it; open it read-write once"
                          : " and it cannot be migrated here (" + storage.notWritable +
                                "); open it once where it can be written"));
  sqlite3* db = readOnly ? store_detail::openReadConnection(path, store_detail::accessForReading(storage))
                         : openConnection(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX);
  std::unique_ptr<ProjectStore> store(new ProjectStore(path, db));
  store->readOnly_ = readOnly;
  if (readOnly) store->readOnlyReason_ = storage.notWritable.empty() ? "opened for reading" : storage.notWritable;
  configureConnection(store->db_, readOnly);
  if (!readOnly && version < currentSchemaVersion())
    store_detail::applyMigrations(store->db_, currentSchemaVersion());
  return store;
}

int ProjectStore::schemaVersion() const {
  auto s = statements_->get("PRAGMA user_version");
  return s->step() ? s->intAt(0) : 0;
}

std::int64_t ProjectStore::dataVersion() const {
  auto s = statements_->get("PRAGMA data_version");
  return s->step() ? s->int64At(0) : 0;
}

// ---------------------------------------------------------------- transactions

void ProjectStore::transaction(const std::function<void()>& fn) {
  if (readOnly_) throw StoreError(path_ + ": cannot write: " + store_detail::readOnlyMessage(readOnlyReason_));
  if (transactionDepth_ == 0) {
    // IMMEDIATE takes the write lock now (waiting up to busy_timeout) instead
    // of failing halfway when a read would have to become a write.
    store_detail::executeScript(db_, "BEGIN IMMEDIATE");
    ++transactionDepth_;
    try {
      fn();
    } catch (...) {
      --transactionDepth_;
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    --transactionDepth_;
    try {
      store_detail::executeScript(db_, "COMMIT");
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    return;
  }
  // Nested: a savepoint, so a failure that the outer fn catches undoes only this part.
  const std::string savepoint = "nested_" + std::to_string(transactionDepth_);
  store_detail::executeScript(db_, "SAVEPOINT " + savepoint);
  ++transactionDepth_;
  try {
    fn();
  } catch (...) {
    --transactionDepth_;
    sqlite3_exec(db_, ("ROLLBACK TO " + savepoint + "; RELEASE " + savepoint).c_str(), nullptr, nullptr, nullptr);
    throw;
  }
  --transactionDepth_;
  store_detail::executeScript(db_, "RELEASE " + savepoint);
}

void ProjectStore::write(const char* what, const std::function<void()>& fn) {
  if (readOnly_) throw StoreError(path_ + ": cannot " + what + ": " + store_detail::readOnlyMessage(readOnlyReason_));
  try {
    transaction(fn);
  } catch (const StoreError& e) {
    // Say what failed, once: "<file>: cannot <what>: <reason>", whether the
    // reason came from SQLite (absolute file name) or from us (path_).
    std::string reason = e.what();
    const char* absolute = sqlite3_db_filename(db_, "main");
    for (const std::string& file : {path_, std::string(absolute ? absolute : "")}) {
      if (!file.empty() && reason.rfind(file + ": ", 0) == 0) {
        reason.erase(0, file.size() + 2);
        break;
      }
    }
    throw StoreError(path_ + ": cannot " + what + ": " + reason);
  }
}

}  // namespace crucible
