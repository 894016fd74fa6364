// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the Last Writer History golden model (no RTL): over random streams in
// every named configuration, a lookup never reports a writer older than the true last writer
// of the address while that writer is younger than StaleAge (the property the commit unit's
// hazard detection relies on), never a cid from the future, and a hit is exact. Also parameter
// validation, including the age bound that keeps wrapping commit ids ordered.
#include "htm/golden/lwh_model.h"

#include <map>
#include <stdexcept>

#include <gtest/gtest.h>

#include "htm/configs/htm_lwh.h"
#include "htm/configs/htm_sig_recency_ram.h"
#include "htm/tb/benches/lwh_bench.h"

namespace htm::golden {
namespace {

TEST(LwhModel, NeverOlderThanTheTrueLastWriterInAnyConfiguration) {
  for (const auto& [name, p] : configs::htm_lwh::kAll) {
    SCOPED_TRACE(std::string(name));
    LwhModel m(p);
    tb::LwhBench bench(p, 42);
    // Address -> absolute time (unwrapped cid) of its last accepted insert.
    std::map<uint64_t, uint64_t> last;
    const uint64_t mask = LowMask(p.cid_w);
    uint64_t abs_now = 0, prev_now = 0;
    uint64_t pending_addr = 0;
    bool pending = false;
    uint64_t found = 0, filter_found = 0, checked = 0, evictions = 0;
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const LwhIn in = bench.Next();
      const LwhOut out = m.Eval(in);
      abs_now += (in.now - prev_now) & mask;
      prev_now = in.now;
      ASSERT_EQ(out.res_valid, pending ? 1u : 0u);
      if (pending) {
        auto it = last.find(pending_addr);
        const uint64_t age_true = it == last.end() ? ~uint64_t{0} : abs_now - it->second;
        if (out.res_found) {
          ++found;
          filter_found += out.res_hit ? 0 : 1;
          ASSERT_LT((in.now - out.res_cid) & mask, m.AgeBound()) << "a cid from the future";
        }
        if (it != last.end() && age_true < m.StaleAge()) {
          ++checked;
          ASSERT_EQ(out.res_found, 1u) << "cycle " << cycle;
          ASSERT_LE((in.now - out.res_cid) & mask, age_true) << "older than the last writer";
          if (out.res_hit) {
            ASSERT_EQ(out.res_cid, it->second & mask) << "a hit is exact";
          }
        }
      }
      evictions += out.evict_valid;
      pending = in.op_valid && out.ready && !in.op_write;
      pending_addr = in.op_addr;
      if (in.op_valid && out.ready && in.op_write) {
        last[in.op_addr] = abs_now - ((in.now - in.op_cid) & mask);
      }
      m.Tick(in);
    }
    EXPECT_GT(checked, 1000u);
    EXPECT_GT(filter_found, 100u) << "the conservative path is exercised";
    EXPECT_GT(evictions, 100u);
  }
}

TEST(LwhModel, RejectsParametersTheRtlRejects) {
  LwhParams p = configs::htm_lwh::kDefault;
  p.sets = 100;
  EXPECT_THROW(LwhModel{p}, std::invalid_argument);
  p = configs::htm_lwh::kDefault;
  p.bf_hashes = 8;
  EXPECT_THROW(LwhModel{p}, std::invalid_argument) << "the set index uses H3 function BfHashes";
  p = configs::htm_lwh::kDefault;
  p.scrub_interval = 64;  // 2**14 + 256 * 64 + 2 >= 2**15
  EXPECT_THROW(LwhModel{p}, std::invalid_argument) << "age bound";
  p.cid_w = 17;
  EXPECT_NO_THROW(LwhModel{p});
  SigRecencyRamParams r = configs::htm_sig_recency_ram::kDefault;
  r.val_w = 1;
  EXPECT_THROW(SigRecencyRamModel{r}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
