// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/backends_info.h"

namespace crucible {
std::string backendsBuildInfo() {
#if CRUCIBLE_HAVE_CUDA
  return "CUDA backend: built (NVRTC, driver API loaded at run time)";
#else
  return "CUDA backend: not built (no CUDA toolkit found at configure time)";
#endif
}
}  // namespace crucible
