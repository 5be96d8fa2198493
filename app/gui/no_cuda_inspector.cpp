// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/no_cuda_inspector.h"

#include <QCoreApplication>

namespace crucible::app {

KernelInspection NoCudaInspector::inspect(const InspectionRequest& request) {
  const std::string why = QCoreApplication::translate("crucible::app::NoCudaInspector",
                                                      "no CUDA toolkit in this build: Crucible was built without CUDA "
                                                      "(CRUCIBLE_HAVE_CUDA is off), so kernels cannot be compiled or "
                                                      "inspected here")
                              .toStdString();
  KernelInspection k;
  k.report.ok = false;
  k.report.arch = request.arch;
  k.report.log = why;
  k.report.diagnostics.push_back({0, 0, "error", why});
  k.sassUnavailable =
      QCoreApplication::translate("crucible::app::NoCudaInspector", "no SASS: no CUDA toolkit in this build").toStdString();
  return k;
}

}  // namespace crucible::app
