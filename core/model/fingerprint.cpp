// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/fingerprint.h"

namespace crucible {

std::string describeHardware(const Fingerprint& f) {
  if (!recorded(f)) return "an unrecorded GPU";
  std::string inside = f.arch.empty() ? "" : f.arch;
  if (f.smCount > 0) inside += (inside.empty() ? "" : ", ") + std::to_string(f.smCount) + " SMs";
  if (!f.driver.empty()) inside += (inside.empty() ? "" : ", ") + ("driver " + f.driver);
  return inside.empty() ? f.gpu : f.gpu + " (" + inside + ")";
}

std::optional<std::string> hardwareDifference(const Fingerprint& a, const Fingerprint& b, const std::string& what,
                                              const std::string& other) {
  auto sentence = [&](const std::string& why) {
    return what + " on " + describeHardware(a) + ", " + other + " on " + describeHardware(b) + ": " + why;
  };
  if (!recorded(a) || !recorded(b)) return sentence("the GPU is not recorded on both sides");
  if (a.gpu != b.gpu) return sentence("different GPU models");
  if (a.arch != b.arch) return sentence("different architectures");
  if (a.smCount > 0 && b.smCount > 0 && a.smCount != b.smCount) return sentence("different SM counts");
  if (a.driver != b.driver) return sentence("different drivers");
  return std::nullopt;
}

}  // namespace crucible
