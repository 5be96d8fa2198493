// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/translations_loader.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>
#include <cstdio>

namespace crucible::app {
namespace {

// Set on the translators this file installs, so a later call can find and
// replace them without touching translators someone else installed.
constexpr const char* kOwnedTranslator = "crucible-installed-translator";

// The values the setting accepts besides "system"; kept short on purpose: a
// language is offered only when translations/ holds a complete file for it.
constexpr const char* kKnownLanguages[] = {"en", "zh_CN"};

void removeOurTranslators(QCoreApplication& app) {
  const auto translators = app.findChildren<QTranslator*>(QString(), Qt::FindDirectChildrenOnly);
  for (QTranslator* translator : translators) {
    if (!translator->property(kOwnedTranslator).toBool()) continue;
    QCoreApplication::removeTranslator(translator);
    delete translator;
  }
}

// Loads prefix<locale>.qm from directory and installs it; false if none fits.
bool installOne(QCoreApplication& app, const QLocale& locale, const QString& prefix, const QString& directory) {
  auto* translator = new QTranslator(&app);
  translator->setProperty(kOwnedTranslator, true);
  if (!translator->load(locale, prefix, QStringLiteral("_"), directory) ||
      !QCoreApplication::installTranslator(translator)) {
    delete translator;
    return false;
  }
  return true;
}

}  // namespace

QLocale chosenUiLocale() {
  const QString chosen = QSettings().value(QLatin1String(kUiLanguageKey), QStringLiteral("system")).toString().trimmed();
  if (chosen.isEmpty() || chosen == QLatin1String("system")) return QLocale::system();
  for (const char* known : kKnownLanguages)
    if (chosen == QLatin1String(known)) return QLocale(chosen);
  std::fprintf(stderr,
               "crucible: the setting %s is '%s', which is not one of system, en, zh_CN; using the system's language\n",
               kUiLanguageKey, qPrintable(chosen));
  return QLocale::system();
}

InstalledTranslations installTranslations(QCoreApplication& app) { return installTranslations(app, chosenUiLocale()); }

InstalledTranslations installTranslations(QCoreApplication& app, const QLocale& locale) {
  removeOurTranslators(app);
  // Figures follow the chosen language too (views/common/locale_numbers.h): "1,23" in German.
  QLocale::setDefault(locale);
  InstalledTranslations installed;
  installed.locale = locale;
  installed.crucible = installOne(app, locale, QStringLiteral("crucible"), QStringLiteral(":/i18n"));
  const QString qtDirectory = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
  installed.qt = installOne(app, locale, QStringLiteral("qtbase"), qtDirectory);
  // Qt's strings are English already. Otherwise, a missing package leaves the
  // standard dialogs and buttons in English, which the user should be able to
  // trace to the package rather than to Crucible; a language Qt simply has no
  // translation for is said only when Crucible's own speaks it.
  if (!installed.qt && locale.language() != QLocale::English && locale.language() != QLocale::C) {
    const bool anyQtTranslation =
        !QDir(qtDirectory).entryList({QStringLiteral("qtbase_*.qm")}, QDir::Files).isEmpty();
    if (!anyQtTranslation)
      std::fprintf(stderr,
                   "crucible: Qt's own translations are not installed (no qtbase_*.qm in %s; Debian: "
                   "qt6-translations-l10n): Qt's dialogs and buttons stay in English\n",
                   qPrintable(QDir::toNativeSeparators(qtDirectory)));
    else if (installed.crucible)
      std::fprintf(stderr, "crucible: Qt has no translation of its own for %s: its dialogs and buttons stay in English\n",
                   qPrintable(locale.name()));
  }
  return installed;
}

}  // namespace crucible::app
