// SPDX-License-Identifier: GPL-3.0-or-later
// Preferences > Language models (views/preferences): the dialog edits the
// settings document the proposer reads, checked by the product's own rules
// (llmSettingsFromJson), keeps the fields it does not show, and never puts the
// key typed into the document; editLlmPreferences hands the key to the key
// store and only then replaces the settings.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>

#include "app/gui/llm_preferences.h"
#include "backends/proposers/llm/llm_settings.h"
#include "views/preferences/llm_preferences_dialog.h"

namespace crucible::views {
namespace {

constexpr const char* kSecret = "sk-prefs-test-0ddba11-SECRET";

// The product's validator (app/gui/llm_preferences): the settings parser's message, field first.
QString validate(const QString& json) { return gui::llmSettingsProblem(json); }

const QString kSettings = QStringLiteral(
    R"({"api": "anthropic", "endpoint": "https://api.anthropic.com", "apiKeyEnv": "ANTHROPIC_API_KEY",
        "models": [{"name": "claude-sonnet-4-5", "priceInPerMTok": 3, "priceOutPerMTok": 15}, "local-model"],
        "concurrency": 6, "repairTurns": 3, "costWeight": 0.25})");

TEST(LlmPreferences, TheWorkbenchValidatorIsTheSettingsParser) {
  EXPECT_EQ(validate(kSettings), QString());
  EXPECT_TRUE(validate(QStringLiteral("{}")).startsWith(QStringLiteral("endpoint"))) << validate(QStringLiteral("{}")).toStdString();
  EXPECT_FALSE(validate(QStringLiteral("not json")).isEmpty());
}

TEST(LlmPreferences, ShowsTheSettingsAndKeepsWhatItDoesNotShow) {
  LlmPreferencesDialog d(kSettings, validate);
  EXPECT_EQ(d.apiCombo()->currentData().toString(), "anthropic");
  EXPECT_EQ(d.endpointEdit()->text(), "https://api.anthropic.com");
  EXPECT_EQ(d.keyVariableEdit()->text(), "ANTHROPIC_API_KEY");
  ASSERT_EQ(d.modelsTable()->rowCount(), 2);
  EXPECT_EQ(d.modelsTable()->item(1, 0)->text(), "local-model");
  EXPECT_EQ(d.concurrencySpin()->value(), 6);
  EXPECT_TRUE(d.problem().isEmpty()) << d.problem().toStdString();
  EXPECT_TRUE(d.okButton()->isEnabled());

  d.concurrencySpin()->setValue(2);
  d.addModel(QStringLiteral("gpt-4.1"), 2, 8);
  const llm::LlmSettings s = llm::llmSettingsFromJson(d.settingsJson().toStdString());
  EXPECT_EQ(s.api, llm::ChatApi::Anthropic);
  EXPECT_EQ(s.concurrency, 2);
  ASSERT_EQ(s.models.size(), 3u);
  EXPECT_EQ(s.models[0].priceOutPerMTok, 15);
  EXPECT_EQ(s.models[2].name, "gpt-4.1");
  EXPECT_EQ(s.repairTurns, 3);       // not shown, kept
  EXPECT_DOUBLE_EQ(s.costWeight, 0.25);
}

TEST(LlmPreferences, ProblemsNameTheFieldAndDisableOk) {
  LlmPreferencesDialog d(kSettings, validate);
  d.endpointEdit()->setText(QStringLiteral("ftp://nowhere"));
  EXPECT_TRUE(d.problem().startsWith("endpoint")) << d.problem().toStdString();
  EXPECT_FALSE(d.okButton()->isEnabled());
  d.endpointEdit()->setText(QStringLiteral("http://localhost:8000/v1"));
  EXPECT_TRUE(d.okButton()->isEnabled());
  d.modelsTable()->item(0, 1)->setText(QStringLiteral("cheap"));
  EXPECT_TRUE(d.problem().startsWith("models[0].priceInPerMTok")) << d.problem().toStdString();
  d.modelsTable()->item(0, 1)->setText(QStringLiteral("2.5"));
  d.keyVariableEdit()->setText(QString::fromLatin1(kSecret));  // a pasted key in the name field
  EXPECT_TRUE(d.problem().startsWith("apiKeyEnv")) << d.problem().toStdString();
  EXPECT_FALSE(d.problem().contains(QLatin1String(kSecret)));
  d.keyVariableEdit()->clear();
  d.keyEdit()->setText(QString::fromLatin1(kSecret));
  EXPECT_FALSE(d.okButton()->isEnabled()) << "a key needs a name to be filed under";
  EXPECT_TRUE(LlmPreferencesDialog(QString(), validate).problem().startsWith("endpoint"));  // nothing set yet
}

TEST(LlmPreferences, TheKeyGoesToTheKeyStoreNeverIntoTheSettings) {
  QString settings = kSettings;
  QString storedName, storedKey;
  QTimer::singleShot(0, [] {
    auto* d = qobject_cast<LlmPreferencesDialog*>(QApplication::activeModalWidget());
    ASSERT_NE(d, nullptr);
    d->keyEdit()->setText(QString::fromLatin1(kSecret) + " ");
    d->concurrencySpin()->setValue(3);
    d->okButton()->click();
  });
  const bool changed = editLlmPreferences(nullptr, settings, validate, [&](const QString& name, const QString& key) {
    storedName = name;
    storedKey = key;
    return QString();
  });
  EXPECT_TRUE(changed);
  EXPECT_EQ(storedName, "ANTHROPIC_API_KEY");
  EXPECT_EQ(storedKey.toStdString(), kSecret);
  EXPECT_FALSE(settings.contains(QLatin1String(kSecret))) << settings.toStdString();
  EXPECT_EQ(llm::llmSettingsFromJson(settings.toStdString()).concurrency, 3);

  // Cancelled: nothing changes and nothing is stored.
  storedKey.clear();
  QTimer::singleShot(0, [] {
    auto* d = qobject_cast<LlmPreferencesDialog*>(QApplication::activeModalWidget());
    ASSERT_NE(d, nullptr);
    d->keyEdit()->setText(QStringLiteral("sk-other"));
    d->reject();
  });
  const QString before = settings;
  EXPECT_FALSE(editLlmPreferences(nullptr, settings, validate, [&](const QString&, const QString& key) {
    storedKey = key;
    return QString();
  }));
  EXPECT_EQ(settings, before);
  EXPECT_TRUE(storedKey.isEmpty());
}

}  // namespace
}  // namespace crucible::views
