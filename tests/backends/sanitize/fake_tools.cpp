// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/backends/sanitize/fake_tools.h"

#include <unistd.h>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace crucible::testing {
namespace {

void writeScript(const std::filesystem::path& path, const std::string& text) {
  {
    std::ofstream out(path, std::ios::trunc);
    out << text;
  }
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

}  // namespace

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

FakeTools::FakeTools() {
  static std::atomic<int> counter{0};
  dir_ = std::filesystem::temp_directory_path() /
         ("crucible-fake-sanitizer-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  worker();
}

FakeTools::~FakeTools() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void FakeTools::sanitizer(const std::string& body) const {
  const std::string record = dir_.string();
  writeScript(dir_ / "compute-sanitizer",
              "#!/bin/sh\n"
              "echo \"$*\" >> '" + record + "/arguments'\n"
              "env >> '" + record + "/environment'\n"
              "tool=; log=\n"
              "while [ $# -gt 0 ]; do\n"
              "  case \"$1\" in\n"
              "    --tool) tool=$2; shift 2;;\n"
              "    --log-file) log=$2; shift 2;;\n"
              "    --error-exitcode|--print-limit|--report-api-errors|--show-backtrace|--racecheck-report|--padding) shift 2;;\n"
              "    *) break;;\n"
              "  esac\n"
              "done\n"
              "\"$@\"; status=$?\n" +
                  body + "\n");
}

void FakeTools::worker(const std::string& body) const {
  writeScript(dir_ / "crucible-worker",
              "#!/bin/sh\n"
              "[ \"$1\" = --sanitize-run ] || { echo \"unexpected arguments: $*\" >&2; exit 2; }\n"
              "for f in task.json kernel.cubin launch.json; do\n"
              "  [ -s \"$2/$f\" ] || { echo \"the job has no $f\" >&2; exit 2; }\n"
              "done\n" +
                  (body.empty() ? std::string("echo \"launched the kernel of $2\"\nexit 0\n") : body + "\n"));
}

std::string FakeTools::cleanBody() {
  return "echo '========= COMPUTE-SANITIZER' >> \"$log\"\n"
         "[ $status -eq 0 ] || echo '========= Target application returned an error' >> \"$log\"\n"
         "if [ \"$tool\" = racecheck ]; then\n"
         "  echo '========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)' >> \"$log\"\n"
         "else\n"
         "  echo '========= ERROR SUMMARY: 0 errors' >> \"$log\"\n"
         "fi\n"
         "exit $status";
}

std::string FakeTools::arguments() const { return readText(dir_ / "arguments"); }
std::string FakeTools::environment() const { return readText(dir_ / "environment"); }

ScopedEnv::ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
  if (const char* old = std::getenv(name)) old_ = old;
  if (value)
    ::setenv(name, value->c_str(), 1);
  else
    ::unsetenv(name);
}

ScopedEnv::~ScopedEnv() {
  if (old_)
    ::setenv(name_.c_str(), old_->c_str(), 1);
  else
    ::unsetenv(name_.c_str());
}

}  // namespace crucible::testing
