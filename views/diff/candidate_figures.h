// SPDX-License-Identifier: GPL-3.0-or-later
// One-line summaries of what was measured about a candidate, shared by the
// views (diff headers, review queue, lineage tooltips, vault). Missing
// measurements are said to be missing, never filled in.
#pragma once
#include <QString>
#include <map>
#include <string>
#include "core/model/candidate.h"

namespace crucible::views {

// "#12 · generation 3 · Valid (mutate:vec)"
QString candidateHeadline(const Candidate& c);
// "41.2 µs median (IQR 0.3 µs) · 1.84× the reference · 40 registers · 12288 B static smem"
QString candidateFigures(const Candidate& c);
QString candidateFigures(const CandidateSummary& c);
// "TMA maps A 128×64 128B, B 64×128" (the swizzle only when there is one)
QString formatTensorMaps(const std::vector<TensorMapRule>& maps);
// "mem=smem, vec=4", or "no descriptor"
QString formatDescriptor(const std::map<std::string, std::string>& descriptor);
// "1.84×" with three significant digits
QString formatSpeedup(double speedup);
QString formatMicroseconds(double us);

}  // namespace crucible::views
