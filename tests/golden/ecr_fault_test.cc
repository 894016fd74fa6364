// SPDX-License-Identifier: Apache-2.0
//
// End-to-end fault injection on the early-conflict-resolution path, golden models: a commit
// unit's RCT turns random increments and decrements into CAT messages; the messages reach a
// SIMT core's CAT 25 cycles later through a faulty channel (messages dropped, duplicated, delayed
// past later ones, spurious deltas added); the core's Pause-and-Go check and intra-warp conflict
// detection (with Early-Abort) look their lanes up in that CAT. The same core runs beside it
// on a clean channel of 5 cycles, with the same instructions and commits. Every cycle:
//   * the two cores' outputs are equal but for which lanes the CAT reports and, from that,
//     which lanes pause, go on, abort early or are spared: faults never change the timing or
//     the protocol of any block;
//   * no block reports an error it would not report on the clean channel;
//   * in the faulty core, every Pause-and-Go decision keeps a lane going and splits the lanes,
//     and every intra-warp result aborts only lanes the table or the CAT reported.
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_cat.h"
#include "htm/configs/htm_intra_warp_cd.h"
#include "htm/configs/htm_rct.h"
#include "htm/golden/cat_model.h"
#include "htm/golden/intra_warp_cd_model.h"
#include "htm/golden/pag_check_model.h"
#include "htm/golden/rct_model.h"
#include "htm/machine/gpu/cat_channel.h"
#include "htm/machine/gpu/ecr_core.h"
#include "htm/tb/benches/intra_warp_cd_bench.h"
#include "htm/tb/benches/pag_check_bench.h"
#include "htm/tb/stimulus.h"

namespace htm::golden {
namespace {
using gpu::CatChannel;
using gpu::EcrCore;

using Msg = std::vector<uint64_t>;  // packed deltas

// A SIMT core's early-conflict-resolution blocks (golden::EcrCore), fed by its own channel.
struct Core {
  EcrCore ecr;
  CatChannel chan;  // from the RCT, with the interconnect's latency
  CatOut cat_o;
  PagCheckOut pag_o;
  IntraWarpCdOut iw_o;

  Core(const CatParams& c, const PagCheckParams& g, const IntraWarpCdParams& w, int latency)
      : ecr(w, &c, &g), chan(1, latency) {}

  void Cycle(uint64_t now, const PagCheckIn& pi, const IntraWarpCdIn& wi) {
    const EcrCore::Step s = ecr.Cycle(pi, wi, chan.Ready(0, now) ? &chan.Front(0) : nullptr);
    if (s.msg_taken) {
      chan.Pop(0);
    }
    cat_o = s.cat;
    pag_o = s.pag;
    iw_o = s.iw;
  }
};

TEST(EcrFaults, FaultyDeltasOnlyChangeWhichLanesPauseOrAbort) {
  const RctParams rp = configs::htm_rct::kSmall;
  const CatParams cp = configs::htm_cat::kSmall;
  const IntraWarpCdParams wp = configs::htm_intra_warp_cd::kSmall;
  const PagCheckParams gp{.addr_w = cp.addr_w, .warp_size = cp.warp_size};
  ASSERT_EQ(rp.addr_w, cp.addr_w);
  ASSERT_EQ(rp.batch, cp.batch);
  ASSERT_EQ(wp.warp_size, cp.warp_size);
  ASSERT_EQ(wp.addr_w, cp.addr_w);

  for (uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    tb::Rng rng(seed);
    RctModel rct(rp);
    Core clean(cp, gp, wp, 5), faulty(cp, gp, wp, 25);  // the paper's 5 to 25 cycles
    tb::PagCheckBench pag_bench(gp, seed + 10);
    tb::IntraWarpCdBench iw_bench(wp, seed + 20);
    std::vector<uint64_t> live;    // words the commit unit holds (incremented, not decremented)
    std::vector<uint64_t> looked;  // addresses the core looked up lately
    std::deque<Msg> delayed;       // messages held back by the faulty channel
    int faults = 0, pauses_differ = 0, aborts_differ = 0, decisions = 0, results = 0;

    for (int cycle = 0; cycle < 60000; ++cycle) {
      const uint64_t now = static_cast<uint64_t>(cycle);
      // The commit unit: increments of words the core touches (or others), decrements of
      // live words.
      RctIn ri;
      if (rng.Chance(1, 2)) {
        const uint64_t a =
            !looked.empty() && rng.Chance(3, 4) ? rng.Pick(looked) : rng.Bits(rp.addr_w);
        ri.inc_valid = 1;
        ri.inc_addr = a;
        ri.inc_write = rng.Chance(1, 2);
        live.push_back((a << 1) | ri.inc_write);
      }
      if (!live.empty() && rng.Chance(1, 2)) {
        const size_t k = rng.Below(live.size());
        ri.dec_valid = 1;
        ri.dec_addr = live[k] >> 1;
        ri.dec_write = live[k] & 1;
        live[k] = live.back();
        live.pop_back();
      }
      const RctOut ro = rct.Eval(ri);
      rct.Tick(ri);
      if (ro.msg_valid) {
        Msg m(ro.msg_dlt.begin(), ro.msg_dlt.begin() + static_cast<long>(ro.msg_count));
        clean.chan.Send(now, m);
        // The faulty channel.
        const uint32_t f = static_cast<uint32_t>(rng.Below(12));
        if (f == 0) {
          ++faults;  // dropped
        } else if (f == 1) {
          faulty.chan.Send(now, m);  // duplicated
          faulty.chan.Send(now, m);
          ++faults;
        } else if (f == 2) {
          delayed.push_back(m);  // overtaken by later messages
          ++faults;
        } else if (f == 3) {
          Msg s = m;  // a spurious delta replaces one
          s[rng.Below(s.size())] = rng.Bits(cp.addr_w + 2);
          faulty.chan.Send(now, s);
          ++faults;
        } else {
          faulty.chan.Send(now, m);
        }
      }
      if (!delayed.empty() && rng.Chance(1, 20)) {
        faulty.chan.Send(now, delayed.front());
        delayed.pop_front();
      }

      // The core's instructions and commits, the same for both cores.
      const PagCheckIn pi = pag_bench.Next();
      const IntraWarpCdIn wi = iw_bench.Next();
      clean.Cycle(now, pi, wi);
      faulty.Cycle(now, pi, wi);
      // The benches see the faulty core (its handshakes must equal the clean core's).
      PagCheckIn pi_seen = pi;
      IntraWarpCdIn wi_seen = wi;
      pi_seen.cat_req_ready = wi_seen.cat_req_ready = 0;
      pag_bench.Observe(pi_seen, faulty.pag_o);
      iw_bench.Observe(wi_seen, faulty.iw_o);
      for (int l = 0; l < cp.warp_size; ++l) {
        if (faulty.pag_o.cat_req_valid && ((faulty.pag_o.cat_req_mask >> l) & 1)) {
          looked.push_back(faulty.pag_o.cat_req_addr[l]);
        }
      }
      if (looked.size() > 64) {
        looked.erase(looked.begin(), looked.begin() + 32);
      }

      // Equal but for the lanes.
      const auto& cg = clean.pag_o;
      const auto& fg = faulty.pag_o;
      ASSERT_EQ(fg.req_ready, cg.req_ready) << "cycle " << cycle;
      ASSERT_EQ(fg.cat_req_valid, cg.cat_req_valid) << "cycle " << cycle;
      ASSERT_EQ(fg.res_valid, cg.res_valid) << "cycle " << cycle;
      ASSERT_EQ(fg.err, cg.err) << "cycle " << cycle;
      const auto& cw = clean.iw_o;
      const auto& fw = faulty.iw_o;
      ASSERT_EQ(fw.cmd_ready, cw.cmd_ready) << "cycle " << cycle;
      ASSERT_EQ(fw.cat_req_valid, cw.cat_req_valid) << "cycle " << cycle;
      ASSERT_EQ(fw.res_valid, cw.res_valid) << "cycle " << cycle;
      ASSERT_EQ(fw.res_iw, cw.res_iw) << "cycle " << cycle << ": the table does not use the CAT";
      ASSERT_EQ(fw.busy, cw.busy) << "cycle " << cycle;
      ASSERT_EQ(fw.err, cw.err) << "cycle " << cycle;
      ASSERT_EQ(faulty.cat_o.lkp_ready, clean.cat_o.lkp_ready) << "cycle " << cycle;
      ASSERT_EQ(faulty.cat_o.rsp_valid, clean.cat_o.rsp_valid) << "cycle " << cycle;
      ASSERT_EQ(faulty.cat_o.err, 0u) << "cycle " << cycle;
      ASSERT_EQ(clean.cat_o.err, 0u) << "cycle " << cycle;

      // The faulty core's decisions still keep the rules.
      if (fg.res_valid) {
        ++decisions;
        pauses_differ += fg.res_pause != cg.res_pause;
        ASSERT_EQ(fg.res_go & fg.res_pause, 0u) << "cycle " << cycle;
        ASSERT_EQ(fg.res_go | fg.res_pause, cg.res_go | cg.res_pause) << "cycle " << cycle;
        if ((fg.res_go | fg.res_pause) != 0) {
          ASSERT_NE(fg.res_go, 0u) << "cycle " << cycle << ": no lane goes on";
        }
      }
      if (fw.res_valid) {
        ++results;
        aborts_differ += fw.res_abort != cw.res_abort;
        ASSERT_EQ(fw.res_abort & fw.res_spared, 0u) << "cycle " << cycle;
        ASSERT_EQ(fw.res_abort & ~(fw.res_iw | fw.res_ea), 0u) << "cycle " << cycle;
      }
    }
    // The run meant something: faults happened and changed decisions.
    EXPECT_GT(faults, 100);
    EXPECT_GT(decisions, 1000);
    EXPECT_GT(results, 500);
    EXPECT_GT(pauses_differ, 0) << "faults never changed a pause";
    EXPECT_GT(aborts_differ, 0) << "faults never changed an early abort";
  }
}

TEST(CatChannel, DeliversEveryMessageToEveryCoreAfterTheLatencyInOrder) {
  CatChannel ch(3, 7);
  ch.Send(10, {1, 2});
  ch.Send(11, {3});
  for (int c = 0; c < 3; ++c) {
    EXPECT_FALSE(ch.Ready(c, 16));
    EXPECT_TRUE(ch.Ready(c, 17));
  }
  EXPECT_EQ(ch.Front(1), (CatChannel::Msg{1, 2}));
  ch.Pop(1);
  EXPECT_FALSE(ch.Ready(1, 17)) << "the second message arrives a cycle later";
  EXPECT_TRUE(ch.Ready(1, 18));
  EXPECT_EQ(ch.Front(1), (CatChannel::Msg{3}));
  EXPECT_EQ(ch.InFlight(0), 2u) << "a core that takes nothing keeps its messages";
  EXPECT_THROW(CatChannel(0, 5), std::invalid_argument);
  EXPECT_THROW(CatChannel(2, -1), std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
