// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_rct (the Reference Count Table of early conflict resolution, Chen & Peng,
// HPCA 2016, §4.1-4.2), RTL and golden model in lockstep with the expected values on top: deltas on
// 0 -> 1 and 1 -> 0, decrements before increments, cancellation, a full increment queue, a full set
// ("new entries are simply ignored") and the later decrement of the ignored address, count
// saturation, message batching and flushing, the clearing sweep, and the paper-size table
// holding 3072 addresses.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_rct__default.h"
#include "Vhtm_rct__one.h"
#include "Vhtm_rct__small.h"

#include "htm/configs/htm_rct.h"
#include "htm/golden/rct_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::CatDelta;
using golden::RctIn;
using golden::RctModel;
using golden::RctOut;
using golden::RctParams;
using golden::RctPorts;
using Ls = Lockstep<RctPorts, Vhtm_rct__small, RctModel>;

// small: 8-bit addresses, 4 sets x 2 ways, 2-bit counts (maximum 3), a queue of two
// increments, messages of up to 3 deltas flushed after 5 cycles.
const RctParams& P() {
  return configs::htm_rct::kSmall;
}

struct Ev {
  uint64_t addr;
  bool write;
};

RctIn Events(const Ev* inc, const Ev* dec) {
  RctIn in;
  if (inc != nullptr) {
    in.inc_valid = 1;
    in.inc_addr = inc->addr;
    in.inc_write = inc->write;
  }
  if (dec != nullptr) {
    in.dec_valid = 1;
    in.dec_addr = dec->addr;
    in.dec_write = dec->write;
  }
  return in;
}
RctIn Inc(Ev e) {
  return Events(&e, nullptr);
}
RctIn Dec(Ev e) {
  return Events(nullptr, &e);
}
RctIn IncDec(Ev i, Ev d) {
  return Events(&i, &d);
}
RctIn Idle() {
  return RctIn{};
}

template <class L>
void Sweep(L& ls, int sets) {
  for (int i = 0; i < sets; ++i) {
    EXPECT_EQ(DirectedCycle(ls, Idle()).ready, 0u);
  }
  EXPECT_EQ(ls.model().Eval(Idle()).ready, 1u);
}

// Steps `in`, then returns the next cycle's outputs (stepping `then`): where an operation
// started in the first cycle shows its delta and its events.
template <class L>
RctOut Op(L& ls, const RctIn& in, const RctIn& then = RctIn{}) {
  DirectedCycle(ls, in);
  return DirectedCycle(ls, then);
}

uint64_t Delta(uint64_t addr, bool write, bool add) {
  return CatDelta{addr, write, add}.Pack();
}

// Addresses of one set of the small table.
std::vector<uint64_t> SameSet(const RctModel& m, int n) {
  std::vector<uint64_t> v;
  const int set = m.SetOf(0x11);
  for (uint64_t a = 0x11; static_cast<int>(v.size()) < n; ++a) {
    if (m.SetOf(a) == set) {
      v.push_back(a);
    }
  }
  return v;
}

// n addresses of n different sets of the small table, from `start` on.
std::vector<uint64_t> DistinctSets(const RctModel& m, uint64_t start, int n) {
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

TEST(RctDirected, DeltasWhenACountLeavesOrReachesZero) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  Sweep(ls, P().sets);
  const Ev r{0x21, false}, w{0x21, true};
  RctOut o = Op(ls, Inc(r));  // readers 0 -> 1: add R
  EXPECT_EQ(o.dlt_valid, 1u);
  EXPECT_EQ(o.dlt, Delta(0x21, false, true));
  EXPECT_EQ(ls.model().Eval(Idle()).used, 1u);
  o = Op(ls, Inc(r));  // 1 -> 2: nothing
  EXPECT_EQ(o.dlt_valid, 0u);
  o = Op(ls, Inc(w));  // writers 0 -> 1: add W, same entry
  EXPECT_EQ(o.dlt, Delta(0x21, true, true));
  EXPECT_EQ(ls.model().Lookup(0x21).readers, 2);
  EXPECT_EQ(ls.model().Lookup(0x21).writers, 1);
  o = Op(ls, Dec(r));  // 2 -> 1: nothing
  EXPECT_EQ(o.dlt_valid, 0u);
  o = Op(ls, Dec(w));  // writers 1 -> 0: remove W; the entry stays (one reader)
  EXPECT_EQ(o.dlt, Delta(0x21, true, false));
  EXPECT_EQ(ls.model().Eval(Idle()).used, 1u);
  o = Op(ls, Dec(r));  // readers 1 -> 0: remove R; the entry is free
  EXPECT_EQ(o.dlt, Delta(0x21, false, false));
  EXPECT_EQ(ls.model().Eval(Idle()).used, 0u);
}

TEST(RctDirected, DecrementsFirstIncrementsWaitInTheQueue) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  Sweep(ls, P().sets);
  const std::vector<uint64_t> s = DistinctSets(ls.model(), 0x30, 3);
  const Ev a{s[0], false}, b{s[1], true}, c{s[2], false};
  DirectedCycle(ls, Inc(a));
  // a's increment is in stage 1; b's increment waits behind the decrement of a.
  RctOut o = DirectedCycle(ls, IncDec(b, a));
  EXPECT_EQ(o.dlt, Delta(a.addr, false, true));
  o = DirectedCycle(ls, Inc(c));  // a's decrement applied; b from the queue; c queued
  EXPECT_EQ(o.dlt, Delta(a.addr, false, false));
  EXPECT_EQ(o.busy, 1u);
  o = DirectedCycle(ls, Idle());  // b applied; c from the queue
  EXPECT_EQ(o.dlt, Delta(b.addr, true, true));
  o = DirectedCycle(ls, Idle());  // c applied
  EXPECT_EQ(o.dlt, Delta(c.addr, false, true));
  EXPECT_EQ(DirectedCycle(ls, Idle()).busy, 0u);
}

TEST(RctDirected, ADecrementCancelsItsQueuedIncrement) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  Sweep(ls, P().sets);
  const Ev a{0x40, true}, x{0x41, false}, y{0x42, false};
  // a's increment waits behind a decrement of x (not stored: ignored).
  RctOut o = DirectedCycle(ls, IncDec(a, x));
  EXPECT_EQ(o.cancel, 0u);
  // The decrement of a finds a's increment in the queue: both vanish. (x's decrement, in
  // stage 1, finds nothing.)
  o = DirectedCycle(ls, Dec(a));
  EXPECT_EQ(o.cancel, 1u);
  EXPECT_EQ(o.dec_ignored, 1u);
  for (int i = 0; i < 3; ++i) {
    o = DirectedCycle(ls, Idle());
    EXPECT_EQ(o.dlt_valid, 0u);
    EXPECT_EQ(o.busy, 0u);
  }
  EXPECT_EQ(ls.model().Lookup(0x40).writers, 0);
  // An increment and the decrement of the same word in one cycle cancel each other too.
  o = DirectedCycle(ls, IncDec(y, y));
  EXPECT_EQ(o.cancel, 1u);
  o = DirectedCycle(ls, Idle());
  EXPECT_EQ(o.dlt_valid, 0u);
  EXPECT_EQ(o.dec_ignored, 0u);
  EXPECT_EQ(ls.model().Lookup(0x42).readers, 0);
}

TEST(RctDirected, AFullQueueLosesTheIncrement) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  Sweep(ls, P().sets);
  // Decrements of absent words every cycle keep the pipeline busy; increments queue up.
  RctOut o = DirectedCycle(ls, IncDec({0x50, false}, {0x90, false}));
  EXPECT_EQ(o.lost_queue, 0u);
  o = DirectedCycle(ls, IncDec({0x51, false}, {0x91, false}));
  EXPECT_EQ(o.lost_queue, 0u);
  o = DirectedCycle(ls, IncDec({0x52, false}, {0x92, false}));  // queue of two is full
  EXPECT_EQ(o.lost_queue, 1u);
  for (int i = 0; i < 4; ++i) {
    DirectedCycle(ls, Idle());
  }
  EXPECT_EQ(ls.model().Lookup(0x50).readers, 1);
  EXPECT_EQ(ls.model().Lookup(0x51).readers, 1);
  EXPECT_EQ(ls.model().Lookup(0x52).readers, 0);
  // The lost word's decrement later: ignored, nothing emitted.
  o = Op(ls, Dec({0x52, false}));
  EXPECT_EQ(o.dec_ignored, 1u);
  EXPECT_EQ(o.dlt_valid, 0u);
}

TEST(RctDirected, AFullSetIgnoresNewAddressesAndTheirDecrements) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  Sweep(ls, P().sets);
  const std::vector<uint64_t> a = SameSet(ls.model(), 3);
  EXPECT_EQ(Op(ls, Inc({a[0], false})).dlt, Delta(a[0], false, true));
  EXPECT_EQ(Op(ls, Inc({a[1], true})).dlt, Delta(a[1], true, true));
  // Both ways of the set are taken: the third address is not inserted (§4.2).
  RctOut o = Op(ls, Inc({a[2], false}));
  EXPECT_EQ(o.lost_full, 1u);
  EXPECT_EQ(o.dlt_valid, 0u);
  // Its decrement later is ignored and leaves the other counts alone.
  o = Op(ls, Dec({a[2], false}));
  EXPECT_EQ(o.dec_ignored, 1u);
  EXPECT_EQ(o.dlt_valid, 0u);
  EXPECT_EQ(ls.model().Lookup(a[0]).readers, 1);
  EXPECT_EQ(ls.model().Lookup(a[1]).writers, 1);
  // Once a way is free the set takes a new address again.
  EXPECT_EQ(Op(ls, Dec({a[0], false})).dlt, Delta(a[0], false, false));
  EXPECT_EQ(Op(ls, Inc({a[2], false})).dlt, Delta(a[2], false, true));
}

TEST(RctDirected, ASaturatedCountLosesTheIncrementAndNeverStaysBehind) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  Sweep(ls, P().sets);
  const Ev r{0x60, false};
  // Four readers of one word; the count stops at 3 (the fourth increment is lost).
  EXPECT_EQ(Op(ls, Inc(r)).dlt_valid, 1u);
  EXPECT_EQ(Op(ls, Inc(r)).dlt_valid, 0u);
  EXPECT_EQ(Op(ls, Inc(r)).dlt_valid, 0u);
  RctOut o = Op(ls, Inc(r));
  EXPECT_EQ(o.lost_sat, 1u);
  EXPECT_EQ(ls.model().Lookup(0x60).readers, 3);
  // Three of the four words freed: the count reaches 0 early (the CAT may miss a conflict on
  // the last reader, never keep the address after it).
  EXPECT_EQ(Op(ls, Dec(r)).dlt_valid, 0u);
  EXPECT_EQ(Op(ls, Dec(r)).dlt_valid, 0u);
  EXPECT_EQ(Op(ls, Dec(r)).dlt, Delta(0x60, false, false));
  // The last word's decrement finds nothing: ignored, no underflow.
  o = Op(ls, Dec(r));
  EXPECT_EQ(o.dec_ignored, 1u);
  EXPECT_EQ(o.dlt_valid, 0u);
  EXPECT_EQ(ls.model().Eval(Idle()).used, 0u);
}

TEST(RctDirected, MessagesOfBatchDeltasOrAfterTheFlushTime) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  Sweep(ls, P().sets);
  // Three deltas in three cycles (three sets, so that none is lost): one message of three.
  const std::vector<uint64_t> s = DistinctSets(ls.model(), 0x70, 3);
  DirectedCycle(ls, Inc({s[0], false}));
  DirectedCycle(ls, Inc({s[1], false}));  // delta of s[0] in stage 1
  DirectedCycle(ls, Inc({s[2], true}));   // delta of s[1]
  RctOut o = DirectedCycle(ls, Idle());   // delta of s[2]; the buffer holds 2
  EXPECT_EQ(o.msg_valid, 0u);
  o = DirectedCycle(ls, Idle());  // the buffer holds 3: sent now
  EXPECT_EQ(o.msg_valid, 1u);
  EXPECT_EQ(o.msg_count, 3u);
  EXPECT_EQ(o.msg_dlt[0], Delta(s[0], false, true));
  EXPECT_EQ(o.msg_dlt[1], Delta(s[1], false, true));
  EXPECT_EQ(o.msg_dlt[2], Delta(s[2], true, true));
  // One delta alone goes out when it has waited FlushCycles (5) cycles.
  DirectedCycle(ls, Dec({s[0], false}));
  DirectedCycle(ls, Idle());  // the remove delta
  int waited = 0;
  for (;;) {
    o = DirectedCycle(ls, Idle());
    ++waited;
    if (o.msg_valid != 0 || waited > 10) {
      break;
    }
  }
  EXPECT_EQ(waited, P().flush_cycles);
  EXPECT_EQ(o.msg_count, 1u);
  EXPECT_EQ(o.msg_dlt[0], Delta(s[0], false, false));
  EXPECT_EQ(o.msg_dlt[1], 0u);
}

TEST(RctDirected, TheSweepAfterResetIgnoresEvents) {
  Ls ls(P(), DirectedOptions("htm_rct", "small"));
  for (int i = 0; i < P().sets; ++i) {
    const RctOut o = DirectedCycle(ls, IncDec({0x80, false}, {0x81, true}));
    EXPECT_EQ(o.ready, 0u);
    EXPECT_EQ(o.cancel, 0u);
    EXPECT_EQ(o.lost_queue, 0u);
  }
  RctOut o = DirectedCycle(ls, Idle());
  EXPECT_EQ(o.ready, 1u);
  EXPECT_EQ(o.busy, 0u);
  EXPECT_EQ(o.dlt_valid, 0u);
  EXPECT_EQ(ls.model().Lookup(0x80).readers, 0);
  // A reset in the middle of use clears the table again.
  Op(ls, Inc({0x82, false}));
  ls.Reset();
  Sweep(ls, P().sets);
  EXPECT_EQ(ls.model().Lookup(0x82).readers, 0);
  EXPECT_EQ(ls.model().Eval(Idle()).used, 0u);
}

TEST(RctDirected, DegenerateOneEntryTable) {
  using L1 = Lockstep<RctPorts, Vhtm_rct__one, RctModel>;
  L1 ls(configs::htm_rct::kOne, DirectedOptions("htm_rct", "one"));
  Sweep(ls, 1);
  // One entry, 1-bit counts, unbatched messages: every delta is a message the cycle after.
  RctOut o = Op(ls, Inc({1, false}));
  EXPECT_EQ(o.dlt, Delta(1, false, true));
  o = DirectedCycle(ls, Idle());
  EXPECT_EQ(o.msg_valid, 1u);
  EXPECT_EQ(o.msg_count, 1u);
  EXPECT_EQ(o.msg_dlt[0], Delta(1, false, true));
  EXPECT_EQ(Op(ls, Inc({1, false})).lost_sat, 1u);
  EXPECT_EQ(Op(ls, Inc({2, false})).lost_full, 1u);
  EXPECT_EQ(Op(ls, Inc({1, true})).dlt, Delta(1, true, true));
  EXPECT_EQ(Op(ls, Dec({1, false})).dlt, Delta(1, false, false));
  EXPECT_EQ(Op(ls, Dec({1, false})).dec_ignored, 1u);
  EXPECT_EQ(Op(ls, Dec({1, true})).dlt, Delta(1, true, false));
  EXPECT_EQ(ls.model().Eval(Idle()).used, 0u);
}

TEST(RctDirected, PaperSizeHolds3072Addresses) {
  using Ld = Lockstep<RctPorts, Vhtm_rct__default, RctModel>;
  const RctParams& p = configs::htm_rct::kDefault;
  Ld ls(p, DirectedOptions("htm_rct", "default"));
  Sweep(ls, p.sets);
  // Three addresses for every set (found through the model's hash), then one more.
  std::vector<int> per_set(p.sets, 0);
  std::vector<uint64_t> extra;
  int inserted = 0;
  for (uint64_t a = 0x1000; inserted < p.sets * p.ways; ++a) {
    int& n = per_set[ls.model().SetOf(a)];
    if (n < p.ways) {
      ++n;
      ++inserted;
      const RctOut o = DirectedCycle(ls, Inc({a, (a & 1) != 0}));
      EXPECT_EQ(o.lost_full, 0u);
      EXPECT_EQ(o.lost_queue, 0u);
    } else if (extra.empty()) {
      extra.push_back(a);
    }
  }
  RctOut o = DirectedCycle(ls, Idle());
  EXPECT_EQ(o.lost_full, 0u);
  EXPECT_EQ(ls.model().Eval(Idle()).used, 3072u);
  o = Op(ls, Inc({extra[0], false}));
  EXPECT_EQ(o.lost_full, 1u);
  EXPECT_EQ(o.dlt_valid, 0u);
}

}  // namespace
}  // namespace htm::tb
