// SPDX-License-Identifier: GPL-3.0-or-later
// The words of a details row reach the translation (issue 22): the Qt-free
// core gives why a figure is missing, where it comes from and its word
// figures as kinds; views/details/detail_notes.h phrases every kind through
// tr(), keeping names and error texts as given.
#include "views/details/detail_notes.h"

#include <QCoreApplication>
#include <QTranslator>
#include <gtest/gtest.h>
#include "views/details/details_model.h"
#include "views/details/figure_text.h"
#include "view_test_project.h"

using namespace crucible;
using namespace crucible::views;

namespace {

// Marks every lookup in the contexts that phrase the details' words.
class MarkingTranslator : public QTranslator {
public:
  QString translate(const char* context, const char* source, const char*, int) const override {
    const QLatin1String c(context);
    return c == QLatin1String("DetailNotes") || c == QLatin1String("RooflineReasons")
               ? QStringLiteral("[%1]").arg(QString::fromUtf8(source))
               : QString();
  }
  bool isEmpty() const override { return false; }
};

}  // namespace

TEST(DetailNotes, EveryMissingKindAndSourceKindIsPhrasedThroughTheTranslation) {
  fixture::app();
  MarkingTranslator marking;
  QCoreApplication::installTranslator(&marking);
  for (int k = static_cast<int>(MissingKind::NotProfiled); k <= static_cast<int>(MissingKind::Roofline); ++k) {
    Missing m{static_cast<MissingKind>(k), "name", "other", "not timed"};
    EXPECT_TRUE(DetailNotes::missing(m).startsWith(QLatin1Char('['))) << "missing kind " << k << ": "
                                                                       << DetailNotes::missing(m).toStdString();
  }
  for (int k = static_cast<int>(SourceKind::ReadPlusWritten); k <= static_cast<int>(SourceKind::ProfileCounter); ++k) {
    Source s{static_cast<SourceKind>(k), "throughput.dram_bytes", "DRAM bytes"};
    EXPECT_TRUE(DetailNotes::source(s).startsWith(QLatin1Char('['))) << "source kind " << k;
  }
  // Names are names: a counter is shown as it is.
  EXPECT_EQ(DetailNotes::source(Source{SourceKind::Named, "dram__bytes_read.sum", {}}),
            QStringLiteral("dram__bytes_read.sum"));
  EXPECT_TRUE(DetailNotes::missing({}).isEmpty());
  QCoreApplication::removeTranslator(&marking);
}

TEST(DetailNotes, TheEnglishKeepsTheParticulars) {
  fixture::app();
  EXPECT_EQ(DetailNotes::missing({MissingKind::NoCeilingOnDevice, "l2_bw", "GPU A", {}}),
            QStringLiteral("no l2_bw ceiling measured on GPU A"));
  EXPECT_EQ(DetailNotes::missing({MissingKind::FormulaDoesNotEvaluate, "flops", {}, "unknown axis M"}),
            QStringLiteral("the task's flops formula does not evaluate: unknown axis M"));
  // core's roofline reasons, and one it might say some day, shown as given.
  EXPECT_EQ(DetailNotes::missing({MissingKind::Roofline, {}, {}, "no DRAM traffic counted"}),
            QStringLiteral("no DRAM traffic counted"));
  EXPECT_EQ(DetailNotes::missing({MissingKind::Roofline, {}, {}, "something new"}), QStringLiteral("something new"));
  EXPECT_EQ(DetailNotes::source({SourceKind::PerMedianTime, "throughput.dram_bytes", "DRAM bytes"}),
            QStringLiteral("DRAM bytes / median time"));

  DetailRow diagnostics;
  diagnostics.textKind = TextKind::Diagnostics;
  diagnostics.counts = {1, 3};
  EXPECT_EQ(figureText(diagnostics), QStringLiteral("1 error(s), 3 warning(s)"));
  DetailRow trial;
  trial.textKind = TextKind::Trial;
  trial.trial = ValidationTrial{42, false, "unwritten output elements: 4096", 0.5, 0.25, 7};
  const QString text = figureText(trial);
  EXPECT_TRUE(text.startsWith(QStringLiteral("seed 42: failed, max abs error 0.5, max rel error 0.25"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("7 mismatched"))) << text.toStdString();
  EXPECT_TRUE(text.endsWith(QStringLiteral("(unwritten output elements: 4096)"))) << text.toStdString();
}

TEST(DetailNotes, ACutLogEndsInALineThatCountsTheRest) {
  fixture::app();
  DetailGroup g{"Compile", {}};
  DetailRow log;
  log.key = "compile.log";
  log.label = "ptxas log";
  log.textKind = TextKind::LogLines;
  log.counts = {5};
  log.lines = {"a", "b"};
  log.linesNotShown = 3;
  g.rows.push_back(log);
  DetailsModel model;
  model.setColumns({{7, {g}}});
  const QModelIndex row = model.indexOfKey("compile.log");
  ASSERT_TRUE(row.isValid());
  EXPECT_EQ(model.indexOfKey("compile.log", 1).data().toString(), QStringLiteral("5 line(s)"));
  ASSERT_EQ(model.rowCount(row), 3);
  EXPECT_EQ(model.index(1, 1, row).data().toString(), QStringLiteral("b"));
  EXPECT_EQ(model.index(2, 1, row).data().toString(), QStringLiteral("… 3 more line(s) not shown"));
}
