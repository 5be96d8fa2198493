// SPDX-License-Identifier: GPL-3.0-or-later
// Figures as the user's locale writes them (issue 22): the application's
// default QLocale, which the workbench sets from the chosen language
// (app/gui/translations_loader.cpp), so German reads "1,23 µs" and English
// "1.23 µs". Without group separators: a kernel engineer reads figures digit
// by digit, and ids and counts stay searchable.
#pragma once
#include <QString>
#include <string>

namespace crucible::views {

// As QString::number(value, format, precision), in the default locale.
QString localNumber(double value, char format = 'g', int precision = 6);
QString localInteger(qint64 value);
// "3.35 TB/s": formatRate's SI prefixes (views/roofline/roofline_math.h) with the number in the default locale.
QString localRate(double value, const std::string& unit);

}  // namespace crucible::views
