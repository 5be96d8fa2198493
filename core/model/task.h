// SPDX-License-Identifier: GPL-3.0-or-later
// A task as the store keeps it: the spec document verbatim plus the fields
// that are queried. Parsing and validating the spec is core/task's job.
#pragma once
#include <string>
#include "core/model/ids.h"

namespace crucible {

struct Task {
  TaskId id = 0;
  std::string name;       // unique, e.g. "softmax_f32_8192x4096"
  std::string family;     // operator family, e.g. "softmax", "matmul"
  std::string specJson;   // the task spec document (core/task/task_spec.h)
  int specVersion = 1;
};

}  // namespace crucible
