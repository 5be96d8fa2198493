// SPDX-License-Identifier: GPL-3.0-or-later
// Rows <-> domain objects: decoders read the column lists of queries.h in
// order; encoders bind the JSON columns. Internal to core/store.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <nlohmann/json.hpp>

#include "core/model/archive_cell.h"
#include "core/model/candidate.h"
#include "core/model/knowledge.h"
#include "core/model/run.h"
#include "core/model/seal.h"
#include "core/model/task.h"
#include "core/store/project_store.h"
#include "core/store/statement.h"

namespace crucible::store_detail {

std::int64_t nowSeconds();
std::int64_t nowMilliseconds();

// Seeds are unsigned 64-bit; SQLite integers are signed. Stored bit for bit.
inline std::int64_t toStored(std::uint64_t v) { return static_cast<std::int64_t>(v); }
inline std::uint64_t fromStored(std::int64_t v) { return static_cast<std::uint64_t>(v); }

Task decodeTask(const Statement& s);
Run decodeRun(const Statement& s);
Candidate decodeCandidate(const Statement& s);  // everything but the parents (lineage rows)
CandidateSummary decodeSummary(const Statement& s);  // everything but the parents
KnowledgeEntry decodeKnowledge(const Statement& s);  // everything but the evidence
Seal decodeSeal(const Statement& s);
MetaPrompt decodeMetaPrompt(const Statement& s);

// Rows decoded from the file: a malformed value is the file's fault, so the
// error names the file and the row (the first column is the row's id).
template <typename Decode>
auto decodeRow(const std::string& path, const char* what, const Statement& s, Decode decode) {
  try {
    return decode(s);
  } catch (const nlohmann::json::exception& e) {
    throw StoreError(path + ": " + what + " " + std::to_string(s.int64At(0)) + " is malformed: " + e.what());
  } catch (const std::invalid_argument& e) {
    throw StoreError(path + ": " + what + " " + std::to_string(s.int64At(0)) + " is malformed: " + e.what());
  }
}

// Binds the measured fields shared by INSERT and UPDATE, at parameters
// first.. first+10: descriptor, status, detail, compile, validation, timing,
// profile, fitness, median, speedup, registers.
void bindMeasured(Statement& s, int first, const Candidate& c);

}  // namespace crucible::store_detail
