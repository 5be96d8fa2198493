// SPDX-License-Identifier: GPL-3.0-or-later
// Translations (issue 22): every .ts under translations/ is complete and holds
// exactly the strings lupdate extracts from the sources today; the workbench
// speaks Simplified Chinese when told to (the setting) or when started under a
// Chinese locale.
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QImage>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <gtest/gtest.h>
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include "app/gui/translations_loader.h"
#include "views/common/status_names.h"
#include "views/details/detail_labels.h"
#include "views/details/detail_notes.h"
#include "views/mainwindow/main_window.h"
#include "views/runcontrol/engine_messages.h"

namespace {

const QString kSourceDir = QStringLiteral(CRUCIBLE_SOURCE_DIR);

// One message of a .ts file, keyed as Qt looks it up: context, source, comment.
using MessageKey = std::tuple<QString, QString, QString>;
struct Message {
  bool numerus = false;
  QString type;                // "unfinished", "obsolete", "vanished", ... or empty when finished
  QStringList translations;    // the numerus forms, or the one translation
};
struct TsFile {
  QString language;
  std::map<MessageKey, Message> messages;
  QString error;
};

std::string show(const MessageKey& k) {
  return (std::get<0>(k) + QStringLiteral(" | ") + std::get<1>(k) +
          (std::get<2>(k).isEmpty() ? QString() : QStringLiteral(" [") + std::get<2>(k) + QStringLiteral("]")))
      .toStdString();
}

TsFile readTs(const QString& path) {
  TsFile ts;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    ts.error = QStringLiteral("cannot read %1").arg(path);
    return ts;
  }
  QXmlStreamReader xml(&file);
  QString context;
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    if (xml.name() == QLatin1String("TS")) {
      ts.language = xml.attributes().value(QLatin1String("language")).toString();
    } else if (xml.name() == QLatin1String("name")) {
      context = xml.readElementText();
    } else if (xml.name() == QLatin1String("message")) {
      Message m;
      m.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
      QString source, comment;
      while (!(xml.readNext() == QXmlStreamReader::EndElement && xml.name() == QLatin1String("message")) &&
             !xml.atEnd()) {
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("source")) {
          source = xml.readElementText();
        } else if (xml.name() == QLatin1String("comment")) {
          comment = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
          m.type = xml.attributes().value(QLatin1String("type")).toString();
          if (m.numerus) {
            while (!(xml.readNext() == QXmlStreamReader::EndElement && xml.name() == QLatin1String("translation")) &&
                   !xml.atEnd())
              if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                m.translations << xml.readElementText();
          } else {
            m.translations << xml.readElementText();
          }
        }
      }
      ts.messages[{context, source, comment}] = m;
    }
  }
  if (xml.hasError()) ts.error = QStringLiteral("%1: %2 at line %3").arg(path, xml.errorString()).arg(xml.lineNumber());
  return ts;
}

QStringList committedTsFiles() {
  return QDir(kSourceDir + QStringLiteral("/translations"))
      .entryList({QStringLiteral("*.ts")}, QDir::Files, QDir::Name);
}

// The sources app/gui/CMakeLists.txt hands to lupdate: every .cpp under app/gui and views.
QStringList translatedSources() {
  QStringList files;
  for (const char* folder : {"app/gui", "views"}) {
    QDirIterator it(kSourceDir + QLatin1Char('/') + QLatin1String(folder), {QStringLiteral("*.cpp")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) files << it.next();
  }
  files.sort();
  return files;
}

TEST(Translations, EveryTsFileIsCompleteAndCurrent) {
  const QString lupdate = QStringLiteral(CRUCIBLE_LUPDATE);
  if (lupdate.isEmpty() || !QFileInfo(lupdate).isExecutable())
    GTEST_SKIP() << "Qt's lupdate is not installed (Debian: qt6-l10n-tools); the .ts files cannot be checked "
                    "against the sources";
  const QStringList tsFiles = committedTsFiles();
  ASSERT_TRUE(tsFiles.contains(QStringLiteral("crucible_zh_CN.ts"))) << "translations/ has no Simplified Chinese";
  ASSERT_TRUE(tsFiles.contains(QStringLiteral("crucible_en.ts")));

  // What lupdate extracts today, with the options of the crucible_lupdate target.
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QStringList sources = translatedSources();
  ASSERT_GT(sources.size(), 20) << "the sources were not found under " << kSourceDir.toStdString();
  QFile list(dir.filePath(QStringLiteral("sources.lst")));
  ASSERT_TRUE(list.open(QIODevice::WriteOnly));
  list.write((QStringLiteral("-I") + kSourceDir + QLatin1Char('\n') + sources.join(QLatin1Char('\n')) + QLatin1Char('\n'))
                 .toUtf8());
  list.close();
  const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
  QProcess p;
  p.start(lupdate, {QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-no-obsolete"),
                    QStringLiteral("-source-language"), QStringLiteral("en"), QStringLiteral("@") + list.fileName(),
                    QStringLiteral("-ts"), fresh});
  ASSERT_TRUE(p.waitForFinished(120000)) << "lupdate did not finish in 2 minutes";
  ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  const TsFile extracted = readTs(fresh);
  ASSERT_TRUE(extracted.error.isEmpty()) << extracted.error.toStdString();
  ASSERT_GT(extracted.messages.size(), 100u) << "lupdate found almost nothing: " << p.readAll().toStdString();

  for (const QString& name : tsFiles) {
    SCOPED_TRACE(name.toStdString());
    const TsFile ts = readTs(kSourceDir + QStringLiteral("/translations/") + name);
    ASSERT_TRUE(ts.error.isEmpty()) << ts.error.toStdString();
    const QString language = name.mid(9, name.size() - 9 - 3);  // crucible_<language>.ts
    EXPECT_EQ(ts.language, language) << "the language attribute does not match the file name";
    int problems = 0;
    for (const auto& [key, message] : extracted.messages) {
      const auto found = ts.messages.find(key);
      if (found == ts.messages.end()) {
        if (++problems <= 20) ADD_FAILURE() << "missing (run the crucible_lupdate target): " << show(key);
        continue;
      }
      if (found->second.numerus != message.numerus && ++problems <= 20)
        ADD_FAILURE() << "numerus differs from the source's: " << show(key);
    }
    for (const auto& [key, message] : ts.messages) {
      if (!extracted.messages.count(key)) {
        if (++problems <= 20) ADD_FAILURE() << "no longer in the sources (run crucible_lupdate): " << show(key);
        continue;
      }
      if (!message.type.isEmpty()) {
        if (++problems <= 20) ADD_FAILURE() << message.type.toStdString() << ": " << show(key);
        continue;
      }
      const bool empty = message.translations.isEmpty() ||
                         std::any_of(message.translations.begin(), message.translations.end(),
                                     [](const QString& t) { return t.isEmpty(); });
      if (empty && ++problems <= 20) ADD_FAILURE() << "empty translation: " << show(key);
    }
    EXPECT_EQ(problems, 0) << name.toStdString() << ": " << problems << " problem(s), the first 20 listed";
  }
}

// The translations lupdate would check, as the window should show them.
QString chinese(const TsFile& ts, const QString& context, const QString& source) {
  const auto found = ts.messages.find({context, source, QString()});
  return found == ts.messages.end() || found->second.translations.isEmpty() ? QString()
                                                                             : found->second.translations.first();
}

class TranslatedWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(settings_.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_.filePath(QStringLiteral("settings")));
  }
  void TearDown() override {
    // Back to English for whatever runs next in this process.
    crucible::app::installTranslations(*QCoreApplication::instance(), QLocale(QStringLiteral("en")));
  }
  QTemporaryDir settings_;
};

TEST_F(TranslatedWindow, TheSettingMakesMenusAndDockTitlesChinese) {
  const TsFile ts = readTs(kSourceDir + QStringLiteral("/translations/crucible_zh_CN.ts"));
  ASSERT_TRUE(ts.error.isEmpty()) << ts.error.toStdString();
  QSettings().setValue(QLatin1String(crucible::app::kUiLanguageKey), QStringLiteral("zh_CN"));
  EXPECT_EQ(crucible::app::chosenUiLocale().name(), QStringLiteral("zh_CN"));
  const crucible::app::InstalledTranslations installed = crucible::app::installTranslations(*QCoreApplication::instance());
  ASSERT_TRUE(installed.crucible) << "crucible_zh_CN.qm is not under :/i18n";

  crucible::views::MainWindow window{crucible::views::HostInfo{}};
  QStringList menus;
  for (QAction* action : window.menuBar()->actions()) menus << action->text();
  for (const char* menu : {"&File", "&Edit", "&View", "&Help"}) {
    const QString expected = chinese(ts, QStringLiteral("crucible::views::MainWindow"), QLatin1String(menu));
    ASSERT_FALSE(expected.isEmpty()) << menu << " has no translation in crucible_zh_CN.ts";
    EXPECT_TRUE(menus.contains(expected)) << menu << " is not shown as " << expected.toStdString() << "; the menus are "
                                          << menus.join(QStringLiteral(", ")).toStdString();
  }
  const QList<QDockWidget*> docks = window.findChildren<QDockWidget*>();
  ASSERT_GE(docks.size(), 10);
  for (QDockWidget* dock : docks) {
    // Every dock title is one of the translated view titles (not its English source).
    bool translated = false;
    for (const auto& [key, message] : ts.messages)
      if (std::get<0>(key) == QLatin1String("crucible::views::ViewDocks") &&
          message.translations.value(0) == dock->windowTitle() && std::get<1>(key) != dock->windowTitle())
        translated = true;
    EXPECT_TRUE(translated) << dock->objectName().toStdString() << " is titled "
                            << dock->windowTitle().toStdString();
  }

  // What the views build outside widgets is translated too (issue 22): status names and the details' labels.
  EXPECT_EQ(crucible::views::statusName(crucible::CandidateStatus::Valid), QStringLiteral("有效"));
  EXPECT_EQ(crucible::views::statusName(crucible::RunStatus::Finished), QStringLiteral("已完成"));
  EXPECT_EQ(crucible::views::detailLabel("throughput.dram_read", "DRAM bytes read"), QStringLiteral("DRAM 读取字节数"));
  // The Qt-free cores' typed reasons and the engine's fixed log messages, worded on the Qt side.
  EXPECT_EQ(crucible::views::DetailNotes::missing({crucible::views::MissingKind::NoCeilingOnDevice, "dram_bw", "GPU A", {}}),
            QStringLiteral("未在 GPU A 上测得 dram_bw 峰值上限"));
  EXPECT_EQ(crucible::views::EngineMessages::text("run finished: generation limit of 5 reached"),
            QStringLiteral("运行已完成：已达到 5 代的代数上限"));
  EXPECT_EQ(crucible::views::EngineMessages::text("proposal discarded: bad genome"),
            QStringLiteral("提议已丢弃：bad genome"));
  // The chosen language is the default locale, which writes the figures.
  EXPECT_EQ(QLocale().name(), QStringLiteral("zh_CN"));

  // And back: the setting "en" replaces the Chinese translator.
  QSettings().setValue(QLatin1String(crucible::app::kUiLanguageKey), QStringLiteral("en"));
  const auto english = crucible::app::installTranslations(*QCoreApplication::instance());
  EXPECT_TRUE(english.crucible);
  EXPECT_EQ(QCoreApplication::translate("crucible::views::MainWindow", "&File"), QStringLiteral("&File"));
  EXPECT_EQ(crucible::views::statusName(crucible::CandidateStatus::Valid), QStringLiteral("valid"));
  EXPECT_EQ(QCoreApplication::translate("crucible::views::DiffView", "%n change(s)", nullptr, 2),
            QStringLiteral("2 changes"));
}

TEST_F(TranslatedWindow, AnUnknownSettingFallsBackToTheSystemLanguage) {
  QSettings().setValue(QLatin1String(crucible::app::kUiLanguageKey), QStringLiteral("klingon"));
  EXPECT_EQ(crucible::app::chosenUiLocale(), QLocale::system());
  QSettings().setValue(QLatin1String(crucible::app::kUiLanguageKey), QStringLiteral("system"));
  EXPECT_EQ(crucible::app::chosenUiLocale(), QLocale::system());
}

// Qt's own strings for zh_CN, when the package that carries them is installed.
TEST_F(TranslatedWindow, QtsOwnTranslationsAreInstalledBeside) {
  const QString qtbase = QLibraryInfo::path(QLibraryInfo::TranslationsPath) + QStringLiteral("/qtbase_zh_CN.qm");
  if (!QFileInfo::exists(qtbase)) GTEST_SKIP() << qtbase.toStdString() << " is missing (Debian: qt6-translations-l10n)";
  const auto installed = crucible::app::installTranslations(*QCoreApplication::instance(), QLocale(QStringLiteral("zh_CN")));
  EXPECT_TRUE(installed.crucible);
  EXPECT_TRUE(installed.qt);
  EXPECT_NE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancel"));
}

QProcessEnvironment chineseEnvironment() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANGUAGE", "DISPLAY", "WAYLAND_DISPLAY"})
    env.remove(QLatin1String(name));
  env.insert(QStringLiteral("LANG"), QStringLiteral("zh_CN.UTF-8"));
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  return env;
}

TEST(TranslatedApp, ScreenshotUnderAChineseLocaleRenders) {
  // Without a font that has the glyphs, the Chinese menus render as boxes: a picture, not Chinese.
  ASSERT_FALSE(QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty())
      << "no font with Simplified Chinese glyphs is installed (Debian: fonts-wqy-microhei, "
         "packaging/debian-packages.txt)";
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString project = dir.filePath(QStringLiteral("sample.crucible"));
  ASSERT_TRUE(QFile::copy(kSourceDir + QStringLiteral("/resources/sample/sample.crucible"), project));
  QFile::setPermissions(project, QFile::ReadOwner | QFile::WriteOwner);
  const QString png = dir.filePath(QStringLiteral("zh.png"));
  QProcess p;
  QProcessEnvironment env = chineseEnvironment();
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));  // no user settings
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(CRUCIBLE_GUI_EXE), {QStringLiteral("--screenshot"), png, project});
  ASSERT_TRUE(p.waitForFinished(120000)) << "crucible --screenshot did not finish";
  EXPECT_EQ(p.exitStatus(), QProcess::NormalExit);
  EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  const QImage image(png);
  EXPECT_FALSE(image.isNull()) << "no PNG written";
}

// The command line speaks the locale's language too (it needs no display): a
// direct check that the app picks the translation from LANG.
TEST(TranslatedApp, HelpUnderAChineseLocaleIsChinese) {
  const TsFile ts = readTs(kSourceDir + QStringLiteral("/translations/crucible_zh_CN.ts"));
  const QString expected = chinese(ts, QStringLiteral("main"), QStringLiteral("Print the version and exit."));
  ASSERT_FALSE(expected.isEmpty());
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QProcess p;
  QProcessEnvironment env = chineseEnvironment();
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(CRUCIBLE_GUI_EXE), {QStringLiteral("--help")});
  ASSERT_TRUE(p.waitForFinished(60000));
  EXPECT_EQ(p.exitCode(), 0);
  const QString out = QString::fromUtf8(p.readAllStandardOutput());
  EXPECT_TRUE(out.contains(expected)) << out.toStdString();
}

}  // namespace
