// SPDX-License-Identifier: Apache-2.0
//
// Tests of the Version Index Table's functional model (Chen, Peng & Irving, ISCA 2017, §3, Figures
// 4-6): Figure 6's table and lookups ("timestamp between 123 and 192 inclusive" -> 0x810000, a
// non-versioned access to 0x810000 relocated to 0xA00000), 3's mapping example (stride 0x1000:
// 0x801000.. relocated from 0xA00000), the version life cycle S1 -> S2 -> S3 -> S4 with reference
// counts, timestamp overflow, and the regions the table refuses.
#include "htm/golden/version_index_model.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace htm::golden {
namespace {

// Figure 6's two regions, four versions each.
VersionIndexTable Figure6() {
  VersionIndexTable t(VersionIndexTableParams{});
  EXPECT_EQ(t.AddRegion(0x800000, 0x400, 0xA00000), 0);
  EXPECT_EQ(t.AddRegion(0x880000, 0x10000, 0xA10000), 1);
  const uint64_t c0[] = {17, 123, 193, 255}, r0[] = {1, 23, 50, 5};
  const uint64_t c1[] = {12, 144, 156, 300}, r1[] = {0, 9, 35, 47};
  for (int k = 0; k < 4; ++k) {
    t.SetVersion(0, k, VState::kS3, c0[k], r0[k]);
    t.SetVersion(1, k, VState::kS3, c1[k], r1[k]);
  }
  return t;
}

TEST(VersionIndexModel, Figure6Lookups) {
  const VersionIndexTable t = Figure6();
  for (uint64_t ts : {123u, 150u, 192u}) {
    const VAccess a = t.Translate(0x800000, ts, true);
    EXPECT_EQ(a.kind, VAccess::kVersioned) << ts;
    EXPECT_EQ(a.version, 1) << ts;
    EXPECT_EQ(a.phys, 0x810000u) << "timestamp " << ts << " between 123 and 192";
  }
  EXPECT_EQ(t.Translate(0x800000, 122, true).phys, 0x800000u);
  EXPECT_EQ(t.Translate(0x800000, 193, true).phys, 0x820000u);
  EXPECT_EQ(t.Translate(0x8003fc, 1000, true).phys, 0x8303fcu);
  EXPECT_EQ(t.Translate(0x800000, 16, true).kind, VAccess::kNoVersion) << "before version 0";
  // A non-versioned access to the space version 1 occupies is relocated.
  const VAccess n = t.Translate(0x810000, 0, false);
  EXPECT_EQ(n.kind, VAccess::kRelocated);
  EXPECT_EQ(n.phys, 0xA00000u);
  EXPECT_EQ(t.Translate(0x820004, 0, false).phys, 0xA00404u);
  // Other non-relocated accesses proceed as normal.
  EXPECT_EQ(t.Translate(0x810400, 0, false).kind, VAccess::kNormal);
  EXPECT_EQ(t.Translate(0x123456, 0, true).kind, VAccess::kNormal);
  // The second region: timestamp 150 reads the version created at 144.
  EXPECT_EQ(t.Translate(0x881234, 150, true).phys, 0x891234u);
  EXPECT_EQ(t.Translate(0x8a0000, 0, false).phys, 0xA20000u);
}

TEST(VersionIndexModel, Section3MappingExampleWithRowStride) {
  VersionIndexTableParams p;
  p.stride = 0x1000;
  VersionIndexTable t(p);
  ASSERT_EQ(t.AddRegion(0x800000, 0x400, 0xA00000), 0);
  EXPECT_EQ(t.Translate(0x801000, 0, false).phys, 0xA00000u);
  EXPECT_EQ(t.Translate(0x8013ff, 0, false).phys, 0xA003ffu);
  EXPECT_EQ(t.Translate(0x807000, 0, false).phys, 0xA01800u);
  EXPECT_EQ(t.Translate(0x807400, 0, false).kind, VAccess::kNormal);
}

TEST(VersionIndexModel, LifeCycleAndReferenceCounts) {
  VersionIndexTable t(VersionIndexTableParams{});
  const int r = t.AddRegion(0x100000, 0x800, 0x900000);
  ASSERT_EQ(r, 0);
  EXPECT_EQ(t.region(r).v[0].state, VState::kS3) << "version 0 is readable by definition";
  EXPECT_EQ(t.Acquire(r, 3), 0);  // a transaction reads version 0
  const int v1 = t.BeginCopy(r);
  EXPECT_EQ(v1, 1);
  EXPECT_EQ(t.region(r).v[1].state, VState::kS1);
  EXPECT_EQ(t.Translate(0x100000, 100, true).version, 0) << "S1 is not readable";
  EXPECT_TRUE(t.CopyDone(r, v1));
  EXPECT_EQ(t.Translate(0x100000, 100, true).version, 0) << "S2 is not readable";
  EXPECT_TRUE(t.Publish(r, v1, 10));
  EXPECT_EQ(t.Translate(0x100000, 10, true).version, 1);
  EXPECT_EQ(t.Translate(0x100000, 9, true).version, 0);
  EXPECT_EQ(t.region(r).v[0].state, VState::kS3) << "still referenced";
  EXPECT_TRUE(t.Release(r, 0));
  EXPECT_EQ(t.region(r).v[0].state, VState::kS4) << "no references and a newer version";
  EXPECT_EQ(t.Translate(0x100000, 9, true).kind, VAccess::kNoVersion);
  EXPECT_FALSE(t.Release(r, 0)) << "no reference left";
  // The recycled slot is the next to be copied into; the newest is never recycled.
  EXPECT_EQ(t.BeginCopy(r), 0);
  EXPECT_EQ(t.region(r).v[1].state, VState::kS3);
  EXPECT_FALSE(t.Publish(r, 0, 20)) << "still S1";
}

TEST(VersionIndexModel, TimestampOverflowKeepsOnlyTheNewest) {
  VersionIndexTableParams p;
  p.ts_w = 8;
  VersionIndexTable t(p);
  const int r = t.AddRegion(0x4000, 0x100, 0x80000);
  const int a = t.BeginCopy(r);
  t.CopyDone(r, a);
  EXPECT_TRUE(t.Publish(r, a, 200));
  const int b = t.BeginCopy(r);
  t.CopyDone(r, b);
  EXPECT_FALSE(t.Publish(r, b, 256)) << "256 does not fit 8 bits: every transaction aborts";
  int readable = 0;
  for (const VVersion& v : t.region(r).v) {
    readable += v.state == VState::kS3;
  }
  EXPECT_EQ(readable, 1);
  EXPECT_EQ(t.Translate(0x4000, 0, true).version, b) << "the newest contents, from time 0";
}

TEST(VersionIndexModel, RefusedRegions) {
  VersionIndexTableParams p;
  p.regions = 2;
  VersionIndexTable t(p);
  EXPECT_EQ(t.AddRegion(0x800000, 0x20000, 0xA00000), -1) << "longer than the stride";
  EXPECT_EQ(t.AddRegion(0x800000, 0, 0xA00000), -1);
  EXPECT_EQ(t.AddRegion(0x800000, 0x400, 0xA00000), 0);
  EXPECT_EQ(t.AddRegion(0x840000, 0x400, 0xB00000), -1) << "inside the first's versions";
  EXPECT_EQ(t.AddRegion(0x900000, 0x400, 0xA00400), -1) << "relocated spaces overlap";
  EXPECT_EQ(t.AddRegion(0x900000, 0x400, 0xB00000), 1);
  EXPECT_EQ(t.AddRegion(0xC00000, 0x400, 0xD00000), -1) << "the table is full";
  p.versions = 1;
  EXPECT_THROW(VersionIndexTable{p}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
