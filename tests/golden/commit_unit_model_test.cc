// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the commit-unit golden model (no RTL): the random bench makes progress in
// every named configuration (transactions commit, the pointers wrap, no protocol error when the
// cores keep the protocol), the word buffer never loses a slot, and illegal parameters are
// rejected with a message.
#include "htm/golden/commit_unit_model.h"

#include <cstdio>
#include <stdexcept>

#include <gtest/gtest.h>

#include "htm/configs/htm_commit_unit.h"
#include "htm/tb/benches/commit_unit_bench.h"

namespace htm::golden {
namespace {

TEST(CommitUnitModel, RandomTrafficCommitsInEveryConfiguration) {
  for (const auto& [name, p] : configs::htm_commit_unit::kAll) {
    SCOPED_TRACE(std::string(name));
    CommitUnitModel m(p);
    tb::CommitUnitBench::Knobs k;
    k.bad_per_million = 0;
    tb::CommitUnitBench bench(p, 5, k);
    uint64_t passes = 0, fails = 0, done = 0, retired = 0, last_r = 0;
    for (int cycle = 0; cycle < 100000; ++cycle) {
      const CommitUnitIn in = bench.Next();
      const CommitUnitOut out = m.Eval(in);
      if (out.rep_valid) {
        passes += out.rep_type == static_cast<uint64_t>(CuRep::kPass);
        fails += out.rep_type == static_cast<uint64_t>(CuRep::kFail);
        done += out.rep_type == static_cast<uint64_t>(CuRep::kDoneCommit);
      }
      retired += out.ptr_retire != last_r;
      last_r = out.ptr_retire;
      ASSERT_EQ(out.err, 0u) << "protocol error flagged at cycle " << cycle;
      m.Tick(in);
      bench.Observe(in, out);
      ASSERT_LE(m.FreeWords(), p.buf_words);
    }
    EXPECT_GT(passes, 500u);
    EXPECT_GT(fails, 100u);
    EXPECT_GT(done, 300u);
    if (p.cid_w <= 8) {
      EXPECT_GT(retired, uint64_t{4} << p.cid_w) << "the commit ids should wrap several times";
    }
    EXPECT_EQ(bench.committed(), done);
    const CommitUnitModel::Stats& st = m.stats();
    std::printf(
        "%s: %llu cycles, %llu stored, %llu capacity fails, %llu validations, %llu value "
        "fails, %llu hazard words, %llu conflicts, %llu revalidations, %llu commit words, "
        "%llu retired\n",
        std::string(name).c_str(), (unsigned long long)st.cycles, (unsigned long long)st.stored,
        (unsigned long long)st.cap_fails, (unsigned long long)st.validations,
        (unsigned long long)st.val_fails, (unsigned long long)st.hazard_words,
        (unsigned long long)st.conflicts, (unsigned long long)st.revalidations,
        (unsigned long long)st.commit_words, (unsigned long long)st.retired);
    // Every path of the unit is taken.
    if (p.buf_words <= 64) {
      EXPECT_GT(st.cap_fails, 0u);  // the word buffer fills
    }
    EXPECT_GT(st.val_fails, 0u);
    EXPECT_GT(st.conflicts, 0u);
    EXPECT_GT(st.revalidations, 0u);
  }
}

TEST(CommitUnitModel, RejectsIllegalParameters) {
  CommitUnitParams p = configs::htm_commit_unit::kSmall;
  p.ring_size = 12;
  EXPECT_THROW(CommitUnitModel{p}, std::invalid_argument);
  p = configs::htm_commit_unit::kSmall;
  p.ring_size = 128;  // more than 2**(CidW-2)
  EXPECT_THROW(CommitUnitModel{p}, std::invalid_argument);
  p = configs::htm_commit_unit::kSmall;
  p.val_tags = 0;
  EXPECT_THROW(CommitUnitModel{p}, std::invalid_argument);
  p = configs::htm_commit_unit::kSmall;
  p.lwh_scrub_interval = 64;  // the LWH age bound no longer fits 8-bit commit ids
  EXPECT_THROW(CommitUnitModel{p}, std::invalid_argument);
  p = configs::htm_commit_unit::kSmall;
  p.lwh_pipe = 2;
  EXPECT_THROW(CommitUnitModel{p}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
