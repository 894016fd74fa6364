// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_tcd (WarpTM temporal conflict detection), run in lockstep with the
// expected values asserted on top: the rule "conflict when the chunk's last-written time is
// later than the transaction's first-read time" (docs/authors_simulator.md §2.1) at and around
// equality, chunk granularity, a stale first-read time, the forced scrub and a time wrap-around.
#include <cstdint>

#include <gtest/gtest.h>

#include "Vhtm_tcd__small.h"

#include "htm/configs/htm_tcd.h"
#include "htm/golden/tcd_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::TcdIn;
using golden::TcdModel;
using golden::TcdOut;
using golden::TcdPorts;
using Ls = Lockstep<TcdPorts, Vhtm_tcd__small, TcdModel>;

// small: 12-bit word addresses, 4-word (16-byte) chunks, 8-bit times, 2 x 8 slots, scrub
// at least every 4th cycle; stale from age 64.
const golden::TcdParams& P() {
  return configs::htm_tcd::kSmall;
}

TcdIn Idle() {
  return TcdIn{};
}
TcdIn Update(uint64_t a) {
  TcdIn in;
  in.upd_valid = 1;
  in.upd_addr = a;
  return in;
}
TcdIn Check(uint64_t a, uint64_t since) {
  TcdIn in;
  in.chk_valid = 1;
  in.chk_addr = a;
  in.chk_since = since & golden::LowMask(P().ts_w);  // times wrap
  return in;
}

// Runs the initial sweep; returns the time of the first ready cycle.
uint64_t Sweep(Ls& ls) {
  for (int i = 0; i < P().slots_per_hash; ++i) {
    const TcdOut o = DirectedCycle(ls, Idle());
    EXPECT_EQ(o.chk_ready, 0u);
    EXPECT_EQ(o.upd_ready, 0u);
  }
  const TcdOut o = ls.model().Eval(Idle());
  EXPECT_EQ(o.chk_ready, 1u);
  return o.now;
}

// Checks address a with first-read time since; returns the answer (one cycle later).
TcdOut CheckNow(Ls& ls, uint64_t a, uint64_t since) {
  DirectedCycle(ls, Check(a, since));
  const TcdOut o = DirectedCycle(ls, Idle());
  EXPECT_EQ(o.res_valid, 1u);
  return o;
}

TEST(TcdDirected, ConflictOnlyWhenWrittenAfterTheFirstRead) {
  Ls ls(P(), DirectedOptions("htm_tcd", "small"));
  Sweep(ls);
  const uint64_t a = 0x124;  // chunk 0x49
  // Never written: no conflict, not found.
  const uint64_t t0 = ls.model().now();
  TcdOut o = CheckNow(ls, a, t0);
  EXPECT_EQ(o.res_found, 0u);
  EXPECT_EQ(o.res_conflict, 0u);
  // Commit write at time w.
  const uint64_t w = ls.model().now();
  DirectedCycle(ls, Update(a));
  // A transaction that first read before w conflicts; at w or later it does not.
  o = CheckNow(ls, a, w - 1);
  EXPECT_EQ(o.res_found, 1u);
  EXPECT_EQ(o.res_time, w);
  EXPECT_EQ(o.res_conflict, 1u) << "written at " << w << ", first read at " << w - 1;
  EXPECT_EQ(CheckNow(ls, a, w).res_conflict, 0u) << "written at the first-read time";
  EXPECT_EQ(CheckNow(ls, a, w + 1).res_conflict, 0u);
  // Another word of the same chunk conflicts too (128-byte granularity in the paper).
  EXPECT_EQ(CheckNow(ls, a ^ 0x3, w - 1).res_conflict, 1u);
  // A word of another chunk does not (unless the filter aliases: checked on the model).
  const uint64_t b = 0x800;
  ASSERT_NE(ls.model().Chunk(b), ls.model().Chunk(a));
  o = CheckNow(ls, b, w - 1);
  EXPECT_EQ(o.res_conflict, o.res_found) << "only an alias can make b conflict";
}

TEST(TcdDirected, SameCycleUpdateIsSeenAndStaleSinceConflicts) {
  Ls ls(P(), DirectedOptions("htm_tcd", "small"));
  Sweep(ls);
  const uint64_t a = 0x040;
  const uint64_t t = ls.model().now();
  // Update and check in the same cycle, first read one cycle earlier: the check sees it.
  TcdIn both = Update(a);
  both.chk_valid = 1;
  both.chk_addr = a;
  both.chk_since = t - 1;
  DirectedCycle(ls, both);
  TcdOut o = DirectedCycle(ls, Idle());
  EXPECT_EQ(o.res_conflict, 1u);
  EXPECT_EQ(o.res_time, t);
  // A first-read time 64 cycles (StaleAge) old is a conflict even for a chunk never written.
  const uint64_t now = ls.model().now();
  o = CheckNow(ls, 0xF00, now - ls.model().StaleAge());
  EXPECT_EQ(o.res_conflict, 1u);
  o = CheckNow(ls, 0xF00, ls.model().now() - (ls.model().StaleAge() - 1));
  EXPECT_EQ(o.res_conflict, o.res_found) << "63 cycles old: only a write can conflict";
}

TEST(TcdDirected, ForcedScrubOnceEveryIntervalUnderContinuousUpdates) {
  Ls ls(P(), DirectedOptions("htm_tcd", "small"));
  Sweep(ls);
  int stalls = 0;
  const int cycles = 40 * P().scrub_interval;
  for (int i = 0; i < cycles; ++i) {
    stalls += DirectedCycle(ls, Update(0x10 * (i % 8))).upd_ready == 0;
  }
  EXPECT_EQ(stalls, cycles / P().scrub_interval);
}

TEST(TcdDirected, OldWritesAreScrubbedAcrossTheTimeWrap) {
  Ls ls(P(), DirectedOptions("htm_tcd", "small"));
  Sweep(ls);
  const uint64_t a = 0x3A0;
  DirectedCycle(ls, Update(a));
  // 300 idle cycles: the 8-bit time wraps; the scrubber removes the write once 64 old.
  for (int i = 0; i < 300; ++i)
    DirectedCycle(ls, Idle());
  const uint64_t now = ls.model().now();
  const TcdOut o = CheckNow(ls, a, now - 10);
  EXPECT_EQ(o.res_found, 0u) << "the write was scrubbed";
  EXPECT_EQ(o.res_conflict, 0u) << "a write 300 cycles ago is not after a read 10 cycles ago";
}

}  // namespace
}  // namespace htm::tb
