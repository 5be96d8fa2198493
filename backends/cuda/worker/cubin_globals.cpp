// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/cubin_globals.h"
#include <elf.h>
#include <cstring>

namespace crucible::cuda {
namespace {

template <typename T>
T readAt(const std::string& image, std::uint64_t offset) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) throw CubinFormatError("the cubin is truncated");
  T value;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return value;
}

// A NUL-terminated name inside the string table [tableOffset, tableOffset + tableSize).
std::string nameAt(const std::string& image, std::uint64_t tableOffset, std::uint64_t tableSize, std::uint32_t index) {
  if (index >= tableSize || tableOffset > image.size() || image.size() - tableOffset < tableSize)
    throw CubinFormatError("a symbol name lies outside its string table");
  const char* begin = image.data() + tableOffset + index;
  const std::size_t room = static_cast<std::size_t>(tableSize - index);
  const std::size_t length = strnlen(begin, room);
  if (length == room) throw CubinFormatError("a symbol name is not terminated");
  return std::string(begin, length);
}

// Calls `visit(symbol, name, sectionName)` for every entry of every symbol
// table that is undefined or in a section; `name()` and `sectionName()` read
// the names only when asked (sectionName() is empty for undefined symbols).
template <typename Visit>
void forEachSymbol(const std::string& cubin, Visit visit) {
  const auto header = readAt<Elf64_Ehdr>(cubin, 0);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64)
    throw CubinFormatError("not a 64-bit ELF image");
  if (header.e_shentsize != sizeof(Elf64_Shdr)) throw CubinFormatError("unexpected section header size");
  std::vector<Elf64_Shdr> sections;
  for (std::uint16_t i = 0; i < header.e_shnum; ++i)
    sections.push_back(readAt<Elf64_Shdr>(cubin, header.e_shoff + std::uint64_t{i} * sizeof(Elf64_Shdr)));
  if (header.e_shstrndx >= sections.size()) throw CubinFormatError("no section name table");
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  auto sectionName = [&](std::size_t i) { return nameAt(cubin, names.sh_offset, names.sh_size, sections[i].sh_name); };

  // The symbol tables may not hold more entries together than the image has
  // room for: tables that overlap, or one header repeated thousands of times,
  // would have the worker visit the same entries for minutes.
  std::uint64_t symbolBytes = 0;
  for (const Elf64_Shdr& symtab : sections)
    if (symtab.sh_type == SHT_SYMTAB && (symtab.sh_size > cubin.size() || (symbolBytes += symtab.sh_size) > cubin.size()))
      throw CubinFormatError("the symbol tables are larger than the image");
  for (const Elf64_Shdr& symtab : sections) {
    if (symtab.sh_type != SHT_SYMTAB) continue;
    if (symtab.sh_link >= sections.size() || symtab.sh_entsize != sizeof(Elf64_Sym))
      throw CubinFormatError("a malformed symbol table");
    const Elf64_Shdr& strtab = sections[symtab.sh_link];
    for (std::uint64_t off = 0; off + sizeof(Elf64_Sym) <= symtab.sh_size; off += sizeof(Elf64_Sym)) {
      const auto sym = readAt<Elf64_Sym>(cubin, symtab.sh_offset + off);
      if (sym.st_shndx != SHN_UNDEF && sym.st_shndx >= sections.size()) continue;  // special sections (ABS, COMMON)
      visit(sym, [&] { return nameAt(cubin, strtab.sh_offset, strtab.sh_size, sym.st_name); },
            [&] { return sym.st_shndx == SHN_UNDEF ? std::string() : sectionName(sym.st_shndx); });
    }
  }
}

}  // namespace

std::vector<CubinGlobal> writableGlobals(const std::string& cubin) {
  std::vector<CubinGlobal> globals;
  forEachSymbol(cubin, [&](const Elf64_Sym& sym, const auto& name, const auto& sectionName) {
    if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF) return;
    const std::string section = sectionName();
    if (section.rfind(".nv.global", 0) != 0) return;  // constant, shared and local memory do not outlive a launch writably
    CubinGlobal g;
    g.name = name();
    g.bytes = sym.st_size;
    g.initialised = section == ".nv.global.init";
    globals.push_back(std::move(g));
  });
  return globals;
}

std::vector<CubinGlobal> addressableGlobals(const std::string& cubin) {
  std::vector<CubinGlobal> globals = writableGlobals(cubin);
  forEachSymbol(cubin, [&](const Elf64_Sym& sym, const auto& name, const auto& sectionName) {
    if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF || sym.st_name == 0) return;
    if (sectionName().rfind(".nv.constant", 0) != 0) return;
    CubinGlobal g;
    g.name = name();
    g.bytes = sym.st_size;
    globals.push_back(std::move(g));
  });
  return globals;
}

std::vector<std::string> deviceHeapCalls(const std::string& cubin) {
  std::vector<std::string> calls;
  forEachSymbol(cubin, [&](const Elf64_Sym& sym, const auto& name, const auto&) {
    if (sym.st_shndx != SHN_UNDEF || sym.st_name == 0) return;
    // malloc and free; __nv_aligned_device_malloc links as __cuda_syscall_aligned_malloc.
    const std::string n = name();
    const bool frees = n.size() >= 4 && n.compare(n.size() - 4, 4, "free") == 0;
    if (n.find("malloc") != std::string::npos || n.find("Malloc") != std::string::npos || frees) calls.push_back(n);
  });
  return calls;
}

}  // namespace crucible::cuda
