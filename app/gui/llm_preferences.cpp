// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/llm_preferences.h"

#include <QSettings>
#include <exception>
#include "app/gui/key_store.h"
#include "backends/proposers/llm/llm_settings.h"
#include "views/mainwindow/main_window.h"
#include "views/preferences/llm_preferences_dialog.h"

namespace crucible::gui {

QString llmSettingsProblem(const QString& settingsJson) {
  try {
    llm::llmSettingsFromJson(settingsJson.toStdString());
    return {};
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
}

QString storedLlmSettingsJson() { return QSettings().value(QLatin1String(kLlmSettingsKey)).toString(); }

LlmPreferencesNotifier& LlmPreferencesNotifier::instance() {
  static LlmPreferencesNotifier notifier;
  return notifier;
}

void connectLlmPreferences(views::MainWindow& window) {
  QObject::connect(&window, &views::MainWindow::preferencesRequested, &window, [&window] {
    QSettings settings;
    QString json = settings.value(QLatin1String(kLlmSettingsKey)).toString();
    const bool changed = views::editLlmPreferences(&window, json, llmSettingsProblem,
                                                   [](const QString& variable, const QString& key) {
                                                     const KeyStoreResult r = KeyStore().store(variable, key);
                                                     return r.ok ? QString() : r.error;
                                                   });
    if (!changed) return;
    settings.setValue(QLatin1String(kLlmSettingsKey), json);
    emit LlmPreferencesNotifier::instance().changed();
  });
}

}  // namespace crucible::gui
