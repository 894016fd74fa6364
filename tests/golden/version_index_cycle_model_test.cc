// SPDX-License-Identifier: Apache-2.0
//
// Tests of htm_version_index's cycle-exact golden model on its own, with the random bench: every
// result is checked against the timing the RTL documents (two cycles; AddRegion's after its
// scan; op_ready_o low after Publish and AddRegion and during an overflow's sweep), a reader
// only gets versions whose space holds its address, and the bench reaches every outcome
// (each operation done and refused, each kind of translation, overflows), so that the lockstep
// tests that use it cover the block. Also parameter validation.
#include <map>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_version_index.h"
#include "htm/enums.h"
#include "htm/golden/version_index_model.h"
#include "htm/tb/benches/version_index_bench.h"

namespace htm::golden {
namespace {

using In = VersionIndexIn;
using Out = VersionIndexOut;

TEST(VersionIndexCycleModel, TimingAndCoverage) {
  for (const auto& [name, p] : configs::htm_version_index::kAll) {
    SCOPED_TRACE(std::string(name));
    VersionIndexModel m(p);
    tb::VersionIndexBench bench(p, 7);
    std::map<std::string, int> seen;
    std::map<int, std::pair<uint64_t, In>> taken;  // cycle -> operation
    int last_taken = -10;
    uint64_t last_kind = 0;
    bool last_overflow_pending = false;
    for (int cycle = 0; cycle < 300000; ++cycle) {
      const In in = bench.Next();
      const Out o = m.Eval(in);
      bench.Observe(in, o);
      m.Tick(in);
      if (in.op_valid && o.op_ready) {
        taken[cycle] = {in.op_kind & 7, in};
        if (last_kind == static_cast<uint64_t>(VtOp::kPublish) ||
            last_kind == static_cast<uint64_t>(VtOp::kAddRegion)) {
          ASSERT_GT(cycle, last_taken + 1) << "cycle " << cycle << ": no operation right after";
        }
        last_taken = cycle;
        last_kind = in.op_kind & 7;
      }
      if (!o.res_valid) {
        continue;
      }
      const auto kind = static_cast<VtOp>(o.res_kind);
      const int lat = kind == VtOp::kAddRegion ? 2 + p.regions : 2;
      ASSERT_TRUE(taken.count(cycle - lat) != 0) << "cycle " << cycle << ": result out of time";
      ASSERT_EQ(taken[cycle - lat].first, o.res_kind) << "cycle " << cycle;
      const In& op = taken[cycle - lat].second;
      taken.erase(cycle - lat);
      (void)last_overflow_pending;
      if (o.res_err) {
        seen["bad"] += 1;
        continue;
      }
      const std::string k = std::to_string(o.res_kind);
      seen[k + (o.res_ok ? " ok" : " refused")] += 1;
      if (o.res_overflow) {
        seen["overflow"] += 1;
      }
      if (kind == VtOp::kTranslate) {
        ASSERT_TRUE(o.res_ok);
        seen["access " + std::to_string(o.res_access)] += 1;
        if (o.res_access == 1) {
          // The version's space: the address moved by whole strides.
          const uint64_t moved = o.res_phys - (op.op_addr & LowMask(p.addr_w));
          ASSERT_EQ(moved, o.res_version << p.stride_log2) << "cycle " << cycle;
        }
        if (o.res_access == 0 || o.res_access == 3) {
          ASSERT_EQ(o.res_phys, op.op_addr & LowMask(p.addr_w)) << "cycle " << cycle;
        }
      }
    }
    for (int kind = 0; kind < 7; ++kind) {
      EXPECT_GT(seen[std::to_string(kind) + " ok"], 0) << "operation " << kind << " done";
      if (kind != static_cast<int>(VtOp::kTranslate)) {
        EXPECT_GT(seen[std::to_string(kind) + " refused"], 0) << "operation " << kind;
      }
    }
    for (int a = 0; a < 4; ++a) {
      EXPECT_GT(seen["access " + std::to_string(a)], 0) << "translation kind " << a;
    }
    EXPECT_GT(seen["bad"], 0);
    if (p.ts_w < 16) {
      EXPECT_GT(seen["overflow"], 0);
    }
  }
}

TEST(VersionIndexCycleModel, RejectsBadParameters) {
  VersionIndexParams p = configs::htm_version_index::kDefault;
  p.stride_log2 = 28;  // versions beyond a 32-bit address space
  EXPECT_THROW(VersionIndexModel{p}, std::invalid_argument);
  p = configs::htm_version_index::kDefault;
  p.versions = 1;
  EXPECT_THROW(VersionIndexModel{p}, std::invalid_argument);
  p = configs::htm_version_index::kDefault;
  p.regions = 0;
  EXPECT_THROW(VersionIndexModel{p}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
