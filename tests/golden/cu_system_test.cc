// SPDX-License-Identifier: Apache-2.0
//
// The commit-unit correctness harness, short runs (make regress runs millions of transactions
// with htmsim cu-system): several commit units and scripted cores; every committed read must see
// the value the commit-id order gives, the final memory must be the serial replay's, and the
// system must drain.
#include "htm/tb/cu_system.h"

#include <cstdio>

#include <gtest/gtest.h>

#include "htm/configs/htm_commit_unit.h"

namespace htm::tb {
namespace {

void Report(const char* what, const CuSystemResult& r) {
  std::printf("%s: %llu committed, %llu aborted in %llu cycles\n", what,
              static_cast<unsigned long long>(r.committed),
              static_cast<unsigned long long>(r.aborted),
              static_cast<unsigned long long>(r.cycles));
}

TEST(CommitUnitSystem, SmallUnitsSerialise) {
  CuSystemOptions o;
  o.units = 2;
  o.cores = 4;
  o.transactions = 20000;
  o.pool = 12;
  o.seed = 11;
  const CuSystemResult r = RunCuSystem(htm::configs::htm_commit_unit::kSmall, o);
  Report("small x2", r);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_GT(r.committed, 5000u);
  EXPECT_GT(r.aborted, 500u);
}

TEST(CommitUnitSystem, ThreeSmallUnitsWithLargeTransactions) {
  CuSystemOptions o;
  o.units = 3;
  o.cores = 4;
  o.transactions = 5000;
  o.max_reads = 30;
  o.max_writes = 20;  // often more than a unit's 32-word buffer holds
  o.pool = 40;
  o.seed = 12;
  const CuSystemResult r = RunCuSystem(htm::configs::htm_commit_unit::kSmall, o);
  Report("small x3, large", r);
  ASSERT_TRUE(r.ok) << r.error;
  uint64_t cap_fails = 0;
  for (const auto& s : r.unit_stats) {
    cap_fails += s.cap_fails;
  }
  EXPECT_GT(cap_fails, 0u);
  EXPECT_GT(r.committed, 1000u);
}

TEST(CommitUnitSystem, DegenerateUnitsSerialise) {
  CuSystemOptions o;
  o.units = 2;
  o.cores = 2;
  o.transactions = 5000;
  o.max_reads = 2;
  o.max_writes = 2;
  o.pool = 4;
  o.seed = 13;
  const CuSystemResult r = RunCuSystem(htm::configs::htm_commit_unit::kOne, o);
  Report("one x2", r);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_GT(r.committed, 1000u);
}

TEST(CommitUnitSystem, PaperSizeUnitsSerialise) {
  CuSystemOptions o;
  o.units = 4;
  o.cores = 32;
  o.transactions = 8000;
  o.pool = 64;
  o.seed = 14;
  const CuSystemResult r = RunCuSystem(htm::configs::htm_commit_unit::kDefault, o);
  Report("default x4", r);
  ASSERT_TRUE(r.ok) << r.error;
  uint64_t conflicts = 0, revalidations = 0;
  for (const auto& s : r.unit_stats) {
    conflicts += s.conflicts;
    revalidations += s.revalidations;
  }
  EXPECT_GT(conflicts, 0u);
  EXPECT_GT(revalidations, 0u);
}

TEST(CommitUnitSystem, DisjointTransactionsAllCommit) {
  CuSystemOptions o;
  o.units = 2;
  o.cores = 16;
  o.transactions = 4000;
  o.pool = 0;  // every access a fresh address
  o.seed = 15;
  const CuSystemResult r = RunCuSystem(htm::configs::htm_commit_unit::kDefault, o);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.aborted, 0u);
  EXPECT_EQ(r.committed, 4000u);
}

TEST(CommitUnitSystem, RejectsBadOptions) {
  CuSystemOptions o;
  o.cores = 5;  // SrcW 2 routes four cores
  const CuSystemResult r = RunCuSystem(htm::configs::htm_commit_unit::kSmall, o);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("cores"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace htm::tb
