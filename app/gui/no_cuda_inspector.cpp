// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/no_cuda_inspector.h"

namespace crucible::app {

KernelInspection NoCudaInspector::inspect(const InspectionRequest& request) {
  static const char* const kWhy =
      "no CUDA toolkit in this build: Crucible was built without CUDA (CRUCIBLE_HAVE_CUDA is off), "
      "so kernels cannot be compiled or inspected here";
  KernelInspection k;
  k.report.ok = false;
  k.report.arch = request.arch;
  k.report.log = kWhy;
  k.report.diagnostics.push_back({0, 0, "error", kWhy});
  k.sassUnavailable = "no SASS: no CUDA toolkit in this build";
  return k;
}

}  // namespace crucible::app
