// SPDX-License-Identifier: Apache-2.0
//
// Tests of the Pause-and-Go check's golden model on its own: every decision of a random run
// splits the instruction's lanes into go and pause, keeps a lane going, pauses exactly the
// lanes the CAT reported (but the forced one), and the random bench reaches every case.
#include "htm/golden/pag_check_model.h"

#include <map>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_pag_check.h"
#include "htm/tb/benches/pag_check_bench.h"

namespace htm::golden {
namespace {

using In = PagCheckIn;
using Out = PagCheckOut;

TEST(PagCheckModel, DecisionsFollowTheCatAndKeepALaneGoing) {
  for (const auto& [name, p] : configs::htm_pag_check::kAll) {
    SCOPED_TRACE(std::string(name));
    PagCheckModel m(p);
    tb::PagCheckBench bench(p, 7);
    std::map<std::string, int> seen;
    uint64_t lanes = 0, hits = 0;
    bool pg = false, answered = false, outstanding = false;
    for (int cycle = 0; cycle < 100000; ++cycle) {
      const In in = bench.Next();
      const Out o = m.Eval(in);
      bench.Observe(in, o);
      if (o.res_valid) {
        seen["result"] += 1;
        ASSERT_EQ(o.res_go | o.res_pause, lanes) << "cycle " << cycle;
        ASSERT_EQ(o.res_go & o.res_pause, 0u) << "cycle " << cycle;
        if (lanes != 0) {
          ASSERT_NE(o.res_go, 0u) << "cycle " << cycle << ": no lane goes on";
        }
        const uint64_t h = (pg && answered) ? hits & lanes : 0;
        ASSERT_EQ(o.res_pause | o.res_forced, h) << "cycle " << cycle;
        seen["pause"] += o.res_pause != 0;
        seen["forced"] += o.res_forced != 0;
        seen["all go"] += o.res_pause == 0 && lanes != 0;
      }
      if (in.req_valid && o.req_ready) {
        lanes = in.req_mask;
        pg = in.pg_en != 0;
        answered = false;
        seen["pg off"] += !pg;
      }
      if (in.cat_rsp_valid && outstanding) {
        hits = in.cat_rsp_hit;
        answered = true;
        outstanding = false;
      }
      if (o.cat_req_valid && in.cat_req_ready) {
        outstanding = true;
      }
      seen["cat wait"] += o.cat_req_valid && !in.cat_req_ready;
      seen["err"] += o.err;
      m.Tick(in);
    }
    for (const char* what : {"result", "forced", "all go", "pg off", "cat wait", "err"}) {
      EXPECT_GT(seen[what], 0) << what << " never happened";
    }
    if (p.warp_size > 1) {
      EXPECT_GT(seen["pause"], 0) << "no lane ever paused";
    }
  }
}

TEST(PagCheckModel, RejectsBadParameters) {
  PagCheckParams p = configs::htm_pag_check::kSmall;
  p.warp_size = 65;
  EXPECT_THROW(PagCheckModel{p}, std::invalid_argument);
  p = configs::htm_pag_check::kSmall;
  p.addr_w = 0;
  EXPECT_NE(CheckPagCheckParams(p).find("AddrW"), std::string::npos);
}

}  // namespace
}  // namespace htm::golden
