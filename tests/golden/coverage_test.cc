// SPDX-License-Identifier: Apache-2.0
//
// Functional coverage (docs/coverage.md). Each block's random bench, at its make-test length
// with seed 1, reaches
//   * every coverage event of the block, summed over its named configurations, except those in
//     kNotRequired (with the reason);
//   * in each named configuration, every event the workloads reach in it (coverage_floor.txt,
//     written by tools/coverage_table.py --floor from the suite's coverage), except those in
//     kNotRequiredIn (with the reason).
// A bench whose stimulus loses an event fails here. The benches run on the golden model alone
// (tb::RunModel: the lockstep's stimulus and counts, without the RTL). Also: the counts survive
// a reset, a TCD's idle stretch counts what its cycles would, and a system-model run reports
// every block's events summed over its instances.
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_tcd.h"
#include "htm/golden/instance.h"
#include "htm/golden/tcd_model.h"
#include "htm/machine/gpu/system.h"
#include "htm/tb/benches/tcd_bench.h"
#include "htm/tb/registry.h"

namespace htm::tb {
namespace {

/// The blocks whose golden models count coverage events.
const std::vector<std::string> kCovered = {
    "htm_commit_unit",   "htm_lwh",       "htm_rct",           "htm_cat",
    "htm_intra_warp_cd", "htm_pag_check", "htm_tcd",           "htm_writer_table",
    "htm_reader_list",   "htm_postdate",  "htm_tx_simt_stack", "htm_version_index",
    "htm_xbar",          "htm_sys_part"};

/// Events no bench must reach ("block.event"), and why.
const std::map<std::string, std::string> kNotRequired = {
    {"htm_sys_part.cu.ack_wait",
     "the partition acknowledges a commit write one cycle after it, before the retire pointer "
     "can reach the entry; the commit unit's own bench delays its acknowledgements"},
    {"htm_sys_part.cu.protocol_error",
     "the partition's cores keep the protocol (its error is another partition's address); the "
     "commit unit's own bench breaks the protocol in every way the unit flags"}};

/// Events the workloads reach in a configuration that its bench need not ("block/config.event"),
/// and why.
const std::map<std::string, std::string> kNotRequiredIn = {
    {"htm_tcd/default.time_wrap",
     "its 20-bit time wraps after 1 048 576 cycles, 21 times the make-test length; the "
     "workloads' idle stretches jump there. The other configurations' benches wrap theirs"},
    {"htm_commit_unit/default.lwh.scrub_remove",
     "a way is scrubbed 16 384 commit ids after its write, more than the bench allocates; "
     "the default-scale suite gets there. The other configurations' benches, and htm_lwh's "
     "default, scrub"}};

/// Each configuration of `block` with its coverage under its bench (seed 1, the make-test
/// length).
const std::map<std::string, golden::Coverage>& BenchRuns(const std::string& block) {
  static std::map<std::string, std::map<std::string, golden::Coverage>> runs;
  if (runs.count(block) == 0) {
    auto& r = runs[block];
    for (const Entry& e : Registry()) {
      if (e.netlist || e.block != block) {
        continue;
      }
      RunOptions o;
      o.block = e.block;
      o.config = e.config;
      o.seed = 1;
      o.cycles = e.default_cycles;
      const RunResult res = e.run_model(o);
      EXPECT_TRUE(res.passed) << e.block << "/" << e.config << ": " << res.error;
      r[e.config] = res.coverage;
    }
  }
  return runs.at(block);
}

class BenchCoverageTest : public testing::TestWithParam<std::string> {};

TEST_P(BenchCoverageTest, ReachesEveryRequiredEvent) {
  const std::string& block = GetParam();
  golden::Coverage cov;
  for (const auto& [config, c] : BenchRuns(block)) {
    golden::AddCoverage(cov, c);
  }
  ASSERT_FALSE(cov.empty()) << block << "'s golden model counts no events";
  std::string missed;
  for (const golden::CoverEvent& e : cov) {
    const std::string key = block + "." + e.name;
    std::printf("  %-40s %12llu\n", key.c_str(), static_cast<unsigned long long>(e.count));
    if (e.count == 0 && kNotRequired.count(key) == 0) {
      missed += "  " + key + ": " + e.description + "\n";
    }
  }
  EXPECT_EQ(missed, "") << "the bench no longer reaches (docs/coverage.md):\n" << missed;
}

TEST_P(BenchCoverageTest, ReachesInEachConfigurationWhatTheWorkloadsReach) {
  const std::string& block = GetParam();
  std::ifstream is(HTM_COVERAGE_FLOOR);
  ASSERT_TRUE(is) << "cannot read " << HTM_COVERAGE_FLOOR;
  std::string missed;
  int checked = 0;
  for (std::string line; std::getline(is, line);) {
    std::istringstream ls(line);
    std::string b, config, event;
    if (line.empty() || line[0] == '#' || !(ls >> b >> config >> event) || b != block) {
      continue;
    }
    const std::string key = block + "/" + config + "." + event;
    const auto& runs = BenchRuns(block);
    const auto run = runs.find(config);
    if (run == runs.end()) {
      missed += "  " + key + ": no such configuration\n";
      continue;
    }
    const auto e = std::find_if(run->second.begin(), run->second.end(),
                                [&](const golden::CoverEvent& x) { return x.name == event; });
    if (e == run->second.end()) {
      missed += "  " + key + ": no such event\n";
    } else if (e->count == 0 && kNotRequiredIn.count(key) == 0) {
      missed += "  " + key + ": " + e->description + "\n";
    }
    ++checked;
  }
  std::printf("  %d events the workloads reach checked\n", checked);
  EXPECT_EQ(missed, "") << "the workloads reach, this configuration's bench does not "
                           "(docs/coverage.md):\n"
                        << missed;
}

INSTANTIATE_TEST_SUITE_P(Blocks, BenchCoverageTest, testing::ValuesIn(kCovered),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(BenchCoverage, EveryCountingBlockIsListedAndEveryExemptionNamesAnEvent) {
  std::set<std::string> counting;
  std::set<std::string> events;
  for (const Entry& e : Registry()) {
    if (e.netlist) {
      continue;
    }
    RunOptions o;
    o.cycles = 1;
    for (const golden::CoverEvent& ev : e.run_model(o).coverage) {
      counting.insert(e.block);
      events.insert(e.block + "." + ev.name);
      events.insert(e.block + "/" + e.config + "." + ev.name);
    }
  }
  EXPECT_EQ(counting, std::set<std::string>(kCovered.begin(), kCovered.end()));
  for (const auto& [key, why] : kNotRequired) {
    EXPECT_TRUE(events.count(key) != 0) << key << " is not an event (" << why << ")";
  }
  for (const auto& [key, why] : kNotRequiredIn) {
    EXPECT_TRUE(events.count(key) != 0) << key << " is not an event (" << why << ")";
  }
}

TEST(BenchCoverage, CountsSurviveResetAndIdleCountsItsCycles) {
  // Two TCDs through the same bench cycles, then 1000 idle cycles: one by Idle (the fast path),
  // one by Tick; their counts agree, and a reset clears none.
  const golden::TcdParams& p = configs::htm_tcd::kSmall;
  golden::TcdModel a(p), b(p);
  TcdBench bench(p, 3);
  for (int i = 0; i < 5000; ++i) {
    const golden::TcdIn in = bench.Next();
    a.Eval(in);
    a.Tick(in);
    b.Eval(in);
    b.Tick(in);
  }
  a.Idle(1000);
  for (int i = 0; i < 1000; ++i) {
    b.Tick(golden::TcdIn{});
  }
  EXPECT_EQ(a.coverage(), b.coverage());
  const golden::Coverage before = a.coverage();
  a.Reset();
  EXPECT_EQ(a.coverage(), before);
  uint64_t total = 0;
  for (const golden::CoverEvent& e : before) {
    total += e.count;
  }
  EXPECT_GT(total, 0u);
}

TEST(BenchCoverage, InstancesShowTheirGoldenModelsCoverage) {
  golden::GoldenInstance<golden::TcdModel> inst(configs::htm_tcd::kSmall);
  ASSERT_TRUE(inst.coverage().has_value());
  EXPECT_EQ(*inst.coverage(), inst.model().coverage());
}

TEST(BenchCoverage, ASystemRunSumsEveryBlocksInstances) {
  const gpu::MachineConfig& m = *gpu::FindMachine("small");
  auto w = gpu::FindWorkload("HT1K")->make(gpu::Scale::kSmall, 1);
  const gpu::RunResult r = gpu::RunSystem(m, gpu::TmMode::kWarpTmEaPg, *w);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  std::map<std::string, int> instances;
  for (const gpu::BlockCoverage& b : r.coverage) {
    instances[b.block] = b.instances;
    EXPECT_EQ(b.without, 0);
    EXPECT_FALSE(b.events.empty()) << b.block;
  }
  EXPECT_EQ(instances["htm_commit_unit"], m.partitions);
  EXPECT_EQ(instances["htm_rct"], m.partitions);
  EXPECT_EQ(instances["htm_cat"], m.cores);
  EXPECT_EQ(instances["htm_intra_warp_cd"], m.cores);
  EXPECT_EQ(instances["htm_pag_check"], m.cores);
}

}  // namespace
}  // namespace htm::tb
