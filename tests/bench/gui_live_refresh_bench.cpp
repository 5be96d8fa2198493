// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (a program that prints a table, not a timed test): the main
// window on a project of N candidates (default 10,000 and 100,000), offscreen.
//   gui_live_refresh_bench [--seconds S] [--rate CANDIDATES_PER_SECOND] [--no-legacy] [N ...]
// first paint: open the project, show the window, render it once.
// live refresh: while another thread writes a run as the engine does (S
// seconds at RATE candidates/s, 20 commits/s) and the engine controller's
// 250 ms refresh pokes the session, the GUI thread's busy time per second
// (its CPU time; a 1 ms timer's own cost included) and the latency of that
// 1 ms timer (how late it fires: how long the GUI thread was unresponsive). "legacy" adds, on every change, the reads the views made
// on the GUI thread before the project reader (three summary reads, the
// valid candidates' full rows, archive, seals, knowledge, runs): the same
// window with the old cost, for comparison.
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include "tests/views/session/simulated_run.h"
#include "views/mainwindow/main_window.h"
#include "views/session/project_session.h"

using namespace crucible;

namespace {

struct Options {
  std::vector<int> sizes;
  double seconds = 4;
  int rate = 200;
  bool legacy = true;
};

struct Result {
  double generateMs = 0, firstPaintMs = 0;
  double idleMs = 0;                     // per second, before the run: the 1 ms timer and the poll alone
  double busyMeanMs = 0, busyMaxMs = 0;  // per second of wall time
  double latencyP50 = 0, latencyP99 = 0, latencyMax = 0;  // ms beyond the timer's 1 ms
  int written = 0;
  bool complete = false;
};

RunId makeProject(const std::string& path, int count) {
  auto store = ProjectStore::create(path);
  const TaskId task = test_support::addSampleTask(*store);
  const RunId run = test_support::addSampleRun(*store, task, "bench");
  std::mt19937_64 rng(7);
  std::vector<CandidateId> ids;
  ids.reserve(static_cast<std::size_t>(count));
  store->transaction([&] {
    for (int i = 0; i < count; ++i) {
      Candidate c = test_support::makeCandidate(run, i);
      if (!ids.empty()) c.parents = {ids[std::uniform_int_distribution<std::size_t>(0, ids.size() - 1)(rng)]};
      ids.push_back(store->addCandidate(c));
    }
  });
  crucible::Run r = *store->run(run);
  r.status = RunStatus::Stopped;
  store->updateRun(r);
  return run;
}

// CPU time of the calling thread.
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double msSince(const QElapsedTimer& t) { return static_cast<double>(t.nsecsElapsed()) / 1e6; }

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

Result measure(int count, const Options& o, bool legacy) {
  Result r;
  QTemporaryDir dir;
  const std::string path = (dir.path() + "/bench.crucible").toStdString();
  QElapsedTimer clock;
  clock.start();
  const RunId run = makeProject(path, count);
  r.generateMs = msSince(clock);

  views::MainWindow window(views::HostInfo{});
  window.setPersistLayout(false);
  clock.restart();
  if (const QString error = window.tryOpenProject(QString::fromStdString(path)); !error.isEmpty()) {
    std::fprintf(stderr, "%s\n", qPrintable(error));
    std::exit(1);
  }
  window.resize(1600, 1000);
  window.show();
  QCoreApplication::processEvents();
  (void)window.grab();
  r.firstPaintMs = msSince(clock);

  views::ProjectSession* session = window.session();
  if (legacy) {
    QObject::connect(session, &views::ProjectSession::dataChanged, &window, [session, run] {
      const ProjectStore* s = session->store();
      for (int i = 0; i < 3; ++i) (void)s->candidateSummaries(run);
      (void)s->candidatesWithStatus(run, CandidateStatus::Valid);
      (void)s->candidatesWithStatus(run, CandidateStatus::Reference);
      (void)s->archive(run);
      (void)s->seals();
      (void)s->knowledge();
      (void)s->runs();
    });
  }

  // Busy time: the GUI thread's CPU time per second of wall time.
  QElapsedTimer wall;
  double cpuAt = threadCpuMs();
  std::vector<double> busyPerSecond;
  std::vector<double> lateness;
  QElapsedTimer tick;
  QTimer latency;
  latency.setTimerType(Qt::PreciseTimer);
  latency.setInterval(1);
  QObject::connect(&latency, &QTimer::timeout, &window, [&] {
    if (tick.isValid()) lateness.push_back(std::max(0.0, msSince(tick) - 1.0));
    tick.start();
  });
  QTimer engineRefresh;  // EngineController::kRefreshMs: the engine's events poke the session
  engineRefresh.setInterval(250);
  QObject::connect(&engineRefresh, &QTimer::timeout, session, &views::ProjectSession::notifyDataChanged);
  QTimer second;
  second.setInterval(1000);
  QObject::connect(&second, &QTimer::timeout, &window, [&] {
    const double cpu = threadCpuMs();
    busyPerSecond.push_back((cpu - cpuAt) * 1000.0 / msSince(wall));
    cpuAt = cpu;
    wall.restart();
  });

  {  // One idle second first: what the measuring itself costs.
    latency.start();
    const double cpu = threadCpuMs();
    QEventLoop idle;
    QTimer::singleShot(1000, &idle, &QEventLoop::quit);
    idle.exec();
    r.idleMs = threadCpuMs() - cpu;
    latency.stop();
    lateness.clear();
    tick.invalidate();
  }

  test_support::SimulatedRun writer(path, run,
                                    {o.rate, 20, std::chrono::milliseconds(static_cast<int>(o.seconds * 1000))});
  writer.start();
  wall.start();
  cpuAt = threadCpuMs();
  latency.start();
  engineRefresh.start();
  second.start();
  {
    QEventLoop loop;
    QTimer done;
    done.setInterval(20);
    QObject::connect(&done, &QTimer::timeout, &loop, [&] {
      if (writer.finished()) loop.quit();
    });
    done.start();
    loop.exec();
  }
  latency.stop();
  engineRefresh.stop();
  second.stop();
  writer.join();
  r.written = writer.written();
  if (!writer.failure().empty()) std::fprintf(stderr, "the simulated run failed: %s\n", writer.failure().c_str());

  // The views catch up with the last commit.
  QElapsedTimer settle;
  settle.start();
  const std::size_t total = static_cast<std::size_t>(count + r.written);
  while (session->candidates().size() != total && settle.elapsed() < 10000)
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
  r.complete = session->candidates().size() == total;

  if (!busyPerSecond.empty()) {
    double sum = 0;
    for (double b : busyPerSecond) sum += b;
    r.busyMeanMs = sum / static_cast<double>(busyPerSecond.size());
    r.busyMaxMs = *std::max_element(busyPerSecond.begin(), busyPerSecond.end());
  }
  r.latencyP50 = percentile(lateness, 0.50);
  r.latencyP99 = percentile(lateness, 0.99);
  r.latencyMax = lateness.empty() ? 0 : *std::max_element(lateness.begin(), lateness.end());
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) o.seconds = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--rate") && i + 1 < argc) o.rate = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-legacy")) o.legacy = false;
    else if (std::atoi(argv[i]) > 0) o.sizes.push_back(std::atoi(argv[i]));
    else {
      std::fprintf(stderr, "usage: %s [--seconds S] [--rate N] [--no-legacy] [CANDIDATES ...]\n", argv[0]);
      return 2;
    }
  }
  if (o.sizes.empty()) o.sizes = {10000, 100000};
  std::printf("GUI first paint and live refresh (offscreen; run written at %d candidates/s, 20 commits/s, %.1f s)\n",
              o.rate, o.seconds);
  {  // The first window of a process pays for fonts and styles: not counted.
    views::MainWindow warmUp(views::HostInfo{});
    warmUp.setPersistLayout(false);
    warmUp.show();
    QCoreApplication::processEvents();
    (void)warmUp.grab();
  }
  std::printf("%-9s %-8s %10s %11s %10s %12s %11s %10s %10s %10s %8s %s\n", "cands", "mode", "generate", "firstPaint",
              "idle ms/s", "busy ms/s", "busy max", "lat p50", "lat p99", "lat max", "written", "views current");
  bool allCurrent = true;
  for (int n : o.sizes) {
    for (bool legacy : {false, true}) {
      if (legacy && !o.legacy) continue;
      const Result r = measure(n, o, legacy);
      std::printf("%-9d %-8s %8.0fms %9.0fms %10.1f %12.1f %11.1f %8.1fms %8.1fms %8.1fms %8d %s\n", n,
                  legacy ? "legacy" : "reader", r.generateMs, r.firstPaintMs, r.idleMs, r.busyMeanMs, r.busyMaxMs, r.latencyP50,
                  r.latencyP99, r.latencyMax, r.written, r.complete ? "yes" : "NO");
      std::fflush(stdout);
      allCurrent = allCurrent && r.complete;
    }
  }
  // Figures are not judged here; views that never caught up with the run are.
  return allCurrent ? 0 : 1;
}
