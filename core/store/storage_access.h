// SPDX-License-Identifier: GPL-3.0-or-later
// Where a project file lives decides how it may be opened for reading. A
// project in WAL mode needs a -shm (and -wal) file beside it: on read-only
// storage (a read-only mount, a folder or file we cannot write) those cannot
// be made, and a plain read-only connection leaves them behind wherever they
// can be made. Internal to core/store.
#pragma once
#include <string>

struct sqlite3;

namespace crucible::store_detail {

// What the storage under a project allows, found without opening it.
struct StorageFacts {
  // "" when the file (or, for a file not there yet, its folder) can be
  // written; else why not, in words: "it is on a read-only file system".
  std::string notWritable;
  // A non-empty -wal beside the file: it may hold commits not yet in the
  // file, so the file alone is not the project.
  bool walHasContent = false;
  // A non-empty rollback journal (-journal) beside the file.
  bool journalHasContent = false;
};

StorageFacts probeStorage(const std::string& path);

// How a connection that only reads is opened.
enum class ReadAccess {
  // Read-write connection with PRAGMA query_only: it shares the -wal/-shm,
  // and when it is the last connection to close, SQLite checkpoints and
  // removes them, so reading leaves nothing behind.
  CleaningUp,
  // SQLITE_OPEN_READONLY: never writes the file, never replays a log into it;
  // uses (and may create) the -shm beside it.
  Plain,
  // URI immutable=1: reads the file alone, no locks, creates nothing. Only
  // right when nobody can write the file meanwhile (read-only storage) and
  // no -wal holds commits.
  Immutable,
};

// For a file not yet known to be a healthy project: never lets SQLite replay
// or checkpoint a log into it (a refused file stays byte for byte as it was).
ReadAccess accessForInspection(const StorageFacts& facts);
// For a project that passed inspection.
ReadAccess accessForReading(const StorageFacts& facts);

// Opens a connection that only reads. Throws StoreError "<path>: cannot open: <reason>".
sqlite3* openReadConnection(const std::string& path, ReadAccess access);

// "the project is open read-only (<why>)".
std::string readOnlyMessage(const std::string& why);

}  // namespace crucible::store_detail
