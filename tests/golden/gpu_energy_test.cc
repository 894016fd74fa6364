// SPDX-License-Identifier: Apache-2.0
//
// The energy of a system-model run (htm/machine/gpu/energy.h, docs/energy.md): every cost of the
// generated table is used and every block the machine builds has its leakage; an event counted
// once costs exactly its table entry in its part; a run's energy is the sum of its parts, and
// its parts the sums of its events times the table; the same events over more cycles cost more
// constant power and leakage and the same dynamic energy.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/machine/gpu/energy.h"
#include "htm/machine/gpu/system.h"

namespace htm::gpu {
namespace {

std::vector<TmMode> EveryMode() {
  std::vector<TmMode> modes = AllTmModes();
  modes.push_back(TmMode::kFgl);
  return modes;
}

/// The table's costs by key.
std::map<std::string, double> Costs() {
  std::map<std::string, double> costs;
  ForEachEnergyCost([&](const char* key, double value, const char* unit, const char* source) {
    EXPECT_GT(std::string(unit).size(), 0u) << key;
    EXPECT_GT(std::string(source).size(), 0u) << key;
    EXPECT_TRUE(std::isfinite(value) && value >= 0) << key << " = " << value;
    costs[key] = value;
  });
  return costs;
}

TEST(GpuEnergy, EveryCostIsUsedAndEveryUseHasACost) {
  const std::map<std::string, double> costs = Costs();
  const std::vector<std::string> used = EnergyCostKeysUsed();
  const std::set<std::string> used_set(used.begin(), used.end());
  for (const auto& [key, value] : costs) {
    EXPECT_TRUE(used_set.count(key)) << key << " is in energy_costs.def but no term uses it";
  }
  for (const std::string& key : used_set) {
    EXPECT_TRUE(costs.count(key)) << key << " is used by energy_model.def but not in the table";
  }
}

TEST(GpuEnergy, EveryBlockOfTheMachineHasItsLeakage) {
  const std::vector<std::string> leak = EnergyLeakageBlocks();
  for (const char* name : {"default", "small"}) {
    for (const TmMode tm : EveryMode()) {
      for (const BlockUse& b : MachineBlocks(*FindMachine(name), tm)) {
        EXPECT_EQ(std::count(leak.begin(), leak.end(), b.block), 1)
            << b.block << " (" << name << ", " << ToString(tm) << ") has no leakage term";
      }
    }
  }
}

/// An event counted n times costs n times the costs of the terms on its statistic, in their
/// parts; nothing else costs anything (no cycles: no time).
TEST(GpuEnergy, EachEventCostsItsTableEntryInItsPart) {
  const MachineConfig& m = *FindMachine("default");
  const std::map<std::string, double> costs = Costs();
  SystemStats zero;
  std::vector<std::string> keys;
  zero.ForEachMut([&](const char* key, uint64_t&) { keys.emplace_back(key); });
  int charged = 0;
  for (const std::string& key : keys) {
    if (key == "cycles") {
      continue;  // the run's time: the powers' (MoreCycles... below)
    }
    SystemStats s;
    s.ForEachMut([&](const char* k, uint64_t& v) { v = k == key ? 1000 : 0; });
    const Energy e = EnergyOf(s, m, TmMode::kWarpTmEaPg);
    double want[kEnergyParts] = {0, 0, 0, 0, 0};
    for (const EnergyTerm& t : EnergyTerms(zero, m, TmMode::kWarpTmEaPg)) {
      if (t.what == key) {
        want[static_cast<int>(t.part)] += 1000 * costs.at(t.cost);
      }
    }
    for (int p = 0; p < kEnergyParts; ++p) {
      EXPECT_DOUBLE_EQ(e.part_pj[p], want[p]) << key << ", part " << p;
    }
    charged += e.total_pj() > 0 ? 1 : 0;
  }
  // Every event term's statistic is charged (a term on a misspelt statistic does not compile).
  EXPECT_GE(charged, 25);
}

TEST(GpuEnergy, MoreCyclesWithTheSameEventsCostMoreConstantPowerAndLeakage) {
  const MachineConfig& m = *FindMachine("default");
  const std::map<std::string, double> costs = Costs();
  auto w = FindWorkload("HT1K")->make(Scale::kSmall, 1);
  const RunResult r = RunSystem(*FindMachine("small"), TmMode::kWarpTmEaPg, *w);
  ASSERT_TRUE(r.ok) << r.error;
  SystemStats longer = r.stats;
  longer.cycles = 3 * r.stats.cycles;
  const Energy a = EnergyOf(r.stats, m, TmMode::kWarpTmEaPg);
  const Energy b = EnergyOf(longer, m, TmMode::kWarpTmEaPg);
  EXPECT_GT(b.total_pj(), a.total_pj());
  for (const EnergyPart p : {EnergyPart::kBaselineStatic, EnergyPart::kTmLeakage}) {
    EXPECT_GT(a.pj(p), 0);
    EXPECT_NEAR(b.pj(p), 3 * a.pj(p), 1e-9 * b.pj(p));
  }
  EXPECT_DOUBLE_EQ(b.pj(EnergyPart::kBaselineDynamic), a.pj(EnergyPart::kBaselineDynamic));
  EXPECT_DOUBLE_EQ(b.pj(EnergyPart::kInterconnect), a.pj(EnergyPart::kInterconnect));
  // The TM structures' dynamic energy: the same events, and the commit units' read-ahead copies
  // read every cycle (a power) for three times as long.
  double clocked = 0;
  for (const EnergyTerm& t : EnergyTerms(r.stats, m, TmMode::kWarpTmEaPg)) {
    clocked += t.part == EnergyPart::kTmDynamic && t.cost == std::string("commit_unit_clocked_mw")
                   ? t.pj
                   : 0;
  }
  EXPECT_GT(clocked, 0);
  EXPECT_NEAR(b.pj(EnergyPart::kTmDynamic), a.pj(EnergyPart::kTmDynamic) + 2 * clocked,
              1e-9 * b.pj(EnergyPart::kTmDynamic));
  // The constant power: P x cycles / f, in pJ.
  EXPECT_NEAR(a.pj(EnergyPart::kBaselineStatic),
              costs.at("chip_constant_mw") * 1e9 * static_cast<double>(r.stats.cycles) /
                  (costs.at("core_clock_mhz") * 1e6),
              1e-6 * a.pj(EnergyPart::kBaselineStatic));
}

/// Runs of the small machine: the energy is the sum of its parts, each part the sum of the
/// run's counts times the table (and the powers times the run's time), and the parts that a
/// configuration has are not zero.
TEST(GpuEnergy, ARunsEnergyIsItsPartsAndItsEventsTimesTheTable) {
  const MachineConfig& m = *FindMachine("small");
  const std::map<std::string, double> costs = Costs();
  for (const TmMode tm : {TmMode::kKiloTm, TmMode::kWarpTmEaPg, TmMode::kSitm}) {
    auto w = FindWorkload("HT1K")->make(Scale::kSmall, 1);
    const RunResult r = RunSystem(m, tm, *w);
    ASSERT_TRUE(r.ok) << ToString(tm) << ": " << r.error;
    const Energy& e = r.energy;
    double parts = 0;
    for (const double p : e.part_pj) {
      EXPECT_GT(p, 0) << ToString(tm);
      parts += p;
    }
    EXPECT_DOUBLE_EQ(e.total_pj(), parts);
    // Each part from the statistics by name and the table by key.
    std::map<std::string, uint64_t> stat;
    r.stats.ForEach([&](const char* key, const char*, uint64_t v) { stat[key] = v; });
    const double seconds = static_cast<double>(r.stats.cycles) / (costs.at("core_clock_mhz") * 1e6);
    double want[kEnergyParts] = {0, 0, 0, 0, 0};
    for (const EnergyTerm& t : EnergyTerms(r.stats, m, tm)) {
      const double cost = costs.at(t.cost);
      double pj = 0;
      if (stat.count(t.what)) {
        pj = static_cast<double>(stat.at(t.what)) * cost;  // an event
      } else {
        int instances = 1;  // the constant power; a block's power: its instances
        for (const BlockUse& b : MachineBlocks(m, tm)) {
          instances = b.block == t.what ? b.instances : instances;
        }
        pj = instances * cost * seconds * 1e9;
      }
      EXPECT_NEAR(t.pj, pj, 1e-9 * std::max(1.0, pj)) << t.what << " x " << t.cost;
      want[static_cast<int>(t.part)] += pj;
    }
    for (int p = 0; p < kEnergyParts; ++p) {
      EXPECT_NEAR(e.part_pj[p], want[p], 1e-9 * want[p]) << ToString(tm) << ", part " << p;
    }
    // The structures of the configuration are charged.
    EXPECT_GT(static_cast<double>(r.stats.cu_read_words_stored + r.stats.cu_write_words_stored), 0);
    if (tm == TmMode::kWarpTmEaPg) {
      EXPECT_GT(r.stats.cat_updates, 0u);
      EXPECT_GT(r.stats.rct_updates, 0u);
      EXPECT_EQ(r.stats.cat_messages, r.stats.rct_messages * static_cast<uint64_t>(m.cores));
    }
    if (tm == TmMode::kSitm) {
      EXPECT_GT(r.stats.si_rl_cycles, r.stats.si_rl_ops);
      EXPECT_GT(r.stats.si_wt_ops, r.stats.si_wt_writes);
      EXPECT_GT(r.stats.si_pd_ops, r.stats.si_pd_edges);
    }
    // Every commit-unit message is taken, as an Alloc, a log word or an entry message; every
    // message between cores and partitions is at least one flit.
    EXPECT_EQ(r.stats.cu_in_allocs + r.stats.cu_in_words + r.stats.cu_in_entry,
              r.stats.cu_messages);
    EXPECT_GE(r.stats.icnt_flits, r.stats.mem_requests + r.stats.mem_replies + r.stats.cu_messages +
                                      r.stats.cu_replies + r.stats.cat_messages +
                                      r.stats.tcd_messages);
  }
}

}  // namespace
}  // namespace htm::gpu
