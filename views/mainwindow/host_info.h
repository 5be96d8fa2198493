// SPDX-License-Identifier: GPL-3.0-or-later
// What the application found on this machine (GPU, driver), handed to the
// main window by the app: views never probe hardware themselves.
#pragma once
#include <QString>
#include <QStringList>

namespace crucible::views {

struct HostInfo {
  bool driverFound = false;
  QString driverVersion;   // the CUDA version the driver supports, "13.0"; empty without a driver
  QStringList gpus;        // "0: NVIDIA H200 (sm_90)"
  QString statusLine;      // one sentence for the status bar
};

// The About box text (rich text): Crucible's version, Qt's, the CUDA driver and the GPUs.
QString aboutText(const HostInfo& host);

}  // namespace crucible::views
