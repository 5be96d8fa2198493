// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/project_creation.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "core/store/project_store.h"
#include "core/store/schema.h"
#include "core/store/statement.h"

namespace crucible::store_detail {
namespace {

namespace fs = std::filesystem;

// A fresh file beside the project, made with open(O_EXCL) rather than
// mkstemp so that the umask, not mkstemp's 0600, decides who may read the
// project. Returns its path; errors name `path`, the project as the caller gave it.
std::string makeScratchFile(const fs::path& target, const std::string& path) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0;; ++attempt) {
    const fs::path scratch = target.parent_path() / ("." + target.filename().string() + ".creating-" +
                                                     std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const int fd = ::open(scratch.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return scratch.string();
    }
    if (errno != EEXIST || attempt > 100)
      throw StoreError(path + ": cannot create: " + std::strerror(errno));
  }
}

// Removes the scratch file and SQLite's files beside it, however the creation ends.
class ScratchCleanup {
public:
  explicit ScratchCleanup(std::string path) : path_(std::move(path)) {}
  ~ScratchCleanup() {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path_ + suffix, ec);
  }
  ScratchCleanup(const ScratchCleanup&) = delete;
  ScratchCleanup& operator=(const ScratchCleanup&) = delete;

private:
  std::string path_;
};

struct ConnectionCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

// The schema, in WAL mode, with everything checkpointed into the file itself:
// the -wal is named after the scratch file and does not travel with the link.
void setUp(const std::string& scratch) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(scratch.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  std::unique_ptr<sqlite3, ConnectionCloser> db(raw);
  if (rc != SQLITE_OK) throw StoreError(raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
  sqlite3_extended_result_codes(raw, 1);
  {
    Statement wal(raw, "PRAGMA journal_mode = WAL");
    if (!wal.step() || wal.textAt(0) != "wal") throw StoreError(describeError(raw, "cannot switch to WAL journal mode"));
  }
  applyMigrations(raw, latestSchemaVersion());
  {
    Statement checkpoint(raw, "PRAGMA wal_checkpoint(TRUNCATE)");
    if (!checkpoint.step() || checkpoint.intAt(0) != 0)
      throw StoreError(describeError(raw, "cannot checkpoint the new project"));
  }
  if (sqlite3_close(db.release()) != SQLITE_OK) throw StoreError("cannot close the new project");
}

// Makes the new name durable; a failure here loses nothing but that guarantee.
void syncFolder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

bool publishNewProject(const std::string& path) {
  const fs::path target = fs::absolute(path);
  const std::string scratch = makeScratchFile(target, path);
  ScratchCleanup cleanup(scratch);
  try {
    setUp(scratch);
  } catch (const StoreError& e) {
    throw StoreError(path + ": cannot create: " + e.what());
  }
  if (::link(scratch.c_str(), target.c_str()) == 0) {
    syncFolder(target.parent_path());
    return true;
  }
  if (errno == EEXIST) return false;
  const int linkError = errno;
  // File systems without hard links (FAT, some FUSE ones): an exclusive rename is as good.
  if (::renameat2(AT_FDCWD, scratch.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) {
    syncFolder(target.parent_path());
    return true;
  }
  if (errno == EEXIST) return false;
  throw StoreError(path + ": cannot create: " + std::strerror(linkError));
}

}  // namespace crucible::store_detail
