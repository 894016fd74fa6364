// SPDX-License-Identifier: Apache-2.0
//
// Random lockstep of every (block, configuration) in the registry: the RTL (suite Rtl, label
// lockstep) and its Yosys netlist (suite Netlist, label netlist), against the golden model.
// HTM_SEED picks the seed (printed), HTM_CYCLES overrides the cycle count (HTM_CYCLES_SCALE
// multiplies the test's own count: make regress uses 40), HTM_WAVES=<file.fst>
// dumps waves (with <file.fst>.gtkw, a GTKWave view with the ports grouped).
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/tb/registry.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {
namespace {

std::vector<const Entry*> Entries(bool netlist) {
  std::vector<const Entry*> v;
  for (const Entry& e : Registry()) {
    if (e.netlist == netlist) {
      v.push_back(&e);
    }
  }
  return v;
}

std::string Name(const testing::TestParamInfo<const Entry*>& info) {
  return info.param->block + "_" + info.param->config;
}

class LockstepTest : public testing::TestWithParam<const Entry*> {};

TEST_P(LockstepTest, Random) {
  const Entry& e = *GetParam();
  RunOptions o;
  o.block = e.block;
  o.config = e.config;
  o.netlist = e.netlist;
  o.seed = SeedFromEnv();
  o.cycles = e.default_cycles;
  if (const char* c = std::getenv("HTM_CYCLES_SCALE")) {
    o.cycles *= std::stoull(c);
  }
  if (const char* c = std::getenv("HTM_CYCLES")) {
    o.cycles = std::stoull(c);
  }
  if (const char* w = std::getenv("HTM_WAVES")) {
    o.waves = w;
  }
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  o.repro = "HTM_SEED=" + std::to_string(o.seed) + " HTM_CYCLES=" + std::to_string(o.cycles) + " " +
            testing::internal::GetArgvs()[0] + " --gtest_filter='" + info->test_suite_name() + "." +
            info->name() + "'";
  std::printf("HTM_SEED=%llu (%s/%s%s, %llu cycles)\n", static_cast<unsigned long long>(o.seed),
              e.block.c_str(), e.config.c_str(), e.netlist ? " netlist" : "",
              static_cast<unsigned long long>(o.cycles));
  const RunResult r = e.run(o);
  ASSERT_TRUE(r.passed) << r.error;
  // Every stimulus cycle was compared (mid-run resets add cycles of their own).
  EXPECT_GE(r.cycles, o.cycles);
}

INSTANTIATE_TEST_SUITE_P(Rtl, LockstepTest, testing::ValuesIn(Entries(false)), Name);
INSTANTIATE_TEST_SUITE_P(Netlist, LockstepTest, testing::ValuesIn(Entries(true)), Name);

}  // namespace
}  // namespace htm::tb
