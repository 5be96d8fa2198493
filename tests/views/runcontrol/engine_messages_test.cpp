// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's log lines reach the translation (issue 22): each fixed message
// core/engine writes (in English, word for word as core writes it) is known to
// views/runcontrol/engine_messages.h and shown through tr() with its
// particulars; a free-form line is shown as written.
#include "views/runcontrol/engine_messages.h"

#include <QCoreApplication>
#include <QTranslator>
#include <gtest/gtest.h>
#include "core/engine/budget.h"
#include "view_test_project.h"

using namespace crucible::views;

namespace {

class MarkingTranslator : public QTranslator {
public:
  QString translate(const char* context, const char* source, const char*, int) const override {
    return QLatin1String(context) == QLatin1String("EngineMessages") ? QStringLiteral("[%1]").arg(QString::fromUtf8(source))
                                                                     : QString();
  }
  bool isEmpty() const override { return false; }
};

}  // namespace

TEST(EngineMessages, TheEnginesFixedMessagesAreTranslatedWithTheirParticulars) {
  fixture::app();
  // English as core/engine writes it: the particulars are kept.
  EXPECT_EQ(EngineMessages::text("run finished: evaluation budget of 200 reached"),
            QStringLiteral("run finished: evaluation budget of 200 reached"));
  EXPECT_EQ(EngineMessages::text("resuming: 3 candidate(s) were in flight"),
            QStringLiteral("resuming: 3 candidate(s) were in flight"));
  EXPECT_EQ(EngineMessages::finishReason("wall-time budget of 600.000000 s reached"),
            QStringLiteral("wall-time budget of 600 s reached"));
  EXPECT_EQ(EngineMessages::text("proposer 'llm' made no candidate (mutation): HTTP 429"),
            QStringLiteral("proposer 'llm' made no candidate (mutation): HTTP 429"));

  MarkingTranslator marking;
  QCoreApplication::installTranslator(&marking);
  const char* const fixed[] = {
      "run finished: generation limit of 5 reached",
      "run finished: the proposer made no new configuration in 3 generations (search space exhausted)",
      "run finished: the proposer made no new configuration in 3 generations; its last reason: no gene moves",
      "run finished: model budget spent: $1.00 of $1.00",
      "run finished: model token budget spent: 1000 of 900 tokens",
      "run finished: GPU-time budget of 60.000000 s reached",
      "run finished: no candidate could be made for this gemm task: proposer 'template' says: no template "
      "(add a tunable kernel, or use a language-model proposer)",
      "run stopped; it can be resumed",
      "run failed: the worker died",
      "waiting for review of 2 new architecture(s)",
      "generation 4: 2 elite(s) migrated between islands",
      "strategy 'a' varied into 'b'",
      "no sanitizer is configured: candidates are validated, but none can be sealed",
      "reference timed: median 41.200000 us on NVIDIA H200",
      "measured 6 ceilings of NVIDIA H200",
      "could not measure the device ceilings: no GPU",
      "reference profiled: 12 metrics",
      "the reference was not profiled",
      "the reference was not profiled: profiling is off",
      "the reference could not be profiled: CUPTI error",
      "no reference analysis: the task spec does not parse: bad json",
      "proposer 'llm' gave no seed: no key",
      "proposal discarded: bad genome",
      "user candidate 7 joined the run: valid, fitness 1.250000",
      "user candidate 7 joined the run: invalid",
      "user candidate 7 cannot enter the archive: no descriptor",
      "another process asked this run to stop (/tmp/p.stop)",
      "the archive starts from the seal's architecture tile=128",
  };
  for (const char* line : fixed)
    EXPECT_TRUE(EngineMessages::text(line).startsWith(QLatin1Char('['))) << line << " -> "
                                                                         << EngineMessages::text(line).toStdString();
  // The finish reason is translated too, inside the translated line.
  EXPECT_EQ(EngineMessages::text("run finished: generation limit of 5 reached"),
            QStringLiteral("[run finished: [generation limit of 5 reached]]"));
  EXPECT_TRUE(EngineMessages::level("warning").startsWith(QLatin1Char('[')));
  // Free-form lines (the phases' figures, a proposer's words) are shown as written.
  EXPECT_EQ(EngineMessages::text("pipeline: 3 evaluations in 1.0 s wall"), QStringLiteral("pipeline: 3 evaluations in 1.0 s wall"));
  QCoreApplication::removeTranslator(&marking);
}

// The budget's finish reasons as core/engine/budget.cpp words them today (not
// copied text): a rewording there fails here, not silently in English.
TEST(EngineMessages, EveryBudgetReasonCoreWritesIsKnown) {
  fixture::app();
  MarkingTranslator marking;
  QCoreApplication::installTranslator(&marking);
  crucible::Budget budget;
  budget.evaluations = 100;
  budget.wallSeconds = 600;
  budget.gpuSeconds = 60;
  std::vector<std::string> reasons;
  crucible::Usage used;
  used.evaluations = 100;
  reasons.push_back(*crucible::budgetExhausted(budget, used));
  used = {};
  used.wallSeconds = 601;
  reasons.push_back(*crucible::budgetExhausted(budget, used));
  used = {};
  used.gpuSeconds = 61;
  reasons.push_back(*crucible::budgetExhausted(budget, used));
  used = {};
  used.model.costUsd = 1.5;
  reasons.push_back(*crucible::budgetExhausted(budget, used, {1.0, 0}));
  used = {};
  used.model.tokens = 2000;
  reasons.push_back(*crucible::budgetExhausted(budget, used, {0, 1000}));
  for (const std::string& reason : reasons)
    EXPECT_TRUE(EngineMessages::finishReason(reason).startsWith(QLatin1Char('[')))
        << reason << " -> " << EngineMessages::finishReason(reason).toStdString();
  QCoreApplication::removeTranslator(&marking);
}
