// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's backends in the GUI: the same as `crucible-cli run` (template
// proposer, NVRTC compiler, one crucible-worker per local GPU, compute-sanitizer
// before a seal).
#pragma once
#include <QString>
#include <memory>
#include "backends/gpu_probe.h"
#include "core/engine/interfaces.h"
#include "core/model/kernel_inspection.h"

namespace crucible::app {

// What the window's engine controller drives. The objects must outlive it.
struct EngineBackends {
  Proposer* proposer = nullptr;
  Compiler* compiler = nullptr;
  Dispatcher* dispatcher = nullptr;
  // Why kernels cannot be evaluated here, a sentence ("" when they can): Start is refused.
  QString evaluationProblem;
  Sanitizer* sanitizer = nullptr;   // runs before every seal; none: nothing is sealed
};

class GuiBackends {
public:
  // probe: this machine's GPUs, already probed by the app.
  explicit GuiBackends(const GpuProbe& probe);
  ~GuiBackends();
  GuiBackends(const GuiBackends&) = delete;
  GuiBackends& operator=(const GuiBackends&) = delete;

  EngineBackends backends() const;
  // The kernel editor's compiler: NVRTC with the PTX and SASS where CUDA is
  // built, else one that says there is no CUDA toolkit in this build.
  KernelInspector& inspector() const;

private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace crucible::app
