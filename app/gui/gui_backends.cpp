// SPDX-License-Identifier: GPL-3.0-or-later
// The backends' headers come before any Qt header: Qt defines `emit` as a
// macro, and the template proposer's design space has a method of that name.
#include "backends/dispatch/local_gpu_dispatcher.h"
#include "backends/proposers/combined/proposer_slot.h"
#include "backends/proposers/combined/run_proposer.h"
#include "backends/proposers/template/template_proposer.h"
#if CRUCIBLE_HAVE_CUDA
#include "backends/cuda/compile/kernel_inspector.h"
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/sanitize/compute_sanitizer.h"
#endif
#include "app/gui/gui_backends.h"
#include "app/gui/no_cuda_inspector.h"
#include <QCoreApplication>

namespace crucible::app {
namespace {

#if !CRUCIBLE_HAVE_CUDA
// This build has no CUDA backend: every compile fails, saying so. Start is
// refused anyway (evaluationProblem), so no run reaches it; it exists because
// the engine needs a compiler to store verdicts and create runs.
class NoCudaCompiler final : public Compiler {
public:
  CompileResult compile(const CompileRequest&) override {
    CompileResult r;
    r.report.ok = false;
    r.report.log = QCoreApplication::translate("crucible::app::GuiBackends",
                                               "this build of Crucible has no CUDA support (CRUCIBLE_HAVE_CUDA is off)")
                       .toStdString();
    return r;
  }
};
#endif

}  // namespace

struct GuiBackends::Parts {
  explicit Parts(const GpuProbe& probe) : dispatcher(probe, LocalGpuDispatcherOptions{}) {}
  TemplateProposer proposer;
#if CRUCIBLE_HAVE_CUDA
  NvrtcCompiler compiler;
  NvrtcKernelInspector inspector{compiler};   // after the compiler it uses
  ComputeSanitizer sanitizer;   // says in each refused seal when compute-sanitizer is missing
#else
  NoCudaCompiler compiler;
  NoCudaInspector inspector;
#endif
  LocalGpuDispatcher dispatcher;
};

struct GuiRunProposer::Parts {
  explicit Parts(Proposer& w) : writer(w), run(std::make_unique<RunProposer>(std::vector<StartingKernel>{}, false, w)),
                                slot(run->get()) {}
  Proposer& writer;
  std::unique_ptr<RunProposer> run;   // the current run's
  ProposerSlot slot;                  // what the engine holds, pointing into run
};

GuiRunProposer::GuiRunProposer(Proposer& writer) : parts_(std::make_unique<Parts>(writer)) {}
GuiRunProposer::~GuiRunProposer() = default;

Proposer& GuiRunProposer::engineProposer() { return parts_->slot; }
Proposer& GuiRunProposer::current() { return parts_->slot.current(); }

void GuiRunProposer::setRun(std::vector<StartingKernel> kernels, bool combineAlways, std::unique_ptr<Proposer> writer) {
  auto next = writer ? std::make_unique<RunProposer>(std::move(kernels), combineAlways, std::move(writer))
                     : std::make_unique<RunProposer>(std::move(kernels), combineAlways, parts_->writer);
  parts_->slot.set(next->get());   // the slot never points at a proposer already gone
  parts_->run = std::move(next);
}

GuiBackends::GuiBackends(const GpuProbe& probe) : parts_(std::make_unique<Parts>(probe)) {}
GuiBackends::~GuiBackends() = default;

KernelInspector& GuiBackends::inspector() const { return parts_->inspector; }

EngineBackends GuiBackends::backends() const {
  EngineBackends b{&parts_->proposer, &parts_->compiler, &parts_->dispatcher, {}};
#if CRUCIBLE_HAVE_CUDA
  b.sanitizer = &parts_->sanitizer;
  if (!parts_->dispatcher.canEvaluate()) b.evaluationProblem = QString::fromStdString(parts_->dispatcher.status());
#else
  b.evaluationProblem = QCoreApplication::translate(
      "crucible::app::GuiBackends", "Nothing can be evaluated here: this build of Crucible has no CUDA support.");
#endif
  return b;
}

}  // namespace crucible::app
