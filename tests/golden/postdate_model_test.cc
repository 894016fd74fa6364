// SPDX-License-Identifier: Apache-2.0
//
// Tests of the post-dating unit's golden model on its own, with the random bench: the
// invariant CTS < PDTS holds in every slot at all times, every operation gets its result two
// cycles later, and the bench reaches every case the lockstep test relies on (loops through
// each branch, overflows and the dropped operation behind one, committed predecessors, bad
// operations). Also parameter validation.
#include "htm/golden/postdate_model.h"

#include <deque>
#include <map>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_postdate.h"
#include "htm/enums.h"
#include "htm/tb/benches/postdate_bench.h"

namespace htm::golden {
namespace {

using In = PostdateIn;
using Out = PostdateOut;

TEST(PostdateModel, InvariantHoldsAndTheBenchReachesEveryCase) {
  for (const auto& [name, p] : configs::htm_postdate::kAll) {
    SCOPED_TRACE(std::string(name));
    PostdateModel m(p);
    tb::PostdateBench bench(p, 5);
    std::map<std::string, int> seen;
    std::deque<In> taken;  // operations taken in the last two cycles (empty op_valid = none)
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const In in = bench.Next();
      const Out o = m.Eval(in);
      bench.Observe(in, o);
      const bool take = in.op_valid && o.op_ready;
      if (taken.size() == 2) {
        const In& t = taken.front();
        ASSERT_EQ(o.res_valid, t.op_valid) << "cycle " << cycle;
        if (o.res_valid) {
          ASSERT_EQ(o.res_kind, t.op_kind & 7) << "cycle " << cycle;
          ASSERT_EQ(o.res_a, t.op_a) << "cycle " << cycle;
        }
        taken.pop_front();
      }
      In rec = in;
      rec.op_valid = take;
      taken.push_back(rec);
      if (o.res_valid) {
        const auto k = static_cast<PdOp>(o.res_kind);
        seen[o.res_err ? "err" : o.res_ovf ? "ovf" : "applied"] += 1;
        if (o.res_ovf && o.res_ts == 0 && o.res_cts == 0) {
          seen["dropped"] += 1;
        }
        if (k == PdOp::kEdge && !o.res_err && !o.res_ovf) {
          seen[o.res_loop ? "loop" : "edge"] += 1;
          if (o.res_committed) {
            seen["committed pred"] += 1;
          }
        }
        if (k == PdOp::kCommit && !o.res_err && !o.res_ovf) {
          seen["commit"] += 1;
        }
      }
      m.Tick(in);
      if (cycle % 97 == 0) {
        for (int s = 0; s < p.num_tx; ++s) {
          const PdSlot& sl = m.table().slot(s);
          ASSERT_TRUE(!sl.pdts_set || sl.cts < sl.pdts)
              << "cycle " << cycle << " slot " << s << ": CTS " << sl.cts << ", PDTS " << sl.pdts;
        }
      }
    }
    for (const char* c : {"applied", "err", "loop", "edge", "committed pred", "commit"}) {
      EXPECT_GT(seen[c], 0) << c;
    }
    if (p.ts_w <= 8) {
      EXPECT_GT(seen["ovf"], 0);
      EXPECT_GT(seen["dropped"], 0);
    }
    for (const auto& [k, v] : seen) {
      std::printf("%s: %s %d\n", std::string(name).c_str(), k.c_str(), v);
    }
  }
}

TEST(PostdateModel, RejectsBadParameters) {
  PostdateParams p = configs::htm_postdate::kDefault;
  p.num_tx = 1;
  EXPECT_THROW(PostdateModel{p}, std::invalid_argument);
  p = configs::htm_postdate::kDefault;
  p.ts_w = 2;
  EXPECT_THROW(PostdateModel{p}, std::invalid_argument);
  p = configs::htm_postdate::kDefault;
  p.inc = 0;
  EXPECT_THROW(PostdateModel{p}, std::invalid_argument);
  p = configs::htm_postdate::kOne;
  p.inc = 7;  // 2^3 - 1: c + Inc overflows from the first edge
  EXPECT_THROW(PostdateModel{p}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
