// SPDX-License-Identifier: Apache-2.0
//
// The FPGA prototype's workloads (htm/workloads/gpu/proto.h): the hash the hardware computes
// (reference values computed independently of this code), its bijection, the draws' ranges, and
// the parameter checks. The workloads' own runs and checks are GpuWorkload's (Proto/...).
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "htm/workloads/gpu/proto.h"

namespace htm::gpu::proto {
namespace {

TEST(ProtoHash, ReferenceValues) {
  EXPECT_EQ(LowBias32(0), 0u);
  EXPECT_EQ(LowBias32(1), 0x688990C0u);
  EXPECT_EQ(LowBias32(2), 0xD1132181u);
  EXPECT_EQ(LowBias32(0xDEADBEEFu), 0xE628C683u);
  EXPECT_EQ(LowBias32(0xFFFFFFFFu), 0x6768824Au);
  EXPECT_EQ(SeedHash(1), 0x845ECF59u);
  EXPECT_EQ(Draw(SeedHash(1), 0, 0), 0x474C7382u);
  EXPECT_EQ(Draw(SeedHash(1), 5, 7), 0xB42B6B5Au);
}

TEST(ProtoHash, DrawsOfOneStreamAreDistinct) {
  const uint32_t h = SeedHash(12345);
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < 70000; ++i) {
    EXPECT_TRUE(seen.insert(Draw(h, kHtKey, i)).second) << "index " << i;
  }
}

TEST(ProtoWorkloads, AtmTransfersNameTwoAccountsAndTheCheckSeesThem) {
  Params p = ParamsAt(Kind::kAtm, Scale::kSmall, 3);
  auto w = Make(p);
  const std::vector<uint32_t> mem = w->Init();
  EXPECT_EQ(mem.size(), (1u << p.objects_log2) * 2 + 16);  // balances, amounts, locks
  EXPECT_NE(w->Check(mem), "");                            // nothing moved yet
}

TEST(ProtoWorkloads, ScalesKeepThreadsPerObject) {
  for (const Kind k : {Kind::kAtm, Kind::kHt, Kind::kEb}) {
    const Params s = ParamsAt(k, Scale::kSmall, 1), d = ParamsAt(k, Scale::kDefault, 1);
    EXPECT_EQ(s.threads >> s.objects_log2, d.threads >> d.objects_log2) << ToString(k);
    EXPECT_EQ(CheckParams(s), "");
    EXPECT_EQ(CheckParams(d), "");
  }
}

TEST(ProtoWorkloads, ImpossibleParametersAreRefused) {
  const auto refused = [](Params p) {
    EXPECT_NE(CheckParams(p), "");
    EXPECT_THROW(Make(p), std::invalid_argument);
  };
  Params p = ParamsAt(Kind::kEb, Scale::kSmall, 1);
  p.threads = 0;
  refused(p);
  p = ParamsAt(Kind::kEb, Scale::kSmall, 1);
  p.objects_log2 = 0;
  refused(p);
  p.objects_log2 = 1;
  p.writes = 3;  // more updates than hot words
  refused(p);
  p = ParamsAt(Kind::kEb, Scale::kSmall, 1);
  p.reads = p.writes = p.cold = 0;
  refused(p);
  p.reads = 17;
  refused(p);
  p = ParamsAt(Kind::kHt, Scale::kSmall, 1);
  p.cold = 1;  // not an EB-P parameter
  refused(p);
}

}  // namespace
}  // namespace htm::gpu::proto
