// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench in the user's language (issue 22): Crucible's own translation
// (translations/crucible_<lang>.ts, embedded under :/i18n) and Qt's
// (qtbase_<lang>.qm, for the standard dialogs and buttons), for the language
// the setting "ui/language" names or, by default, the system locale.
#pragma once
#include <QLocale>
#include <QString>

class QCoreApplication;

namespace crucible::app {

// QSettings key: "system" (the default), "en" or "zh_CN".
inline constexpr const char* kUiLanguageKey = "ui/language";

// What installTranslations found and installed, for messages and tests.
struct InstalledTranslations {
  QLocale locale;       // the language the interface was asked to speak
  bool crucible = false;  // Crucible's translation for it was found and installed
  bool qt = false;        // Qt's own (qtbase) translation was found and installed
};

// The language the interface should speak: the setting "ui/language" when it
// names one, otherwise the system locale. An unknown value is reported on
// stderr once and treated as "system".
QLocale chosenUiLocale();

// Installs, on app, Crucible's and Qt's translators for chosenUiLocale().
// Calling it again replaces the translators it installed before (the tests
// switch languages). Says on stderr when Qt's own translations are not
// installed (or lack a language Crucible speaks).
InstalledTranslations installTranslations(QCoreApplication& app);

// The same for an explicit locale; the messages come from the same rules.
InstalledTranslations installTranslations(QCoreApplication& app, const QLocale& locale);

}  // namespace crucible::app
