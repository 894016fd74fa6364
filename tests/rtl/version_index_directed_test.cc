// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_version_index (Chen, Peng & Irving, ISCA 2017, §3, Figures 4-6, §4.3), RTL
// and golden model in lockstep with the expected results on top: Figure 6's table built through the
// operations and its lookups ("timestamp between 123 and 192 inclusive" -> 0x810000; a
// non-versioned access to 0x810000 relocated to 0xA00000), the version life cycle S1 -> S2 -> S3 ->
// S4 with reference counts, the regions the table refuses, the timestamp overflow (every region
// keeps one version; the sweep holds operations back), the latencies, bad operations and the
// degenerate configuration.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_version_index__default.h"
#include "Vhtm_version_index__one.h"
#include "Vhtm_version_index__small.h"

#include "htm/configs/htm_version_index.h"
#include "htm/enums.h"
#include "htm/golden/version_index_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::VersionIndexIn;
using golden::VersionIndexModel;
using golden::VersionIndexOut;
using golden::VersionIndexPorts;
using In = VersionIndexIn;
using Out = VersionIndexOut;

In Op(VtOp kind) {
  In in;
  in.op_valid = 1;
  in.op_kind = static_cast<uint64_t>(kind);
  return in;
}
In AddRegion(uint64_t start, uint64_t code, uint64_t reloc) {
  In in = Op(VtOp::kAddRegion);
  in.op_addr = start;
  in.op_code = code;
  in.op_reloc = reloc;
  return in;
}
In Translate(uint64_t addr, uint64_t ts, bool versioned) {
  In in = Op(VtOp::kTranslate);
  in.op_addr = addr;
  in.op_ts = ts;
  in.op_versioned = versioned;
  return in;
}
In OnVersion(VtOp kind, uint64_t region, uint64_t version, uint64_t ts = 0) {
  In in = Op(kind);
  in.op_region = region;
  in.op_version = version;
  in.op_ts = ts;
  return in;
}

struct Res {
  Out out;
  int latency = 0;  // cycles from the one the operation was taken in to its result
  int wait = 0;     // cycles the operation waited for op_ready_o
};

// Issues operations one after another, as the table takes them, and collects their results.
template <class L>
std::vector<Res> RunOps(L& ls, const std::vector<In>& ops) {
  std::vector<Res> res;
  std::vector<int> taken, waited;
  size_t next = 0;
  int wait = 0;
  for (int i = 0; i < 20000 && res.size() < ops.size(); ++i) {
    const In in = next < ops.size() ? ops[next] : In{};
    const Out o = DirectedCycle(ls, in);
    if (o.res_valid) {
      const size_t k = res.size();
      res.push_back({o, i - taken.at(k), waited.at(k)});
    }
    if (in.op_valid && o.op_ready) {
      taken.push_back(i);
      waited.push_back(wait);
      wait = 0;
      ++next;
    } else if (in.op_valid) {
      ++wait;
    }
  }
  EXPECT_EQ(res.size(), ops.size()) << "missing results";
  return res;
}

using Ls = Lockstep<VersionIndexPorts, Vhtm_version_index__default, VersionIndexModel>;
const golden::VersionIndexParams& P() {
  return configs::htm_version_index::kDefault;
}

// A new version of `region` readable from `ts`: copied, written, published.
std::vector<In> NewVersion(uint64_t region, uint64_t version, uint64_t ts) {
  return {OnVersion(VtOp::kBeginCopy, region, 0), OnVersion(VtOp::kCopyDone, region, version),
          OnVersion(VtOp::kPublish, region, version, ts)};
}

std::vector<In> Concat(std::vector<std::vector<In>> parts) {
  std::vector<In> all;
  for (auto& p : parts) {
    all.insert(all.end(), p.begin(), p.end());
  }
  return all;
}

TEST(VersionIndexDirected, Figure6Lookups) {
  Ls ls(P(), DirectedOptions("htm_version_index", "default"));
  // Figure 6's regions: 0x400 bytes at 0x800000 and 0x10000 bytes at 0x880000, versions
  // 0x10000 apart. A reader holds each version so that none is recycled (Figure 6's counts).
  auto r =
      RunOps(ls, Concat({{AddRegion(0x800000, 10, 0xA00000), AddRegion(0x880000, 16, 0xA10000),
                          OnVersion(VtOp::kAcquire, 0, 0, 5), OnVersion(VtOp::kAcquire, 1, 0, 5)},
                         NewVersion(0, 1, 123),
                         {OnVersion(VtOp::kAcquire, 0, 0, 150)},
                         NewVersion(0, 2, 193),
                         {OnVersion(VtOp::kAcquire, 0, 0, 200)},
                         NewVersion(0, 3, 255),
                         NewVersion(1, 1, 144),
                         {OnVersion(VtOp::kAcquire, 1, 0, 150)},
                         NewVersion(1, 2, 156),
                         {OnVersion(VtOp::kAcquire, 1, 0, 160)},
                         NewVersion(1, 3, 300)}));
  EXPECT_TRUE(r[0].out.res_ok);
  EXPECT_EQ(r[0].out.res_region, 0u);
  EXPECT_EQ(r[0].latency, 42 + 2) << "a scan of the 42 regions";
  EXPECT_EQ(r[1].out.res_region, 1u);
  EXPECT_EQ(r[2].out.res_version, 0u) << "a reader at 5 reads version 0 (held: not recycled)";
  EXPECT_EQ(r[4].out.res_version, 1u) << "version 1 is the first free one";
  EXPECT_TRUE(r[6].out.res_ok) << "published at 123";
  EXPECT_EQ(r[6].latency, 2);
  EXPECT_EQ(r[7].out.res_version, 1u) << "a reader at 150 reads version 1";
  for (const Res& x : r) {
    EXPECT_TRUE(x.out.res_ok);
  }
  std::vector<In> q;
  for (uint64_t ts : {123u, 150u, 192u}) {
    q.push_back(Translate(0x800000, ts, true));
  }
  q.push_back(Translate(0x800000, 122, true));
  q.push_back(Translate(0x800000, 193, true));
  q.push_back(Translate(0x8003fc, 1000, true));
  q.push_back(Translate(0x810000, 0, false));
  q.push_back(Translate(0x820004, 0, false));
  q.push_back(Translate(0x810400, 0, false));
  q.push_back(Translate(0x123456, 0, true));
  q.push_back(Translate(0x881234, 150, true));
  q.push_back(Translate(0x8a0000, 0, false));
  q.push_back(Translate(0x800000, 150, false));
  r = RunOps(ls, q);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r[i].out.res_access, 1u);
    EXPECT_EQ(r[i].out.res_version, 1u);
    EXPECT_EQ(r[i].out.res_phys, 0x810000u) << "timestamps between 123 and 192 inclusive";
    EXPECT_EQ(r[i].latency, 2);
    EXPECT_EQ(r[i].wait, 0) << "translations go back to back";
  }
  EXPECT_EQ(r[3].out.res_phys, 0x800000u);
  EXPECT_EQ(r[4].out.res_phys, 0x820000u);
  EXPECT_EQ(r[5].out.res_phys, 0x8303fcu);
  EXPECT_EQ(r[6].out.res_access, 2u) << "version 1's space is relocated";
  EXPECT_EQ(r[6].out.res_phys, 0xA00000u);
  EXPECT_EQ(r[7].out.res_phys, 0xA00404u);
  EXPECT_EQ(r[8].out.res_access, 0u);
  EXPECT_EQ(r[9].out.res_access, 0u);
  EXPECT_EQ(r[9].out.res_phys, 0x123456u);
  EXPECT_EQ(r[10].out.res_phys, 0x891234u) << "the second region at 150: created at 144";
  EXPECT_EQ(r[10].out.res_region, 1u);
  EXPECT_EQ(r[11].out.res_phys, 0xA20000u);
  EXPECT_EQ(r[12].out.res_access, 0u) << "a non-versioned access reads the region as it is";
  EXPECT_EQ(r[12].out.res_phys, 0x800000u);
}

TEST(VersionIndexDirected, LifeCycleAndReferenceCounts) {
  Ls ls(P(), DirectedOptions("htm_version_index", "default"));
  const uint64_t a = 0x100000;
  auto r =
      RunOps(ls, {AddRegion(a, 11, 0x900000), OnVersion(VtOp::kAcquire, 0, 0, 3),
                  OnVersion(VtOp::kBeginCopy, 0, 0), Translate(a, 100, true),
                  OnVersion(VtOp::kPublish, 0, 1, 10), OnVersion(VtOp::kCopyDone, 0, 1),
                  Translate(a, 100, true), OnVersion(VtOp::kPublish, 0, 1, 10),
                  Translate(a, 10, true), Translate(a, 9, true), OnVersion(VtOp::kRelease, 0, 0),
                  Translate(a, 9, true), OnVersion(VtOp::kRelease, 0, 0),
                  OnVersion(VtOp::kBeginCopy, 0, 0), OnVersion(VtOp::kPublish, 0, 0, 20)});
  EXPECT_EQ(r[1].out.res_version, 0u) << "version 0 is readable from time 0";
  EXPECT_EQ(r[2].out.res_version, 1u);
  EXPECT_EQ(r[3].out.res_version, 0u) << "S1 is not readable";
  EXPECT_FALSE(r[4].out.res_ok) << "S1 cannot be published";
  EXPECT_TRUE(r[5].out.res_ok);
  EXPECT_EQ(r[6].out.res_version, 0u) << "S2 is not readable";
  EXPECT_TRUE(r[7].out.res_ok);
  EXPECT_EQ(r[8].out.res_phys, a + 0x10000) << "version 1 from time 10";
  EXPECT_EQ(r[9].out.res_phys, a) << "version 0, still referenced";
  EXPECT_TRUE(r[10].out.res_ok);
  EXPECT_EQ(r[11].out.res_access, 3u) << "version 0 recycled: nothing readable at 9";
  EXPECT_FALSE(r[12].out.res_ok) << "no reference left";
  EXPECT_EQ(r[13].out.res_version, 0u) << "the recycled version is copied into next";
  EXPECT_FALSE(r[14].out.res_ok) << "still S1";
}

TEST(VersionIndexDirected, RefusedRegions) {
  Ls ls(P(), DirectedOptions("htm_version_index", "default"));
  const auto r = RunOps(ls, {AddRegion(0x800000, 17, 0xA00000), AddRegion(0x800000, 10, 0xA00000),
                             AddRegion(0x840000, 10, 0xB00000), AddRegion(0x900000, 10, 0xA00400),
                             AddRegion(0x900000, 10, 0xB00000), AddRegion(0xFFFF0000, 10, 0),
                             AddRegion(0xC00000, 10, 0xC40000)});
  EXPECT_FALSE(r[0].out.res_ok) << "longer than the stride";
  EXPECT_TRUE(r[1].out.res_ok);
  EXPECT_FALSE(r[2].out.res_ok) << "inside the first's versions";
  EXPECT_FALSE(r[3].out.res_ok) << "relocated spaces overlap";
  EXPECT_TRUE(r[4].out.res_ok);
  EXPECT_EQ(r[4].out.res_region, 1u);
  EXPECT_FALSE(r[5].out.res_ok) << "its versions run off the address space";
  EXPECT_FALSE(r[6].out.res_ok) << "its relocated space overlaps its own versions";
}

TEST(VersionIndexDirected, RegionsReachTheTopOfTheAddressSpace) {
  // 0x400-byte regions, versions 0x10000 apart: the versions span 7 * 0x10000 + 0x400 =
  // 0x70400 bytes and the relocated space 7 * 0x400 = 0x1c00 bytes. Either may end at the last
  // byte of the 32-bit address space, not one byte past it.
  {
    Ls ls(P(), DirectedOptions("htm_version_index", "default"));
    const auto r =
        RunOps(ls, {AddRegion(0xFFF8FC01, 10, 0xA00000), AddRegion(0xFFF8FC00, 10, 0xA00000),
                    Translate(0xFFFFFFFF, 0, false)});
    EXPECT_FALSE(r[0].out.res_ok) << "its last version ends one byte past the top";
    EXPECT_TRUE(r[1].out.res_ok) << "its last version ends at the top";
    EXPECT_EQ(r[2].out.res_access, 2u);
    EXPECT_EQ(r[2].out.res_phys, 0xA01BFFu) << "the last byte of version 7, relocated";
  }
  {
    Ls ls(P(), DirectedOptions("htm_version_index", "default"));
    const auto r = RunOps(ls, {AddRegion(0x100000, 10, 0xFFFFE401),
                               AddRegion(0x100000, 10, 0xFFFFE400), Translate(0x1703FF, 0, false)});
    EXPECT_FALSE(r[0].out.res_ok) << "its relocated space ends one byte past the top";
    EXPECT_TRUE(r[1].out.res_ok) << "its relocated space ends at the top";
    EXPECT_EQ(r[2].out.res_access, 2u);
    EXPECT_EQ(r[2].out.res_phys, 0xFFFFFFFFu);
  }
}

TEST(VersionIndexDirected, ANewRegionMustNotTouchTheLastVersionOfAnother) {
  Ls ls(P(), DirectedOptions("htm_version_index", "default"));
  // The first region's versions span [0x800000, 0x870400): version 7 is [0x870000, 0x870400).
  const auto r = RunOps(ls, {AddRegion(0x800000, 10, 0xA00000), AddRegion(0x900000, 10, 0x870000),
                             AddRegion(0x870000, 10, 0xB00000), AddRegion(0x900000, 10, 0x870400)});
  EXPECT_TRUE(r[0].out.res_ok);
  EXPECT_FALSE(r[1].out.res_ok) << "its relocated space starts in the first's version 7";
  EXPECT_FALSE(r[2].out.res_ok) << "its versions start in the first's version 7";
  EXPECT_TRUE(r[3].out.res_ok) << "its relocated space starts just past the first's versions";
  EXPECT_EQ(r[3].out.res_region, 1u);
}

TEST(VersionIndexDirected, AddressesOutsideEveryRegionAreNormal) {
  Ls ls(P(), DirectedOptions("htm_version_index", "default"));
  // One region of 42 in use. Addresses at multiples of the stride near 0 are in no region (the
  // unused regions' descriptors are all zero and must not match), and only a Translate reports
  // an address: the other operations' results carry none, whatever op_addr_i holds.
  In acquire = OnVersion(VtOp::kAcquire, 0, 0, 5);
  acquire.op_addr = 0x812345;
  In begin = OnVersion(VtOp::kBeginCopy, 0, 0);
  begin.op_addr = 0x10000;
  const auto r =
      RunOps(ls, {AddRegion(0x800000, 10, 0xA00000), Translate(0x10000, 0, false),
                  Translate(0x20000, 7, true), Translate(0x70000, 0, false), acquire, begin});
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(r[i].out.res_access, 0u) << i;
    EXPECT_EQ(r[i].out.res_region, 0u) << i;
  }
  EXPECT_EQ(r[1].out.res_phys, 0x10000u);
  EXPECT_EQ(r[2].out.res_phys, 0x20000u);
  EXPECT_EQ(r[3].out.res_phys, 0x70000u);
  for (int i = 4; i <= 5; ++i) {
    EXPECT_TRUE(r[i].out.res_ok) << i;
    EXPECT_EQ(r[i].out.res_phys, 0u) << i;
  }
}

TEST(VersionIndexDirected, RegionsAndVersionsNotInTheTableAreRefused) {
  using Lsm = Lockstep<VersionIndexPorts, Vhtm_version_index__small, VersionIndexModel>;
  const auto& p = configs::htm_version_index::kSmall;
  // Three regions of three versions: region index 3 and version index 3 fit their ports but
  // name nothing. The table must not read a region's in-use bit beyond the three it has: the
  // simulator gives such a read a random value that depends on the seed, so several seeds run.
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    RunOptions o = DirectedOptions("htm_version_index", "small");
    o.seed = seed;
    Lsm ls(p, o);
    // Region 0 only. Version 1 is published at 10 (version 0, without readers, is recycled),
    // version 0 is copied again and written (S2). A Publish naming version 3 publishes nothing.
    // Then an overflow: the sweep leaves a readable version in every row, the unused regions'
    // too, which are still not in use.
    const auto r = RunOps(
        ls, Concat({{AddRegion(0x0000, 4, 0x8000), OnVersion(VtOp::kAcquire, 3, 0, 5),
                     OnVersion(VtOp::kBeginCopy, 3, 0)},
                    NewVersion(0, 1, 10),
                    {OnVersion(VtOp::kBeginCopy, 0, 0), OnVersion(VtOp::kCopyDone, 0, 0),
                     OnVersion(VtOp::kPublish, 0, 3, 20), OnVersion(VtOp::kPublish, 0, 0, 64),
                     OnVersion(VtOp::kAcquire, 1, 0, 5), OnVersion(VtOp::kAcquire, 2, 0, 5),
                     OnVersion(VtOp::kAcquire, 3, 0, 5), OnVersion(VtOp::kAcquire, 0, 0, 5)}}));
    EXPECT_TRUE(r[0].out.res_ok);
    EXPECT_FALSE(r[1].out.res_ok) << "region 3, seed " << seed;
    EXPECT_FALSE(r[2].out.res_ok) << "region 3, seed " << seed;
    EXPECT_EQ(r[6].out.res_version, 0u) << "the recycled version is copied again";
    EXPECT_FALSE(r[8].out.res_ok) << "version 3";
    EXPECT_FALSE(r[8].out.res_overflow);
    EXPECT_TRUE(r[9].out.res_overflow);
    EXPECT_FALSE(r[10].out.res_ok) << "region 1 is not in use";
    EXPECT_FALSE(r[11].out.res_ok) << "region 2 is not in use";
    EXPECT_FALSE(r[12].out.res_ok) << "region 3, seed " << seed;
    EXPECT_TRUE(r[13].out.res_ok) << "region 0 kept a version";
  }
}

TEST(VersionIndexDirected, TimestampOverflowKeepsOneVersionPerRegion) {
  using Lsm = Lockstep<VersionIndexPorts, Vhtm_version_index__small, VersionIndexModel>;
  const auto& p = configs::htm_version_index::kSmall;
  Lsm ls(p, DirectedOptions("htm_version_index", "small"));
  // Two regions; the second gets a newer version; the first's version 1 is published at 50,
  // then another at 64, which does not fit 6 bits.
  auto r = RunOps(ls, Concat({{AddRegion(0x0000, 4, 0x8000), AddRegion(0x1000, 4, 0x9000)},
                              NewVersion(1, 1, 40),
                              NewVersion(0, 1, 50),
                              {OnVersion(VtOp::kBeginCopy, 0, 0), OnVersion(VtOp::kCopyDone, 0, 0),
                               OnVersion(VtOp::kPublish, 0, 0, 64), Translate(0x0000, 0, true),
                               Translate(0x1000, 0, true), Translate(0x1000, 63, true)}}));
  EXPECT_EQ(r[0].latency, 3 + 2);
  EXPECT_TRUE(r[7].out.res_ok) << "published at 50";
  EXPECT_EQ(r[8].out.res_version, 0u) << "version 0 was recycled";
  EXPECT_FALSE(r[10].out.res_ok);
  EXPECT_TRUE(r[10].out.res_overflow) << "64 does not fit 6 bits: every transaction aborts";
  EXPECT_EQ(r[11].wait, 1 + 3) << "the cycle after a Publish, then the sweep of three regions";
  EXPECT_EQ(r[11].out.res_phys, 0x0000u) << "the one being published is kept, from time 0";
  EXPECT_EQ(r[12].out.res_version, 1u) << "the second region keeps its newest";
  EXPECT_EQ(r[12].out.res_phys, 0x1000u + 0x100u);
  EXPECT_EQ(r[13].out.res_version, 1u);
}

TEST(VersionIndexDirected, BadOperationsAndDegenerateConfiguration) {
  using L1 = Lockstep<VersionIndexPorts, Vhtm_version_index__one, VersionIndexModel>;
  L1 ls(configs::htm_version_index::kOne, DirectedOptions("htm_version_index", "one"));
  // One region of two versions: 4 bytes at 0x10, stride 8, relocated to 0x40.
  In bad = Op(VtOp::kAddRegion);
  bad.op_kind = 7;
  const auto r = RunOps(ls, {bad, OnVersion(VtOp::kBeginCopy, 0, 0), AddRegion(0x10, 2, 0x40),
                             AddRegion(0x80, 2, 0xC0), Translate(0x19, 0, false),
                             Translate(0x12, 0, true), OnVersion(VtOp::kRelease, 0, 1)});
  EXPECT_TRUE(r[0].out.res_err);
  EXPECT_EQ(r[0].out.err, 1u);
  EXPECT_FALSE(r[1].out.res_ok) << "no region yet";
  EXPECT_TRUE(r[2].out.res_ok);
  EXPECT_FALSE(r[3].out.res_ok) << "the table is full";
  EXPECT_EQ(r[4].out.res_phys, 0x41u);
  EXPECT_EQ(r[5].out.res_phys, 0x12u);
  EXPECT_FALSE(r[6].out.res_ok);
}

}  // namespace
}  // namespace htm::tb
