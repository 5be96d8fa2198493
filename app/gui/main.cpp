// SPDX-License-Identifier: GPL-3.0-or-later
// crucible: the Qt workbench.
//   crucible [PROJECT]                       open the workbench (on PROJECT)
//   crucible --version                       print the version; needs no display
//   crucible --screenshot FILE.png PROJECT   render the main window to a PNG and exit
//   crucible --screenshot FILE.png --view NAME PROJECT
//                                            render one view (lineage, diff, ...) alone
//   crucible --screenshot FILE.png --size 1366x768 PROJECT
//                                            at that size (README pictures at laptop and desktop sizes)
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <optional>
#include "app/gui/gui_backends.h"
#include "app/gui/host_probe.h"
#include "app/gui/llm_preferences.h"
#include "app/gui/translations_loader.h"
#include "app/gui/project_watcher.h"
#include "app/gui/run_coordinator.h"
#include "app/gui/screenshot.h"
#include "app/gui/task_import.h"
#include "app/gui/user_evaluation_runner.h"
#include "backends/gpu_probe.h"
#include "crucible/version.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

namespace {

// --version must work where no display exists, so it is answered before
// QApplication (which needs a platform) is created.
bool asksForVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;
    if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) return true;
  }
  return false;
}

bool hasArgument(int argc, char** argv, std::initializer_list<const char*> names) {
  for (int i = 1; i < argc; ++i)
    for (const char* name : names)
      if (std::strcmp(argv[i], name) == 0) return true;
  return false;
}

// viewName empty: the whole window.
int takeScreenshot(crucible::views::MainWindow& window, const QString& project, const QString& png,
                   const QString& viewName, crucible::RunId run, std::optional<QSize> size) {
  using namespace crucible::app;
  const QString error = window.tryOpenProject(project);
  if (!error.isEmpty()) {
    std::fprintf(stderr, "crucible: %s\n", qPrintable(error));
    return 2;
  }
  if (run != 0) window.session()->setCurrentRun(run);
  selectBestCandidate(window);
  QImage image;
  QSize wanted;
  if (viewName.isEmpty()) {
    wanted = size.value_or(kWindowShotSize);
    image = grabWindow(window, wanted);
  } else {
    QString why;
    if (viewName == QLatin1String("editor") && !openSelectedInEditor(window, why)) {
      std::fprintf(stderr, "crucible: --view editor: %s\n", qPrintable(why));
      return 1;
    }
    if ((viewName == QLatin1String("details") || viewName == QLatin1String("compare")) &&
        !showSelectedAgainstParent(window, viewName, why)) {
      std::fprintf(stderr, "crucible: --view %s: %s\n", qPrintable(viewName), qPrintable(why));
      return 1;
    }
    wanted = size.value_or(kViewShotSize);
    image = grabView(window, viewName, why, wanted);
    if (image.isNull()) {
      std::fprintf(stderr, "crucible: --view: %s\n", qPrintable(why));
      return 1;
    }
  }
  if (image.size() != wanted)
    std::fprintf(stderr, "crucible: the picture needs %dx%d, more than the screenshot's %dx%d\n", image.width(),
                 image.height(), wanted.width(), wanted.height());
  if (!image.save(png, "PNG")) {
    std::fprintf(stderr, "crucible: cannot write the screenshot to %s\n", qPrintable(png));
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (asksForVersion(argc, argv)) {
    std::printf("crucible %s\n", CRUCIBLE_VERSION);
    return 0;
  }
  // A screenshot or the help text needs no screen: default to the offscreen
  // platform unless the caller chose one.
  if (hasArgument(argc, argv, {"--screenshot", "--help", "-h", "--help-all", "-?"}) &&
      qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");

  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Crucible"));
  QApplication::setOrganizationName(QStringLiteral("Crucible"));
  QApplication::setApplicationVersion(QStringLiteral(CRUCIBLE_VERSION));

  crucible::app::installTranslations(app);  // the ui/language setting or the system locale, and Qt's own

  QCommandLineParser parser;
  parser.setApplicationDescription(QApplication::translate("main", "A workbench that evolves GPU kernels."));
  parser.addHelpOption();
  parser.addOption({{QStringLiteral("v"), QStringLiteral("version")},
                    QApplication::translate("main", "Print the version and exit.")});
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QApplication::translate("main", "Open PROJECT, render the main window to the PNG <file> and exit."),
      QStringLiteral("file"));
  parser.addOption(screenshot);
  const QCommandLineOption view(
      QStringLiteral("view"),
      QApplication::translate("main",
                              "With --screenshot: render only the view <name> (lineage, diff, roofline, knowledge, "
                              "archive, runcontrol, review, vault, editor, details, compare), with the best valid candidate of the "
                              "newest run selected (editor: forked into the kernel editor and compiled; details: every "
                              "figure against its parent or the reference; compare: the two side by side)."),
      QStringLiteral("name"));
  parser.addOption(view);
  const QCommandLineOption runOption(
      QStringLiteral("run"),
      QApplication::translate("main", "With --screenshot: show run <id> instead of the newest run."),
      QStringLiteral("id"));
  parser.addOption(runOption);
  const QCommandLineOption sizeOption(
      QStringLiteral("size"),
      QApplication::translate("main", "With --screenshot: render at <WxH> pixels (e.g. 1366x768, 1920x1080) instead of "
                                      "1600x1000 (the window) or 1400x900 (a view)."),
      QStringLiteral("WxH"));
  parser.addOption(sizeOption);
  parser.addPositionalArgument(QStringLiteral("project"),
                               QApplication::translate("main", "The project file (.crucible) to open."),
                               QStringLiteral("[PROJECT]"));
  parser.process(app);
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) {
    std::fprintf(stderr, "crucible: expected at most one project, got %lld arguments\n",
                 static_cast<long long>(positional.size()));
    return 1;
  }

  bool runOk = true;
  const crucible::RunId shotRun = parser.isSet(runOption) ? parser.value(runOption).toLongLong(&runOk) : 0;
  if (!runOk || shotRun < 0) {
    std::fprintf(stderr, "crucible: --run needs a run id, not '%s'\n", qPrintable(parser.value(runOption)));
    return 1;
  }
  std::optional<QSize> shotSize;
  if (parser.isSet(sizeOption)) {
    shotSize = crucible::app::parseShotSize(parser.value(sizeOption));
    if (!shotSize) {
      std::fprintf(stderr, "crucible: --size needs WIDTHxHEIGHT between 200 and 8192, e.g. 1366x768, not '%s'\n",
                   qPrintable(parser.value(sizeOption)));
      return 1;
    }
    if (!parser.isSet(screenshot)) {
      std::fprintf(stderr, "crucible: --size only goes with --screenshot FILE.png\n");
      return 1;
    }
  }
  if (parser.isSet(view) && !parser.isSet(screenshot)) {
    std::fprintf(stderr, "crucible: --view only goes with --screenshot FILE.png\n");
    return 1;
  }
  const crucible::GpuProbe probe = crucible::probeGpus();
  // The engine, as crucible-cli runs it, driven from the window (wired for
  // screenshots too, so Run control shows what this machine can do). Made
  // before the window: the kernel editor's compile thread uses its inspector
  // until the window is gone.
  crucible::app::GuiBackends backends(probe);
  crucible::views::MainWindow window(crucible::app::hostInfoFrom(probe));
  window.installKernelEditor(backends.inspector());
  std::vector<std::string> taskProblems;
  auto builtins = crucible::app::builtinTasks(taskProblems);
  for (const std::string& problem : taskProblems)
    std::fprintf(stderr, "crucible: a built-in task is left out: %s\n", problem.c_str());
  crucible::app::RunCoordinator runs(window, backends.backends(), std::move(builtins));
  crucible::app::ProjectWatcher watcher(window.session());
  crucible::app::UserEvaluationRunner userEvaluations(window, backends.backends());
  crucible::gui::connectLlmPreferences(window);

  if (parser.isSet(screenshot)) {
    if (positional.isEmpty()) {
      std::fprintf(stderr, "crucible: --screenshot needs a PROJECT to open\n");
      return 1;
    }
    return takeScreenshot(window, positional.first(), parser.value(screenshot),
                          parser.isSet(view) ? parser.value(view) : QString(), shotRun, shotSize);
  }

  window.setPersistLayout(true);
  window.restoreLayout();
  window.show();
  if (!positional.isEmpty()) window.openProject(positional.first());
  return app.exec();
}
