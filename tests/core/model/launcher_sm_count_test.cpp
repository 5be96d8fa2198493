// SPDX-License-Identifier: GPL-3.0-or-later
// An exported kernel whose launch rule names sm_count (issue 20): the host
// launcher (and so the PyTorch extension and the FlashInfer-Trace solution
// that build on it) asks the current device for its SM count at every launch
// and computes the rule in C++ exactly as the worker's evaluator does. The
// computed expressions are compiled with the host's C++ compiler and run at
// several SM counts against evaluateAxisExpression; the whole file is
// compiled with nvcc where the CUDA toolkit is installed (no GPU needed).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "core/model/host_launcher.h"
#include "core/model/kernel_export.h"
#include "core/model/torch_extension_export.h"
#include "core/task/expression.h"
#include "core/task/launch_variables.h"
#include "core/task/task_library.h"
#include "core/task/task_spec.h"

namespace crucible {
namespace {

namespace fs = std::filesystem;

TaskSpec builtin(const std::string& name) {
  return loadTaskSpecFile((fs::path(builtinTasksDir()) / (name + ".json")).string());
}

// The built-in 8192^3 bf16 GEMM's baseline with the persistent template's grid, and
// expressions that exercise every operator and function of the language in the other fields.
Candidate persistentKernel(const TaskSpec& spec) {
  Candidate c;
  c.id = 9;
  c.runId = 1;
  c.source = spec.baseline.source;
  c.launch = spec.baseline.launch;
  c.launch.grid[0] = "min(ceil_div(N, 256) * ceil_div(M, 128), sm_count / 2 * 2)";
  c.launch.grid[1] = "max(1, --(sm_count % 7) - 3)";
  c.launch.grid[2] = "ceil_div(0 - sm_count, 0 - 5)";
  return c;
}

std::string lineWith(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(start, 0) == 0) return line;
  return "";
}

// Runs a shell command; its output (stdout and stderr) through `log`.
int run(const std::string& command, std::string& log) {
  const fs::path out = fs::temp_directory_path() / ("crucible-launcher-" + std::to_string(::getpid()) + ".log");
  const int rc = std::system((command + " >" + out.string() + " 2>&1").c_str());
  std::ifstream in(out);
  log.assign(std::istreambuf_iterator<char>(in), {});
  fs::remove(out);
  return rc;
}

TEST(HostLauncherSmCount, AsksTheCurrentDeviceForItsSmCountAtEveryLaunch) {
  const TaskSpec spec = builtin("matmul_bf16_8192x8192x8192");
  const Candidate k = persistentKernel(spec);
  const std::string text = hostLauncherSource(spec, k.launch);
  EXPECT_NE(text.find("cudaGetDevice(&crucible_device)"), std::string::npos) << text;
  EXPECT_NE(text.find("cudaDeviceGetAttribute(&crucible_sms, cudaDevAttrMultiProcessorCount, crucible_device)"),
            std::string::npos)
      << text;
  // The rule is computed, not a constant of the machine that exported it; axes are the validated shape's.
  EXPECT_NE(text.find("const long long crucible_grid_x = crucible_min(crucible_ceil_div((8192LL), 256LL) * "
                      "crucible_ceil_div((8192LL), 128LL), crucible_sm_count / 2LL * 2LL);"),
            std::string::npos)
      << text;
  // A value CUDA cannot take is not launched.
  EXPECT_NE(text.find("return cudaErrorInvalidConfiguration;"), std::string::npos) << text;
  // A rule without sm_count keeps its constants and asks nothing.
  const Candidate plain = [&] {
    Candidate c = k;
    c.launch = spec.baseline.launch;
    return c;
  }();
  const std::string constant = hostLauncherSource(spec, plain.launch);
  EXPECT_EQ(constant.find("cudaDeviceGetAttribute"), std::string::npos);
  EXPECT_NE(constant.find("  const dim3 grid("), std::string::npos);
}

TEST(HostLauncherSmCount, ARuleThatFailsAtAnSmCountItCouldMeetGetsNoLauncher) {
  const TaskSpec spec = builtin("matmul_bf16_8192x8192x8192");
  Candidate k = persistentKernel(spec);
  k.launch.grid[1] = "M / (sm_count - 1)";
  try {
    hostLauncherSource(spec, k.launch);
    FAIL() << "a division by zero on a one-SM device made a launcher";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("grid[1]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at sm_count = 1"), std::string::npos) << e.what();
  }
}

TEST(HostLauncherSmCount, TheExportedFilesCarryTheQuery) {
  const TaskSpec spec = builtin("matmul_bf16_8192x8192x8192");
  const Candidate k = persistentKernel(spec);
  const std::string file = exportedKernelFile(k, spec.name, &spec, nullptr);
  EXPECT_NE(file.find("// sm_count is the SM count of the device it launches on"), std::string::npos) << file;
  EXPECT_NE(file.find("cudaDevAttrMultiProcessorCount"), std::string::npos);
  // The PyTorch extension (and the FlashInfer-Trace solution made of its files) launches
  // through the launcher, under a guard for the tensors' device: the query is in its kernel file.
  const auto files = torchExtensionFiles(spec, k, file, "gemm", "persistent");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_NE(files[0].content.find("cudaDeviceGetAttribute(&crucible_sms, cudaDevAttrMultiProcessorCount"),
            std::string::npos);
  EXPECT_NE(files[1].content.find("const c10::cuda::CUDAGuard guard(device);"), std::string::npos);
}

TEST(HostLauncherSmCount, TheComputedRuleMatchesTheEvaluatorAtEverySmCount) {
  if (!fs::exists("/usr/bin/c++")) GTEST_SKIP() << "no host C++ compiler at /usr/bin/c++";
  const TaskSpec spec = builtin("matmul_bf16_8192x8192x8192");
  const Candidate k = persistentKernel(spec);
  const std::string text = hostLauncherSource(spec, k.launch);
  // The launcher's helpers and expressions, in a host program that prints them per SM count.
  std::string program =
      "#include <cstdio>\nint main() {\n  const long long counts[] = {1, 2, 7, 16, 132, 133, 148, 1024};\n"
      "  for (const long long crucible_sm_count : counts) {\n";
  std::istringstream in(text);
  bool helper = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  const auto crucible_", 0) == 0) helper = true;
    if (helper || line.rfind("  const long long crucible_grid_", 0) == 0) program += line + "\n";
    if (helper && line.find(";") != std::string::npos && line.rfind("  }", 0) == 0) helper = false;
    if (helper && line.rfind("  const auto crucible_m", 0) == 0) helper = false;  // one-line lambdas
  }
  program += "    std::printf(\"%lld %lld %lld %lld\\n\", crucible_sm_count, crucible_grid_x, crucible_grid_y, crucible_grid_z);\n  }\n}\n";
  ASSERT_FALSE(lineWith(text, "  const long long crucible_grid_z").empty()) << text;
  const fs::path dir = fs::temp_directory_path() / ("crucible-launcher-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "rule.cpp") << program;
  std::string log;
  ASSERT_EQ(run("/usr/bin/c++ -std=c++17 -Wall -Werror " + (dir / "rule.cpp").string() + " -o " + (dir / "rule").string(), log), 0)
      << log << "\n" << program;
  ASSERT_EQ(run((dir / "rule").string(), log), 0) << log;
  fs::remove_all(dir);
  std::istringstream results(log);
  int rows = 0;
  for (long long sms, x, y, z; results >> sms >> x >> y >> z; ++rows) {
    const auto names = launchNames(spec.axes, sms);
    EXPECT_EQ(x, evaluateAxisExpression(k.launch.grid[0], names)) << "sm_count " << sms;
    EXPECT_EQ(y, evaluateAxisExpression(k.launch.grid[1], names)) << "sm_count " << sms;
    EXPECT_EQ(z, evaluateAxisExpression(k.launch.grid[2], names)) << "sm_count " << sms;
  }
  EXPECT_EQ(rows, 8) << log;
}

TEST(HostLauncherSmCount, TheExportedFileCompilesWithNvcc) {
  const std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (!fs::exists(nvcc)) GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda: nvcc cannot be run here";
  const TaskSpec spec = builtin("matmul_bf16_8192x8192x8192");
  Candidate k = persistentKernel(spec);
  k.launch.dynamicSmemBytes = "min(200000, 1024 * sm_count)";  // the opt-in decided at launch time
  const fs::path dir = fs::temp_directory_path() / ("crucible-launcher-nvcc-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.cu") << exportedKernelFile(k, spec.name, &spec, nullptr);
  std::string log;
  const int rc = run(nvcc + " -std=c++17 -c -gencode=arch=compute_90a,code=sm_90a " + (dir / "k.cu").string() + " -o " +
                         (dir / "k.o").string(),
                     log);
  fs::remove_all(dir);
  EXPECT_EQ(rc, 0) << log;
}

}  // namespace
}  // namespace crucible
