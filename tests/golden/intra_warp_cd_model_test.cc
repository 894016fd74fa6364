// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the intra-warp conflict detection golden model (no RTL):
//   * never a missed conflict: over random warps in every named configuration, every lane that
//     an exact pairwise check aborts (it reads or writes a word an earlier lane of the warp
//     writes) is aborted; extra aborts come only from entries shared by different words;
//   * Early-Abort aborts exactly the lanes the CAT reports (with no intra-warp conflict);
//   * a warp with lanes always keeps one;
//   * the random bench reaches every case (intra-warp and early aborts, a spared lane,
//     commands out of order, rows waiting for the CAT).
// Also parameter validation.
#include "htm/golden/intra_warp_cd_model.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_intra_warp_cd.h"
#include "htm/enums.h"
#include "htm/tb/benches/intra_warp_cd_bench.h"
#include "htm/tb/stimulus.h"

namespace htm::golden {
namespace {

using In = IntraWarpCdIn;
using Out = IntraWarpCdOut;

struct Row {
  uint64_t mask = 0;
  std::vector<uint64_t> addr;
  bool write = false;
};

// Runs one warp through the model; the CAT answers every request at once with `hit(row)`.
Out RunWarp(IntraWarpCdModel& m, uint64_t lanes, const std::vector<Row>& rows, bool ea,
            const std::vector<uint64_t>& cat_hits) {
  const int w = m.params().warp_size;
  std::vector<In> cmds;
  In b;
  b.cmd_op = static_cast<uint64_t>(IwcdOp::kBegin);
  b.cmd_mask = lanes;
  b.ea_en = ea;
  cmds.push_back(b);
  for (const Row& r : rows) {
    if (r.write) {
      In c;
      c.cmd_op = static_cast<uint64_t>(IwcdOp::kMark);
      c.cmd_mask = r.mask;
      c.cmd_write = 1;
      for (int l = 0; l < w; ++l) {
        c.cmd_addr[l] = r.addr[l];
      }
      cmds.push_back(c);
    }
  }
  for (const Row& r : rows) {
    In c;
    c.cmd_op = static_cast<uint64_t>(IwcdOp::kCheck);
    c.cmd_mask = r.mask;
    c.cmd_write = r.write;
    for (int l = 0; l < w; ++l) {
      c.cmd_addr[l] = r.addr[l];
    }
    cmds.push_back(c);
  }
  In e;
  e.cmd_op = static_cast<uint64_t>(IwcdOp::kEnd);
  cmds.push_back(e);
  size_t next = 0, check = 0;
  bool rsp = false;
  uint64_t rsp_hit = 0;
  for (int cycle = 0; cycle < 10000; ++cycle) {
    In in = next < cmds.size() ? cmds[next] : In{};
    in.cmd_valid = next < cmds.size();
    in.cat_req_ready = 1;
    in.cat_rsp_valid = rsp;
    in.cat_rsp_hit = rsp_hit;
    const Out o = m.Eval(in);
    if (o.res_valid) {
      m.Tick(In{});  // the result's cycle
      return o;
    }
    rsp = false;
    if (o.cat_req_valid) {
      rsp = true;
      rsp_hit = check < cat_hits.size() ? cat_hits[check] & o.cat_req_mask : 0;
      ++check;
    }
    if (in.cmd_valid && o.cmd_ready) {
      ++next;
    }
    m.Tick(in);
  }
  ADD_FAILURE() << "no result";
  return Out{};
}

TEST(IntraWarpCdModel, NeverMissesAConflictInsideTheWarp) {
  for (const auto& [name, p] : configs::htm_intra_warp_cd::kAll) {
    SCOPED_TRACE(std::string(name));
    IntraWarpCdModel m(p);
    tb::Rng rng(31);
    const uint64_t all = LowMask(p.warp_size);
    uint64_t exact_total = 0, extra_total = 0;
    for (int warp = 0; warp < 3000; ++warp) {
      const uint64_t lanes = rng.Chance(1, 3) ? all : rng.Bits(p.warp_size);
      std::vector<Row> rows(1 + rng.Below(4));
      for (Row& r : rows) {
        r.write = rng.Chance(1, 2);
        r.mask = rng.Bits(p.warp_size);
        for (int l = 0; l < p.warp_size; ++l) {
          r.addr.push_back(rng.Below(2 * p.warp_size + 2));  // a small pool: conflicts
        }
      }
      // Exact: lane l reads or writes a word an earlier lane (of the warp) writes.
      std::map<uint64_t, int> first_writer;
      for (const Row& r : rows) {
        for (int l = 0; l < p.warp_size; ++l) {
          if (r.write && ((r.mask & lanes) >> l & 1) != 0) {
            auto [it, fresh] = first_writer.emplace(r.addr[l], l);
            if (!fresh && l < it->second) {
              it->second = l;
            }
          }
        }
      }
      uint64_t exact = 0;
      for (const Row& r : rows) {
        for (int l = 0; l < p.warp_size; ++l) {
          auto it = first_writer.find(r.addr[l]);
          if (((r.mask & lanes) >> l & 1) != 0 && it != first_writer.end() && it->second < l) {
            exact |= uint64_t{1} << l;
          }
        }
      }
      const Out o = RunWarp(m, lanes, rows, false, {});
      ASSERT_EQ(o.res_iw & exact, exact) << "missed conflict in warp " << warp;
      ASSERT_EQ(o.res_iw & ~lanes, 0u);
      if (lanes != 0) {
        ASSERT_NE(o.res_abort, lanes) << "no lane survived in warp " << warp;
      }
      exact_total += __builtin_popcountll(exact);
      extra_total += __builtin_popcountll(o.res_iw & ~exact);
    }
    if (p.warp_size > 1) {
      EXPECT_GT(exact_total, 0u);
    }
    // Extra aborts need aliasing: none when the table holds every word of the pool apart.
    if (p.entries >= 4096) {
      EXPECT_EQ(extra_total, 0u);
    }
  }
}

TEST(IntraWarpCdModel, EarlyAbortAbortsExactlyTheLanesTheCatReports) {
  const IntraWarpCdParams& p = configs::htm_intra_warp_cd::kDefault;
  IntraWarpCdModel m(p);
  tb::Rng rng(5);
  for (int warp = 0; warp < 500; ++warp) {
    // Reads of distinct words only: no intra-warp conflict.
    Row r;
    r.mask = rng.Bits(p.warp_size);
    for (int l = 0; l < p.warp_size; ++l) {
      r.addr.push_back(100 + l);
    }
    const uint64_t hits = rng.Bits(p.warp_size);
    const uint64_t lanes = LowMask(p.warp_size);
    const Out o = RunWarp(m, lanes, {r}, true, {hits});
    ASSERT_EQ(o.res_iw, 0u);
    ASSERT_EQ(o.res_ea, hits & r.mask);
    if ((hits & r.mask) != lanes) {
      ASSERT_EQ(o.res_abort, hits & r.mask);
    }
  }
}

TEST(IntraWarpCdModel, RandomBenchReachesEveryCase) {
  for (const auto& [name, p] : configs::htm_intra_warp_cd::kAll) {
    SCOPED_TRACE(std::string(name));
    IntraWarpCdModel m(p);
    tb::IntraWarpCdBench bench(p, 3);
    std::map<std::string, int> seen;
    for (int cycle = 0; cycle < 100000; ++cycle) {
      const In in = bench.Next();
      const Out o = m.Eval(in);
      bench.Observe(in, o);
      if (o.res_valid) {
        seen["result"] += 1;
        seen["iw"] += o.res_iw != 0;
        seen["ea"] += o.res_ea != 0;
        seen["spared"] += o.res_spared != 0;
      }
      seen["cat request"] += o.cat_req_valid && in.cat_req_ready;
      seen["cat wait"] += o.cat_req_valid && !in.cat_req_ready;
      seen["err"] += o.err;
      m.Tick(in);
    }
    for (const char* what : {"result", "ea", "spared", "cat request", "cat wait", "err"}) {
      EXPECT_GT(seen[what], 0) << what << " never happened";
    }
    if (p.warp_size > 1) {
      EXPECT_GT(seen["iw"], 0) << "no intra-warp abort";
    }
  }
}

TEST(IntraWarpCdModel, RejectsBadParameters) {
  IntraWarpCdParams p = configs::htm_intra_warp_cd::kSmall;
  p.entries = 24;
  EXPECT_THROW(IntraWarpCdModel{p}, std::invalid_argument);
  p = configs::htm_intra_warp_cd::kSmall;
  p.banks = 3;
  EXPECT_THROW(IntraWarpCdModel{p}, std::invalid_argument);
  p = configs::htm_intra_warp_cd::kSmall;
  p.banks = p.entries;
  EXPECT_NE(CheckIntraWarpCdParams(p).find("Banks"), std::string::npos);
}

}  // namespace
}  // namespace htm::golden
