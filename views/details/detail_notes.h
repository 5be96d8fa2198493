// SPDX-License-Identifier: GPL-3.0-or-later
// The words of a details row, translated (issue 22): why a figure is missing,
// where it comes from, and the figures that are words rather than numbers.
// candidate_details.cpp stays Qt-free and gives these as kinds with their
// particulars (names, numbers, an error's text); this is the one place that
// phrases them. Particulars that are names (counters, ceilings, devices,
// expressions) and errors from the parsers stay as given.
#pragma once
#include <QCoreApplication>
#include <QString>
#include "views/details/candidate_details.h"

namespace crucible::views {

class DetailNotes {
  Q_DECLARE_TR_FUNCTIONS(DetailNotes)
public:
  // "not profiled", "no dram_bw ceiling measured on NVIDIA H200"...
  static QString missing(const Missing& m);
  // "read + written", "of dram_bw measured on NVIDIA H200", a counter's name...; "" for none.
  static QString source(const Source& s);
  // The figure of a row that holds no number: "yes", "2 error(s), 1 warning(s)", a trial's outcome, or `text` as given.
  static QString text(const DetailRow& row);
  // The last line under a long text that was cut: "… 3000 more line(s) not shown".
  static QString linesNotShown(std::size_t count);
};

}  // namespace crucible::views
