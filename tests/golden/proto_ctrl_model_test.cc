// SPDX-License-Identifier: Apache-2.0
//
// Tests of the golden model of htm_proto_ctrl (docs/htm_proto_ctrl.md): every op with its exact
// reply, every status code, the timeout, the drop after an unknown op, framing errors and bytes
// during a reply (the directed scenarios of tb/include/htm/tb/benches/proto_ctrl_bench.h, which
// the RTL runs in lockstep too), the parameter checks, and the random bench's own checks on the
// model alone.
#include "htm/golden/proto_ctrl_model.h"

#include <string>

#include <gtest/gtest.h>

#include "htm/tb/benches/proto_ctrl_bench.h"
#include "htm/tb/registry.h"

namespace htm::tb {
namespace {

using golden::ProtoCtrlParams;

// htm_sys's `small` with a short timeout.
ProtoCtrlParams Small(int64_t timeout = 40) {
  ProtoCtrlParams p;
  p.num_cores = 2;
  p.num_warps = 2;
  p.warp_size = 4;
  p.num_parts = 2;
  p.addr_w = 9;
  p.ilv_log2 = 2;
  p.cid_w = 8;
  p.max_reads = 8;
  p.max_writes = 4;
  p.alloc_retry = 3;
  p.ring_size = 4;
  p.buf_words = 32;
  p.val_tags = 3;
  p.lwh_sets = 4;
  p.lwh_ways = 2;
  p.lwh_bf_hashes = 2;
  p.lwh_bf_slots = 4;
  p.lwh_scrub_interval = 4;
  p.xbar_latency = 2;
  p.xbar_fifo_depth = 2;
  p.clk_khz = 50000;
  p.timeout_cycles = timeout;
  return p;
}

// Runs `scenario` on a fresh model of `p`.
template <class F>
std::string OnModel(const ProtoCtrlParams& p, F&& scenario) {
  ProtoCtrlModelDut dut(p);
  ProtoCtrlHost<ProtoCtrlModelDut> h(dut);
  return scenario(h);
}

class ProtoCtrlModelTest : public ::testing::TestWithParam<int64_t> {
 protected:
  ProtoCtrlParams p_ = Small(GetParam());
};

TEST_P(ProtoCtrlModelTest, IdentRepliesTheParameters) {
  EXPECT_EQ(OnModel(p_, [&](auto& h) { return proto_ctrl::Ident(h, p_); }), "");
}

TEST_P(ProtoCtrlModelTest, ConfigWritesTheRegistersOrAnswersBadField) {
  EXPECT_EQ(OnModel(p_, [](auto& h) { return proto_ctrl::Config(h); }), "");
}

TEST_P(ProtoCtrlModelTest, StartPulsesOnce) {
  EXPECT_EQ(OnModel(p_, [](auto& h) { return proto_ctrl::Start(h); }), "");
}

TEST_P(ProtoCtrlModelTest, StatusCapturesInTheCycleOfExecution) {
  EXPECT_EQ(OnModel(p_, [&](auto& h) { return proto_ctrl::StatusCapture(h, p_); }), "");
}

TEST_P(ProtoCtrlModelTest, CounterSelectsAndCaptures) {
  EXPECT_EQ(OnModel(p_, [](auto& h) { return proto_ctrl::Counter(h); }), "");
}

TEST_P(ProtoCtrlModelTest, BadCrcAnswersOneAndDoesNothing) {
  EXPECT_EQ(OnModel(p_, [](auto& h) { return proto_ctrl::BadCrc(h); }), "");
}

TEST_P(ProtoCtrlModelTest, BusyRefusesConfigAndStart) {
  EXPECT_EQ(OnModel(p_, [](auto& h) { return proto_ctrl::Busy(h); }), "");
}

TEST_P(ProtoCtrlModelTest, UnknownOpAnswersTwoThenDrops) {
  EXPECT_EQ(OnModel(p_, [&](auto& h) { return proto_ctrl::UnknownOp(h, p_); }), "");
}

TEST_P(ProtoCtrlModelTest, TimeoutAnswersFive) {
  EXPECT_EQ(OnModel(p_, [&](auto& h) { return proto_ctrl::Timeout(h, p_); }), "");
}

TEST_P(ProtoCtrlModelTest, FramingErrorInsideAFrameAnswersFive) {
  EXPECT_EQ(OnModel(p_, [](auto& h) { return proto_ctrl::FramingError(h); }), "");
}

TEST_P(ProtoCtrlModelTest, BytesDuringAReplyAreDropped) {
  EXPECT_EQ(OnModel(p_, [](auto& h) { return proto_ctrl::BytesDuringReply(h); }), "");
}

// The smallest timeout (bytes back to back), a short one and a long one.
INSTANTIATE_TEST_SUITE_P(Timeouts, ProtoCtrlModelTest, ::testing::Values(1, 40, 5000));

TEST(ProtoCtrlModel, RejectsBadParameters) {
  ProtoCtrlParams p = Small();
  EXPECT_EQ(golden::CheckProtoCtrlParams(p), "");
  p.timeout_cycles = 0;
  EXPECT_NE(golden::CheckProtoCtrlParams(p), "");
  p = Small();
  p.clk_khz = 0;
  EXPECT_NE(golden::CheckProtoCtrlParams(p), "");
  p = Small();
  p.addr_w = 33;
  EXPECT_NE(golden::CheckProtoCtrlParams(p), "");
  p = Small();
  p.buf_words = 65536;
  EXPECT_NE(golden::CheckProtoCtrlParams(p), "");
  EXPECT_THROW(golden::ProtoCtrlModel m(p), std::invalid_argument);
}

// The random bench's frame and COUNTER checks hold on the model alone.
TEST(ProtoCtrlModel, RandomBenchChecksHold) {
  for (const int64_t timeout : {1, 40, 3000}) {
    RunOptions opt;
    opt.cycles = 300000;
    opt.seed = 7;
    const RunResult r = RunModel<ProtoCtrlBench>(Small(timeout), opt);
    EXPECT_TRUE(r.passed) << "timeout " << timeout << ": " << r.error;
  }
}

}  // namespace
}  // namespace htm::tb
