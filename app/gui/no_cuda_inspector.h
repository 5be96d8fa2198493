// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor's inspector in a build without the CUDA toolkit: every
// compile fails, saying why, so the editor shows the reason instead of a
// result it cannot have (no fake success).
#pragma once
#include "core/model/kernel_inspection.h"

namespace crucible::app {

class NoCudaInspector final : public KernelInspector {
public:
  KernelInspection inspect(const InspectionRequest& request) override;
};

}  // namespace crucible::app
