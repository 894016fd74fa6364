// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of the primitives in lockstep (RTL and model agree every cycle), with the
// expected behaviour asserted on top: FIFO full/empty and ordering, round-robin order and
// fairness, RAM latency, read-first collisions and contents across reset.
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_fifo__default.h"
#include "Vhtm_fifo__one.h"
#include "Vhtm_ram_1r1w__odd.h"
#include "Vhtm_ram_1r1w__small.h"
#include "Vhtm_ram_sp__small.h"
#include "Vhtm_rr_arb__odd.h"
#include "Vhtm_rr_arb__one.h"

#include "htm/configs/htm_fifo.h"
#include "htm/configs/htm_ram_1r1w.h"
#include "htm/configs/htm_ram_sp.h"
#include "htm/configs/htm_rr_arb.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {

using namespace htm::golden;  // NOLINT: the structs of several blocks

FifoIn Push(uint64_t d, bool pop = false) {
  FifoIn in;
  in.in_valid = 1;
  in.in_data = d;
  in.out_ready = pop;
  return in;
}
FifoIn Pop() {
  FifoIn in;
  in.out_ready = 1;
  return in;
}

TEST(FifoDirected, FillsToFullKeepsOrderAndDrains) {
  const auto& p = configs::htm_fifo::kDefault;
  Lockstep<FifoPorts, Vhtm_fifo__default, FifoModel> ls(p, DirectedOptions("htm_fifo", "default"));
  EXPECT_EQ(DirectedCycle(ls, FifoIn{}).out_valid, 0u);
  for (int i = 0; i < p.depth; ++i) {
    const FifoOut o = DirectedCycle(ls, Push(1000 + i));
    EXPECT_EQ(o.in_ready, 1u);
    EXPECT_EQ(o.count, static_cast<uint64_t>(i));
  }
  // Full: a push is refused, even together with a pop (in_ready does not look at out_ready).
  FifoOut o = DirectedCycle(ls, Push(7, /*pop=*/true));
  EXPECT_EQ(o.in_ready, 0u);
  EXPECT_EQ(o.count, static_cast<uint64_t>(p.depth));
  EXPECT_EQ(o.out_data, 1000u);
  for (int i = 1; i < p.depth; ++i) {
    o = DirectedCycle(ls, Pop());
    EXPECT_EQ(o.out_data, static_cast<uint64_t>(1000 + i)) << "FIFO order";
  }
  EXPECT_EQ(DirectedCycle(ls, FifoIn{}).out_valid, 0u);
}

TEST(FifoDirected, ClearWinsAndPushPopTogether) {
  const auto& p = configs::htm_fifo::kDefault;
  Lockstep<FifoPorts, Vhtm_fifo__default, FifoModel> ls(p, DirectedOptions("htm_fifo", "default"));
  DirectedCycle(ls, Push(1));
  DirectedCycle(ls, Push(2));
  EXPECT_EQ(DirectedCycle(ls, Push(3, /*pop=*/true)).count, 2u);
  EXPECT_EQ(DirectedCycle(ls, FifoIn{}).count, 2u) << "push and pop in one cycle";
  FifoIn clr = Push(9, /*pop=*/true);
  clr.clr = 1;
  DirectedCycle(ls, clr);
  EXPECT_EQ(DirectedCycle(ls, FifoIn{}).count, 0u) << "clear wins over push and pop";
}

TEST(FifoDirected, OneEntryAlternates) {
  const auto& p = configs::htm_fifo::kOne;
  Lockstep<FifoPorts, Vhtm_fifo__one, FifoModel> ls(p, DirectedOptions("htm_fifo", "one"));
  EXPECT_EQ(DirectedCycle(ls, Push(1)).in_ready, 1u);
  const FifoOut o = DirectedCycle(ls, Push(0, /*pop=*/true));
  EXPECT_EQ(o.in_ready, 0u);
  EXPECT_EQ(o.out_data, 1u);
  EXPECT_EQ(DirectedCycle(ls, Push(0)).count, 0u) << "the pop emptied it; the push was refused";
}

RrArbIn Req(uint64_t req, bool ack = true) {
  RrArbIn in;
  in.req = req;
  in.ack = ack;
  return in;
}

TEST(RrArbDirected, RoundRobinOrderAndPointerHeldWithoutAck) {
  const auto& p = configs::htm_rr_arb::kOdd;  // 5 requesters
  Lockstep<RrArbPorts, Vhtm_rr_arb__odd, RrArbModel> ls(p, DirectedOptions("htm_rr_arb", "odd"));
  EXPECT_EQ(DirectedCycle(ls, Req(0)).gnt_valid, 0u);
  std::vector<uint64_t> order;
  for (int i = 0; i < 7; ++i) {
    order.push_back(DirectedCycle(ls, Req(0x1F)).gnt_idx);
  }
  EXPECT_EQ(order, (std::vector<uint64_t>{0, 1, 2, 3, 4, 0, 1}));
  EXPECT_EQ(DirectedCycle(ls, Req(0x1F, /*ack=*/false)).gnt_idx, 2u);
  EXPECT_EQ(DirectedCycle(ls, Req(0x1F, /*ack=*/false)).gnt_idx, 2u) << "no ack: pointer stays";
  // Only requesters 1 and 3: alternate between them.
  EXPECT_EQ(DirectedCycle(ls, Req(0x0A)).gnt_idx, 3u);
  EXPECT_EQ(DirectedCycle(ls, Req(0x0A)).gnt_idx, 1u);
  EXPECT_EQ(DirectedCycle(ls, Req(0x0A)).gnt, 0x08u);
}

TEST(RrArbDirected, SingleRequester) {
  const auto& p = configs::htm_rr_arb::kOne;
  Lockstep<RrArbPorts, Vhtm_rr_arb__one, RrArbModel> ls(p, DirectedOptions("htm_rr_arb", "one"));
  EXPECT_EQ(DirectedCycle(ls, Req(1)).gnt, 1u);
  EXPECT_EQ(DirectedCycle(ls, Req(1)).gnt, 1u);
  EXPECT_EQ(DirectedCycle(ls, Req(0)).gnt_valid, 0u);
}

Ram1r1wIn Wr(uint64_t a, uint64_t d) {
  Ram1r1wIn in;
  in.wr_en = 1;
  in.wr_addr = a;
  in.wr_data = d;
  return in;
}
Ram1r1wIn Rd(uint64_t a) {
  Ram1r1wIn in;
  in.rd_en = 1;
  in.rd_addr = a;
  return in;
}

TEST(Ram1r1wDirected, LatencyReadFirstAndContentsSurviveReset) {
  const auto& p = configs::htm_ram_1r1w::kOdd;  // 5 words of 3 bits
  Lockstep<Ram1r1wPorts, Vhtm_ram_1r1w__odd, Ram1r1wModel> ls(
      p, DirectedOptions("htm_ram_1r1w", "odd"));
  for (uint64_t a = 0; a < 5; ++a) {
    DirectedCycle(ls, Wr(a, a + 1));
  }
  DirectedCycle(ls, Rd(4));
  Ram1r1wOut o = DirectedCycle(ls, Ram1r1wIn{});
  EXPECT_EQ(o.rd_valid, 1u);
  EXPECT_EQ(o.rd_data, 5u) << "latency 1";
  EXPECT_EQ(DirectedCycle(ls, Ram1r1wIn{}).rd_data, 5u) << "held until the next read";
  Ram1r1wIn both = Wr(2, 7);
  both.rd_en = 1;
  both.rd_addr = 2;
  DirectedCycle(ls, both);
  EXPECT_EQ(DirectedCycle(ls, Rd(2)).rd_data, 3u) << "read-first: the old word";
  EXPECT_EQ(DirectedCycle(ls, Ram1r1wIn{}).rd_data, 7u);
  ls.Reset();
  EXPECT_EQ(DirectedCycle(ls, Rd(0)).rd_valid, 0u) << "reset clears rd_valid";
  EXPECT_EQ(DirectedCycle(ls, Ram1r1wIn{}).rd_data, 1u) << "contents survive reset";
}

TEST(Ram1r1wDirected, WriteFirstReadSeesTheWordWrittenInTheSameCycle) {
  const auto& p = configs::htm_ram_1r1w::kSmall;  // 32 words of 8 bits, write-first
  Lockstep<Ram1r1wPorts, Vhtm_ram_1r1w__small, Ram1r1wModel> ls(
      p, DirectedOptions("htm_ram_1r1w", "small"));
  DirectedCycle(ls, Wr(9, 0x11));
  Ram1r1wIn both = Wr(9, 0x22);
  both.rd_en = 1;
  both.rd_addr = 9;
  DirectedCycle(ls, both);
  EXPECT_EQ(DirectedCycle(ls, Ram1r1wIn{}).rd_data, 0x22u) << "write-first: the new word";
  // A read of another word in a write cycle is not affected.
  both = Wr(9, 0x33);
  both.rd_en = 1;
  both.rd_addr = 8;
  DirectedCycle(ls, Wr(8, 0x44));
  DirectedCycle(ls, both);
  EXPECT_EQ(DirectedCycle(ls, Ram1r1wIn{}).rd_data, 0x44u);
  // Without a read, a write does not change the held word.
  DirectedCycle(ls, Wr(8, 0x55));
  EXPECT_EQ(DirectedCycle(ls, Ram1r1wIn{}).rd_data, 0x44u);
}

TEST(RamSpDirected, WriteReturnsOldWord) {
  const auto& p = configs::htm_ram_sp::kSmall;
  Lockstep<RamSpPorts, Vhtm_ram_sp__small, RamSpModel> ls(p,
                                                          DirectedOptions("htm_ram_sp", "small"));
  RamSpIn w;
  w.en = 1;
  w.we = 1;
  w.addr = 9;
  w.wdata = 0x5A;
  DirectedCycle(ls, w);
  w.wdata = 0xA5;
  DirectedCycle(ls, w);
  EXPECT_EQ(DirectedCycle(ls, RamSpIn{}).rdata, 0x5Au) << "read-first";
  RamSpIn r;
  r.en = 1;
  r.addr = 9;
  DirectedCycle(ls, r);
  EXPECT_EQ(DirectedCycle(ls, RamSpIn{}).rdata, 0xA5u);
}

}  // namespace
}  // namespace htm::tb
