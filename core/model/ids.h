// SPDX-License-Identifier: GPL-3.0-or-later
// Row identifiers of the project store. 0 means "none / not stored yet".
#pragma once
#include <cstdint>

namespace crucible {
using TaskId = std::int64_t;
using RunId = std::int64_t;
using CandidateId = std::int64_t;
using KnowledgeId = std::int64_t;
using SealId = std::int64_t;
using MetaPromptId = std::int64_t;
}  // namespace crucible
