// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel engineer's own kernel joins a run: the edited source of a forked
// candidate (or a kernel opened from a file) is compiled, validated, timed
// against the run's reference and profiled exactly as the engine treats any
// candidate of that run, and stored as a candidate of the run whose proposer
// is "user". A running engine picks it up between generations (run_loop.h)
// and may select it as a parent. Plain C++ (no Qt): the GUI calls it on a
// worker thread, `crucible-cli fork` calls it directly.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include "core/engine/interfaces.h"
#include "core/model/candidate.h"
#include "core/model/seal.h"
#include "core/store/project_store.h"

namespace crucible {

// The proposer and mutation of every user candidate.
inline constexpr const char* kUserProposer = "user";
inline constexpr const char* kUserMutation = "edit";

// Why a user kernel could not be evaluated (nothing was stored): no such
// candidate or run, an empty or oversized source, a reference that does not
// compile or validate on this GPU, a backend that failed. A kernel that does
// not compile or is not valid is NOT an error: it is stored with its status.
class UserEvaluationError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct UserKernel {
  // Fork of this candidate (any status, the run's reference too): the kernel
  // joins the parent's run, as its child. 0: a kernel opened from a file,
  // joining `run` with no parent.
  CandidateId parent = 0;
  RunId run = 0;                   // only when parent is 0
  std::string source;              // the edited CUDA C++ source
  // Unset: the parent's launch rule (for a file kernel: the run reference's).
  // An empty entry is taken from the parent (reference) too.
  std::optional<LaunchRule> launch;
  std::string note;                // the user's note; kept in genomeJson as {"note": ...}
};

enum class UserEvaluationStage {
  Preparing,    // loading the run, compiling the run's reference (timing it if it never was)
  Compiling,    // the user's kernel
  Evaluating,   // validating, timing against the reference, profiling (and, for a seal, more)
  Storing,
  Done,
};
const char* toString(UserEvaluationStage s);

struct UserEvaluationProgress {
  UserEvaluationStage stage = UserEvaluationStage::Preparing;
  std::string text;                // one line for a status bar
};

struct UserEvaluationOptions {
  // Profile a Valid kernel whatever the run's profile mode (the user asked
  // for its figures). false: the run's own rule (run settings' "profile").
  bool profile = true;
  // Runs before a seal, as in the engine; without one the kernel can still
  // be stored but never sealed (its status detail says why).
  Sanitizer* sanitizer = nullptr;
  // Called on the calling thread only.
  std::function<void(const UserEvaluationProgress&)> progress;
  // Set from any thread. Checked while compiling and evaluating and once
  // more right before storing: a cancel before storing stores nothing. An
  // evaluation already on the GPU is not interrupted (the evaluator's call
  // is blocking); the result is then thrown away.
  const std::atomic<bool>* cancel = nullptr;
};

struct UserEvaluation {
  bool cancelled = false;          // true: nothing was stored, candidate is unset
  Candidate candidate;             // as stored (id set), with its status, reports, timing and fitness
  std::optional<Seal> seal;        // it earned a seal (stored)
  std::string sealNote;            // validated further but not sealed: why
  Fingerprint device;              // the GPU it ran on ("" gpu when it never ran: compile failure)
  double gpuSeconds = 0;           // GPU time it used (not charged to the run's budget)
};

// Compiles, validates, times, profiles and stores one user kernel. `store`
// must be writable. Every run status is accepted, Finished, Stopped and
// Failed included: a finished run's lineage still grows by a human's idea, and
// a later resume of the run (or the running engine) may build on it. Throws
// UserEvaluationError as described above (and StoreError for the store).
// The kernel is not charged to the run's budget and does not change the run
// row (a running engine owns it); a running engine folds the candidate into
// its archive, best speedup and seal bar when it notices it.
UserEvaluation evaluateUserKernel(ProjectStore& store, Compiler& compiler, Evaluator& evaluator,
                                  const UserKernel& kernel, const UserEvaluationOptions& options = {});

// The architecture key of a genome-less user kernel: "user:" + 16 hex digits
// of FNV-1a over the source with line endings, leading and trailing blanks,
// blank lines and whole-line // comments normalised away (re-indenting or
// commenting does not make another architecture; a changed statement does).
std::string userArchitectureKey(const std::string& source);

}  // namespace crucible
