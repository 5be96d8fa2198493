// SPDX-License-Identifier: GPL-3.0-or-later
// The folder that hands one kernel to `crucible-worker --sanitize-run DIR`:
// the task spec, the cubin and the launch rule, one file each. Written by the
// ComputeSanitizer (engine side), read by the worker under compute-sanitizer;
// both ends use these functions, so the file names cannot drift apart.
#pragma once
#include <filesystem>
#include <string>
#include "core/model/candidate.h"

namespace crucible {

struct SanitizeJob {
  std::string taskSpecJson;   // the task spec file's text (Task::specJson)
  std::string cubin;
  LaunchRule launch;
};

// Writes the job's three files into `dir` (which exists). Throws
// std::runtime_error naming the file that cannot be written.
void writeSanitizeJob(const std::filesystem::path& dir, const SanitizeJob& job);

// Reads a job back. Throws std::runtime_error naming the file that is
// missing or malformed.
SanitizeJob readSanitizeJob(const std::filesystem::path& dir);

}  // namespace crucible
