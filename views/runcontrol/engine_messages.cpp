// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/runcontrol/engine_messages.h"

#include <QRegularExpression>
#include <functional>
#include <vector>
#include "core/model/candidate.h"
#include "views/common/locale_numbers.h"
#include "views/common/status_names.h"

namespace crucible::views {

namespace {

// One of the engine's fixed messages: its English (core/engine, word for word)
// and its translation from the captured particulars.
struct Pattern {
  QRegularExpression english;
  std::function<QString(const QRegularExpressionMatch&)> shown;
};

QRegularExpression anchored(const char* pattern) {
  return QRegularExpression(QStringLiteral("^") + QLatin1String(pattern) + QStringLiteral("$"),
                            QRegularExpression::DotMatchesEverythingOption);
}

int count(const QRegularExpressionMatch& m, int i) { return m.captured(i).toInt(); }
// Seconds the engine wrote with std::to_string ("600.000000"): as the locale writes numbers.
QString seconds(const QRegularExpressionMatch& m, int i) { return localNumber(m.captured(i).toDouble(), 'g', 6); }

QString shown(const std::vector<Pattern>& patterns, const std::string& english) {
  const QString text = QString::fromStdString(english);
  for (const Pattern& p : patterns)
    if (const QRegularExpressionMatch m = p.english.match(text); m.hasMatch()) return p.shown(m);
  return text;
}

}  // namespace

QString EngineMessages::finishReason(const std::string& english) {
  // core/engine/budget.cpp and run_loop.cpp.
  static const std::vector<Pattern> reasons{
      {anchored(R"(evaluation budget of (\d+) reached)"),
       [](const auto& m) { return tr("evaluation budget of %n reached", nullptr, count(m, 1)); }},
      {anchored(R"(wall-time budget of ([0-9.]+) s reached)"),
       [](const auto& m) { return tr("wall-time budget of %1 s reached").arg(seconds(m, 1)); }},
      {anchored(R"(GPU-time budget of ([0-9.]+) s reached)"),
       [](const auto& m) { return tr("GPU-time budget of %1 s reached").arg(seconds(m, 1)); }},
      {anchored(R"(model budget spent: (.*) of (.*))"),
       [](const auto& m) { return tr("model budget spent: %1 of %2").arg(m.captured(1), m.captured(2)); }},
      {anchored(R"(model token budget spent: (\d+) of (\d+) tokens)"),
       [](const auto& m) {
         return tr("model token budget spent: %1 of %2 tokens")
             .arg(localInteger(m.captured(1).toLongLong()), localInteger(m.captured(2).toLongLong()));
       }},
      {anchored(R"(generation limit of (\d+) reached)"),
       [](const auto& m) { return tr("generation limit of %n reached", nullptr, count(m, 1)); }},
      {anchored(R"(the proposer made no new configuration in (\d+) generations \(search space exhausted\))"),
       [](const auto& m) {
         return tr("the proposer made no new configuration in %n generation(s) (search space exhausted)", nullptr,
                   count(m, 1));
       }},
      {anchored(R"(the proposer made no new configuration in (\d+) generations; its last reason: (.*))"),
       [](const auto& m) {
         return tr("the proposer made no new configuration in %n generation(s); its last reason: %1", nullptr,
                   count(m, 1))
             .arg(m.captured(2));
       }},
      {anchored(R"(no candidate could be made for this (.*?) task: proposer '(.*?)' says: (.*) \(add a tunable kernel, or use a language-model proposer\))"),
       [](const auto& m) {
         return tr("no candidate could be made for this %1 task: proposer '%2' says: %3 (add a tunable kernel, or "
                   "use a language-model proposer)")
             .arg(m.captured(1), m.captured(2), m.captured(3));
       }},
  };
  return shown(reasons, english);
}

QString EngineMessages::text(const std::string& english) {
  // core/engine/run_loop*.cpp, run_restore.cpp, run_knowledge.cpp.
  static const std::vector<Pattern> messages{
      {anchored(R"(run finished: (.*))"),
       [](const auto& m) { return tr("run finished: %1").arg(finishReason(m.captured(1).toStdString())); }},
      {anchored(R"(run stopped; it can be resumed)"), [](const auto&) { return tr("run stopped; it can be resumed"); }},
      {anchored(R"(run failed: (.*))"), [](const auto& m) { return tr("run failed: %1").arg(m.captured(1)); }},
      {anchored(R"(resuming: (\d+) candidate\(s\) were in flight)"),
       [](const auto& m) { return tr("resuming: %n candidate(s) were in flight", nullptr, count(m, 1)); }},
      {anchored(R"(waiting for review of (\d+) new architecture\(s\))"),
       [](const auto& m) { return tr("waiting for review of %n new architecture(s)", nullptr, count(m, 1)); }},
      {anchored(R"(generation (\d+): (\d+) elite\(s\) migrated between islands)"),
       [](const auto& m) {
         return tr("generation %1: %n elite(s) migrated between islands", nullptr, count(m, 2)).arg(count(m, 1));
       }},
      {anchored(R"(strategy '(.*)' varied into '(.*)')"),
       [](const auto& m) { return tr("strategy '%1' varied into '%2'").arg(m.captured(1), m.captured(2)); }},
      {anchored(R"(no sanitizer is configured: candidates are validated, but none can be sealed)"),
       [](const auto&) { return tr("no sanitizer is configured: candidates are validated, but none can be sealed"); }},
      {anchored(R"(reference timed: median ([0-9.eE+-]+) us on (.*))"),
       [](const auto& m) {
         return tr("reference timed: median %1 µs on %2").arg(localNumber(m.captured(1).toDouble(), 'g', 4), m.captured(2));
       }},
      {anchored(R"(measured (\d+) ceilings of (.*))"),
       [](const auto& m) { return tr("measured %n ceiling(s) of %1", nullptr, count(m, 1)).arg(m.captured(2)); }},
      {anchored(R"(could not measure the device ceilings: (.*))"),
       [](const auto& m) { return tr("could not measure the device ceilings: %1").arg(m.captured(1)); }},
      {anchored(R"(reference profiled: (\d+) metrics)"),
       [](const auto& m) { return tr("reference profiled: %n metric(s)", nullptr, count(m, 1)); }},
      {anchored(R"(the reference was not profiled)"), [](const auto&) { return tr("the reference was not profiled"); }},
      {anchored(R"(the reference was not profiled: (.*))"),
       [](const auto& m) { return tr("the reference was not profiled: %1").arg(m.captured(1)); }},
      {anchored(R"(the reference could not be profiled: (.*))"),
       [](const auto& m) { return tr("the reference could not be profiled: %1").arg(m.captured(1)); }},
      {anchored(R"(no reference analysis: the task spec does not parse: (.*))"),
       [](const auto& m) { return tr("no reference analysis: the task spec does not parse: %1").arg(m.captured(1)); }},
      {anchored(R"(proposer '(.*?)' gave no seed: (.*))"),
       [](const auto& m) { return tr("proposer '%1' gave no seed: %2").arg(m.captured(1), m.captured(2)); }},
      {anchored(R"(proposer '(.*?)' made no candidate \((.*?)\): (.*))"),
       [](const auto& m) {
         return tr("proposer '%1' made no candidate (%2): %3").arg(m.captured(1), m.captured(2), m.captured(3));
       }},
      {anchored(R"(proposal discarded: (.*))"),
       [](const auto& m) { return tr("proposal discarded: %1").arg(m.captured(1)); }},
      {anchored(R"(user candidate (\d+) joined the run: (\w+), fitness ([0-9.eE+-]+))"),
       [](const auto& m) {
         try {
           return tr("user candidate %1 joined the run: %2, fitness %3")
               .arg(m.captured(1), statusName(candidateStatusFromString(m.captured(2).toStdString())),
                    localNumber(m.captured(3).toDouble(), 'g', 4));
         } catch (const std::exception&) {
           return m.captured(0);  // a status this build does not know: as written
         }
       }},
      {anchored(R"(user candidate (\d+) joined the run: (\w+))"),
       [](const auto& m) {
         try {
           return tr("user candidate %1 joined the run: %2")
               .arg(m.captured(1), statusName(candidateStatusFromString(m.captured(2).toStdString())));
         } catch (const std::exception&) {
           return m.captured(0);
         }
       }},
      {anchored(R"(user candidate (\d+) cannot enter the archive: (.*))"),
       [](const auto& m) { return tr("user candidate %1 cannot enter the archive: %2").arg(m.captured(1), m.captured(2)); }},
      {anchored(R"(another process asked this run to stop \((.*)\))"),
       [](const auto& m) { return tr("another process asked this run to stop (%1)").arg(m.captured(1)); }},
      {anchored(R"(the archive starts from the seal's architecture (.*))"),
       [](const auto& m) { return tr("the archive starts from the seal's architecture %1").arg(m.captured(1)); }},
  };
  return shown(messages, english);
}

QString EngineMessages::level(const std::string& level) {
  if (level == "info") return tr("info");
  if (level == "warning") return tr("warning");
  if (level == "error") return tr("error");
  return QString::fromStdString(level);
}

}  // namespace crucible::views
