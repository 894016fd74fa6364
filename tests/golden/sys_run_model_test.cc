// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of htm_sys_run's golden model (docs/htm_sys.md, "htm_sys_run"): the
// scenarios of tb/include/htm/tb/benches/sys_run_cases.h on the model alone (the RTL's directed
// test runs them in lockstep), driven by a memory that answers the maintenance ports as
// htm_sys_part does (mt_ready high, a read's word two cycles after the read is taken) and a
// quiet_i that goes low for a while after core_start_o: the model writes the workloads' initial
// memory (htm::gpu::proto::Make(...)->Init()) for ATM-P, HT-P and EB-P at several sizes and
// seeds; its check passes on a correct final memory written into the memory during Run and fails
// with the page's code and index for each kind of corruption; the refusals with their codes; the
// counters; the exact timing of Seed, Init (a word per cycle), Start and the check's states. The
// scenarios run on htm_sys_run's configurations' parameters and on a wide set the RTL has no
// configuration for; the bad parameters are the model's alone.
#include "htm/golden/sys_run_model.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/tb/benches/sys_run_cases.h"

namespace htm::golden {
namespace {

namespace cases = ::htm::tb::sys_run;
using cases::kDefault;
using cases::kOne;
using cases::kSmall;
using cases::kWide;
using Dev = cases::ModelDev;

// The parameter set's name in the failure messages.
const char* Name(const SysRunParams& p) {
  return p == kDefault ? "default" : p == kSmall ? "small" : p == kOne ? "one" : "wide";
}

TEST(SysRunModel, InitAndPassingCheck) {
  for (const SysRunParams& p : {kDefault, kSmall, kOne, kWide}) {
    cases::InitAndPassingCheck<Dev>(p, Name(p));
  }
}

TEST(SysRunModel, CheckFailures) {
  for (const SysRunParams& p : {kDefault, kSmall, kOne}) {
    cases::CheckFailures<Dev>(p, Name(p));
  }
}

TEST(SysRunModel, Refusals) {
  for (const SysRunParams& p : {kDefault, kSmall, kOne, kWide}) {
    cases::Refusals<Dev>(p, Name(p));
  }
}

TEST(SysRunModel, RefusedThenAccepted) {
  cases::RefusedThenAccepted<Dev>(kDefault, Name(kDefault));
}

TEST(SysRunModel, SeedInitStartTiming) {
  for (const SysRunParams& p : {kDefault, kSmall, kOne}) {
    cases::SeedInitStartTiming<Dev>(p, Name(p));
  }
}

TEST(SysRunModel, CheckTimingSums) {
  cases::CheckTimingSums<Dev>(kDefault, Name(kDefault));
}

TEST(SysRunModel, CheckTimingHashTable) {
  cases::CheckTimingHashTable<Dev>(kDefault, Name(kDefault));
}

TEST(SysRunModel, CheckTimingLoopedList) {
  cases::CheckTimingLoopedList<Dev>(kDefault, Name(kDefault));
}

TEST(SysRunModel, Counters) {
  for (const SysRunParams& p : {kDefault, kOne}) {
    cases::Counters<Dev>(p, Name(p));
  }
}

TEST(SysRunModel, BadParameters) {
  auto expect_bad = [](SysRunParams p, const char* name) {
    try {
      SysRunModel m(p);
      ADD_FAILURE() << "accepted bad " << name;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  SysRunParams p = kDefault;
  p.num_cores = 0;
  expect_bad(p, "NumCores");
  p = kDefault;
  p.num_parts = 3;
  expect_bad(p, "NumParts");
  p = kDefault;
  p.addr_w = 33;
  expect_bad(p, "AddrW");
  p = kDefault;
  p.ilv_log2 = 13;
  expect_bad(p, "IlvLog2");
  p = kDefault;
  p.max_reads = 0;
  expect_bad(p, "MaxReads");
  p = kDefault;
  p.max_writes = 65;
  expect_bad(p, "MaxWrites");
  EXPECT_EQ(CheckSysRunParams(kDefault), "");
  EXPECT_EQ(CheckSysRunParams(kOne), "");
}

}  // namespace
}  // namespace htm::golden
