// SPDX-License-Identifier: Apache-2.0
//
// The golden model of htm_xbar alone: the rate bound FifoDepth / (Latency + 2) over a sweep of
// both (so that the documented bound is exact, not just sufficient), with input FIFOs too (one
// entry: at most one message per two cycles), the latency for several Latency values (one more
// with input FIFOs), the error of a request for no destination, parameter checks, and the
// scoreboard: it holds over the random bench and fails on a lost, duplicated, reordered or
// misrouted message.
#include "htm/golden/xbar_model.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_xbar.h"
#include "htm/tb/benches/xbar_bench.h"

namespace htm::golden {
namespace {

XbarParams Params(int src, int dst, int data_w, int latency, int depth, int in_depth = 0) {
  return {.num_src = src,
          .num_dst = dst,
          .data_w = data_w,
          .latency = latency,
          .fifo_depth = depth,
          .in_depth = in_depth};
}

XbarData Word(uint64_t v) {
  XbarData d{};
  d[0] = v;
  return d;
}

// One source always offering a message to destination 0, out_ready high: messages accepted in
// `window` cycles after a warm-up.
int Accepted(const XbarParams& p, int window) {
  XbarModel m(p);
  XbarIn in;
  XbarSetReq(p, in, 0, 0, Word(1));
  in.out_ready = 1;
  int n = 0;
  for (int c = 0; c < 64 + window; ++c) {
    const XbarOut o = m.Eval(in);
    n += c >= 64 ? static_cast<int>(o.req_ready & 1U) : 0;
    m.Tick(in);
  }
  return n;
}

TEST(XbarModel, RateIsFifoDepthPerLatencyPlusTwoCyclesUpToOne) {
  const int window = 840;  // a multiple of every Latency + 2 below
  for (int latency = 1; latency <= 5; ++latency) {
    for (int depth = 1; depth <= 8; ++depth) {
      const int expect = window * std::min(depth, latency + 2) / (latency + 2);
      EXPECT_EQ(Accepted(Params(1, 1, 8, latency, depth), window), expect)
          << "Latency " << latency << ", FifoDepth " << depth;
    }
  }
}

// With input FIFOs the credits bound the rate as before, and a source's FIFO of one entry
// bounds it to one message per two cycles (two entries: no bound).
TEST(XbarModel, WithInputFifosTheRateIsTheLowerOfTheCreditAndInputBounds) {
  const int window = 840;
  for (int in_depth = 1; in_depth <= 3; ++in_depth) {
    for (int latency = 1; latency <= 5; ++latency) {
      for (int depth = 1; depth <= 8; ++depth) {
        const int credit = window * std::min(depth, latency + 2) / (latency + 2);
        const int input = in_depth == 1 ? window / 2 : window;
        EXPECT_EQ(Accepted(Params(1, 1, 8, latency, depth, in_depth), window),
                  std::min(credit, input))
            << "Latency " << latency << ", FifoDepth " << depth << ", InDepth " << in_depth;
      }
    }
  }
}

TEST(XbarModel, LatencyIsLatencyPlusOne) {
  for (int latency = 1; latency <= 6; ++latency) {
    const XbarParams p = Params(2, 3, 16, latency, 4);
    XbarModel m(p);
    XbarIn in;
    XbarSetReq(p, in, 1, 2, Word(0xabc));
    in.out_ready = 7;
    ASSERT_EQ(m.Eval(in).req_ready, 2u);
    m.Tick(in);
    in.req_valid = 0;
    int at = -1;
    for (int c = 1; c <= latency + 3 && at < 0; ++c) {
      const XbarOut o = m.Eval(in);
      if (o.out_valid != 0) {
        at = c;
        EXPECT_EQ(o.out_valid, 4u);
        EXPECT_EQ(o.out_src[2], 1u);
        EXPECT_EQ(XbarOutData(p, o, 2), Word(0xabc));
      }
      m.Tick(in);
    }
    EXPECT_EQ(at, latency + 1) << "Latency " << latency;
  }
}

TEST(XbarModel, LatencyIsLatencyPlusTwoWithInputFifos) {
  for (int in_depth = 1; in_depth <= 2; ++in_depth) {
    for (int latency = 1; latency <= 4; ++latency) {
      const XbarParams p = Params(2, 3, 16, latency, 4, in_depth);
      XbarModel m(p);
      XbarIn in;
      XbarSetReq(p, in, 1, 2, Word(0xabc));
      in.out_ready = 7;
      ASSERT_EQ(m.Eval(in).req_ready, 3u) << "both input FIFOs have room";
      m.Tick(in);
      in.req_valid = 0;
      EXPECT_EQ(m.in_src(1), 1);
      int at = -1;
      for (int c = 1; c <= latency + 4 && at < 0; ++c) {
        const XbarOut o = m.Eval(in);
        if (o.out_valid != 0) {
          at = c;
          EXPECT_EQ(o.out_src[2], 1u);
          EXPECT_EQ(XbarOutData(p, o, 2), Word(0xabc));
        }
        m.Tick(in);
      }
      EXPECT_EQ(at, latency + 2) << "Latency " << latency << ", InDepth " << in_depth;
    }
  }
}

TEST(XbarModel, ARequestForNoDestinationSetsErrAndIsNeverGranted) {
  const XbarParams& p = configs::htm_xbar::kSmall;
  XbarModel m(p);
  XbarIn in;
  XbarSetReq(p, in, 1, 3, Word(1));
  EXPECT_EQ(m.Eval(in).err, 0u);
  for (int c = 0; c < 20; ++c) {
    const XbarOut o = m.Eval(in);
    EXPECT_EQ(o.req_ready, 0u);
    EXPECT_EQ(o.out_valid, 0u);
    m.Tick(in);
    EXPECT_EQ(m.Eval(XbarIn{}).err, 1u);
  }
  m.Reset();
  EXPECT_EQ(m.Eval(XbarIn{}).err, 0u) << "until reset";
}

TEST(XbarModel, RejectsParametersTheRtlOrHarnessCannotTake) {
  EXPECT_NO_THROW(XbarModel(configs::htm_xbar::kDefault));
  EXPECT_THROW(XbarModel(Params(0, 1, 8, 1, 1)), std::invalid_argument);
  EXPECT_THROW(XbarModel(Params(1, 0, 8, 1, 1)), std::invalid_argument);
  EXPECT_THROW(XbarModel(Params(1, 1, 67, 1, 1)), std::invalid_argument);  // unequal chunks
  EXPECT_THROW(XbarModel(Params(1, 1, 8, 0, 1)), std::invalid_argument);
  EXPECT_THROW(XbarModel(Params(1, 1, 8, 1, 0)), std::invalid_argument);
  EXPECT_THROW(XbarModel(Params(64, 1, 72, 1, 1)), std::invalid_argument);  // 128 chunks
  EXPECT_THROW(XbarModel(Params(1, 1, 8, 1, 1, -1)), std::invalid_argument);
}

TEST(XbarModel, TheBenchKeepsTheScoreboardInEveryConfiguration) {
  for (const auto& [name, p] : configs::htm_xbar::kAll) {
    XbarModel m(p);
    tb::XbarBench bench(p, 5);
    for (int c = 0; c < 20000; ++c) {
      const XbarIn in = bench.Next();
      const XbarOut o = m.Eval(in);
      ASSERT_NO_THROW(bench.Observe(in, o)) << name << " cycle " << c;
      m.Tick(in);
    }
    EXPECT_GT(bench.scoreboard().delivered(), 2000u) << name;
  }
}

TEST(XbarModel, TheScoreboardCatchesLossDuplicationReorderingAndMisrouting) {
  const XbarParams& p = configs::htm_xbar::kDefault;
  auto fresh = [&] {
    tb::XbarScoreboard sb(p);
    sb.Accept(0, 1, Word(1));
    sb.Accept(0, 1, Word(2));
    sb.Accept(2, 1, Word(3));
    return sb;
  };
  auto sb = fresh();
  EXPECT_THROW(sb.Deliver(1, 0, Word(2)), std::runtime_error) << "the first one lost";
  sb = fresh();
  EXPECT_THROW(sb.Deliver(0, 0, Word(1)), std::runtime_error) << "misrouted";
  sb = fresh();
  sb.Deliver(1, 2, Word(3));
  EXPECT_THROW(sb.Deliver(1, 2, Word(3)), std::runtime_error) << "duplicated";
  sb = fresh();
  sb.Deliver(1, 0, Word(1));
  sb.Deliver(1, 2, Word(3));
  sb.Deliver(1, 0, Word(2));
  EXPECT_EQ(sb.delivered(), 3u) << "another source's message may come in between";
  for (int i = 0; i < p.fifo_depth; ++i) {
    sb.Accept(i % p.num_src, 0, Word(10 + i));
  }
  EXPECT_THROW(sb.Accept(3, 0, Word(99)), std::runtime_error) << "more owed than FifoDepth";
}

}  // namespace
}  // namespace htm::golden
