// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/core/engine/doubles/fake_genome.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <nlohmann/json.hpp>

namespace crucible::testing {
namespace {
int indexOf(const std::vector<std::string>& v, const std::string& s) {
  auto it = std::find(v.begin(), v.end(), s);
  if (it == v.end()) throw std::invalid_argument("fake genome: unknown value " + s);
  return static_cast<int>(it - v.begin());
}
int indexOf(const std::vector<std::int64_t>& v, std::int64_t x) {
  auto it = std::find(v.begin(), v.end(), x);
  if (it == v.end()) throw std::invalid_argument("fake genome: unknown value " + std::to_string(x));
  return static_cast<int>(it - v.begin());
}
}  // namespace

std::string FakeGenome::architectureKey() const {
  return "mem=" + kMemory[mem] + ";gran=" + kGranularity[gran] + ";vec=" + std::to_string(kVector[vec]);
}

std::map<std::string, std::string> FakeGenome::descriptor() const {
  return {{"memory", kMemory[mem]}, {"granularity", kGranularity[gran]}, {"vector_width", std::to_string(kVector[vec])}};
}

std::string FakeGenome::json() const {
  nlohmann::json j = {{"mem", kMemory[mem]}, {"gran", kGranularity[gran]}, {"vec", kVector[vec]},
                      {"params", {{"BLOCK", block}, {"UNROLL", unroll}}}};
  if (nonce) j["nonce"] = nonce;
  return j.dump();
}

std::string FakeGenome::source() const {
  std::ostringstream s;
  // The genome is in a code line, as a real kernel's configuration is: only
  // code (not comment lines) tells two kernels apart in the tuning cache.
  s << "// fake kernel\n#define FAKE_GENOME \" " << kMemory[mem] << ' ' << kGranularity[gran] << ' ' << kVector[vec] << ' '
    << block << ' ' << unroll << ' ' << nonce << "\"\nextern \"C\" __global__ void gelu_kernel() {}\n";
  return s.str();
}

std::optional<FakeGenome> parseFakeSource(const std::string& source) {
  const std::string marker = "#define FAKE_GENOME \" ";
  auto at = source.find(marker);
  if (at == std::string::npos) return std::nullopt;
  std::istringstream in(source.substr(at + marker.size()));
  std::string mem, gran;
  std::int64_t vec = 0;
  FakeGenome g;
  in >> mem >> gran >> vec >> g.block >> g.unroll >> g.nonce;
  g.mem = indexOf(kMemory, mem);
  g.gran = indexOf(kGranularity, gran);
  g.vec = indexOf(kVector, vec);
  return g;
}

FakeGenome genomeFromJson(const std::string& text) {
  auto j = nlohmann::json::parse(text);
  FakeGenome g;
  g.mem = indexOf(kMemory, j.at("mem").get<std::string>());
  g.gran = indexOf(kGranularity, j.at("gran").get<std::string>());
  g.vec = indexOf(kVector, j.at("vec").get<std::int64_t>());
  g.block = j.at("params").at("BLOCK").get<std::int64_t>();
  g.unroll = j.at("params").at("UNROLL").get<std::int64_t>();
  g.nonce = j.value("nonce", std::uint64_t{0});
  return g;
}

double fakeTimeUs(const FakeGenome& g) {
  static const double memory[] = {1.0, 0.7, 0.55};
  static const double granularity[] = {1.15, 0.8, 0.95};
  static const double vector[] = {1.0, 0.85, 0.7, 0.62};
  double block = 1.0 + 0.08 * std::abs(std::log2(static_cast<double>(g.block) / 256.0));
  double unroll = g.unroll == 1 ? 1.0 : (g.unroll == 2 ? 0.95 : 0.97);
  return 100.0 * memory[g.mem] * granularity[g.gran] * vector[g.vec] * block * unroll;
}

bool fakeCompiles(const FakeGenome& g) { return !(kVector[g.vec] == 8 && g.gran == 0); }
bool fakeIsCorrect(const FakeGenome& g) { return !(g.mem == 2 && g.block == 512); }

}  // namespace crucible::testing
