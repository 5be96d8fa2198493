// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/details/figure_text.h"

#include <QCoreApplication>
#include <cmath>
#include "views/common/locale_numbers.h"
#include "views/details/detail_labels.h"
#include "views/details/detail_notes.h"
#include "views/diff/candidate_figures.h"
#include "views/roofline/roofline_math.h"

namespace crucible::views {

namespace {
bool siUnit(const std::string& unit) {
  return unit == "B" || unit == "B/s" || unit == "FLOP" || unit == "FLOP/s" || unit == "FLOP/B";
}

// Units that are words are translated; symbols (B, s, MHz, µs, %) stay as they are.
QString unitText(const std::string& unit) {
  static const char* const kWords[] = {
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "registers"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "warps"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "blocks"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "threads"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "trials"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "launches"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "elements"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "instructions"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "samples"),
      QT_TRANSLATE_NOOP("crucible::views::DetailsModel", "operations")};
  for (const char* word : kWords)
    if (unit == word) return QCoreApplication::translate("crucible::views::DetailsModel", word);
  return QString::fromStdString(unit);
}
}  // namespace

QString formatFigure(double value, const std::string& unit) {
  if (unit == "µs") return formatMicroseconds(value);
  if (unit == "×") return formatSpeedup(value);
  if (siUnit(unit)) return localRate(value, unit);
  QString number;
  if (value == std::floor(value) && std::fabs(value) < 1e15) number = localInteger(static_cast<qint64>(value));
  else number = localNumber(value, 'g', unit.empty() ? 3 : 4);
  if (unit == "%") return QStringLiteral("%1 %").arg(localNumber(value, 'g', 3));
  return unit.empty() ? number : QStringLiteral("%1 %2").arg(number, unitText(unit));
}

QString figureText(const DetailRow& row) {
  if (!row.missing.empty())
    return QCoreApplication::translate("crucible::views::DetailsModel", "missing: %1").arg(DetailNotes::missing(row.missing));
  if (row.value) return formatFigure(*row.value, row.unit);
  return DetailNotes::text(row);
}

QString differenceText(const FigureDifference& d, const std::string& unit) {
  const QChar minus(0x2212);
  auto sign = [&](double v) { return v > 0 ? QStringLiteral("+") : (v < 0 ? QString(minus) : QString()); };
  // A difference of percentages is in percentage points.
  QString text = sign(d.absolute) + (unit == "%" ? QCoreApplication::translate("crucible::views::DetailsModel", "%1 pp")
                                                       .arg(localNumber(std::fabs(d.absolute), 'g', 3))
                                                 : formatFigure(std::fabs(d.absolute), unit));
  if (d.percent) text += QStringLiteral(" (%1%2 %)").arg(sign(*d.percent), localNumber(std::fabs(*d.percent), 'f', 1));
  return text;
}

QString groupTitle(const std::string& group) {
  return QCoreApplication::translate("crucible::views::DetailsModel", group.c_str());
}

}  // namespace crucible::views
