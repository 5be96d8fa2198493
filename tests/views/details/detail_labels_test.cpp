// SPDX-License-Identifier: GPL-3.0-or-later
// The details rows' labels reach the translation (issue 22): the Qt-side
// table (views/details/detail_labels.h) holds every label the Qt-free core
// gives, under the same key and in the same English, so no row is shown
// untranslated because the two drifted apart.
#include "views/details/detail_labels.h"

#include <QCoreApplication>
#include <QTranslator>
#include <gtest/gtest.h>
#include <set>
#include "views/details/candidate_details.h"
#include "view_test_project.h"

using namespace crucible;
using namespace crucible::views;

namespace {

// A candidate with every kind of stored figure, so (nearly) every row has a value.
std::vector<DetailGroup> fullDetails() {
  Candidate c;
  c.id = 5;
  c.launch.grid[0] = "ceil_div(N, 256)";
  c.launch.block[0] = "256";
  c.compile = CompileReport{};
  c.compile->ok = true;
  c.compile->registers = 32;
  c.timing = Timing{};
  c.timing->medianUs = 10;
  c.timing->samplesUs = {9, 10, 11};
  c.validation = {ValidationTrial{}};
  c.profile = {{"dram__bytes_read.sum", 4e6}, {"dram__bytes_write.sum", 4e6}, {"lts__t_bytes.sum", 1e7},
               {"some__other_counter", 3}};
  TaskSpec spec;
  spec.name = "gelu";
  spec.axes = {{"N", 1048576}};
  spec.flops = "5*N";
  spec.minBytes = "4*N + 4*N";
  spec.entry = "gelu_kernel";
  DetailsContext ctx;
  ctx.spec = spec;
  ctx.device = "GPU A";
  ctx.ceilings = {{"GPU A", "dram_bw", 4e12, 0, "B/s", 0}};
  return candidateDetails(c, ctx);
}

// Answers every lookup in one context with a marked text, so a test sees which labels were translated.
class MarkingTranslator : public QTranslator {
public:
  QString translate(const char* context, const char* source, const char*, int) const override {
    return QLatin1String(context) == QLatin1String("crucible::views::DetailLabels")
               ? QStringLiteral("[%1]").arg(QString::fromUtf8(source))
               : QString();
  }
  bool isEmpty() const override { return false; }
};

}  // namespace

TEST(DetailLabels, TheTableHoldsEveryLabelOfTheCoreInTheSameEnglish) {
  const auto& table = detailLabelSources();
  std::set<std::string> seen;
  for (const DetailGroup& g : fullDetails()) {
    if (g.name == "Other counters") continue;  // named by their metric: shown as they are
    for (const DetailRow& r : g.rows) {
      if (r.key.rfind("validation.trial.", 0) == 0) {  // numbered: "Trial %1"
        EXPECT_EQ(r.label, "Trial " + r.key.substr(17)) << r.key;
        continue;
      }
      seen.insert(r.key);
      const auto it = table.find(r.key);
      ASSERT_NE(it, table.end()) << r.key << " (\"" << r.label << "\") is not in views/details/detail_labels.cpp";
      EXPECT_EQ(r.label, it->second) << r.key;
    }
  }
  EXPECT_GT(seen.size(), 50u);
}

TEST(DetailLabels, KnownLabelsAreTranslatedAndCountersShownAsTheyAre) {
  fixture::app();  // the test program's one QApplication
  MarkingTranslator marking;
  QCoreApplication::installTranslator(&marking);
  EXPECT_EQ(detailLabel("throughput.dram_read", "DRAM bytes read"), QStringLiteral("[DRAM bytes read]"));
  EXPECT_EQ(detailText("yes"), QStringLiteral("[yes]"));
  EXPECT_EQ(detailLabel("validation.trial.3", "Trial 3"), QStringLiteral("[Trial %1]").arg(3));
  // A counter's row, or a label the table holds differently, is shown as given.
  EXPECT_EQ(detailLabel("other.some__other_counter", "some__other_counter"), QStringLiteral("some__other_counter"));
  EXPECT_EQ(detailLabel("throughput.dram_read", "Bytes read from DRAM"), QStringLiteral("Bytes read from DRAM"));
  QCoreApplication::removeTranslator(&marking);
}
