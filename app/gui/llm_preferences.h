// SPDX-License-Identifier: GPL-3.0-or-later
// Edit > Preferences... in the workbench: the language-model settings
// (backends/proposers/llm/README.md) kept per user in QSettings, without the
// key; a key typed in the dialog goes to the system keychain (key_store.h),
// filed under the settings' key variable name.
#pragma once
#include <QObject>
#include <QString>

namespace crucible::views {
class MainWindow;
}

namespace crucible::gui {

// The QSettings key of the settings document.
inline constexpr const char* kLlmSettingsKey = "llm/settings";

// "" when the document is usable by the language-model proposer, else what
// is wrong with it, naming the field (llmSettingsFromJson's message).
QString llmSettingsProblem(const QString& settingsJson);

// The stored settings document ("" when none was saved).
QString storedLlmSettingsJson();

// Says when Edit > Preferences... saved new settings (Run control offers the
// language model again, or says why not).
class LlmPreferencesNotifier : public QObject {
  Q_OBJECT
public:
  static LlmPreferencesNotifier& instance();
signals:
  void changed();
};

// Connects the window's preferencesRequested to the dialog.
void connectLlmPreferences(views::MainWindow& window);

}  // namespace crucible::gui
