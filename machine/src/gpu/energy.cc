// SPDX-License-Identifier: Apache-2.0
//
// The energy of a system-model run: see htm/machine/gpu/energy.h and docs/energy.md.
#include "htm/machine/gpu/energy.h"

#include <vector>

#include "htm/machine/gpu/system.h"

namespace htm::gpu {

double Energy::total_pj() const {
  double t = 0;
  for (const double p : part_pj) {
    t += p;
  }
  return t;
}

const EnergyCosts& DefaultEnergyCosts() {
  static const EnergyCosts costs;
  return costs;
}

std::vector<EnergyTerm> EnergyTerms(const SystemStats& s, const MachineConfig& m, TmMode tm,
                                    const EnergyCosts& c) {
  const double seconds = static_cast<double>(s.cycles) / (c.core_clock_mhz * 1e6);
  constexpr double kPjPerMwSecond = 1e9;
  const std::vector<BlockUse> blocks = MachineBlocks(m, tm);
  std::vector<EnergyTerm> terms;
  auto event = [&](EnergyPart part, const char* stat, uint64_t count, const char* key,
                   double cost) {
    terms.push_back(
        {part, stat, key, static_cast<double>(count), cost, static_cast<double>(count) * cost});
  };
  auto power = [&](EnergyPart part, const char* key, double mw) {
    terms.push_back({part, "time", key, seconds, mw, mw * seconds * kPjPerMwSecond});
  };
  auto block_power = [&](EnergyPart part, const char* block, const char* key, double mw) {
    for (const BlockUse& b : blocks) {
      if (b.block == block) {
        const double n = static_cast<double>(b.instances) * seconds;
        terms.push_back({part, block, key, n, mw, mw * n * kPjPerMwSecond});
      }
    }
  };
#define HTM_ENERGY_EVENT(part, stat, key) event(EnergyPart::part, #stat, s.stat, #key, c.key);
#define HTM_ENERGY_POWER(part, key) power(EnergyPart::part, #key, c.key);
#define HTM_ENERGY_BLOCK_POWER(part, block, key) block_power(EnergyPart::part, #block, #key, c.key);
#include "htm/machine/gpu/energy_model.def"
#undef HTM_ENERGY_EVENT
#undef HTM_ENERGY_POWER
#undef HTM_ENERGY_BLOCK_POWER
  return terms;
}

Energy EnergyOf(const SystemStats& s, const MachineConfig& m, TmMode tm, const EnergyCosts& c) {
  Energy e;
  for (const EnergyTerm& t : EnergyTerms(s, m, tm, c)) {
    e.part_pj[static_cast<int>(t.part)] += t.pj;
  }
  return e;
}

std::vector<std::string> EnergyCostKeysUsed() {
  std::vector<std::string> keys = {"core_clock_mhz"};
#define HTM_ENERGY_EVENT(part, stat, key) keys.emplace_back(#key);
#define HTM_ENERGY_POWER(part, key) keys.emplace_back(#key);
#define HTM_ENERGY_BLOCK_POWER(part, block, key) keys.emplace_back(#key);
#include "htm/machine/gpu/energy_model.def"
#undef HTM_ENERGY_EVENT
#undef HTM_ENERGY_POWER
#undef HTM_ENERGY_BLOCK_POWER
  return keys;
}

std::vector<std::string> EnergyLeakageBlocks() {
  std::vector<std::string> blocks;
#define HTM_ENERGY_EVENT(part, stat, key)
#define HTM_ENERGY_POWER(part, key)
#define HTM_ENERGY_BLOCK_POWER(part, block, key)    \
  if (EnergyPart::part == EnergyPart::kTmLeakage) { \
    blocks.emplace_back(#block);                    \
  }
#include "htm/machine/gpu/energy_model.def"
#undef HTM_ENERGY_EVENT
#undef HTM_ENERGY_POWER
#undef HTM_ENERGY_BLOCK_POWER
  return blocks;
}

}  // namespace htm::gpu
