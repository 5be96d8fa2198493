// SPDX-License-Identifier: GPL-3.0-or-later
// What a failed load, launch or wait means for a candidate: which status it
// earns and why, in words.
#pragma once
#include <cuda.h>
#include <stdexcept>
#include <string>
#include "core/model/candidate.h"

namespace crucible::cuda {

// Thrown inside an evaluation when a kernel cannot be loaded, launched or
// completed; carries the candidate status it earns.
class KernelFailure : public std::runtime_error {
public:
  KernelFailure(CandidateStatus status, const std::string& detail) : std::runtime_error(detail), status_(status) {}
  CandidateStatus status() const { return status_; }
private:
  CandidateStatus status_;
};

// Faulted for errors raised while a kernel ran (illegal or misaligned
// address, trap, assert, illegal instruction); ResourceError for a launch the
// device refused (too many registers or threads, too much shared memory, an
// invalid configuration); CompileFailed for an image that cannot load here.
CandidateStatus statusForError(CUresult rc);

// "<what>: CUDA_ERROR_ILLEGAL_ADDRESS (...)" plus a hint for the common cases.
std::string explainError(const std::string& what, CUresult rc);

}  // namespace crucible::cuda
