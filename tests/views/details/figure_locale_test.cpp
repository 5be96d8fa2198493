// SPDX-License-Identifier: GPL-3.0-or-later
// Figures follow the locale (issue 22): the application's default QLocale,
// which the workbench sets from the chosen language, writes the numbers of
// every figure helper, so German reads a decimal comma and English a point.
#include <QLocale>
#include <gtest/gtest.h>
#include "views/common/locale_numbers.h"
#include "views/details/figure_text.h"
#include "views/diff/candidate_figures.h"

using namespace crucible;
using namespace crucible::views;

namespace {

// Sets the default locale for one test and puts the one before back.
class DefaultLocale {
public:
  explicit DefaultLocale(QLocale::Language language) { QLocale::setDefault(QLocale(language)); }
  ~DefaultLocale() { QLocale::setDefault(before_); }

private:
  QLocale before_;
};

}  // namespace

TEST(FigureLocale, GermanWritesADecimalComma) {
  DefaultLocale german(QLocale::German);
  EXPECT_EQ(formatMicroseconds(1.234), QStringLiteral("1,23 µs"));
  EXPECT_EQ(formatSpeedup(1.84), QStringLiteral("1,84×"));
  EXPECT_EQ(formatFigure(3.35e12, "B/s"), QStringLiteral("3,35 TB/s"));
  EXPECT_EQ(formatFigure(31.24, "%"), QStringLiteral("31,2 %"));
  EXPECT_EQ(formatFigure(123456, "registers"), QStringLiteral("123456 registers")) << "no group separator";
  CandidateSummary s;
  s.id = 3;
  s.medianUs = 41.24;
  s.speedup = 1.5;
  EXPECT_TRUE(candidateFigures(s).contains(QStringLiteral("41,2 µs median"))) << candidateFigures(s).toStdString();
  EXPECT_TRUE(candidateFigures(s).contains(QStringLiteral("1,5× the reference"))) << candidateFigures(s).toStdString();
}

TEST(FigureLocale, EnglishWritesAPoint) {
  DefaultLocale english(QLocale::English);
  EXPECT_EQ(formatMicroseconds(1.234), QStringLiteral("1.23 µs"));
  EXPECT_EQ(formatSpeedup(1.84), QStringLiteral("1.84×"));
  EXPECT_EQ(formatFigure(3.35e12, "B/s"), QStringLiteral("3.35 TB/s"));
  EXPECT_EQ(formatFigure(31.24, "%"), QStringLiteral("31.2 %"));
  EXPECT_EQ(localInteger(123456), QStringLiteral("123456"));
}
