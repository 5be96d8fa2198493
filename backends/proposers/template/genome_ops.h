// SPDX-License-Identifier: GPL-3.0-or-later
// Evolution operators on template genomes. Every operator returns a legal
// genome for the problem (or throws std::runtime_error when the design space
// offers none), and draws all its randomness from the generator it is given.
#pragma once
#include <optional>
#include <random>
#include <string>
#include <vector>
#include "backends/proposers/template/design_space.h"

namespace crucible::templates {

// How many genes of `a` are missing from `b` or differ there.
int geneDistance(const GeneMap& a, const GeneMap& b);

using Rng = std::mt19937_64;

// A gene value that validated knowledge favours ("vector: 1 -> 4" => vector=4).
struct GenePreference {
  std::string gene;
  std::string value;
};
// Parses a knowledge decision: "gene=value", "gene: value" or "gene: old -> new";
// "vec" and "vector_width" mean "vector". nullopt when it names no gene.
std::optional<GenePreference> parseDecision(const std::string& decision);

// Gene combinations that have at least one legal parameter point, in a fixed order.
std::vector<GeneMap> legalArchitectures(const KernelProblem& p);

// The legal parameter point closest to `wanted` (fewest differing parameters,
// then the smallest log2 distance); ties broken by `rng`. nullopt when none.
std::optional<ParamMap> nearestLegalParams(const KernelProblem& p, const GeneMap& genes, const ParamMap& wanted, Rng& rng);

// The legal genome closest to `g`: its architecture if legal, else the legal
// architecture with the fewest differing genes; then the nearest parameters.
Genome nearestLegal(const Genome& g, const KernelProblem& p, Rng& rng);

Genome randomGenome(const KernelProblem& p, Rng& rng);

// One gene taking one other value.
struct GeneMove {
  std::string gene, value;
};
// Every (gene, value) change from `g` that one of `archs` (legalArchitectures(p)) realises.
std::vector<GeneMove> geneMoves(const Genome& g, const KernelProblem& p, const std::vector<GeneMap>& archs);

struct GeneMutation {
  Genome child;
  std::string description;  // "vector 1 -> 4"
};
// Changes one gene (`focus` if the family has it, else a random one) to
// another value, preferring `preferences` (best first) half of the time; other
// genes change only where the new value requires it.
GeneMutation mutateGene(const Genome& g, const KernelProblem& p, Rng& rng, const std::string& focus = "",
                        const std::vector<GenePreference>& preferences = {});

struct ParamMutation {
  Genome child;
  std::string description;  // "BLOCK_M 64 -> 128"
};
// Moves `count` parameters one or two steps along their domains.
ParamMutation mutateParams(const Genome& g, const KernelProblem& p, Rng& rng, int count);

// Genes and parameters drawn from either parent (same family), made legal.
Genome crossover(const Genome& a, const Genome& b, const KernelProblem& p, Rng& rng);

// A legal genome whose architecture differs from all of `known`'s, if one exists.
// The legal architectures (gene maps) none of `known` has.
std::vector<GeneMap> freshArchitectures(const std::vector<Genome>& known, const KernelProblem& p);
Genome newArchitecture(const std::vector<Genome>& known, const KernelProblem& p, Rng& rng);

// The legal genomes one step from `start` (its fallbacks filled in) along the
// named genes and parameters ("all": every one): each other value of a named
// gene, with every legal parameter point that keeps `start`'s values of the
// parameters both have (a gene that brings parameters brings each of their
// values); each other value of a named parameter. In a fixed order, no repeats.
std::vector<Genome> oneStepNeighbours(const Genome& start, const KernelProblem& p, const std::vector<std::string>& names);

// `count` legal genomes of architectures as different from each other as possible.
std::vector<Genome> seedGenomes(const KernelProblem& p, std::uint64_t seed, int count);

}  // namespace crucible::templates
