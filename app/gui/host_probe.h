// SPDX-License-Identifier: GPL-3.0-or-later
// Turns what backends/gpu_probe found into what the main window shows.
#pragma once
#include "backends/gpu_probe.h"
#include "views/mainwindow/host_info.h"

namespace crucible::app {

views::HostInfo hostInfoFrom(const GpuProbe& probe);

}  // namespace crucible::app
