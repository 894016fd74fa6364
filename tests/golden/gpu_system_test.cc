// SPDX-License-Identifier: Apache-2.0
//
// The GPU-TM system model (htm/gpu/system.h): every workload under every TM configuration on
// the small machine finishes, replays consistently in its serialization order and passes its
// check; KILO TM really runs transactions concurrently (aborts happen under contention, the
// commit units' rings wrap); bad machines are refused.
#include <sstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "htm/gpu/commit_log.h"
#include "htm/gpu/system.h"

namespace htm::gpu {
namespace {

using Param = std::tuple<std::string, TmMode>;

class GpuSystem : public ::testing::TestWithParam<Param> {};

TEST_P(GpuSystem, RunsChecksAndReplaysOnTheSmallMachine) {
  const auto& [name, tm] = GetParam();
  for (const uint64_t seed : {1, 2}) {
    auto w = FindWorkload(name)->make(Scale::kSmall, seed);
    RunOptions opt;
    opt.seed = seed;
    const RunResult r = RunSystem(*FindMachine("small"), tm, *w, opt);
    ASSERT_EQ(r.error, "") << name << " " << ToString(tm) << " seed " << seed;
    EXPECT_EQ(r.check, "") << name << " " << ToString(tm) << " seed " << seed;
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.stats.commits, static_cast<uint64_t>(w->threads()));
    EXPECT_GE(r.stats.log_events, r.stats.commits - r.stats.read_only_commits);
    EXPECT_GT(r.stats.cycles, 0u);
    if (tm == TmMode::kKiloTm) {
      EXPECT_GT(r.stats.cu_messages, 0u);
    }
  }
}

std::string Name(const ::testing::TestParamInfo<Param>& i) {
  return std::get<0>(i.param) + "_" + ToString(std::get<1>(i.param));
}

INSTANTIATE_TEST_SUITE_P(Small, GpuSystem,
                         ::testing::Combine(::testing::Values("HT1K", "HT512", "ATM25K", "ATM10K",
                                                              "List"),
                                            ::testing::ValuesIn(AllTmModes())),
                         Name);

TEST(GpuSystemKiloTm, ConflictsAbortAndTheRingWraps) {
  auto w = FindWorkload("HT512")->make(Scale::kSmall, 3);
  const RunResult r = RunSystem(*FindMachine("small"), TmMode::kKiloTm, *w);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_GT(r.stats.aborts_validation, 0u);
  EXPECT_GT(r.stats.tries, r.stats.commits);
  // The 32-entry rings wrapped many times.
  EXPECT_GE(r.stats.commits, 8u * 32u);
}

// The exported log passes the independent checker, and the checker notices a changed value, a
// missing transaction, two swapped transactions, a wrong writer and a cut-short log.
TEST(GpuCommitLog, TheCheckerAcceptsARunAndRejectsDamage) {
  auto w = FindWorkload("ATM10K")->make(Scale::kSmall, 4);
  std::ostringstream os;
  JsonLogWriter writer(os, {"ATM10K", "kilotm", "small", "small", 4});
  RunOptions opt;
  opt.log = &writer;
  const RunResult r = RunSystem(*FindMachine("small"), TmMode::kKiloTm, *w, opt);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  const std::string log = os.str();
  {
    std::istringstream is(log);
    const LogCheckResult c = CheckCommitLog(is);
    EXPECT_TRUE(c.ok) << c.error;
    EXPECT_EQ(c.transactions, r.stats.commits - r.stats.read_only_commits);
    EXPECT_GT(c.edges, c.transactions);
  }
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string l; std::getline(in, l);) {
    lines.push_back(l);
  }
  ASSERT_GT(lines.size(), 10u);
  auto check = [](const std::vector<std::string>& ls) {
    std::string text;
    for (const auto& l : ls) {
      text += l + "\n";
    }
    std::istringstream is(text);
    return CheckCommitLog(is);
  };
  auto damaged = lines;
  // A changed write value (the first write of transaction 5).
  const size_t wpos = damaged[6].find("\"writes\":[[");
  ASSERT_NE(wpos, std::string::npos);
  const size_t comma = damaged[6].find(',', wpos + 11);
  damaged[6].insert(comma + 1, "9");
  EXPECT_FALSE(check(damaged).ok);
  // A missing transaction (ids no longer consecutive).
  damaged = lines;
  damaged.erase(damaged.begin() + 3);
  EXPECT_FALSE(check(damaged).ok);
  // Two transactions swapped (ids out of order).
  damaged = lines;
  std::swap(damaged[3], damaged[4]);
  EXPECT_FALSE(check(damaged).ok);
  // The final memory missing.
  damaged = lines;
  damaged.pop_back();
  const LogCheckResult cut = check(damaged);
  EXPECT_FALSE(cut.ok);
  EXPECT_NE(cut.error.find("cut short"), std::string::npos) << cut.error;
  // Not JSON.
  damaged = lines;
  damaged[2] = "{\"type\":\"tx\",";
  EXPECT_FALSE(check(damaged).ok);
}

TEST(GpuSystemMachine, ImpossibleMachinesAreRefused) {
  MachineConfig m = *FindMachine("small");
  m.cores = 0;
  EXPECT_NE(CheckMachine(m), "");
  auto w = FindWorkload("ATM10K")->make(Scale::kSmall, 1);
  EXPECT_THROW(RunSystem(m, TmMode::kKiloTm, *w), std::invalid_argument);
  m = *FindMachine("small");
  m.cores = 5;  // SrcW 2 names 4 cores
  EXPECT_NE(CheckMachine(m), "");
  m = *FindMachine("small");
  m.cu.ring_size = 24;
  EXPECT_NE(CheckMachine(m), "");
  EXPECT_EQ(CheckMachine(*FindMachine("default")), "");
}

}  // namespace
}  // namespace htm::gpu
