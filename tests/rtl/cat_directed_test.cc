// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_cat (the Conflict Address Table of early conflict resolution, Chen & Peng,
// HPCA 2016, §4.1-4.3), RTL and golden model in lockstep with the expected values on top: the hit
// rules (read-read never conflicts), lookup latency with four ports (a 32-lane warp in 8 cycles),
// back-to-back warps, updates racing lookups, adds and removes (full set, duplicate and
// spurious deltas), a message with too many deltas, idle lines and the delta slots past a
// message's count ignored, a full batch applied once, the degenerate table.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_cat__default.h"
#include "Vhtm_cat__one.h"
#include "Vhtm_cat__small.h"

#include "htm/configs/htm_cat.h"
#include "htm/golden/cat_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::CatDelta;
using golden::CatIn;
using golden::CatModel;
using golden::CatOut;
using golden::CatParams;
using golden::CatPorts;
using Ls = Lockstep<CatPorts, Vhtm_cat__small, CatModel>;
using Ld = Lockstep<CatPorts, Vhtm_cat__default, CatModel>;

// small: 8-bit addresses, 4 sets x 2 ways, 8 lanes on 3 ports, messages of up to 3 deltas.
const CatParams& P() {
  return configs::htm_cat::kSmall;
}

CatIn Msg(const std::vector<CatDelta>& d) {
  CatIn in;
  in.msg_valid = 1;
  in.msg_count = d.size();
  for (size_t i = 0; i < d.size(); ++i) {
    in.msg_dlt[i] = d[i].Pack();
  }
  return in;
}
CatDelta Add(uint64_t a, bool write) {
  return CatDelta{a, write, true};
}
CatDelta Rem(uint64_t a, bool write) {
  return CatDelta{a, write, false};
}
// A lookup of `addr[l]` for every lane l given.
CatIn Lkp(const std::vector<uint64_t>& addr, bool write) {
  CatIn in;
  in.lkp_valid = 1;
  in.lkp_write = write;
  for (size_t l = 0; l < addr.size(); ++l) {
    in.lkp_mask |= uint64_t{1} << l;
    in.lkp_addr[l] = addr[l];
  }
  return in;
}

template <class L>
void Sweep(L& ls, int sets) {
  for (int i = 0; i < sets; ++i) {
    EXPECT_EQ(DirectedCycle(ls, CatIn{}).ready, 0u);
  }
  EXPECT_EQ(ls.model().Eval(CatIn{}).ready, 1u);
}

// Sends a message and waits until every delta is written back.
template <class L>
void Apply(L& ls, const std::vector<CatDelta>& d) {
  const CatIn m = Msg(d);
  while (DirectedCycle(ls, m).msg_ready == 0) {
  }
  for (size_t i = 0; i <= d.size(); ++i) {
    DirectedCycle(ls, CatIn{});
  }
}

// Looks up a warp; returns the response and the cycles from acceptance to it.
template <class L>
CatOut Look(L& ls, const CatIn& req, int* latency = nullptr) {
  while (DirectedCycle(ls, req).lkp_ready == 0) {
  }
  for (int n = 1; n < 100; ++n) {
    const CatOut o = DirectedCycle(ls, CatIn{});
    if (o.rsp_valid != 0) {
      if (latency != nullptr) {
        *latency = n;
      }
      return o;
    }
  }
  ADD_FAILURE() << "no response";
  return CatOut{};
}

// The first n addresses from `start` on that fall in `set`.
std::vector<uint64_t> InSet(const CatModel& m, int set, uint64_t start, int n) {
  std::vector<uint64_t> v;
  for (uint64_t a = start; static_cast<int>(v.size()) < n; ++a) {
    if (m.SetOf(a) == set) {
      v.push_back(a);
    }
  }
  return v;
}

// What the update pipeline reported while a message was applied.
struct Applied {
  int deltas = 0;  // cycles with dlt_valid
  int drops = 0;   // cycles with drop_full
};

// Sends the message `m` (its slots past msg_count as given) and watches the update outputs
// until every delta it may hold has been written back and the pipeline is idle again.
template <class L>
Applied Send(L& ls, const CatIn& m, int batch) {
  Applied a;
  CatOut o = DirectedCycle(ls, m);
  while (o.msg_ready == 0) {
    o = DirectedCycle(ls, m);
  }
  for (int i = 0; i < batch + 3; ++i) {
    o = DirectedCycle(ls, CatIn{});
    a.deltas += static_cast<int>(o.dlt_valid);
    a.drops += static_cast<int>(o.drop_full);
  }
  return a;
}

std::vector<uint64_t> DistinctSets(const CatModel& m, uint64_t start, int n) {
  std::vector<uint64_t> v;
  std::vector<bool> taken(m.params().sets, false);
  for (uint64_t a = start; static_cast<int>(v.size()) < n; ++a) {
    if (!taken[m.SetOf(a)]) {
      taken[m.SetOf(a)] = true;
      v.push_back(a);
    }
  }
  return v;
}

TEST(CatDirected, ReadReadNeverConflicts) {
  Ls ls(P(), DirectedOptions("htm_cat", "small"));
  Sweep(ls, P().sets);
  const std::vector<uint64_t> a = DistinctSets(ls.model(), 0x10, 3);
  // a0 is read by a committing transaction, a1 written, a2 unknown.
  Apply(ls, {Add(a[0], false), Add(a[1], true)});
  // A transactional read hits only what committing transactions write (§4.3).
  EXPECT_EQ(Look(ls, Lkp({a[0], a[1], a[2]}, false)).rsp_hit, 0b010u);
  // A write hits what they read or write.
  EXPECT_EQ(Look(ls, Lkp({a[0], a[1], a[2]}, true)).rsp_hit, 0b011u);
  // Lanes outside the mask are not looked up.
  CatIn masked = Lkp({a[0], a[1], a[2]}, true);
  masked.lkp_mask = 0b100;
  EXPECT_EQ(Look(ls, masked).rsp_hit, 0u);
}

TEST(CatDirected, FourPortsLookUpAWarpOf32InEightCycles) {
  const CatParams& p = configs::htm_cat::kDefault;
  Ld ls(p, DirectedOptions("htm_cat", "default"));
  Sweep(ls, p.sets);
  std::vector<uint64_t> addr(32);
  for (int l = 0; l < 32; ++l) {
    addr[l] = 0x1000 + 7 * l;
  }
  Apply(ls, {Add(addr[5], true), Add(addr[31], true), Add(addr[17], false)});
  int latency = 0;
  CatOut o = Look(ls, Lkp(addr, false), &latency);
  EXPECT_EQ(latency, 8) << "32 lanes on 4 ports (§4.3)";
  EXPECT_EQ(o.rsp_hit, (uint64_t{1} << 5) | (uint64_t{1} << 31));
  o = Look(ls, Lkp(addr, true), &latency);
  EXPECT_EQ(o.rsp_hit, (uint64_t{1} << 5) | (uint64_t{1} << 31) | (uint64_t{1} << 17));
  // Fewer active lanes take fewer cycles: 5 lanes -> 2, none -> 1.
  CatIn five = Lkp(addr, true);
  five.lkp_mask = 0b10000000000000000000000000100111;
  EXPECT_EQ(Look(ls, five, &latency).rsp_hit, (uint64_t{1} << 5) | (uint64_t{1} << 31));
  EXPECT_EQ(latency, 2);
  CatIn none = Lkp(addr, true);
  none.lkp_mask = 0;
  EXPECT_EQ(Look(ls, none, &latency).rsp_hit, 0u);
  EXPECT_EQ(latency, 1);
  EXPECT_EQ(ls.model().LookupLatency(32), 8);
}

TEST(CatDirected, BackToBackWarpsStreamFourLanesPerCycle) {
  const CatParams& p = configs::htm_cat::kDefault;
  Ld ls(p, DirectedOptions("htm_cat", "default"));
  Sweep(ls, p.sets);
  std::vector<uint64_t> addr(32, 0x55);
  Apply(ls, {Add(0x55, true)});
  const CatIn req = Lkp(addr, false);
  // Ten warps of 32 lanes offered every cycle: one accepted every 8 cycles, a response every 8.
  std::vector<int> accepts, responses;
  for (int c = 0; c < 90; ++c) {
    const CatOut o = DirectedCycle(ls, req);
    if (o.lkp_ready) {
      accepts.push_back(c);
    }
    if (o.rsp_valid) {
      responses.push_back(c);
      EXPECT_EQ(o.rsp_hit, 0xffffffffu);
    }
  }
  ASSERT_GE(accepts.size(), 10u);
  for (size_t i = 1; i < 10; ++i) {
    EXPECT_EQ(accepts[i] - accepts[i - 1], 8);
    EXPECT_EQ(responses[i] - responses[i - 1], 8);
  }
  EXPECT_EQ(responses[0] - accepts[0], 8);
}

TEST(CatDirected, UpdatesRacingLookups) {
  Ls ls(P(), DirectedOptions("htm_cat", "small"));
  Sweep(ls, P().sets);
  const uint64_t a = 0x42;
  // Cycle 0: the message is accepted; 1: its delta reads its set; 2: the set is written back.
  const CatIn lk = Lkp({a}, false);
  CatIn both = Msg({Add(a, true)});
  both.lkp_valid = lk.lkp_valid;
  both.lkp_mask = lk.lkp_mask;
  both.lkp_addr = lk.lkp_addr;
  CatOut o = DirectedCycle(ls, both);  // cycle 0: lookup sees nothing yet
  o = DirectedCycle(ls, lk);           // cycle 1: response of cycle 0; lookup again
  EXPECT_EQ(o.rsp_valid, 1u);
  EXPECT_EQ(o.rsp_hit, 0u);
  o = DirectedCycle(ls, lk);  // cycle 2: the write-back happens now; this lookup reads before it
  EXPECT_EQ(o.rsp_hit, 0u);
  EXPECT_EQ(o.dlt_valid, 1u);
  o = DirectedCycle(ls, lk);  // cycle 3: response of cycle 2: still old
  EXPECT_EQ(o.rsp_hit, 0u);
  o = DirectedCycle(ls, CatIn{});  // cycle 4: response of cycle 3: the new bit
  EXPECT_EQ(o.rsp_hit, 1u);
}

TEST(CatDirected, AddsRemovesFullSetsAndFaultyDeltas) {
  Ls ls(P(), DirectedOptions("htm_cat", "small"));
  Sweep(ls, P().sets);
  // Three addresses of one set (two ways).
  const std::vector<uint64_t> s = InSet(ls.model(), ls.model().SetOf(0x20), 0x20, 3);
  Apply(ls, {Add(s[0], false), Add(s[1], true)});
  EXPECT_EQ(ls.model().Eval(CatIn{}).used, 2u);
  // The set is full: the third address is dropped.
  DirectedCycle(ls, Msg({Add(s[2], true)}));
  DirectedCycle(ls, CatIn{});
  EXPECT_EQ(DirectedCycle(ls, CatIn{}).drop_full, 1u);
  EXPECT_FALSE(ls.model().Lookup(s[2]).written);
  // Duplicates and spurious removes change nothing.
  Apply(ls, {Add(s[0], false), Rem(s[2], true), Rem(s[1], false)});
  EXPECT_TRUE(ls.model().Lookup(s[0]).read);
  EXPECT_TRUE(ls.model().Lookup(s[1]).written);
  EXPECT_FALSE(ls.model().Lookup(s[1]).read);
  EXPECT_EQ(ls.model().Eval(CatIn{}).used, 2u);
  // Read and write bits are independent; a way is free when both are clear.
  Apply(ls, {Add(s[0], true), Rem(s[0], false)});
  EXPECT_TRUE(ls.model().Lookup(s[0]).written);
  EXPECT_EQ(ls.model().Eval(CatIn{}).used, 2u);
  Apply(ls, {Rem(s[0], true)});
  EXPECT_EQ(ls.model().Eval(CatIn{}).used, 1u);
  Apply(ls, {Add(s[2], true)});
  EXPECT_TRUE(ls.model().Lookup(s[2]).written);
  EXPECT_EQ(Look(ls, Lkp({s[0], s[1], s[2]}, true)).rsp_hit, 0b110u);
}

TEST(CatDirected, AMessageOfMoreThanBatchDeltasIsAnError) {
  const CatParams& p = configs::htm_cat::kDefault;  // 4-bit count: up to 15 > Batch 8
  Ld ls(p, DirectedOptions("htm_cat", "default"));
  Sweep(ls, p.sets);
  CatIn m = Msg({Add(1, true)});
  m.msg_count = 12;
  DirectedCycle(ls, m);
  for (int i = 0; i < 10; ++i) {
    DirectedCycle(ls, CatIn{});
  }
  const CatOut o = DirectedCycle(ls, CatIn{});
  EXPECT_EQ(o.err, 1u);
  EXPECT_EQ(o.msg_ready, 1u) << "Batch deltas applied, then ready again";
  EXPECT_TRUE(ls.model().Lookup(1).written);
}

TEST(CatDirected, IdleMessageAndLookupLinesAreIgnored) {
  Ls ls(P(), DirectedOptions("htm_cat", "small"));
  Sweep(ls, P().sets);
  // A full message and a warp on the lines with their valids low: nothing is applied, nothing
  // looked up.
  CatIn idle = Msg({Add(0x31, true), Add(0x32, false), Add(0x33, true)});
  idle.msg_valid = 0;
  const CatIn lk = Lkp({0x31, 0x32, 0x33}, true);
  idle.lkp_mask = lk.lkp_mask;
  idle.lkp_addr = lk.lkp_addr;
  idle.lkp_write = 1;
  for (int i = 0; i < 8; ++i) {
    const CatOut o = DirectedCycle(ls, idle);
    EXPECT_EQ(o.dlt_valid, 0u);
    EXPECT_EQ(o.rsp_valid, 0u);
    EXPECT_EQ(o.used, 0u);
  }
  EXPECT_FALSE(ls.model().Lookup(0x31).written);
  EXPECT_FALSE(ls.model().Lookup(0x32).read);
  // The same message taken: its three deltas go in.
  EXPECT_EQ(Send(ls, Msg({Add(0x31, true), Add(0x32, false), Add(0x33, true)}), P().batch).deltas,
            3);
  EXPECT_TRUE(ls.model().Lookup(0x32).read);
}

TEST(CatDirected, DeltaSlotsPastTheCountAreNeverApplied) {
  Ls ls(P(), DirectedOptions("htm_cat", "small"));
  Sweep(ls, P().sets);
  // s0 and s1 fill their set; x and y belong to other sets.
  const int set = ls.model().SetOf(0x20);
  const std::vector<uint64_t> s = InSet(ls.model(), set, 0x20, 2);
  uint64_t x = 0x20;
  while (ls.model().SetOf(x) == set) {
    ++x;
  }
  Apply(ls, {Add(s[0], false), Add(s[1], true)});
  // One delta that reads the full set, then adds in the slots past the count: after the delta,
  // the update stage holds no delta, whatever the next slot holds.
  CatIn m = Msg({Add(s[0], false), Add(x, true), Add(x + 1, true)});
  m.msg_count = 1;
  const Applied a = Send(ls, m, P().batch);
  EXPECT_EQ(a.deltas, 1);
  EXPECT_EQ(a.drops, 0) << "no add was applied to the full set";
  EXPECT_FALSE(ls.model().Lookup(x).written);
  EXPECT_EQ(ls.model().Eval(CatIn{}).used, 2u);
}

TEST(CatDirected, AFullBatchIsAppliedOnce) {
  const CatParams& p = configs::htm_cat::kDefault;  // Batch 8: the delta index wraps to 0
  Ld ls(p, DirectedOptions("htm_cat", "default"));
  Sweep(ls, p.sets);
  // Fill one set's three ways; x is in another set.
  const int set = ls.model().SetOf(0x100);
  const std::vector<uint64_t> s = InSet(ls.model(), set, 0x100, 3);
  uint64_t x = 0x100;
  while (ls.model().SetOf(x) == set) {
    ++x;
  }
  Apply(ls, {Add(s[0], true), Add(s[1], true), Add(s[2], false)});
  // Eight deltas: x first, the last one reading the full set. After the eighth the first is
  // not looked at again.
  std::vector<CatDelta> d(8, Add(x, true));
  d[7] = Add(s[2], false);
  const Applied a = Send(ls, Msg(d), p.batch);
  EXPECT_EQ(a.deltas, 8);
  EXPECT_EQ(a.drops, 0);
  EXPECT_TRUE(ls.model().Lookup(x).written);
  EXPECT_EQ(ls.model().Eval(CatIn{}).used, 4u);
}

TEST(CatDirected, DegenerateOneEntryOneLane) {
  using L1 = Lockstep<CatPorts, Vhtm_cat__one, CatModel>;
  L1 ls(configs::htm_cat::kOne, DirectedOptions("htm_cat", "one"));
  Sweep(ls, 1);
  Apply(ls, {Add(2, false)});
  int latency = 0;
  EXPECT_EQ(Look(ls, Lkp({2}, true), &latency).rsp_hit, 1u);
  EXPECT_EQ(latency, 1);
  EXPECT_EQ(Look(ls, Lkp({2}, false)).rsp_hit, 0u);
  DirectedCycle(ls, Msg({Add(3, true)}));
  DirectedCycle(ls, CatIn{});
  EXPECT_EQ(DirectedCycle(ls, CatIn{}).drop_full, 1u);
  Apply(ls, {Rem(2, false)});
  EXPECT_EQ(ls.model().Eval(CatIn{}).used, 0u);
}

}  // namespace
}  // namespace htm::tb
