// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_xbar in lockstep (RTL and model agree every cycle), with a scoreboard
// on every handshake and the documented behaviour asserted on top: the latency from acceptance
// to the output (Latency + 1 cycles, Latency + 2 with input FIFOs), one message per destination
// per cycle when FifoDepth >= Latency + 2 and FifoDepth per Latency + 2 cycles below, one
// message per source per cycle with InDepth 2 and per two cycles with InDepth 1, req_ready_o
// with input FIFOs: their not-full flag, whatever the requests, round-robin order under
// contention, per source-destination order, nothing lost under long backpressure, the sticky
// error of a request for no destination; and the random bench on the RTL and the netlist alone,
// judged by the scoreboard only.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_xbar__default.h"
#include "Vhtm_xbar__defaultin.h"
#include "Vhtm_xbar__in1.h"
#include "Vhtm_xbar__one.h"
#include "Vhtm_xbar__rev.h"
#include "Vhtm_xbar__revin.h"
#include "Vhtm_xbar__small.h"
// The mutation build (mutate/CMakeLists.txt) links the directed tests against mutated RTL
// models and, unless HTM_MUTATE_NETLIST, without netlists: the netlist test is then left out.
#if __has_include("Vhtm_xbar__small__netlist.h")
#include "Vhtm_xbar__small__netlist.h"
#define HTM_XBAR_NETLIST 1
#elif !defined(HTM_MUTANT_BUILD)
#error "the netlist model Vhtm_xbar__small__netlist is missing outside the mutation build"
#endif

#include "htm/configs/htm_xbar.h"
#include "htm/tb/benches/xbar_bench.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"
#include "htm/tb/rtl_instance.h"

namespace htm::tb {
namespace {

using golden::XbarData;
using golden::XbarIn;
using golden::XbarModel;
using golden::XbarOut;
using golden::XbarParams;
using golden::XbarPorts;

template <class Top>
using XbarLockstep = Lockstep<XbarPorts, Top, XbarModel>;

XbarData Word(uint64_t v) {
  XbarData d{};
  d[0] = v;
  return d;
}

// Sources with queues of (destination, data) to send, one request each held until taken;
// out_ready per destination set by the test. Every handshake goes through a scoreboard, and
// the acceptances and deliveries are recorded with their cycles.
template <class Top>
class Traffic {
 public:
  struct Event {
    uint64_t cycle;
    int src, dst;
    XbarData data;
  };

  Traffic(const XbarParams& p, const char* config)
      : p_(p), ls_(p, DirectedOptions("htm_xbar", config)), todo_(p.num_src), sb_(p) {
    ready = golden::LowMask(p.num_dst);
  }

  void Send(int src, int dst, uint64_t v) { todo_[src].emplace_back(dst, Word(v)); }
  bool Idle() const {
    for (const auto& q : todo_) {
      if (!q.empty()) {
        return false;
      }
    }
    return true;
  }

  XbarOut Cycle() {
    XbarIn in;
    for (int s = 0; s < p_.num_src; ++s) {
      if (!todo_[s].empty()) {
        golden::XbarSetReq(p_, in, s, todo_[s].front().first, todo_[s].front().second);
      }
    }
    in.out_ready = ready;
    const XbarOut o = DirectedCycle(ls_, in);
    sb_.Observe(in, o);
    for (int s = 0; s < p_.num_src; ++s) {
      if (((in.req_valid & o.req_ready) >> s & 1U) != 0) {
        accepted.push_back({cycle_, s, todo_[s].front().first, todo_[s].front().second});
        todo_[s].pop_front();
      }
    }
    for (int d = 0; d < p_.num_dst; ++d) {
      if (((o.out_valid & in.out_ready) >> d & 1U) != 0) {
        delivered.push_back(
            {cycle_, static_cast<int>(o.out_src[d]), d, golden::XbarOutData(p_, o, d)});
      }
    }
    ++cycle_;
    return o;
  }
  /// Cycles until every message is sent and delivered (at most `limit`).
  void Drain(int limit = 10000) {
    for (int i = 0; i < limit && !(Idle() && sb_.accepted() == sb_.delivered()); ++i) {
      Cycle();
    }
    ASSERT_TRUE(Idle());
    ASSERT_EQ(sb_.accepted(), sb_.delivered());
  }

  uint64_t cycle() const { return cycle_; }
  const XbarScoreboard& sb() const { return sb_; }
  XbarLockstep<Top>& ls() { return ls_; }

  uint64_t ready = 0;
  std::vector<Event> accepted, delivered;

 private:
  XbarParams p_;
  XbarLockstep<Top> ls_;
  std::vector<std::deque<std::pair<int, XbarData>>> todo_;
  XbarScoreboard sb_;
  uint64_t cycle_ = 0;
};

// A single message into an empty crossbar: accepted at once, at the output exactly
// Latency + 1 cycles later (Latency + 2 with input FIFOs: a cycle in the source's FIFO), not a
// cycle earlier.
template <class Top>
void ExpectLatency(const XbarParams& p, const char* config) {
  Traffic<Top> t(p, config);
  const int s = p.num_src - 1, d = p.num_dst - 1;
  t.Send(s, d, 1);
  t.Cycle();
  ASSERT_EQ(t.accepted.size(), 1u) << "an empty crossbar takes a request at once";
  const int latency = p.latency + 1 + (p.in_depth > 0 ? 1 : 0);
  for (int k = 1; k < latency; ++k) {
    EXPECT_EQ(t.Cycle().out_valid, 0u) << "cycle " << k << " after acceptance";
  }
  const XbarOut o = t.Cycle();
  EXPECT_EQ(o.out_valid, uint64_t{1} << d)
      << "at the output " << latency << " cycles after acceptance";
  EXPECT_EQ(o.out_src[d], static_cast<uint64_t>(s));
  EXPECT_EQ(golden::XbarOutData(p, o, d), Word(1));
  EXPECT_EQ(t.sb().delivered(), 1u);
}

TEST(XbarDirected, LatencyIsLatencyPlusOneCyclesInEveryConfiguration) {
  ExpectLatency<Vhtm_xbar__default>(configs::htm_xbar::kDefault, "default");
  ExpectLatency<Vhtm_xbar__rev>(configs::htm_xbar::kRev, "rev");
  ExpectLatency<Vhtm_xbar__small>(configs::htm_xbar::kSmall, "small");
  ExpectLatency<Vhtm_xbar__one>(configs::htm_xbar::kOne, "one");
}

TEST(XbarDirected, LatencyIsLatencyPlusTwoCyclesWithInputFifos) {
  ExpectLatency<Vhtm_xbar__defaultin>(configs::htm_xbar::kDefaultin, "defaultin");
  ExpectLatency<Vhtm_xbar__revin>(configs::htm_xbar::kRevin, "revin");
  ExpectLatency<Vhtm_xbar__in1>(configs::htm_xbar::kIn1, "in1");
}

// With input FIFOs req_ready_o is each FIFO's not-full flag: high after reset with no request
// at all, low for a full FIFO whatever the requests (destination 0 out of credits here), and
// independent of the other sources' requests.
TEST(XbarDirected, WithInputFifosReadyIsTheFifosNotFullFlag) {
  const XbarParams& p = configs::htm_xbar::kDefaultin;
  ASSERT_EQ(p.in_depth, 2);
  Traffic<Vhtm_xbar__defaultin> t(p, "defaultin");
  t.ready = 0;
  EXPECT_EQ(t.Cycle().req_ready, golden::LowMask(p.num_src)) << "no request, every FIFO empty";
  // Source 0 sends to destination 0 until its credits and its input FIFO are used up.
  for (int i = 0; i < p.fifo_depth + p.in_depth + 4; ++i) {
    t.Send(0, 0, static_cast<uint64_t>(i));
  }
  for (int c = 0; c < 40; ++c) {
    t.Cycle();
  }
  EXPECT_EQ(t.accepted.size(), static_cast<size_t>(p.fifo_depth + p.in_depth))
      << "FifoDepth past the arbiter, InDepth waiting in the input FIFO";
  EXPECT_EQ(t.ls().model().in_src(0), p.in_depth);
  const XbarOut o = t.Cycle();
  EXPECT_EQ(o.req_ready, golden::LowMask(p.num_src) & ~uint64_t{1})
      << "source 0's FIFO is full; the others are ready without a request";
  t.ready = golden::LowMask(p.num_dst);
  t.Drain();
}

// Sources 0 .. min(NumSrc, NumDst) - 1 stream, each to its own destination: one message per
// source per cycle with two input entries, one per two cycles with one.
template <class Top>
void ExpectSourceRate(const XbarParams& p, const char* config, int per, int cycles) {
  Traffic<Top> t(p, config);
  const int n = std::min(p.num_src, p.num_dst);
  for (int i = 0; i < 200; ++i) {
    for (int s = 0; s < n; ++s) {
      t.Send(s, s, static_cast<uint64_t>(i) & 31U);
    }
  }
  const int warm = 10, window = 120;
  for (int c = 0; c < warm + window; ++c) {
    t.Cycle();
  }
  std::vector<int> acc(n, 0);
  for (const auto& e : t.accepted) {
    acc[e.src] += e.cycle >= static_cast<uint64_t>(warm) ? 1 : 0;
  }
  for (int s = 0; s < n; ++s) {
    EXPECT_EQ(acc[s], window * per / cycles) << config << ": source " << s;
  }
  t.Drain();
}

TEST(XbarDirected, InputFifosOfTwoKeepOneMessagePerSourcePerCycle) {
  ExpectSourceRate<Vhtm_xbar__defaultin>(configs::htm_xbar::kDefaultin, "defaultin", 1, 1);
  ExpectSourceRate<Vhtm_xbar__revin>(configs::htm_xbar::kRevin, "revin", 1, 1);
}

TEST(XbarDirected, AnInputFifoOfOneHalvesTheSourceRate) {
  const XbarParams& p = configs::htm_xbar::kIn1;
  ASSERT_EQ(p.in_depth, 1);
  ASSERT_GT(p.fifo_depth * 2, p.latency + 2) << "the credits alone would allow more";
  ExpectSourceRate<Vhtm_xbar__in1>(p, "in1", 1, 2);
}

// Every source streams to its own destination pair: each destination takes and delivers one
// message per cycle (FifoDepth 8 >= Latency + 2 = 6).
TEST(XbarDirected, OneMessagePerDestinationPerCycleWhenFifoDepthCoversTheRoundTrip) {
  const XbarParams& p = configs::htm_xbar::kDefault;
  ASSERT_GE(p.fifo_depth, p.latency + 2);
  Traffic<Vhtm_xbar__default> t(p, "default");
  const int n = 300;
  for (int i = 0; i < n; ++i) {
    for (int s = 0; s < p.num_src; ++s) {
      t.Send(s, s % p.num_dst, static_cast<uint64_t>(i));
    }
  }
  const int warm = 10, window = 200;
  for (int c = 0; c < warm + window; ++c) {
    t.Cycle();
  }
  std::vector<int> acc(p.num_dst, 0), del(p.num_dst, 0);
  for (const auto& e : t.accepted) {
    acc[e.dst] += e.cycle >= static_cast<uint64_t>(warm) ? 1 : 0;
  }
  for (const auto& e : t.delivered) {
    del[e.dst] += e.cycle >= static_cast<uint64_t>(warm) ? 1 : 0;
  }
  for (int d = 0; d < p.num_dst; ++d) {
    EXPECT_EQ(acc[d], window) << "destination " << d << " accepts every cycle";
    EXPECT_EQ(del[d], window) << "destination " << d << " delivers every cycle";
  }
  t.Drain();
}

// The reply network: each of two sources streams round the four destinations, one message per
// cycle each.
TEST(XbarDirected, EverySourceSendsEveryCycleInTheReplyNetwork) {
  const XbarParams& p = configs::htm_xbar::kRev;
  Traffic<Vhtm_xbar__rev> t(p, "rev");
  for (int i = 0; i < 100; ++i) {
    t.Send(0, i % p.num_dst, static_cast<uint64_t>(i));
    t.Send(1, (i + 2) % p.num_dst, static_cast<uint64_t>(1000 + i));
  }
  for (int c = 0; c < 100; ++c) {
    EXPECT_EQ(t.Cycle().req_ready, 3u) << "cycle " << c;
  }
  t.Drain();
  EXPECT_EQ(t.sb().delivered(), 200u);
}

// Below the bound the credits limit a destination to FifoDepth messages per Latency + 2
// cycles: small (FifoDepth 2, Latency 2) takes two messages in every four cycles.
TEST(XbarDirected, FifoDepthBelowTheRoundTripLimitsTheRate) {
  const XbarParams& p = configs::htm_xbar::kSmall;
  ASSERT_LT(p.fifo_depth, p.latency + 2);
  Traffic<Vhtm_xbar__small> t(p, "small");
  for (int i = 0; i < 400; ++i) {
    t.Send(0, 1, static_cast<uint64_t>(i) & 31U);
  }
  const int warm = 8, window = 400;
  for (int c = 0; c < warm + window; ++c) {
    t.Cycle();
  }
  int acc = 0;
  for (const auto& e : t.accepted) {
    acc += e.cycle >= static_cast<uint64_t>(warm) ? 1 : 0;
  }
  EXPECT_EQ(acc, window * p.fifo_depth / (p.latency + 2));
  t.Drain();
}

// Every source asks for destination 0 all the time: grants rotate 0, 1, 2, 3, 0, ... and each
// source gets one message in every NumSrc.
TEST(XbarDirected, RoundRobinUnderContention) {
  const XbarParams& p = configs::htm_xbar::kDefault;
  Traffic<Vhtm_xbar__default> t(p, "default");
  for (int i = 0; i < 40; ++i) {
    for (int s = 0; s < p.num_src; ++s) {
      t.Send(s, 0, static_cast<uint64_t>(s * 100 + i));
    }
  }
  t.Drain();
  ASSERT_EQ(t.accepted.size(), 160u);
  for (size_t i = 0; i < t.accepted.size(); ++i) {
    EXPECT_EQ(t.accepted[i].src, static_cast<int>(i % p.num_src)) << "grant " << i;
  }
  // The same order survives the credit stalls of small (two credits, three sources).
  const XbarParams& q = configs::htm_xbar::kSmall;
  Traffic<Vhtm_xbar__small> u(q, "small");
  for (int i = 0; i < 30; ++i) {
    for (int s = 0; s < q.num_src; ++s) {
      u.Send(s, 2, static_cast<uint64_t>(s * 10 + i) & 31U);
    }
  }
  u.Drain();
  ASSERT_EQ(u.accepted.size(), 90u);
  for (size_t i = 0; i < u.accepted.size(); ++i) {
    EXPECT_EQ(u.accepted[i].src, static_cast<int>(i % q.num_src)) << "grant " << i;
  }
}

// Sources interleave at random destinations under random backpressure: each (source,
// destination) pair's messages arrive in the order sent, each once (the scoreboard, and the
// sequence numbers read back here).
TEST(XbarDirected, MessagesOfOnePairArriveInOrder) {
  const XbarParams& p = configs::htm_xbar::kSmall;
  Traffic<Vhtm_xbar__small> t(p, "small");
  Rng rng(7);
  std::vector<std::vector<uint64_t>> sent(p.num_src * p.num_dst);
  for (int i = 0; i < 60; ++i) {
    for (int s = 0; s < p.num_src; ++s) {
      const int d = static_cast<int>(rng.Below(p.num_dst));
      const uint64_t v = rng.Bits(p.data_w);
      t.Send(s, d, v);
      sent[s * p.num_dst + d].push_back(v);
    }
  }
  for (int c = 0; c < 3000 && !t.Idle(); ++c) {
    t.ready = rng.Bits(p.num_dst);
    t.Cycle();
  }
  t.ready = golden::LowMask(p.num_dst);
  t.Drain();
  std::vector<std::vector<uint64_t>> got(p.num_src * p.num_dst);
  for (const auto& e : t.delivered) {
    got[e.src * p.num_dst + e.dst].push_back(e.data[0]);
  }
  EXPECT_EQ(got, sent);
}

// out_ready low for 500 cycles while every source has 50 messages: each destination takes
// exactly FifoDepth of them (its credits) and then refuses; released, every message arrives once.
TEST(XbarDirected, NothingIsLostUnderLongBackpressure) {
  const XbarParams& p = configs::htm_xbar::kDefault;
  Traffic<Vhtm_xbar__default> t(p, "default");
  for (int i = 0; i < 50; ++i) {
    for (int s = 0; s < p.num_src; ++s) {
      t.Send(s, (s + i) % p.num_dst, static_cast<uint64_t>(s * 1000 + i));
    }
  }
  t.ready = 0;
  XbarOut o;
  for (int c = 0; c < 500; ++c) {
    o = t.Cycle();
  }
  EXPECT_EQ(o.req_ready, 0u) << "no credit left";
  EXPECT_EQ(o.out_valid, golden::LowMask(p.num_dst));
  EXPECT_EQ(t.accepted.size(), static_cast<size_t>(p.num_dst * p.fifo_depth));
  EXPECT_TRUE(t.delivered.empty());
  for (int d = 0; d < p.num_dst; ++d) {
    EXPECT_EQ(t.ls().model().credits(d), 0);
    EXPECT_EQ(t.ls().model().in_fifo(d), p.fifo_depth);
  }
  t.ready = golden::LowMask(p.num_dst);
  t.Drain();
  EXPECT_EQ(t.sb().delivered(), 200u);
}

// One cycle of the Verilated model alone (after an assertion has stopped the lockstep).
template <class Top>
XbarOut RawCycle(const XbarParams& p, Top& top, const XbarIn& in) {
  XbarPorts::Drive(p, top, in);
  top.clk_i = 0;
  top.eval();
  const XbarOut o = XbarPorts::Sample(p, top);
  top.clk_i = 1;
  top.eval();
  return o;
}

// A request for a destination that does not exist: the simulation assertion fires at that
// edge, err_o rises and stays, the request is never granted, and the other sources go on.
// Without input FIFOs the request is not taken; with them it is taken into its source's FIFO
// (with the repeated offers, until the FIFO is full) and blocks that source there.
template <class Top>
void ExpectBadDestination(const XbarParams& p, const char* config) {
  XbarLockstep<Top> ls(p, DirectedOptions("htm_xbar", config));
  XbarIn bad;
  const int b = p.num_src - 1;
  golden::XbarSetReq(p, bad, b, static_cast<uint64_t>(p.num_dst), Word(1));
  EXPECT_EQ(DirectedCycle(ls, XbarIn{}).err, 0u);
  EXPECT_FALSE(ls.Step(bad)) << "the simulation assertion fires";
  EXPECT_NE(ls.error().find("RTL assertion failed"), std::string::npos) << ls.error();
  EXPECT_EQ((ls.last_out().req_ready >> b) & 1U, p.in_depth > 0 ? 1u : 0u)
      << "taken only into an input FIFO";
  XbarIn more = bad;
  if (p.num_src > 1) {
    golden::XbarSetReq(p, more, 0, 0, Word(2));
  }
  more.out_ready = golden::LowMask(p.num_dst);
  int good = 0, taken = 0;
  for (int c = 0; c < 4 * (p.latency + 3); ++c) {
    const XbarOut o = RawCycle(p, ls.top(), more);
    EXPECT_EQ(o.err, 1u) << "sticky";
    taken += static_cast<int>((o.req_ready >> b) & 1U);
    EXPECT_EQ(o.out_valid & ~uint64_t{1}, 0u) << "never routed";
    good += static_cast<int>(o.out_valid & 1U);
  }
  // The first offer went into the FIFO in the failing cycle; InDepth - 1 more fit.
  EXPECT_EQ(taken, p.in_depth > 0 ? p.in_depth - 1 : 0) << "then the source stays stalled";
  EXPECT_EQ(good > 0, p.num_src > 1) << "the other sources are served";
}

TEST(XbarDirected, ARequestForNoDestinationSetsErrAndIsNeverRouted) {
  ExpectBadDestination<Vhtm_xbar__small>(configs::htm_xbar::kSmall, "small");
  ExpectBadDestination<Vhtm_xbar__one>(configs::htm_xbar::kOne, "one");
  ExpectBadDestination<Vhtm_xbar__in1>(configs::htm_xbar::kIn1, "in1");
}

// The random bench on a Verilated model alone (no golden model): the scoreboard is the only
// judge, so it checks the RTL (and Yosys's netlist) independently of the model.
template <class Top>
void ExpectScoreboardHolds(const XbarParams& p, bool netlist, uint64_t cycles) {
  golden::InstanceInfo info;
  info.block = "htm_xbar";
  info.name = "xbar";
  RtlInstance<XbarPorts, Top> dut(p, info, netlist);
  XbarBench bench(p, 11);
  for (uint64_t c = 0; c < cycles; ++c) {
    const XbarIn in = bench.Next();
    const XbarOut o = dut.Eval(in);
    bench.Observe(in, o);
    dut.Tick(in);
  }
  EXPECT_GT(bench.scoreboard().delivered(), cycles / 8);
}

TEST(XbarDirected, TheScoreboardHoldsOnTheRtlAlone) {
  ExpectScoreboardHolds<Vhtm_xbar__default>(configs::htm_xbar::kDefault, false, 20000);
  ExpectScoreboardHolds<Vhtm_xbar__small>(configs::htm_xbar::kSmall, false, 20000);
  ExpectScoreboardHolds<Vhtm_xbar__one>(configs::htm_xbar::kOne, false, 5000);
  ExpectScoreboardHolds<Vhtm_xbar__defaultin>(configs::htm_xbar::kDefaultin, false, 20000);
  ExpectScoreboardHolds<Vhtm_xbar__in1>(configs::htm_xbar::kIn1, false, 20000);
}

#ifdef HTM_XBAR_NETLIST
TEST(XbarDirected, TheScoreboardHoldsOnTheNetlistAlone) {
  ExpectScoreboardHolds<Vhtm_xbar__small__netlist>(configs::htm_xbar::kSmall, true, 5000);
}
#endif

}  // namespace
}  // namespace htm::tb
