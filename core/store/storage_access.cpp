// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/storage_access.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "core/store/project_store.h"

namespace crucible::store_detail {
namespace {

constexpr const char* kReadOnlyFileSystem = "it is on a read-only file system";

// access() asks the kernel the question that matters (root may write a
// chmod-ed file; nobody may write on a read-only mount), and says EROFS for
// the latter even where statvfs could not be asked.
std::string whyNotWritable(const std::filesystem::path& file) {
  const std::filesystem::path folder = file.parent_path();
  struct statvfs fileSystem {};
  if (::statvfs(folder.c_str(), &fileSystem) == 0 && (fileSystem.f_flag & ST_RDONLY)) return kReadOnlyFileSystem;
  if (::access(file.c_str(), F_OK) == 0 && ::access(file.c_str(), W_OK) != 0)
    return errno == EROFS ? kReadOnlyFileSystem : "the file is not writable";
  if (::access(folder.c_str(), F_OK) != 0) return "its folder does not exist";
  // SQLite makes its -wal and -shm files beside the project: the folder must take new files.
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return errno == EROFS ? kReadOnlyFileSystem : "its folder is not writable";
  return {};
}

bool nonEmptyFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && st.st_size > 0;
}

// file: URI of an absolute path; every byte that URI syntax could read as
// something else is percent-encoded.
std::string immutableUri(const std::string& path) {
  const std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
  std::string uri = "file:";
  for (const unsigned char c : absolute) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                       c == '-' || c == '.' || c == '_' || c == '~';
    if (plain) {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      uri += escaped;
    }
  }
  return uri + "?immutable=1";
}

}  // namespace

StorageFacts probeStorage(const std::string& path) {
  StorageFacts facts;
  facts.notWritable = whyNotWritable(std::filesystem::absolute(path).lexically_normal());
  facts.walHasContent = nonEmptyFile(path + "-wal");
  facts.journalHasContent = nonEmptyFile(path + "-journal");
  return facts;
}

ReadAccess accessForInspection(const StorageFacts& facts) {
  const bool fileIsEverything = !facts.walHasContent && !facts.journalHasContent;
  if (!facts.notWritable.empty()) return fileIsEverything ? ReadAccess::Immutable : ReadAccess::Plain;
  // A log beside a file we may refuse must not be replayed into it.
  return fileIsEverything ? ReadAccess::CleaningUp : ReadAccess::Plain;
}

ReadAccess accessForReading(const StorageFacts& facts) {
  if (!facts.notWritable.empty()) return accessForInspection(facts);
  // A healthy project on writable storage: checkpointing its committed log at
  // close is what any connection does, and it takes the -wal/-shm away.
  return ReadAccess::CleaningUp;
}

sqlite3* openReadConnection(const std::string& path, ReadAccess access) {
  std::string name = path;
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (access) {
    case ReadAccess::CleaningUp: flags |= SQLITE_OPEN_READWRITE; break;
    case ReadAccess::Plain: flags |= SQLITE_OPEN_READONLY; break;
    case ReadAccess::Immutable:
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
      name = immutableUri(path);
      break;
  }
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string reason = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    throw StoreError(path + ": cannot open: " + reason);
  }
  sqlite3_extended_result_codes(db, 1);
  if (access == ReadAccess::CleaningUp && sqlite3_exec(db, "PRAGMA query_only = ON", nullptr, nullptr, nullptr) != SQLITE_OK) {
    const std::string reason = sqlite3_errmsg(db);
    sqlite3_close_v2(db);
    throw StoreError(path + ": cannot open for reading: " + reason);
  }
  return db;
}

std::string readOnlyMessage(const std::string& why) {
  return "the project is open read-only" + (why.empty() ? std::string() : " (" + why + ")");
}

}  // namespace crucible::store_detail
