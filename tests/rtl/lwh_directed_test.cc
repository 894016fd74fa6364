// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_sig_recency_ram and htm_lwh (the commit unit's Last Writer History),
// run in lockstep with expected values asserted on top: the initial sweep, back-to-back
// insert/lookup forwarding, eviction of the oldest way into the recency filter (the
// conservative path), scrubbing of stale commit ids, forced scrub cycles and commit-id
// wrap-around.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_lwh__default.h"
#include "Vhtm_lwh__pipe.h"
#include "Vhtm_lwh__small.h"
#include "Vhtm_sig_recency_ram__small.h"

#include "htm/configs/htm_lwh.h"
#include "htm/configs/htm_sig_recency_ram.h"
#include "htm/golden/lwh_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {

using golden::LwhIn;
using golden::LwhModel;
using golden::LwhOut;
using golden::LwhPorts;
using golden::SigRecencyRamIn;
using golden::SigRecencyRamModel;
using golden::SigRecencyRamOut;
using golden::SigRecencyRamPorts;

// ---- htm_sig_recency_ram
// -----------------------------------------------------------------------------------------

using RamLs = Lockstep<SigRecencyRamPorts, Vhtm_sig_recency_ram__small, SigRecencyRamModel>;

SigRecencyRamIn Idle(uint64_t now) {
  SigRecencyRamIn in;
  in.now = now;
  return in;
}
SigRecencyRamIn Lookup(uint64_t now, uint64_t a) {
  SigRecencyRamIn in = Idle(now);
  in.lkp_valid = 1;
  in.lkp_addr = a;
  return in;
}
SigRecencyRamIn Insert(uint64_t now, uint64_t a, uint64_t v) {
  SigRecencyRamIn in = Idle(now);
  in.ins_valid = 1;
  in.ins_addr = a;
  in.ins_val = v;
  return in;
}

void SweepRam(RamLs& ls, int slots) {
  for (int i = 0; i < slots; ++i) {
    EXPECT_EQ(DirectedCycle(ls, Idle(0)).ready, 0u) << "cycle " << i << " of the initial sweep";
  }
  EXPECT_EQ(DirectedCycle(ls, Idle(0)).ready, 1u);
}

TEST(LwhDirected, RecencyRamSweepThenNewestValueAndSameCycleVisibility) {
  const auto& p = configs::htm_sig_recency_ram::kSmall;  // 2 x 8 slots, 5-bit values
  RamLs ls(p, DirectedOptions("htm_sig_recency_ram", "small"));
  SweepRam(ls, p.slots_per_hash);
  EXPECT_EQ(DirectedCycle(ls, Lookup(3, 0x11)).lkp_valid, 0u);
  const SigRecencyRamOut miss = DirectedCycle(ls, Idle(3));
  EXPECT_EQ(miss.lkp_valid, 1u);
  EXPECT_EQ(miss.lkp_found, 0u);
  // An insert and a lookup of the same address in one cycle: the lookup sees the insert.
  SigRecencyRamIn both = Insert(3, 0x11, 2);
  both.lkp_valid = 1;
  both.lkp_addr = 0x11;
  DirectedCycle(ls, both);
  // The next cycle's lookup answer, and an older value that must not replace the newer one.
  const SigRecencyRamOut o = DirectedCycle(ls, Insert(3, 0x11, 1));
  EXPECT_EQ(o.lkp_found, 1u);
  EXPECT_EQ(o.lkp_val, 2u);
  DirectedCycle(ls, Lookup(3, 0x11));
  EXPECT_EQ(DirectedCycle(ls, Idle(3)).lkp_val, 2u);
  // Wrap-around: with now = 1 (after 31), value 30 is older than value 0.
  DirectedCycle(ls, Insert(31, 0x22, 30));
  DirectedCycle(ls, Insert(1, 0x22, 0));
  DirectedCycle(ls, Insert(1, 0x22, 30));
  DirectedCycle(ls, Lookup(1, 0x22));
  const SigRecencyRamOut w = DirectedCycle(ls, Idle(1));
  EXPECT_EQ(w.lkp_found, 1u);
  EXPECT_EQ(w.lkp_val, 0u) << "0 is newer than 30 when now = 1";
}

TEST(LwhDirected, RecencyRamScrubInvalidatesOnlyStaleValues) {
  const auto& p = configs::htm_sig_recency_ram::kSmall;  // stale from age 2**3 = 8
  RamLs ls(p, DirectedOptions("htm_sig_recency_ram", "small"));
  SweepRam(ls, p.slots_per_hash);
  const SigRecencyRamModel& m = ls.model();
  const uint64_t a = 0x5A;
  DirectedCycle(ls, Insert(10, a, 10));
  // Scrub every slot at age 7: nothing goes.
  for (int s = 0; s < p.slots_per_hash; ++s) {
    SigRecencyRamIn in = Idle(17);
    in.scrub_valid = 1;
    in.scrub_idx = s;
    DirectedCycle(ls, in);
  }
  DirectedCycle(ls, Lookup(17, a));
  EXPECT_EQ(DirectedCycle(ls, Idle(17)).lkp_found, 1u);
  // At age 8 the scrub of one of a's slots invalidates it and the lookup misses.
  SigRecencyRamIn in = Idle(18);
  in.scrub_valid = 1;
  in.scrub_idx = m.Index(0, a);
  DirectedCycle(ls, in);
  DirectedCycle(ls, Lookup(18, a));
  EXPECT_EQ(DirectedCycle(ls, Idle(18)).lkp_found, 0u);
}

// ---- htm_lwh
// -----------------------------------------------------------------------------------------

template <class Top>
using LwhLs = Lockstep<LwhPorts, Top, LwhModel>;

LwhIn Nop(uint64_t now) {
  LwhIn in;
  in.now = now;
  return in;
}
LwhIn Write(uint64_t now, uint64_t a, uint64_t cid) {
  LwhIn in = Nop(now);
  in.op_valid = 1;
  in.op_write = 1;
  in.op_addr = a;
  in.op_cid = cid;
  return in;
}
LwhIn Read(uint64_t now, uint64_t a) {
  LwhIn in = Nop(now);
  in.op_valid = 1;
  in.op_addr = a;
  return in;
}

// Drives `in` until the LWH accepts it (ready_o, which forced scrub cycles lower); returns the
// outputs of the accepting cycle.
template <class Top>
LwhOut Do(LwhLs<Top>& ls, const LwhIn& in) {
  for (int i = 0; i < 8 && !ls.model().ready(); ++i) {
    DirectedCycle(ls, in);
  }
  EXPECT_TRUE(ls.model().ready());
  return DirectedCycle(ls, in);
}

template <class Top>
void SweepLwh(LwhLs<Top>& ls, const golden::LwhParams& p) {
  const int n = std::max(p.sets, p.bf_slots);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(DirectedCycle(ls, Nop(0)).ready, 0u) << "cycle " << i << " of the initial sweep";
  }
}

// Addresses that share `a`'s set.
std::vector<uint64_t> SameSet(const LwhModel& m, uint64_t a, int n) {
  std::vector<uint64_t> v;
  for (uint64_t b = 0; static_cast<int>(v.size()) < n; ++b) {
    if (b != a && m.SetIndex(b) == m.SetIndex(a)) {
      v.push_back(b);
    }
  }
  return v;
}

TEST(LwhDirected, BackToBackInsertAndLookupHit) {
  const auto& p = configs::htm_lwh::kDefault;
  LwhLs<Vhtm_lwh__default> ls(p, DirectedOptions("htm_lwh", "default"));
  SweepLwh(ls, p);
  EXPECT_EQ(DirectedCycle(ls, Read(0, 0x1234)).ready, 1u);
  const LwhOut miss = DirectedCycle(ls, Write(0, 0x1234, 0));
  EXPECT_EQ(miss.res_valid, 1u);
  EXPECT_EQ(miss.res_found, 0u) << "nothing written yet";
  // The write of the previous cycle is visible to the lookup right behind it.
  DirectedCycle(ls, Read(1, 0x1234));
  LwhOut o = DirectedCycle(ls, Write(1, 0x1234, 1));
  EXPECT_EQ(o.res_hit, 1u);
  EXPECT_EQ(o.res_cid, 0u);
  DirectedCycle(ls, Read(1, 0x1234));
  o = DirectedCycle(ls, Nop(1));
  EXPECT_EQ(o.res_hit, 1u);
  EXPECT_EQ(o.res_cid, 1u) << "a hit overwrites the cid";
}

// ResPipe: the same answers one cycle later (t+2), still seeing the write accepted right
// before the lookup and not the one right after it; res_valid low in between.
TEST(LwhDirected, PipeAnswersOneCycleLater) {
  const auto& p = configs::htm_lwh::kPipe;  // the small history with ResPipe
  LwhLs<Vhtm_lwh__pipe> ls(p, DirectedOptions("htm_lwh", "pipe"));
  SweepLwh(ls, p);
  DirectedCycle(ls, Nop(1));
  DirectedCycle(ls, Nop(2));
  Do(ls, Write(2, 0x21, 1));
  EXPECT_EQ(Do(ls, Read(2, 0x21)).res_valid, 0u);  // t
  const LwhOut t1 = DirectedCycle(ls, Write(3, 0x21, 3));
  EXPECT_EQ(t1.ready, 1u) << "the insert is accepted at t+1";
  EXPECT_EQ(t1.res_valid, 0u) << "not yet at t+1";
  const LwhOut t2 = DirectedCycle(ls, Nop(3));
  EXPECT_EQ(t2.res_valid, 1u);
  EXPECT_EQ(t2.res_hit, 1u);
  EXPECT_EQ(t2.res_cid, 1u) << "the insert accepted after the lookup is not seen";
  EXPECT_EQ(DirectedCycle(ls, Nop(3)).res_valid, 0u);
}

// ResPipe: the evicted entry reaches the filter a cycle later; a lookup of its address accepted
// in the cycle right after the eviction answers the evicted cid all the same (forwarded), and
// the next one answers it from the filter.
TEST(LwhDirected, PipeLookupRightAfterAnEvictionSeesTheVictim) {
  const auto& p = configs::htm_lwh::kPipe;  // 4 sets x 2 ways, ScrubInterval 4
  LwhLs<Vhtm_lwh__pipe> ls(p, DirectedOptions("htm_lwh", "pipe"));
  SweepLwh(ls, p);
  const uint64_t d = 0x0D;
  const std::vector<uint64_t> others = SameSet(ls.model(), d, 2);
  Do(ls, Write(1, d, 1));
  Do(ls, Write(2, others[0], 2));
  DirectedCycle(ls, Nop(3));  // a scrub step: no forced scrub in the next three cycles
  EXPECT_EQ(DirectedCycle(ls, Write(3, others[1], 3)).ready, 1u);  // t: evicts d (cid 1)
  LwhOut o = DirectedCycle(ls, Read(3, d));                        // t+1: reported, looked up
  EXPECT_EQ(o.ready, 1u);
  EXPECT_EQ(o.evict_valid, 1u);
  EXPECT_EQ(o.evict_addr, d);
  o = DirectedCycle(ls, Read(3, d));  // t+2: d goes into the filter
  EXPECT_EQ(o.ready, 1u);
  EXPECT_EQ(o.res_valid, 0u);
  o = DirectedCycle(ls, Nop(3));  // t+3: the answer to the lookup of t+1
  EXPECT_EQ(o.res_valid, 1u);
  EXPECT_EQ(o.res_hit, 0u);
  EXPECT_EQ(o.res_found, 1u) << "the victim, forwarded";
  EXPECT_EQ(o.res_cid, 1u);
  o = DirectedCycle(ls, Nop(3));  // t+4: the answer to the lookup of t+2
  EXPECT_EQ(o.res_valid, 1u);
  EXPECT_EQ(o.res_hit, 0u);
  EXPECT_EQ(o.res_found, 1u) << "the filter knows d";
  EXPECT_EQ(o.res_cid, 1u);
}

// The slides' example (KILO TM slide 31): a write evicts the oldest entry, whose address then
// answers from the recency filter with a cid no older than the evicted one.
TEST(LwhDirected, EvictionGoesToTheRecencyFilter) {
  const auto& p = configs::htm_lwh::kSmall;  // 4 sets x 2 ways, 8-bit cids
  LwhLs<Vhtm_lwh__small> ls(p, DirectedOptions("htm_lwh", "small"));
  SweepLwh(ls, p);
  const uint64_t d = 0x0D;
  const std::vector<uint64_t> others = SameSet(ls.model(), d, 2);
  Do(ls, Write(1, d, 1));
  Do(ls, Write(2, others[0], 2));
  LwhOut o = Do(ls, Write(3, others[1], 3));  // the set is full: evicts d (cid 1)
  EXPECT_EQ(o.evict_valid, 0u);
  o = DirectedCycle(ls, Read(3, d));
  EXPECT_EQ(o.evict_valid, 1u);
  EXPECT_EQ(o.evict_addr, d);
  EXPECT_EQ(o.evict_cid, 1u);
  if (o.ready == 0) {
    Do(ls, Read(3, d));  // a forced scrub cycle: issue the lookup again
  }
  o = DirectedCycle(ls, Nop(3));
  EXPECT_EQ(o.res_valid, 1u);
  EXPECT_EQ(o.res_hit, 0u);
  EXPECT_EQ(o.res_found, 1u) << "the filter knows d";
  EXPECT_EQ(o.res_cid, 1u);
  // A write that hits refreshes the way: the next eviction takes the other, older way.
  Do(ls, Write(4, others[0], 4));
  Do(ls, Write(5, d, 5));
  o = DirectedCycle(ls, Nop(5));
  EXPECT_EQ(o.evict_valid, 1u);
  EXPECT_EQ(o.evict_addr, others[1]);
  EXPECT_EQ(o.evict_cid, 3u);
}

TEST(LwhDirected, ForcedScrubTakesOneCycleInScrubInterval) {
  const auto& p = configs::htm_lwh::kSmall;  // ScrubInterval 4
  LwhLs<Vhtm_lwh__small> ls(p, DirectedOptions("htm_lwh", "small"));
  SweepLwh(ls, p);
  int accepted = 0;
  const int cycles = 40 * p.scrub_interval;
  for (int i = 0; i < cycles; ++i) {
    accepted += static_cast<int>(DirectedCycle(ls, Read(0, i & 0x3FF)).ready);
  }
  EXPECT_EQ(accepted, cycles - cycles / p.scrub_interval);
}

TEST(LwhDirected, StaleCidsAreScrubbedAndWrapAroundKeepsOrder) {
  const auto& p = configs::htm_lwh::kSmall;  // StaleAge 64, age bound 64 + 8 * 4 + 2 = 98
  LwhLs<Vhtm_lwh__small> ls(p, DirectedOptions("htm_lwh", "small"));
  SweepLwh(ls, p);
  const uint64_t a = 0x2A, b = 0x2B;
  uint64_t now = 0;
  DirectedCycle(ls, Write(now, a, now));
  // Idle cycles scrub opportunistically; now advances one per cycle (8-bit cids wrap at 256).
  for (int i = 0; i < 63; ++i) {
    DirectedCycle(ls, Nop(++now));
  }
  DirectedCycle(ls, Read(now, a));
  LwhOut o = DirectedCycle(ls, Nop(now));
  EXPECT_EQ(o.res_hit, 1u) << "age 63 is not stale";
  for (int i = 0; i < static_cast<int>(ls.model().AgeBound()) - 63; ++i) {
    DirectedCycle(ls, Nop(++now));
  }
  DirectedCycle(ls, Read(now, a));
  o = DirectedCycle(ls, Nop(now));
  EXPECT_EQ(o.res_found, 0u) << "scrubbed by age " << ls.model().AgeBound();
  // Across the wrap: b written at 250, looked up at now = 260 mod 256 = 4.
  while (now != 250) {
    now = (now + 1) & 0xFF;
    DirectedCycle(ls, Nop(now));
  }
  DirectedCycle(ls, Write(now, b, 250));
  for (int i = 0; i < 10; ++i) {
    now = (now + 1) & 0xFF;
    DirectedCycle(ls, Nop(now));
  }
  ASSERT_EQ(now, 4u);
  DirectedCycle(ls, Read(now, b));
  o = DirectedCycle(ls, Nop(now));
  EXPECT_EQ(o.res_hit, 1u);
  EXPECT_EQ(o.res_cid, 250u);
}

}  // namespace
}  // namespace htm::tb
