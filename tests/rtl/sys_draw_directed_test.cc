// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_sys_draw in lockstep (docs/htm_sys_draw.md): the prototype's reference
// values (the workloads' LowBias32, itself checked against independently computed values in
// proto_workloads_test.cc), the latency of five cycles, one result per cycle, the tags.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_sys_draw__default.h"
#include "Vhtm_sys_draw__one.h"

#include "htm/configs/htm_sys_draw.h"
#include "htm/golden/sys_draw_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::tb {
namespace {

using golden::SysDrawIn;
using golden::SysDrawModel;
using golden::SysDrawPorts;
namespace proto = gpu::proto;

SysDrawIn Input(uint32_t a, uint32_t b, uint64_t tag) {
  SysDrawIn in;
  in.in_valid = 1;
  in.a = a;
  in.b = b;
  in.in_tag = tag;
  return in;
}

TEST(SysDrawDirected, ThePrototypesDrawsBackToBackAfterFiveCycles) {
  Lockstep<SysDrawPorts, Vhtm_sys_draw__default, SysDrawModel> ls(
      configs::htm_sys_draw::kDefault, DirectedOptions("htm_sys_draw", "default"));
  const uint32_t h = proto::SeedHash(1);
  // The seed hash itself, then draws of three streams.
  std::vector<SysDrawIn> ins = {Input(1, 0xA5A5A5A5u, 7)};
  std::vector<uint32_t> want = {h};
  for (uint32_t i = 0; i < 12; ++i) {
    const uint32_t stream = i % 3, index = 100 + i;
    ins.push_back(Input(stream << 24 | index, h, i));
    want.push_back(proto::Draw(h, stream, index));
  }
  std::vector<uint32_t> got;
  std::vector<uint64_t> tags;
  constexpr size_t kLat = SysDrawModel::kLatency;
  for (size_t c = 0; c < ins.size() + kLat; ++c) {
    const auto out = DirectedCycle(ls, c < ins.size() ? ins[c] : SysDrawIn{});
    if (c < kLat) {
      EXPECT_EQ(out.out_valid, 0u) << "cycle " << c << ": nothing before the latency";
    } else {
      ASSERT_EQ(out.out_valid, 1u) << "cycle " << c;
      got.push_back(static_cast<uint32_t>(out.out_value));
      tags.push_back(out.out_tag);
    }
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(h, 0x845ECF59u);
  EXPECT_EQ(tags.front(), 7u);
  EXPECT_EQ(tags.back(), 11u);
  EXPECT_EQ(DirectedCycle(ls, SysDrawIn{}).out_valid, 0u) << "the pipeline has drained";
}

TEST(SysDrawDirected, ResetDropsWhatIsInFlight) {
  Lockstep<SysDrawPorts, Vhtm_sys_draw__one, SysDrawModel> ls(
      configs::htm_sys_draw::kOne, DirectedOptions("htm_sys_draw", "one"));
  DirectedCycle(ls, Input(2, 0, 1));
  DirectedCycle(ls, Input(3, 0, 0));
  ls.Reset();
  for (int c = 0; c < SysDrawModel::kLatency + 1; ++c) {
    EXPECT_EQ(DirectedCycle(ls, SysDrawIn{}).out_valid, 0u) << "cycle " << c;
  }
  DirectedCycle(ls, Input(0xDEADBEEFu, 0, 1));
  for (int c = 1; c < SysDrawModel::kLatency; ++c) {
    EXPECT_EQ(DirectedCycle(ls, SysDrawIn{}).out_valid, 0u) << "cycle " << c;
  }
  const auto out = DirectedCycle(ls, SysDrawIn{});
  EXPECT_EQ(out.out_valid, 1u);
  EXPECT_EQ(out.out_value, 0xE628C683u);
  EXPECT_EQ(out.out_tag, 1u);
}

}  // namespace
}  // namespace htm::tb
