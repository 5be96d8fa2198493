// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's backends in the GUI: the same as `crucible-cli run` (template
// proposer, NVRTC compiler, one crucible-worker per local GPU, compute-sanitizer
// before a seal), and each run's proposer made as the CLI makes it.
#pragma once
#include <QString>
#include <memory>
#include <vector>
#include "backends/gpu_probe.h"
#include "backends/proposers/tunable/tunable_proposer.h"
#include "core/engine/interfaces.h"
#include "core/model/kernel_inspection.h"

namespace crucible::app {

// What the window's engine controller drives. The objects must outlive it.
struct EngineBackends {
  // The kernel writer (the template proposer): a run's proposer alone, or
  // beside the run's starting kernels (GuiRunProposer).
  Proposer* proposer = nullptr;
  Compiler* compiler = nullptr;
  Dispatcher* dispatcher = nullptr;
  // Why kernels cannot be evaluated here, a sentence ("" when they can): Start is refused.
  QString evaluationProblem;
  Sanitizer* sanitizer = nullptr;   // runs before every seal; none: nothing is sealed
};

// The proposer an engine controller's engine is given: one per controller,
// set before each of its runs to that run's proposer exactly as crucible-cli
// makes it (backends/proposers/combined/run_proposer.h): the writer alone
// for a run without starting kernels, else the starting kernels' tunable
// proposer competing with the writer; combined for a resumed run, whose
// stored candidates may be tunable kernels'. setRun() only while that
// controller runs nothing: the engine reads it from its threads.
class GuiRunProposer {
public:
  explicit GuiRunProposer(Proposer& writer);  // the writer must outlive this
  ~GuiRunProposer();
  GuiRunProposer(const GuiRunProposer&) = delete;
  GuiRunProposer& operator=(const GuiRunProposer&) = delete;

  // What the engine is given, for its whole life.
  Proposer& engineProposer();
  // The next run's proposer (`crucible-cli run --kernel ...`; `resume`: combineAlways).
  // writer: that run's own kernel writer (a language model), kept until the
  // next setRun(); none: the writer given at construction (the template proposer).
  void setRun(std::vector<StartingKernel> kernels, bool combineAlways, std::unique_ptr<Proposer> writer = nullptr);
  // The proposer runs get now (its name is the one a new run records).
  Proposer& current();

private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
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
