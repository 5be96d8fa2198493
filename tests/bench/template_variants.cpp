// SPDX-License-Identifier: GPL-3.0-or-later
// template-variants: writes template-proposer kernels for chosen genomes in the
// export format of `crucible-cli best --export` (<name>.cu + <name>.json), so
// tests/bench/variant_bench.py can time several designs of one task side by
// side with PyTorch in one process. A bench tool for engineers who want to see
// what a gene or parameter is worth on their GPU, outside an evolution run.
//
//   template-variants TASK.json OUTDIR [GENOMES.jsonl | --sweep=NAME[,NAME...]]
// Without GENOMES, the space's starting points; else one genome per line,
// {"genes": {...}, "params": {...}} (the family is the task's). Illegal
// genomes are listed with their reasons and skipped.
// --sweep=NAMES: the starting points, then each starting point with one of the named
// genes or parameters moved to every other value of its domain ("all": every
// gene and parameter), legal ones only, each genome once. A changed gene keeps
// the starting point's parameters where it still has them and tries every
// value of the parameters it brings (schedule=persistent: each BLOCKS_PER_SM).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include "backends/proposers/template/design_space.h"
#include "backends/proposers/template/genome_ops.h"
#include "backends/proposers/template/kernel_problem.h"
#include "backends/proposers/template/template_proposer.h"
#include "core/model/kernel_export.h"
#include "core/task/task_spec.h"

using namespace crucible;
using nlohmann::json;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<templates::Genome> readGenomes(const std::string& path, const std::string& family) {
  std::vector<templates::Genome> out;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw std::runtime_error(path + ":" + std::to_string(n) + ": not a JSON object");
    j["family"] = family;
    out.push_back(templates::Genome::fromJson(j.dump()));
  }
  return out;
}

std::vector<std::string> splitNames(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// The starting points, then their one-gene or one-parameter neighbours (see the top of the file).
std::vector<templates::Genome> sweepGenomes(const templates::KernelProblem& p, const std::string& names) {
  std::vector<templates::Genome> starts, out;
  for (const auto& sp : templates::designSpaceFor(p.family).startingPoints(p)) {
    const templates::Genome g = templates::withFallbacks(sp, p);
    if (!templates::isLegal(g, p) || std::find(out.begin(), out.end(), g) != out.end()) continue;
    starts.push_back(g);
    out.push_back(g);
  }
  for (const auto& start : starts)
    for (const auto& g : templates::oneStepNeighbours(start, p, splitNames(names)))
      if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: template-variants TASK.json OUTDIR [GENOMES.jsonl | --sweep=NAME[,NAME...]]\n";
    return 2;
  }
  try {
    const std::string specText = readFile(argv[1]);
    const TaskSpec spec = parseTaskSpec(specText);
    const templates::KernelProblem problem = templates::problemFromSpec(spec);
    const bool sweep = argc == 4 && std::string(argv[3]).rfind("--sweep", 0) == 0;
    std::string sweepNames;
    if (sweep) {
      const std::string arg = argv[3];
      if (arg.rfind("--sweep=", 0) == 0) sweepNames = arg.substr(8);
      else throw std::runtime_error("--sweep needs its names: --sweep=NAME[,NAME...] (or --sweep=all)");
    }
    const auto genomes = sweep        ? sweepGenomes(problem, sweepNames)
                         : argc == 4 ? readGenomes(argv[3], problem.family)
                                     : templates::designSpaceFor(problem.family).startingPoints(problem);
    std::filesystem::create_directories(argv[2]);
    int written = 0;
    for (std::size_t i = 0; i < genomes.size(); ++i) {
      const auto problems = templates::checkGenome(genomes[i], problem);
      const std::string label = "v" + std::to_string(i);
      if (!problems.empty()) {
        std::cout << label << " skipped (" << genomes[i].genesText() << " " << genomes[i].paramsText() << "): " << problems.front()
                  << "\n";
        continue;
      }
      const Candidate c = TemplateProposer::candidateFor(genomes[i], problem);
      const std::filesystem::path base = std::filesystem::path(argv[2]) / (spec.name + "@" + label);
      std::ofstream(base.string() + ".cu") << c.source;
      json meta = exportedKernelJson(spec.name, spec.family, specText, c);
      meta["candidate"] = label;
      meta["run"] = "variants";
      meta["genome"] = json::parse(c.genomeJson);
      std::ofstream(base.string() + ".json") << meta.dump(2) << "\n";
      std::cout << label << ": " << genomes[i].genesText() << " " << genomes[i].paramsText() << "\n";
      ++written;
    }
    std::cout << "wrote " << written << " kernel(s) to " << argv[2] << "\n";
    return written > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "template-variants: " << e.what() << "\n";
    return 2;
  }
}
