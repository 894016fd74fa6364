// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the Last Writer History golden model (no RTL): over random streams in
// every named configuration, a lookup never reports a writer older than the true last writer
// of the address while that writer is younger than StaleAge (the property the commit unit's
// hazard detection relies on), never a cid from the future, and a hit is exact. Also parameter
// validation, including the age bound that keeps wrapping commit ids ordered.
#include "htm/golden/lwh_model.h"

#include <deque>
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
    // Lookups in flight, the oldest answering now (one cycle, two with ResPipe): the address
    // and its last insert when accepted (an insert accepted later is not seen).
    struct Pending {
      bool valid = false, known = false;
      uint64_t addr = 0, last_abs = 0;
    };
    std::deque<Pending> q(p.res_pipe ? 2 : 1);
    uint64_t found = 0, filter_found = 0, checked = 0, evictions = 0;
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const LwhIn in = bench.Next();
      const LwhOut out = m.Eval(in);
      abs_now += (in.now - prev_now) & mask;
      prev_now = in.now;
      const Pending due = q.front();
      q.pop_front();
      ASSERT_EQ(out.res_valid, due.valid ? 1u : 0u);
      if (due.valid) {
        const uint64_t age_true = due.known ? abs_now - due.last_abs : ~uint64_t{0};
        if (out.res_found) {
          ++found;
          filter_found += out.res_hit ? 0 : 1;
          ASSERT_LT((in.now - out.res_cid) & mask, m.AgeBound()) << "a cid from the future";
        }
        if (due.known && age_true < m.StaleAge()) {
          ++checked;
          ASSERT_EQ(out.res_found, 1u) << "cycle " << cycle;
          ASSERT_LE((in.now - out.res_cid) & mask, age_true) << "older than the last writer";
          if (out.res_hit) {
            ASSERT_EQ(out.res_cid, due.last_abs & mask) << "a hit is exact";
          }
        }
      }
      evictions += out.evict_valid;
      Pending next;
      next.valid = in.op_valid && out.ready && !in.op_write;
      next.addr = in.op_addr;
      if (auto it = last.find(in.op_addr); next.valid && it != last.end()) {
        next.known = true;
        next.last_abs = it->second;
      }
      q.push_back(next);
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
  p = configs::htm_lwh::kDefault;
  p.res_pipe = 2;
  EXPECT_THROW(LwhModel{p}, std::invalid_argument);
  SigRecencyRamParams r = configs::htm_sig_recency_ram::kDefault;
  r.val_w = 1;
  EXPECT_THROW(SigRecencyRamModel{r}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
