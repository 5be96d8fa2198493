// SPDX-License-Identifier: GPL-3.0-or-later
// Seals validated and timed again on the hardware at hand (issue 17).
#include "core/store/project_store.h"

#include <sqlite3.h>

#include <cmath>
#include <limits>

#include "core/store/row_codec.h"
#include "core/store/schema.h"
#include "core/store/statement.h"

namespace crucible {
using namespace store_detail;

namespace {

void bindFigure(Statement& s, int index, double value) {
  // SQLite has no NaN: "not measured" is NULL, and reads back as NaN.
  if (std::isfinite(value)) s.bind(index, value);
  else s.bind(index, nullptr);
}

double figureAt(const Statement& s, int column) {
  return s.isNull(column) ? std::numeric_limits<double>::quiet_NaN() : s.doubleAt(column);
}

}  // namespace

std::int64_t ProjectStore::addSealRevalidation(const SealRevalidation& r) {
  std::int64_t id = 0;
  write("add seal revalidation", [&] {
    auto s = statements_->get(
        "INSERT INTO seal_revalidations(seal_id, candidate_id, status, median_us, speedup, fp_gpu, fp_arch, fp_driver, "
        "fp_cuda_runtime, fp_nvrtc, fp_sm_clock_mhz, fp_mem_clock_mhz, fp_host, validated_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
    const Fingerprint& f = r.fingerprint;
    s->bindAll(r.sealId, r.candidateId, r.status);
    bindFigure(*s, 4, r.medianUs);
    bindFigure(*s, 5, r.speedup);
    s->bind(6, f.gpu);
    s->bind(7, f.arch);
    s->bind(8, f.driver);
    s->bind(9, f.cudaRuntime);
    s->bind(10, f.nvrtc);
    s->bind(11, f.smClockMHz);
    s->bind(12, f.memClockMHz);
    s->bind(13, f.host);
    s->bind(14, r.validatedAt != 0 ? r.validatedAt : nowSeconds());
    s->execute();
    id = sqlite3_last_insert_rowid(db_);
  });
  return id;
}

std::vector<SealRevalidation> ProjectStore::sealRevalidations(SealId seal) const {
  // A version-2 file opened read-only has no such table: no seal was validated again.
  if (schemaVersion() < kDraftsSchemaVersion) return {};
  auto s = statements_->get(
      "SELECT id, seal_id, candidate_id, status, median_us, speedup, fp_gpu, fp_arch, fp_driver, fp_cuda_runtime, "
      "fp_nvrtc, fp_sm_clock_mhz, fp_mem_clock_mhz, fp_host, validated_at FROM seal_revalidations "
      "WHERE seal_id = ?1 ORDER BY id");
  s->bindAll(seal);
  std::vector<SealRevalidation> out;
  while (s->step()) {
    SealRevalidation r;
    r.id = s->int64At(0);
    r.sealId = s->int64At(1);
    r.candidateId = s->int64At(2);
    r.status = s->textAt(3);
    r.medianUs = figureAt(*s, 4);
    r.speedup = figureAt(*s, 5);
    r.fingerprint.gpu = s->textAt(6);
    r.fingerprint.arch = s->textAt(7);
    r.fingerprint.driver = s->textAt(8);
    r.fingerprint.cudaRuntime = s->textAt(9);
    r.fingerprint.nvrtc = s->textAt(10);
    r.fingerprint.smClockMHz = s->doubleAt(11);
    r.fingerprint.memClockMHz = s->doubleAt(12);
    r.fingerprint.host = s->textAt(13);
    r.validatedAt = s->int64At(14);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace crucible
