// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of htm_lds_wf_ctrl: the random bench reaches every mode and event in every
// configuration (so the lockstep runs cover them), and bad parameters are refused.
#include "htm/golden/lds_wf_ctrl_model.h"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_lds_wf_ctrl.h"
#include "htm/tb/benches/lds_wf_ctrl_bench.h"

namespace htm::golden {
namespace {

TEST(LdsWfCtrlModel, RandomTrafficReachesEveryModeInEveryConfiguration) {
  for (const auto& [name, p] : configs::htm_lds_wf_ctrl::kAll) {
    SCOPED_TRACE(std::string(name));
    LdsWfCtrlModel m(p);
    tb::LdsWfCtrlBench bench(p, 7);
    bench.OnReset();
    uint64_t tries[4] = {}, commits = 0, done = 0, aborts = 0, nested = 0, wgs_waits = 0;
    uint64_t multi_wfs = 0, errs = 0;
    LdsWfCtrlOut last{};
    for (int cycle = 0; cycle < 50000; ++cycle) {
      const LdsWfCtrlIn in = bench.Next();
      const LdsWfCtrlOut out = m.Eval(in);
      if (out.in_try && !last.in_try) {
        ++tries[out.mode];
        if (out.mode == static_cast<uint64_t>(LdsMode::kWfS) && std::popcount(out.run) > 1) {
          ++multi_wfs;
        }
      }
      if (out.in_try && last.in_try && in.op_valid && out.op_ready &&
          in.op == static_cast<uint64_t>(LdsOp::kTxBegin)) {
        ++nested;
      }
      commits += out.cmt_valid && out.cmt_mask != 0 && !last.cmt_valid;
      done += last.in_try && out.mode == static_cast<uint64_t>(LdsMode::kNonTx);
      aborts += out.abort;
      wgs_waits += out.retry && out.wgs_req && in.op_valid && !out.op_ready;
      errs += out.err && !last.err;
      // The work-item enable rule.
      ASSERT_EQ(out.run, out.exec & ~out.tcm);
      m.Tick(in);
      bench.Observe(in, out);
      last = out;
      if (out.err) {  // restart after a deliberate protocol violation
        m.Reset();
        bench.OnReset();
        last = LdsWfCtrlOut{};
      }
    }
    std::printf(
        "%s: tries Tx %llu WfS %llu (multi %llu) WgS %llu, commits %llu, done %llu, "
        "aborts %llu, nested %llu, WgS waits %llu, errors %llu\n",
        std::string(name).c_str(), (unsigned long long)tries[1], (unsigned long long)tries[2],
        (unsigned long long)multi_wfs, (unsigned long long)tries[3], (unsigned long long)commits,
        (unsigned long long)done, (unsigned long long)aborts, (unsigned long long)nested,
        (unsigned long long)wgs_waits, (unsigned long long)errs);
    EXPECT_GT(tries[1], 500u);
    EXPECT_GT(tries[2], 50u) << "livelocks resolved by WfS";
    EXPECT_GT(tries[3], 10u) << "WfS failures resolved by WgS";
    EXPECT_GT(done, 200u);
    EXPECT_GT(aborts, 10u) << "tries aborted by another wavefront's WgS";
    EXPECT_GT(wgs_waits, 10u) << "TX_Begin waiting for the WgS grant";
    EXPECT_GT(errs, 0u) << "deliberate protocol violations";
    if (p.max_depth > 1) {
      EXPECT_GT(nested, 50u);
    }
    const bool multi = p.sel == LdsSel::kMultiAsc || p.sel == LdsSel::kMultiDesc;
    if (multi && p.wf_size > 2) {
      EXPECT_GT(multi_wfs, 5u) << "WfS tries with several selected work-items";
    }
  }
}

TEST(LdsWfCtrlModel, BadParametersAreRefused) {
  LdsWfCtrlParams p = configs::htm_lds_wf_ctrl::kDefault;
  p.wf_size = 65;
  EXPECT_THROW(LdsWfCtrlModel{p}, std::invalid_argument);
  p = configs::htm_lds_wf_ctrl::kDefault;
  p.max_depth = 0;
  EXPECT_THROW(LdsWfCtrlModel{p}, std::invalid_argument);
  p = configs::htm_lds_wf_ctrl::kDefault;
  p.sel = static_cast<LdsSel>(7);
  EXPECT_NE(CheckLdsWfCtrlParams(p), "");
}

}  // namespace
}  // namespace htm::golden
