// SPDX-License-Identifier: GPL-3.0-or-later
// Seals (frozen, validated kernels with their fingerprint) and device ceilings.
#include "core/store/project_store.h"

#include <sqlite3.h>

#include "core/store/queries.h"
#include "core/store/row_codec.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

// ---------------------------------------------------------------- seals

SealId ProjectStore::addSeal(const Seal& seal) {
  SealId id = 0;
  write("add seal", [&] {
    auto s = statements_->get(
        "INSERT INTO seals(task_id, candidate_id, run_id, speedup, median_us, validation_report_json, "
        "performance_report_json, fp_gpu, fp_arch, fp_driver, fp_cuda_runtime, fp_nvrtc, fp_sm_clock_mhz, "
        "fp_mem_clock_mhz, fp_host, sealed_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
    const Fingerprint& f = seal.fingerprint;
    s->bindAll(seal.taskId, seal.candidateId);
    s->bindIdOrNull(3, seal.runId);
    s->bind(4, seal.speedup);
    s->bind(5, seal.medianUs);
    s->bind(6, seal.validationReportJson);
    s->bind(7, seal.performanceReportJson);
    s->bind(8, f.gpu);
    s->bind(9, f.arch);
    s->bind(10, f.driver);
    s->bind(11, f.cudaRuntime);
    s->bind(12, f.nvrtc);
    s->bind(13, f.smClockMHz);
    s->bind(14, f.memClockMHz);
    s->bind(15, f.host);
    s->bind(16, seal.sealedAt != 0 ? seal.sealedAt : nowSeconds());
    s->execute();
    id = sqlite3_last_insert_rowid(db_);
  });
  return id;
}

std::vector<Seal> ProjectStore::seals(TaskId task) const {
  auto s = statements_->get(task == 0 ? queries::select(queries::kSealColumns, "FROM seals ORDER BY sealed_at DESC, id DESC")
                                      : queries::select(queries::kSealColumns, "FROM seals WHERE task_id = ?1 ORDER BY sealed_at DESC, id DESC"));
  if (task != 0) s->bindAll(task);
  std::vector<Seal> out;
  while (s->step()) out.push_back(decodeSeal(*s));
  return out;
}

std::optional<Seal> ProjectStore::latestSeal(TaskId task) const {
  auto s = statements_->get(queries::kLatestSeal);
  s->bindAll(task);
  if (!s->step()) return std::nullopt;
  return decodeSeal(*s);
}

// ---------------------------------------------------------------- ceilings

void ProjectStore::putCeiling(const Ceiling& c) {
  write("put ceiling", [&] {
    auto s = statements_->get(
        "INSERT INTO ceilings(device, name, measured, datasheet, unit, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
        "ON CONFLICT(device, name) DO UPDATE SET measured = excluded.measured, datasheet = excluded.datasheet, "
        "unit = excluded.unit, measured_at = excluded.measured_at");
    s->bindAll(c.device, c.name, c.measured, c.datasheet, c.unit, c.measuredAt != 0 ? c.measuredAt : nowSeconds());
    s->execute();
  });
}

std::vector<Ceiling> ProjectStore::ceilings(const std::string& device) const {
  auto s = statements_->get(device.empty()
                                ? "SELECT device, name, measured, datasheet, unit, measured_at FROM ceilings "
                                  "ORDER BY device, name"
                                : "SELECT device, name, measured, datasheet, unit, measured_at FROM ceilings "
                                  "WHERE device = ?1 ORDER BY name");
  if (!device.empty()) s->bindAll(device);
  std::vector<Ceiling> out;
  while (s->step()) out.push_back({s->textAt(0), s->textAt(1), s->doubleAt(2), s->doubleAt(3), s->textAt(4), s->int64At(5)});
  return out;
}

}  // namespace crucible
