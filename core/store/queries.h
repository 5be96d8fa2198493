// SPDX-License-Identifier: GPL-3.0-or-later
// SQL text shared by the store's files: column lists (in the order the row
// decoders read them) and the queries on the engine's per-candidate path,
// which must be index lookups (tests check their query plans).
// Internal to core/store.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace crucible::store_detail::queries {

// Over kCandidateTables (c: the candidate row, s: its source).
inline constexpr const char* kCandidateColumns =
    "c.id, c.run_id, c.generation, c.proposer, c.mutation, c.meta_prompt_id, c.architecture_key, c.status, "
    "c.fitness, c.created_at, c.status_detail, c.launch_json, c.genome_json, c.descriptor_json, c.compile_json, "
    "c.validation_json, c.timing_json, c.profile_json, s.source";
inline constexpr const char* kCandidateTables =
    "FROM candidates c JOIN candidate_sources s ON s.candidate_id = c.id";

inline constexpr const char* kSummaryColumns =
    "id, run_id, generation, proposer, mutation, architecture_key, status, median_us, speedup, fitness, registers";

inline constexpr const char* kRunColumns =
    "id, task_id, name, proposer, seed, budget_evaluations, budget_wall_seconds, budget_gpu_seconds, gated, "
    "settings_json, status, reference_candidate, created_at, evaluations_done, wall_seconds_used, gpu_seconds_used, "
    "best_speedup";

inline constexpr const char* kTaskColumns = "id, name, family, spec_json, spec_version";

// Qualified with "k." because search joins the FTS table.
inline constexpr const char* kKnowledgeColumns =
    "k.id, k.scope_arch, k.scope_family, k.scope_shape, k.claim, k.decision, k.effect, k.observations, k.status, "
    "k.probe, k.updated_at";

inline constexpr const char* kSealColumns =
    "id, task_id, candidate_id, run_id, speedup, median_us, validation_report_json, performance_report_json, fp_gpu, "
    "fp_arch, fp_driver, fp_cuda_runtime, fp_nvrtc, fp_sm_clock_mhz, fp_mem_clock_mhz, fp_host, sealed_at";

inline constexpr const char* kMetaPromptColumns = "id, run_id, parent_id, name, text, uses, improvements";

inline std::string select(const char* columns, const char* rest) {
  return std::string("SELECT ") + columns + " " + rest;
}

// --- the per-candidate path: each must be an index lookup, never a scan.
inline const std::string kCandidateById =
    select(kCandidateColumns, kCandidateTables) + " WHERE c.id = ?1";
inline const std::string kParentsOf = "SELECT parent_id FROM lineage WHERE child_id = ?1 ORDER BY position";
inline const std::string kCandidatesWithStatus =
    select(kCandidateColumns, kCandidateTables) + " WHERE c.run_id = ?1 AND c.status = ?2 ORDER BY c.id";
inline const std::string kSummariesOfRun =
    select(kSummaryColumns, "FROM candidates WHERE run_id = ?1 ORDER BY id");
inline const std::string kSummariesSince =
    select(kSummaryColumns, "FROM candidates WHERE run_id = ?1 AND id > ?2 ORDER BY id");
inline const std::string kSummaryById = select(kSummaryColumns, "FROM candidates WHERE id = ?1");
inline const std::string kEdgesOfRun =
    "SELECT l.child_id, l.parent_id FROM candidates c JOIN lineage l ON l.child_id = c.id "
    "WHERE c.run_id = ?1 ORDER BY c.id, l.position";
inline const std::string kCandidateCountOfRun = "SELECT candidates FROM run_candidate_counts WHERE run_id = ?1";
inline const std::string kUpdateCandidate =
    "UPDATE candidates SET descriptor_json = ?2, status = ?3, status_detail = ?4, compile_json = ?5, "
    "validation_json = ?6, timing_json = ?7, profile_json = ?8, fitness = ?9, median_us = ?10, speedup = ?11, "
    "registers = ?12 WHERE id = ?1";
inline const std::string kLookupTuning =
    "SELECT candidate_id FROM tuning_cache WHERE task_id = ?1 AND config_key = ?2";
inline const std::string kArchiveOfRun =
    "SELECT run_id, island, key, elite_id, fitness, selections, improvements FROM archive_cells "
    "WHERE run_id = ?1 ORDER BY island, key";
inline const std::string kVerdict =
    "SELECT run_id, architecture_key, accepted, note, decided_at FROM review_verdicts "
    "WHERE run_id = ?1 AND architecture_key = ?2";
inline const std::string kLatestSeal =
    select(kSealColumns, "FROM seals WHERE task_id = ?1 ORDER BY sealed_at DESC, id DESC LIMIT 1");
inline const std::string kLogOfRun =
    "SELECT id, run_id, at, level, text FROM engine_log WHERE run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3";
inline const std::string kLogAfter =
    "SELECT id, run_id, at, level, text FROM engine_log WHERE id > ?2 ORDER BY id LIMIT ?3";
inline const std::string kMetaPromptsOfRun =
    select(kMetaPromptColumns, "FROM meta_prompts WHERE run_id = ?1 OR run_id IS NULL ORDER BY id");
inline const std::string kTaskByName = select(kTaskColumns, "FROM tasks WHERE name = ?1");

// The queries above by name, for the query-plan test.
inline std::vector<std::pair<const char*, const std::string*>> indexedQueries() {
  return {{"candidate by id", &kCandidateById},     {"parents of", &kParentsOf},
          {"candidates with status", &kCandidatesWithStatus}, {"summaries of run", &kSummariesOfRun},
          {"summaries since", &kSummariesSince},
          {"summary by id", &kSummaryById},
          {"edges of run", &kEdgesOfRun},           {"candidate count of run", &kCandidateCountOfRun},
          {"update candidate", &kUpdateCandidate},  {"lookup tuning", &kLookupTuning},
          {"archive of run", &kArchiveOfRun},       {"verdict", &kVerdict},
          {"latest seal", &kLatestSeal},            {"log of run", &kLogOfRun},
          {"log after", &kLogAfter},                {"meta-prompts of run", &kMetaPromptsOfRun},
          {"task by name", &kTaskByName}};
}

}  // namespace crucible::store_detail::queries
