// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "core/store/project_store.h"
#include "core/task/task_spec.h"
#include "tests/fuzz/fuzz_entries.h"
#include "tests/fuzz/scratch_folder.h"

namespace crucible::fuzz {
namespace {

// Everything a reviewer's session reads: the GUI's docks and `crucible-cli best`.
void readEverything(const ProjectStore& store) {
  store.schemaVersion();
  store.dataVersion();
  for (const Task& t : store.tasks()) {
    try {
      parseTaskSpec(t.specJson);  // the roofline re-parses the stored spec
    } catch (const TaskSpecError&) {
    }
  }
  for (const Run& r : store.runs()) {
    store.archive(r.id);
    store.verdicts(r.id);
    store.metaPrompts(r.id);
    store.log(r.id, 0, 100);
  }
  int read = 0;
  for (const CandidateSummary& c : store.candidateSummaries())
    if (read++ < 64) store.candidate(c.id);
  store.knowledge();
  store.searchKnowledge("load* shared");
  store.seals();
  store.ceilings();
  store.log(0, 0, 100);
}

}  // namespace

void projectOpenEntry(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path path = fuzzScratchFolder() / "input.crucible";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const auto store = ProjectStore::open(path.string(), ProjectStore::Mode::ReadOnly);
    readEverything(*store);
  } catch (const std::exception& e) {
    // Refusing a damaged file (StoreError, or a row that does not decode) is
    // the right answer; a crash, a hang or a leak is the finding.
    if (std::getenv("CRUCIBLE_FUZZ_VERBOSE")) std::fprintf(stderr, "project_open: refused: %s\n", e.what());
    return removeProjectFiles(path);
  }
  if (std::getenv("CRUCIBLE_FUZZ_VERBOSE")) std::fprintf(stderr, "project_open: opened and read\n");
  removeProjectFiles(path);
}

}  // namespace crucible::fuzz
