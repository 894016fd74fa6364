// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_pag_check (the Pause-and-Go check, Chen & Peng, HPCA 2016, §4.4; reference
// 3.2-3.3), RTL and golden model in lockstep with the expected values on top: Figure 6's pause of
// threads 0-3 at the load of 0x110, a warp where every lane hits (the lowest goes on), a single
// active lane, Pause-and-Go off, the timing against the CAT's answer, back-to-back instructions, a
// stray CAT answer, the small and degenerate configurations.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_pag_check__default.h"
#include "Vhtm_pag_check__one.h"
#include "Vhtm_pag_check__small.h"

#include "htm/configs/htm_pag_check.h"
#include "htm/golden/pag_check_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::PagCheckIn;
using golden::PagCheckModel;
using golden::PagCheckOut;
using golden::PagCheckPorts;
using In = PagCheckIn;
using Out = PagCheckOut;

// Drives one instruction through the block and plays the CAT, which takes the request at once
// and answers `cat_delay` cycles later with `hits`.
template <class L>
class Core {
 public:
  explicit Core(L& ls) : ls_(ls) {}
  int cycles = 0;  // from the request's acceptance to the result
  bool looked_up = false;

  Out Issue(uint64_t lanes, bool write, uint64_t hits, int cat_delay = 0, bool pg = true) {
    In in;
    in.req_valid = 1;
    in.req_mask = lanes;
    in.req_write = write;
    in.pg_en = pg;
    const auto& p = ls_.model().params();
    const uint64_t all = golden::LowMask(p.warp_size);
    lanes &= all;
    in.req_mask = lanes;
    hits &= all;
    for (int l = 0; l < p.warp_size; ++l) {
      in.req_addr[l] = (0x40 + l) & golden::LowMask(p.addr_w);
    }
    cycles = 0;
    looked_up = false;
    int wait = -1;
    bool accepted = false;
    for (int i = 0; i < 100; ++i) {
      In cur = accepted ? In{} : in;
      cur.cat_req_ready = 1;
      cur.cat_rsp_valid = wait == 0;
      cur.cat_rsp_hit = wait == 0 ? hits : 0;
      const Out o = DirectedCycle(ls_, cur);
      if (accepted) {
        ++cycles;
      }
      if (o.res_valid && accepted) {
        return o;
      }
      if (!accepted && o.req_ready) {
        accepted = true;
      }
      if (wait >= 0) {
        --wait;
      }
      if (o.cat_req_valid) {
        looked_up = true;
        EXPECT_EQ(o.cat_req_mask, lanes);
        EXPECT_EQ(o.cat_req_write, write ? 1u : 0u);
        wait = cat_delay;
      }
    }
    ADD_FAILURE() << "no result";
    return Out{};
  }

 private:
  L& ls_;
};

using Ls = Lockstep<PagCheckPorts, Vhtm_pag_check__default, PagCheckModel>;
const golden::PagCheckParams& P() {
  return configs::htm_pag_check::kDefault;
}

TEST(PagCheckDirected, Figure6ThreadsZeroToThreePauseAtTheLoad) {
  // Figure 6, 1 -> 2: eight threads load at 0x110; threads 0-3's addresses are in the CAT.
  Ls ls(P(), DirectedOptions("htm_pag_check", "default"));
  Core c(ls);
  const Out o = c.Issue(TableMask("11111111"), false, TableMask("11110000"));
  EXPECT_TRUE(c.looked_up);
  EXPECT_EQ(o.res_pause, TableMask("11110000"));
  EXPECT_EQ(o.res_go, TableMask("00001111"));
  EXPECT_EQ(o.res_forced, 0u);
}

TEST(PagCheckDirected, WhenEveryLaneHitsTheLowestGoesOn) {
  Ls ls(P(), DirectedOptions("htm_pag_check", "default"));
  Core c(ls);
  const Out o = c.Issue(TableMask("01101001"), true, ~uint64_t{0});
  EXPECT_EQ(o.res_forced, TableMask("01000000"));
  EXPECT_EQ(o.res_go, TableMask("01000000"));
  EXPECT_EQ(o.res_pause, TableMask("00101001"));
  // A single active lane never pauses.
  const Out one = c.Issue(TableMask("00010000"), false, ~uint64_t{0});
  EXPECT_EQ(one.res_go, TableMask("00010000"));
  EXPECT_EQ(one.res_pause, 0u);
  // The CAT's hits outside the lanes do not count.
  const Out out = c.Issue(TableMask("11000000"), false, TableMask("00111111"));
  EXPECT_EQ(out.res_go, TableMask("11000000"));
  EXPECT_EQ(out.res_forced, 0u);
}

TEST(PagCheckDirected, PauseAndGoOffLooksNothingUp) {
  Ls ls(P(), DirectedOptions("htm_pag_check", "default"));
  Core c(ls);
  const Out o = c.Issue(0xffffffff, false, ~uint64_t{0}, 0, false);
  EXPECT_FALSE(c.looked_up);
  EXPECT_EQ(o.res_go, 0xffffffffu);
  EXPECT_EQ(o.res_pause, 0u);
  EXPECT_EQ(c.cycles, 1) << "the result in the cycle after the request";
  // No lanes: nothing looked up either.
  const Out none = c.Issue(0, false, ~uint64_t{0});
  EXPECT_FALSE(c.looked_up);
  EXPECT_EQ(none.res_go | none.res_pause, 0u);
}

TEST(PagCheckDirected, TheResultComesTheCycleAfterTheCatsAnswer) {
  Ls ls(P(), DirectedOptions("htm_pag_check", "default"));
  Core c(ls);
  // The CAT's answer d + 1 cycles after it takes the request (8 for 32 lanes on 4 ports).
  for (int d : {0, 3, 7}) {
    c.Issue(0xffffffff, false, 0, d);
    EXPECT_EQ(c.cycles, d + 3) << "request register, CAT request, answer after " << d + 1
                               << ", result register";
  }
}

TEST(PagCheckDirected, BackToBackInstructionsAndAStrayAnswer) {
  Ls ls(P(), DirectedOptions("htm_pag_check", "default"));
  // Two requests: the second is taken in the cycle the first's result is out.
  In a;
  a.req_valid = 1;
  a.req_mask = 0b11;
  a.pg_en = 0;
  Out o = DirectedCycle(ls, a);
  EXPECT_EQ(o.req_ready, 1u);
  a.req_mask = 0b100;
  o = DirectedCycle(ls, a);
  EXPECT_EQ(o.res_valid, 1u);
  EXPECT_EQ(o.res_go, 0b11u);
  EXPECT_EQ(o.req_ready, 1u);
  o = DirectedCycle(ls, In{});
  EXPECT_EQ(o.res_go, 0b100u);
  // A CAT answer with nothing outstanding: err, otherwise ignored.
  In stray;
  stray.cat_rsp_valid = 1;
  stray.cat_rsp_hit = 0xff;
  DirectedCycle(ls, stray);
  o = DirectedCycle(ls, In{});
  EXPECT_EQ(o.err, 1u);
  EXPECT_EQ(o.res_valid, 0u);
}

TEST(PagCheckDirected, SmallConfiguration) {
  using Lsm = Lockstep<PagCheckPorts, Vhtm_pag_check__small, PagCheckModel>;
  Lsm ls(configs::htm_pag_check::kSmall, DirectedOptions("htm_pag_check", "small"));
  Core c(ls);
  const Out o = c.Issue(TableMask("1111"), true, TableMask("1111"), 2);
  EXPECT_EQ(o.res_go, TableMask("1000"));
  EXPECT_EQ(o.res_pause, TableMask("0111"));
}

TEST(PagCheckDirected, DegenerateConfiguration) {
  using L1 = Lockstep<PagCheckPorts, Vhtm_pag_check__one, PagCheckModel>;
  L1 ls(configs::htm_pag_check::kOne, DirectedOptions("htm_pag_check", "one"));
  Core c(ls);
  const Out o = c.Issue(1, false, 1);
  EXPECT_TRUE(c.looked_up);
  EXPECT_EQ(o.res_go, 1u);
  EXPECT_EQ(o.res_forced, 1u);
  EXPECT_EQ(o.res_pause, 0u);
}

}  // namespace
}  // namespace htm::tb
