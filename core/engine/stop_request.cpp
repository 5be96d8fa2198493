// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine/stop_request.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace crucible {

std::string stopRequestPath(const std::string& projectPath, RunId run) {
  return projectPath + ".stop-" + std::to_string(run);
}

void requestStop(const std::string& projectPath, RunId run) {
  const std::string path = stopRequestPath(projectPath, run);
  std::ofstream out(path, std::ios::trunc);
  out << "stop run " << run << "\n";
  if (!out.flush())
    throw std::runtime_error("cannot write the stop request '" + path + "': " + std::strerror(errno));
}

bool stopRequested(const std::string& projectPath, RunId run) {
  struct stat st {};
  return ::stat(stopRequestPath(projectPath, run).c_str(), &st) == 0;
}

void clearStopRequest(const std::string& projectPath, RunId run) { ::unlink(stopRequestPath(projectPath, run).c_str()); }

}  // namespace crucible
