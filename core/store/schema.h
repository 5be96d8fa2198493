// SPDX-License-Identifier: GPL-3.0-or-later
// The project file's schema as an ordered list of forward migrations.
// Internal to core/store; exposed so tests can build files of older versions.
#pragma once
#include <cstdint>

struct sqlite3;

namespace crucible::store_detail {

// PRAGMA application_id of every Crucible project: "CRUC".
inline constexpr std::int32_t kApplicationId = 0x43525543;

// The newest schema version this build reads and writes.
int latestSchemaVersion();

// The oldest version a read-only open reads as it is (it cannot migrate):
// every later step only adds tables that the store reads as empty where they
// are missing, so a reviewer can open an older project on read-only storage.
int oldestReadableSchemaVersion();
// The version that added the drafts and seal_revalidations tables.
inline constexpr int kDraftsSchemaVersion = 3;
// The version that added the knowledge's user_state and user_claim columns.
inline constexpr int kKnowledgeUserStateSchemaVersion = 4;

// Brings the database from its PRAGMA user_version up to `upTo`, one
// migration per transaction; a fresh (version 0) database also gets the
// application id. Throws StoreError naming the file if a step fails (that step
// is rolled back; earlier steps stay) or if upTo is beyond latestSchemaVersion().
void applyMigrations(sqlite3* db, int upTo);

}  // namespace crucible::store_detail
