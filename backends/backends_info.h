// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <string>

namespace crucible {
// Which backends this build has, for --version and About boxes.
std::string backendsBuildInfo();
}  // namespace crucible
