// SPDX-License-Identifier: GPL-3.0-or-later
// Finding a cubin's writable module variables without a GPU: NVRTC builds the
// cubin, the ELF reader lists what the worker resets before every launch.
#include <gtest/gtest.h>
#include <elf.h>
#include <chrono>
#include <cstring>
#include <algorithm>
#include "backends/cuda/compile/nvrtc_compiler.h"
#include "backends/cuda/worker/cubin_globals.h"

namespace crucible::cuda {
namespace {

std::string cubinOf(const std::string& source) {
  NvrtcCompiler compiler;
  CompileRequest req;
  req.source = source;
  req.entry = "k";
  req.arch = "sm_90";
  const CompileResult r = compiler.compile(req);
  EXPECT_TRUE(r.report.ok) << r.report.log;
  return r.cubin;
}

const CubinGlobal* find(const std::vector<CubinGlobal>& all, const std::string& name) {
  auto it = std::find_if(all.begin(), all.end(), [&](const CubinGlobal& g) { return g.name.find(name) != std::string::npos; });
  return it == all.end() ? nullptr : &*it;
}

TEST(CubinGlobals, ListsEveryWritableModuleVariableAndNothingElse) {
  const std::string cubin = cubinOf(R"(
__device__ unsigned long long launches;
__device__ float table[4] = {1, 2, 3, 4};
static __device__ int hidden;
__constant__ float coefficients[8];
extern "C" __global__ void k(float* y) {
  __shared__ float s[32];
  s[threadIdx.x % 32] = table[threadIdx.x % 4] + coefficients[threadIdx.x % 8];
  atomicAdd(&launches, 1ull);
  hidden += 1;
  y[threadIdx.x] = s[(threadIdx.x + 1) % 32] + hidden;
})");
  const std::vector<CubinGlobal> globals = writableGlobals(cubin);
  const CubinGlobal* launches = find(globals, "launches");
  const CubinGlobal* table = find(globals, "table");
  const CubinGlobal* hidden = find(globals, "hidden");
  ASSERT_NE(launches, nullptr);
  ASSERT_NE(table, nullptr);
  ASSERT_NE(hidden, nullptr) << "file-local (static) variables are state too";
  EXPECT_EQ(launches->bytes, 8u);
  EXPECT_FALSE(launches->initialised);
  EXPECT_EQ(table->bytes, 16u);
  EXPECT_TRUE(table->initialised);
  EXPECT_EQ(find(globals, "coefficients"), nullptr) << "constant memory is read-only on the device";
  EXPECT_EQ(globals.size(), 3u);
}

// What a kernel can take the address of: the writable variables and the
// constants too (cvta.const turns a constant's address into a generic one).
TEST(CubinGlobals, AddressableGlobalsAddTheConstants) {
  const std::string cubin = cubinOf(R"(
__device__ unsigned long long launches;
__constant__ float coefficients[8] = {1, 2, 3, 4, 5, 6, 7, 8};
extern "C" __global__ void k(float* y) {
  atomicAdd(&launches, 1ull);
  y[threadIdx.x] = coefficients[threadIdx.x % 8];
})");
  const std::vector<CubinGlobal> globals = addressableGlobals(cubin);
  ASSERT_NE(find(globals, "launches"), nullptr);
  const CubinGlobal* coefficients = find(globals, "coefficients");
  ASSERT_NE(coefficients, nullptr);
  EXPECT_EQ(coefficients->bytes, 32u);
  EXPECT_EQ(globals.size(), 2u) << "kernel parameters (.nv.constant0.k) are no variable";
}

TEST(CubinGlobals, AKernelWithoutModuleVariablesHasNone) {
  EXPECT_TRUE(writableGlobals(cubinOf("extern \"C\" __global__ void k(float* y) { y[threadIdx.x] = 1.0f; }")).empty());
}

TEST(CubinGlobals, DamagedImagesAreRefusedNotRead) {
  const std::string cubin = cubinOf("__device__ int n;\nextern \"C\" __global__ void k(int* y) { y[0] = ++n; }");
  EXPECT_THROW(writableGlobals(""), CubinFormatError);
  EXPECT_THROW(writableGlobals("not an elf image at all, just text"), CubinFormatError);
  for (std::size_t cut : {std::size_t{16}, std::size_t{64}, cubin.size() / 2, cubin.size() - 1}) {
    try {
      writableGlobals(cubin.substr(0, cut));  // may succeed when the cut misses the tables it reads
    } catch (const CubinFormatError&) {
    }
  }
  std::string scrambled = cubin;
  for (std::size_t i = 64; i < scrambled.size(); i += 7) scrambled[i] = static_cast<char>(scrambled[i] ^ 0x5A);
  try {
    writableGlobals(scrambled);
  } catch (const CubinFormatError&) {
  }
}

// One symbol table's header repeated thousands of times over the same bytes:
// refused at once, not visited table by table.
TEST(CubinGlobals, SymbolTablesLargerThanTheImageAreRefusedAtOnce) {
  const std::size_t tables = 20000, tableBytes = 1 << 20;
  std::string image(sizeof(Elf64_Ehdr) + (tables + 2) * sizeof(Elf64_Shdr) + tableBytes, '\0');
  Elf64_Ehdr h{};
  std::memcpy(h.e_ident, ELFMAG, SELFMAG);
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_shentsize = sizeof(Elf64_Shdr);
  h.e_shoff = sizeof(Elf64_Ehdr);
  h.e_shnum = static_cast<std::uint16_t>(tables + 2);
  h.e_shstrndx = 1;
  std::memcpy(image.data(), &h, sizeof h);
  const std::size_t payload = sizeof(Elf64_Ehdr) + (tables + 2) * sizeof(Elf64_Shdr);
  Elf64_Shdr names{};  // section 1: an empty string table over the payload
  names.sh_type = SHT_STRTAB;
  names.sh_offset = payload;
  names.sh_size = tableBytes;
  std::memcpy(image.data() + h.e_shoff + sizeof(Elf64_Shdr), &names, sizeof names);
  Elf64_Shdr symtab{};  // every other section: the same symbol table over the payload
  symtab.sh_type = SHT_SYMTAB;
  symtab.sh_offset = payload;
  symtab.sh_size = tableBytes;
  symtab.sh_entsize = sizeof(Elf64_Sym);
  symtab.sh_link = 1;
  for (std::size_t i = 2; i < tables + 2; ++i)
    std::memcpy(image.data() + h.e_shoff + i * sizeof(Elf64_Shdr), &symtab, sizeof symtab);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(addressableGlobals(image), CubinFormatError);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.5);
}

// The device heap outlives a launch and cannot be reset: kernels that call it
// are found by their undefined malloc / free symbols, whichever form.
TEST(CubinGlobals, CallsToTheDeviceHeapAreFound) {
  EXPECT_EQ(deviceHeapCalls(cubinOf(R"(
extern "C" __global__ void k(unsigned* y) {
  unsigned* p = (unsigned*)malloc(16);
  if (p) { p[0] = 1; y[0] = p[0]; free(p); }
})")),
            (std::vector<std::string>{"malloc", "free"}) );
  EXPECT_EQ(deviceHeapCalls(cubinOf(R"(
extern "C" __global__ void k(unsigned* y) {
  unsigned* p = (unsigned*)__nv_aligned_device_malloc(64, 32);
  if (p) y[0] = p[0];
})")),
            std::vector<std::string>{"__cuda_syscall_aligned_malloc"});
  // printf is an undefined symbol too (vprintf), and is not the heap.
  EXPECT_TRUE(deviceHeapCalls(cubinOf(R"(
extern "C" __global__ void k(unsigned* y) { printf("%u\n", threadIdx.x); y[0] = 1; })")).empty());
  EXPECT_THROW(deviceHeapCalls("not an elf image at all, just text"), CubinFormatError);
}

}  // namespace
}  // namespace crucible::cuda
