// SPDX-License-Identifier: Apache-2.0
//
// RTL in the loop of the system model (docs/htmsim.md, "RTL in the loop"): a Verilated block
// instance beside its golden model gives the golden run's statistics and commit log, and the
// first cycle where the two depart stops the run with a report that names the block, the
// instance, the cycles, the field, the instance's last cycles, the workload context and the
// command that reproduces it; the commit log says the run stopped.
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "Vhtm_cat__default.h"

#include "htm/golden/cat_model.h"
#include "htm/golden/instance.h"
#include "htm/machine/gpu/commit_log.h"
#include "htm/machine/gpu/system.h"
#include "htm/tb/model_factory.h"
#include "htm/tb/rtl_instance.h"

namespace htm {
namespace {

using gpu::FindMachine;
using gpu::FindWorkload;
using gpu::RunOptions;
using gpu::RunResult;
using gpu::RunSystem;
using gpu::Scale;
using gpu::TmMode;

/// The golden CAT with one fault: from its fourth answer on, lane 0's hit bit is flipped.
class FaultyCat {
 public:
  using Ports = golden::CatPorts;
  explicit FaultyCat(const golden::CatParams& p) : m_(p) {}
  void Reset() { m_.Reset(); }
  golden::CatOut Eval(const golden::CatIn& in) const {
    golden::CatOut o = m_.Eval(in);
    if (o.rsp_valid && answers_ >= 3) {
      o.rsp_hit ^= 1;
    }
    return o;
  }
  void Tick(const golden::CatIn& in) {
    answers_ += m_.Eval(in).rsp_valid != 0 ? 1 : 0;
    m_.Tick(in);
  }

 private:
  golden::CatModel m_;
  int answers_ = 0;
};

/// Builds every selected instance as the CAT's RTL beside the faulty model.
class FaultyFactory final : public golden::InstanceFactory {
 public:
  std::string Check(golden::Impl, const std::string&, const std::type_info&,
                    const void*) const override {
    return "";
  }

 protected:
  std::unique_ptr<golden::InstanceBase> MakeAny(golden::Impl, const std::type_info&,
                                                const void* params,
                                                const golden::InstanceInfo& info) const override {
    return std::make_unique<tb::CheckedInstance<FaultyCat, Vhtm_cat__default>>(
        *static_cast<const golden::CatParams*>(params), info, false);
  }
};

RunResult RunHt1k(const golden::InstanceFactory* factory, std::ostream* log) {
  auto w = FindWorkload("HT1K")->make(Scale::kSmall, 1);
  std::unique_ptr<gpu::JsonLogWriter> writer;
  RunOptions opt;
  if (log != nullptr) {
    writer = std::make_unique<gpu::JsonLogWriter>(
        *log, gpu::JsonLogWriter::Header{"HT1K", "warptm-ea", "default", "small", 1});
    opt.log = writer.get();
  }
  if (factory != nullptr) {
    opt.rtl.blocks = {"htm_cat"};
    opt.rtl.impl = golden::Impl::kRtlChecked;
    opt.rtl.factory = factory;
    opt.rtl.repro = "htmsim run --workload HT1K --tm warptm-ea --scale small --rtl htm_cat";
  }
  return RunSystem(*FindMachine("default"), TmMode::kWarpTmEa, *w, opt);
}

TEST(MachineRtlDirected, TheCatsRtlInTheLoopGivesTheGoldenRun) {
  std::ostringstream golden_log, rtl_log;
  const RunResult g = RunHt1k(nullptr, &golden_log);
  const RunResult r = RunHt1k(&tb::ModelFactory(), &rtl_log);
  ASSERT_TRUE(g.ok) << g.error << g.check;
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_GT(r.stats.cat_lookups, 0u);
  EXPECT_GT(r.stats.cat_hits, 0u) << "the workload must make the CAT answer hits";
  g.stats.ForEach([&](const char* key, const char*, uint64_t v) {
    uint64_t other = 0;
    r.stats.ForEach(
        [&](const char* k, const char*, uint64_t x) { other = std::string(k) == key ? x : other; });
    EXPECT_EQ(v, other) << key;
  });
  EXPECT_EQ(golden_log.str(), rtl_log.str());
}

TEST(MachineRtlDirected, ADepartureStopsTheRunWithAReport) {
  std::ostringstream log;
  const FaultyFactory faulty;
  const RunResult r = RunHt1k(&faulty, &log);
  ASSERT_TRUE(r.mismatch) << r.error;
  EXPECT_FALSE(r.ok);
  const std::string& e = r.error;
  for (const char* want :
       {"RTL MISMATCH: htm_cat (RTL) instance core", ".cat, machine cycle ", ", instance cycle ",
        "output mismatch", "rsp_hit_o [32 bits]: RTL ", "context: core ",
        "early-conflict-resolution blocks: the intra-warp detection checks warp ",
        "the instance's last cycles (inputs | RTL outputs | model outputs):", "> cycle ",
        "reproduce with the instance's waves:",
        "htmsim run --workload HT1K --tm warptm-ea --scale small --rtl htm_cat --waves core"}) {
    EXPECT_NE(e.find(want), std::string::npos) << "the report lacks '" << want << "':\n" << e;
  }
  // The commit log up to the departure, marked as stopped; the checker refuses it as incomplete.
  const std::string text = log.str();
  EXPECT_NE(text.find("{\"type\":\"incomplete\",\"reason\":\"RTL MISMATCH"), std::string::npos);
  std::istringstream is(text);
  const gpu::LogCheckResult c = gpu::CheckCommitLog(is);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.malformed);
  EXPECT_NE(c.error.find("the run stopped before its end"), std::string::npos) << c.error;
}

}  // namespace
}  // namespace htm
