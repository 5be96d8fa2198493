// SPDX-License-Identifier: GPL-3.0-or-later
// main() for GoogleTest suites that need a QApplication (widgets, models,
// QProcess). They never need a display: ctest sets QT_QPA_PLATFORM=offscreen,
// and so does this main when it is run by hand or by gtest_discover_tests.
#include <QApplication>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // The store's thread check on: a store read on the GUI thread while a run is
  // active fails the test that made it (issue 14).
  if (qEnvironmentVariableIsEmpty("CRUCIBLE_STORE_THREAD_CHECK")) qputenv("CRUCIBLE_STORE_THREAD_CHECK", "1");
  ::testing::InitGoogleTest(&argc, argv);
  QApplication app(argc, argv);
  return RUN_ALL_TESTS();
}
