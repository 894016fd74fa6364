// SPDX-License-Identifier: Apache-2.0
//
// Tests of the transaction-aware SIMT stack's golden model on its own, with the random bench:
// no lane is lost or duplicated inside a transaction (the Trans entries above Retry hold
// disjoint lanes, none of them in the Retry mask, and with the lanes that committed they make
// up the lanes that began), Normal entries above Retry hold lanes of the Trans entry below
// them, Retry stays below the top, and every kind of event happens. Also parameter validation.
#include "htm/golden/tx_simt_stack_model.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_tx_simt_stack.h"
#include "htm/tb/benches/tx_simt_stack_bench.h"

namespace htm::golden {
namespace {

using In = TxSimtStackIn;
using Out = TxSimtStackOut;

int RetryIndex(const std::vector<SimtEntry>& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i].type == SimtType::kRetry) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

TEST(TxSimtStackModel, NoLaneIsLostOrDuplicatedInATransaction) {
  for (const auto& [name, p] : configs::htm_tx_simt_stack::kAll) {
    SCOPED_TRACE(std::string(name));
    TxSimtStackModel m(p);
    tb::TxSimtStackBench bench(p, 11);
    std::map<std::string, int> seen;
    uint64_t tx_lanes = 0, committed = 0;
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const In in = bench.Next();
      const Out o = m.Eval(in);
      bench.Observe(in, o);
      const std::vector<SimtEntry> before = m.stack();
      const bool was_tx = o.in_tx != 0;
      m.Tick(in);
      const Out a = m.Eval(In{});
      const std::vector<SimtEntry>& s = m.stack();
      const bool ok = in.cmd_valid && a.err == 0;  // (the model is reset after an error)
      const auto op = static_cast<SimtOp>(in.cmd_op);
      // What the command did to the transaction's lanes.
      if (ok && s != before) {
        if (!was_tx && a.in_tx) {
          tx_lanes = s.back().mask;
          committed = 0;
        }
        if (op == SimtOp::kCommit && was_tx) {
          committed |= before.back().mask & ~in.cmd_mask;
        }
      }
      if (op == SimtOp::kInit && in.cmd_valid) {
        tx_lanes = committed = 0;
      }
      const int r = RetryIndex(s);
      ASSERT_EQ(r >= 0, a.in_tx != 0) << "cycle " << cycle;
      if (r >= 0) {
        ASSERT_LT(r + 1, static_cast<int>(s.size())) << "cycle " << cycle << ": Retry on top";
        uint64_t u = 0;
        uint64_t trans_below = 0;
        for (size_t i = static_cast<size_t>(r) + 1; i < s.size(); ++i) {
          if (s[i].type == SimtType::kTrans) {
            ASSERT_EQ(u & s[i].mask, 0u) << "cycle " << cycle << ": a lane in two Trans entries";
            u |= s[i].mask;
            trans_below = s[i].mask;
          } else {
            ASSERT_EQ(s[i].type, SimtType::kNormal) << "cycle " << cycle;
            ASSERT_EQ(s[i].mask & ~trans_below, 0u) << "cycle " << cycle;
          }
        }
        const uint64_t retry = s[static_cast<size_t>(r)].mask;
        ASSERT_EQ(u & retry, 0u) << "cycle " << cycle << ": a lane both running and failed";
        ASSERT_EQ(u | retry | committed, tx_lanes) << "cycle " << cycle << ": a lane lost";
        ASSERT_EQ(committed & (u | retry), 0u) << "cycle " << cycle;
      }
      seen["resumed"] += a.resumed;
      seen["restarted"] += a.restarted;
      seen["tx done"] += a.tx_done;
      seen["paused"] += a.paused;
      seen["nested"] += ok && was_tx && op == SimtOp::kTxBegin;
      seen["divergence in tx"] += a.in_tx && a.top_type == static_cast<uint64_t>(SimtType::kNormal);
      seen["depth full"] += a.depth == static_cast<uint64_t>(p.depth);
      if (a.err != 0) {
        seen["err"] += 1;
        m.Reset();  // keep exploring after an error
        bench.OnReset();
        tx_lanes = committed = 0;
      }
    }
    for (const char* what : {"restarted", "tx done", "nested", "depth full", "err"}) {
      EXPECT_GT(seen[what], 0) << what << " never happened";
    }
    if (p.warp_size > 1) {
      EXPECT_GT(seen["paused"], 0) << "no pause";
      EXPECT_GT(seen["resumed"], 0) << "no resume";
      EXPECT_GT(seen["divergence in tx"], 0) << "no divergence inside a transaction";
    }
  }
}

TEST(TxSimtStackModel, RejectsBadParameters) {
  TxSimtStackParams p = configs::htm_tx_simt_stack::kSmall;
  p.depth = 2;
  EXPECT_THROW(TxSimtStackModel{p}, std::invalid_argument);
  p = configs::htm_tx_simt_stack::kSmall;
  p.warp_size = 0;
  EXPECT_NE(CheckTxSimtStackParams(p).find("WarpSize"), std::string::npos);
}

}  // namespace
}  // namespace htm::golden
