// SPDX-License-Identifier: Apache-2.0
//
// The global-memory workloads (htm/gpu/workload.h) on the functional executor: each one's final
// memory passes its Check() in every interleaving, with and without simulated aborts, on both
// schedules; and each Check() notices a lost, a torn and a repeated transaction.
#include <algorithm>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "htm/workloads/func_exec.h"
#include "htm/workloads/gpu/proto.h"
#include "htm/workloads/gpu/workload.h"

namespace htm::gpu {
namespace {

FuncExecResult RunOn(Workload& w, const FuncExecOptions& opt) {
  std::vector<uint32_t> mem = w.Init();
  const Geometry geo{w.threads(), 32, static_cast<int>(mem.size())};
  return RunFunctional(
      geo, std::move(mem), [&w](Lane& l) { return w.Kernel(l); }, opt);
}

class GpuWorkload : public ::testing::TestWithParam<std::string> {
 protected:
  const WorkloadInfo& info() const { return *FindWorkload(GetParam()); }
};

TEST_P(GpuWorkload, PassesItsCheckInEveryScheduleWithAborts) {
  for (const Schedule s : {Schedule::kFree, Schedule::kSimt}) {
    for (const uint64_t seed : {1, 2, 3}) {
      auto w = info().make(Scale::kSmall, seed);
      FuncExecOptions opt;
      opt.seed = seed * 7;
      opt.schedule = s;
      opt.abort_prob = seed == 1 ? 0.0 : 0.05;
      const FuncExecResult r = RunOn(*w, opt);
      ASSERT_TRUE(r.ok) << GetParam() << " " << ToString(s) << " seed " << seed << ": " << r.error;
      EXPECT_EQ(w->Check(r.mem), "") << GetParam() << " " << ToString(s) << " seed " << seed;
      if (w->OneTransactionPerThread()) {
        EXPECT_EQ(r.stats.tx_commits, static_cast<uint64_t>(w->threads())) << GetParam();
      } else {
        EXPECT_GT(r.stats.tx_commits, static_cast<uint64_t>(w->threads())) << GetParam();
      }
      EXPECT_GT(r.stats.tx_aborts + (seed == 1 ? 1 : 0), 0u) << GetParam();
    }
  }
}

TEST_P(GpuWorkload, CheckNoticesLostTornAndRepeatedTransactions) {
  for (const Fault f : {Fault::kLoseTx, Fault::kTearTx, Fault::kRepeatTx}) {
    for (const uint64_t at : {0, 17, 100}) {
      auto w = info().make(Scale::kSmall, 5);
      FuncExecOptions opt;
      opt.seed = 11;
      opt.fault = f;
      opt.fault_at = std::min<uint64_t>(at, w->threads() - 1);  // small scales: 64 threads
      const FuncExecResult r = RunOn(*w, opt);
      ASSERT_TRUE(r.ok) << r.error;
      ASSERT_TRUE(r.fault_applied) << GetParam() << " " << ToString(f);
      EXPECT_NE(w->Check(r.mem), "") << GetParam() << " " << ToString(f) << " at " << at;
    }
  }
}

TEST_P(GpuWorkload, EveryScaleBuildsAndDescribesItself) {
  for (const Scale s : {Scale::kSmall, Scale::kDefault, Scale::kPaper}) {
    auto w = info().make(s, 1);
    EXPECT_EQ(w->threads() % 32, 0) << GetParam() << " " << ToString(s);
    EXPECT_FALSE(w->Describe().empty());
  }
  // The thread counts of Chen & Peng (HPCA 2016), Table 2 (BinTree's 1 000, SpMV's 13 000,
  // RBT180's 180 and RBT450's 450 rounded up to whole warps) and of Chen, Peng & Irving
  // (ISCA 2017), Table 3 (100, 200, 1 000, 100).
  const std::map<std::string, int> odd = {
      {"BinTree", 1024},    {"SpMV", 13024},      {"RBT180", 192},       {"RBT450", 480},
      {"LinkedList1", 128}, {"LinkedList2", 224}, {"BinaryTree1", 1024}, {"BinaryTree2", 128},
      {"RBTree1", 128},     {"RBTree2", 224},     {"GraphCut1", 32},     {"GraphCut2", 32},
      {"Vacation1", 160},   {"Vacation2", 160}};
  // The prototype's workloads have no paper size: the paper scale is their default.
  const int paper = info().paper == Paper::kProto ? 2048
                    : odd.count(GetParam()) != 0  ? odd.at(GetParam())
                                                  : 23040;
  EXPECT_EQ(info().make(Scale::kPaper, 1)->threads(), paper) << GetParam();
}

std::vector<std::string> Names() {
  std::vector<std::string> v;
  for (const WorkloadInfo& w : AllWorkloads()) {
    v.push_back(w.name);
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(All, GpuWorkload, ::testing::ValuesIn(Names()),
                         [](const auto& i) { return i.param; });

std::vector<std::string> ProtoNames() {
  std::vector<std::string> v;
  for (const WorkloadInfo& w : proto::ProtoWorkloads()) {
    v.push_back(w.name);
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Proto, GpuWorkload, ::testing::ValuesIn(ProtoNames()), [](const auto& i) {
  std::string n = i.param;  // "ATM-P" -> "ATM_P"
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
});

TEST(GpuWorkloads, UnknownNameIsNotFound) {
  EXPECT_EQ(FindWorkload("HT2K"), nullptr);
}

}  // namespace
}  // namespace htm::gpu
