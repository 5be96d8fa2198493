// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/common/locale_numbers.h"

#include <QLocale>
#include <cmath>

namespace crucible::views {
namespace {
QLocale figureLocale() {
  QLocale locale;  // the application's default
  locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
  return locale;
}
}  // namespace

QString localNumber(double value, char format, int precision) { return figureLocale().toString(value, format, precision); }

QString localInteger(qint64 value) { return figureLocale().toString(value); }

QString localRate(double value, const std::string& unit) {
  static const char* const prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int p = 0;
  double v = value;
  while (std::fabs(v) >= 1000 && p < 6) {
    v /= 1000;
    ++p;
  }
  return QStringLiteral("%1 %2%3").arg(localNumber(v, 'g', 3), QLatin1String(prefixes[p]), QString::fromStdString(unit));
}

}  // namespace crucible::views
