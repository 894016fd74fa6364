// SPDX-License-Identifier: Apache-2.0
//
// The post-dating unit against an exact dependency-graph cycle detector (Chen, Peng & Irving, ISCA
// 2017, §4.1): the detector itself on known graphs, the classic write skew, and random histories on
// the paper-size and small units, where every history with a cycle must be declared (no miss) and
// the generator must produce cycles at all. Millions of histories run in make regress
// (htmsim si oracle).
#include <cstdint>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_postdate.h"
#include "htm/golden/postdate_model.h"
#include "htm/golden/si_oracle.h"

namespace htm::golden {
namespace {

TEST(PostdateOracle, CycleDetectorIsExact) {
  EXPECT_FALSE(HasCycle(3, {}));
  EXPECT_FALSE(HasCycle(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}, {0, 3}}));
  EXPECT_TRUE(HasCycle(2, {{0, 1}, {1, 0}}));
  EXPECT_TRUE(HasCycle(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 2}}));
  EXPECT_FALSE(HasCycle(5, {{4, 3}, {3, 2}, {2, 1}, {1, 0}, {4, 0}}));
  EXPECT_TRUE(HasCycle(1, {{0, 0}}));
}

TEST(PostdateOracle, WriteSkewIsDeclared) {
  // T0 reads x, T1 reads y, T0 writes y, T1 writes x: T1 -> T0 (y) and T0 -> T1 (x).
  SiHistory h;
  h.instances = 2;
  h.steps = {{PdOp::kBegin, 0, 0, 0, -1},  {PdOp::kBegin, 1, 0, 1, -1},
             {PdOp::kEdge, 1, 0, 1, 0},    {PdOp::kEdge, 0, 1, 0, 1},
             {PdOp::kCommit, 0, 0, 0, -1}, {PdOp::kCommit, 1, 0, 1, -1}};
  h.graph = {{1, 0}, {0, 1}};
  const SiOutcome o = RunSiHistory(configs::htm_postdate::kDefault, h);
  EXPECT_TRUE(o.cyclic);
  EXPECT_TRUE(o.declared);
  EXPECT_EQ(o.edges, 1) << "declared at the closing edge";
}

TEST(PostdateOracle, GeneratedEdgesFollowTheAccesses) {
  // Every Edge step joins two transactions on different slots, and the reference graph holds
  // only edges that were stepped.
  SiHistoryShape shape;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const SiHistory h = GenerateSiHistory(shape, seed);
    int edges = 0;
    for (const SiStep& s : h.steps) {
      if (s.op == PdOp::kEdge) {
        ASSERT_NE(s.a, s.b);
        ASSERT_NE(s.ia, s.ib);
        ++edges;
      }
    }
    ASSERT_LE(h.graph.size(), static_cast<size_t>(edges));
  }
}

void RunOracle(const char* name, const PostdateParams& p, const SiHistoryShape& shape) {
  uint64_t miss_seed = 0;
  const SiOracleStats st = RunSiOracle(p, shape, 20000, 11, true, &miss_seed);
  std::printf(
      "%s: %llu histories, %llu with a cycle, %llu declared, %llu overflowed, "
      "%llu missed, %llu false alarms\n",
      name, static_cast<unsigned long long>(st.histories),
      static_cast<unsigned long long>(st.cyclic), static_cast<unsigned long long>(st.declared),
      static_cast<unsigned long long>(st.overflow), static_cast<unsigned long long>(st.missed),
      static_cast<unsigned long long>(st.false_alarms));
  EXPECT_EQ(st.missed, 0u) << name << ": a cycle was missed; reproduce with history seed "
                           << miss_seed;
  EXPECT_GT(st.cyclic, st.histories / 20) << "the histories must contain cycles";
  EXPECT_LT(st.cyclic, st.histories) << "and acyclic ones";
}

TEST(PostdateOracle, NoCycleIsMissedAtThePaperSize) {
  RunOracle("default", configs::htm_postdate::kDefault, SiHistoryShape{});
  SiHistoryShape many;
  many.slots = 8;
  many.instances = 24;
  many.addresses = 6;
  RunOracle("default, 8 slots", configs::htm_postdate::kDefault, many);
}

TEST(PostdateOracle, NoCycleIsMissedWithSmallTimestamps) {
  RunOracle("small", configs::htm_postdate::kSmall, SiHistoryShape{});
  RunOracle("one", configs::htm_postdate::kOne, SiHistoryShape{});
}

}  // namespace
}  // namespace htm::golden
