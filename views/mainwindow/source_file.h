// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a candidate's CUDA source to a file the user chose ("Save source as
// .cu…"); kept apart from the dialog so it can be tested without one.
#pragma once
#include <QString>
#include <string>
#include "core/model/ids.h"

namespace crucible::views {

// Writes source to path atomically. Returns "" on success, else a message
// naming the file and the reason.
QString writeSourceFile(const QString& path, const std::string& source);

// The name the save dialog proposes: "candidate_42.cu".
QString suggestedSourceFileName(CandidateId id);

}  // namespace crucible::views
