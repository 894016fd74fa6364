// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_proto_ctrl in lockstep with its golden model (docs/htm_proto_ctrl.md),
// in the default, small and one configurations: every op with its exact reply bytes, every
// status code, the start pulse, the busy refusals, the timeout, the unknown op and the drop
// after it, framing errors and bytes during a reply. The scenarios are those of
// tb/include/htm/tb/benches/proto_ctrl_bench.h, which the model's own test runs as well; here
// every output is compared with the model's every cycle as well.
#include <string>

#include <gtest/gtest.h>

#include "Vhtm_proto_ctrl__default.h"
#include "Vhtm_proto_ctrl__one.h"
#include "Vhtm_proto_ctrl__small.h"

#include "htm/configs/htm_proto_ctrl.h"
#include "htm/golden/proto_ctrl_model.h"
#include "htm/tb/benches/proto_ctrl_bench.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {

using golden::ProtoCtrlIn;
using golden::ProtoCtrlOut;
using golden::ProtoCtrlParams;

// A lockstep pair as the scripted host's device.
template <class Top>
class LockstepDut {
 public:
  LockstepDut(const ProtoCtrlParams& p, const char* config)
      : ls_(p, DirectedOptions("htm_proto_ctrl", config)) {}
  ProtoCtrlOut Peek() const { return ls_.model().Eval(ProtoCtrlIn{}); }
  ProtoCtrlOut Cycle(const ProtoCtrlIn& in) { return DirectedCycle(ls_, in); }

 private:
  Lockstep<golden::ProtoCtrlPorts, Top, golden::ProtoCtrlModel> ls_;
};

template <class Top, class F>
void RunOn(const ProtoCtrlParams& p, const char* config, F& scenario) {
  LockstepDut<Top> dut(p, config);
  ProtoCtrlHost<LockstepDut<Top>> h(dut);
  EXPECT_EQ(scenario(h, p), "") << config;
}

// Runs `scenario(host, params)` on the RTL of every configuration.
template <class F>
void OnEveryConfig(F&& scenario) {
  RunOn<Vhtm_proto_ctrl__default>(configs::htm_proto_ctrl::kDefault, "default", scenario);
  RunOn<Vhtm_proto_ctrl__small>(configs::htm_proto_ctrl::kSmall, "small", scenario);
  RunOn<Vhtm_proto_ctrl__one>(configs::htm_proto_ctrl::kOne, "one", scenario);
}

TEST(ProtoCtrlDirected, IdentRepliesTheParameters) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams& p) { return proto_ctrl::Ident(h, p); });
}

TEST(ProtoCtrlDirected, ConfigWritesTheRegistersOrAnswersBadField) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams&) { return proto_ctrl::Config(h); });
}

TEST(ProtoCtrlDirected, StartPulsesOnceTheCycleAfterTheCrc) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams&) { return proto_ctrl::Start(h); });
}

TEST(ProtoCtrlDirected, StatusCapturesInTheCycleOfExecution) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams& p) { return proto_ctrl::StatusCapture(h, p); });
}

TEST(ProtoCtrlDirected, CounterSelectsAndCapturesEveryIndex) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams&) { return proto_ctrl::Counter(h); });
}

TEST(ProtoCtrlDirected, BadCrcAnswersOneAndDoesNothing) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams&) { return proto_ctrl::BadCrc(h); });
}

TEST(ProtoCtrlDirected, BusyRefusesConfigAndStart) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams&) { return proto_ctrl::Busy(h); });
}

TEST(ProtoCtrlDirected, UnknownOpAnswersTwoThenDropsUntilQuiet) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams& p) { return proto_ctrl::UnknownOp(h, p); });
}

TEST(ProtoCtrlDirected, TimeoutAnswersFive) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams& p) { return proto_ctrl::Timeout(h, p); });
}

TEST(ProtoCtrlDirected, FramingErrorInsideAFrameAnswersFive) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams&) { return proto_ctrl::FramingError(h); });
}

TEST(ProtoCtrlDirected, BytesDuringAReplyAreDropped) {
  OnEveryConfig([](auto& h, const ProtoCtrlParams&) { return proto_ctrl::BytesDuringReply(h); });
}

}  // namespace
}  // namespace htm::tb
