// SPDX-License-Identifier: GPL-3.0-or-later
// template-variants: writes template-proposer kernels for chosen genomes in the
// export format of `crucible-cli best --export` (<name>.cu + <name>.json), so
// tests/bench/variant_bench.py can time several designs of one task side by
// side with PyTorch in one process. A bench tool for engineers who want to see
// what a gene or parameter is worth on their GPU, outside an evolution run.
//
//   template-variants TASK.json OUTDIR [GENOMES.jsonl]
// Without GENOMES, the space's starting points; else one genome per line,
// {"genes": {...}, "params": {...}} (the family is the task's). Illegal
// genomes are listed with their reasons and skipped.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include "backends/proposers/template/design_space.h"
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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: template-variants TASK.json OUTDIR [GENOMES.jsonl]\n";
    return 2;
  }
  try {
    const std::string specText = readFile(argv[1]);
    const TaskSpec spec = parseTaskSpec(specText);
    const templates::KernelProblem problem = templates::problemFromSpec(spec);
    const auto genomes = argc == 4 ? readGenomes(argv[3], problem.family)
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
