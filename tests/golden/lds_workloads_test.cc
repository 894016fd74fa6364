// SPDX-License-Identifier: Apache-2.0
//
// The GPU-LocalTM kernel plumbing (htm/lds/kernel.h), the functional executor (htm/lds/
// func_exec.h) and the eight benchmarks of thesis Table 5.7 (htm/lds/workloads.h): every
// variant runs to a right final state under both schedules, with and without simulated aborts;
// Check() notices a lost, torn or repeated transaction in every benchmark; the executor reports
// deadlocks, livelocks and broken kernel rules.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/workloads/lds/func_exec.h"
#include "htm/workloads/lds/kernel.h"
#include "htm/workloads/lds/workload.h"
#include "htm/workloads/lds/workloads.h"

namespace htm::lds {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- kernel.h: Task and Lane ------------------------------------------------------------------

Task LoadAndBump(Lane& l, uint32_t addr, uint32_t* out) {
  *out = co_await l.Load(addr);
  co_await l.Store(addr + 1, *out + 1);
}

Task Thrower(Lane& l) {
  co_await l.Load(1);
  throw std::runtime_error("boom");
}

TEST(LdsKernel, HelperTasksInKernelAndBodyAndBodyRestart) {
  int body_starts = 0;
  uint32_t v = 0, w = 0;
  auto kernel = [&](Lane& l) -> Task {
    co_await LoadAndBump(l, 10, &v);
    co_await l.Transaction([&](Lane& t) -> Task {
      ++body_starts;
      co_await LoadAndBump(t, 20, &w);
      co_await t.Compute(3);
    });
    co_await l.Store(30, v + w);
  };
  Lane lane(5, 4, 8);
  EXPECT_EQ(lane.wf(), 1);
  EXPECT_EQ(lane.lane(), 1);
  lane.Start(kernel(lane));
  ASSERT_EQ(lane.op().kind, OpKind::kLoad);
  EXPECT_EQ(lane.op().addr, 10u);
  lane.Resume(5);
  ASSERT_EQ(lane.op().kind, OpKind::kStore);
  EXPECT_EQ(lane.op().addr, 11u);
  EXPECT_EQ(lane.op().data, 6u);
  lane.Resume();
  ASSERT_EQ(lane.op().kind, OpKind::kTxBegin);
  const uint32_t tx_pc = lane.op().pc;
  EXPECT_EQ(lane.tx_pc(), tx_pc);
  EXPECT_FALSE(lane.in_tx());
  EXPECT_EQ(body_starts, 0);
  // First try: aborted after its load.
  lane.BeginTry();
  EXPECT_TRUE(lane.in_tx());
  EXPECT_EQ(body_starts, 1);
  ASSERT_EQ(lane.op().kind, OpKind::kLoad);
  EXPECT_EQ(lane.op().addr, 20u);
  lane.Resume(7);
  ASSERT_EQ(lane.op().kind, OpKind::kStore);
  EXPECT_EQ(lane.op().data, 8u);
  lane.AbortTry();
  EXPECT_FALSE(lane.in_tx());
  ASSERT_EQ(lane.op().kind, OpKind::kTxBegin);
  EXPECT_EQ(lane.op().pc, tx_pc);
  // Second try: restarted from the beginning, runs to its commit.
  lane.BeginTry();
  EXPECT_EQ(body_starts, 2);
  ASSERT_EQ(lane.op().kind, OpKind::kLoad);
  EXPECT_EQ(lane.op().addr, 20u);
  lane.Resume(9);
  ASSERT_EQ(lane.op().kind, OpKind::kStore);
  EXPECT_EQ(lane.op().data, 10u);
  lane.Resume();
  ASSERT_EQ(lane.op().kind, OpKind::kCompute);
  EXPECT_EQ(lane.op().count, 3);
  lane.Resume();
  ASSERT_EQ(lane.op().kind, OpKind::kTxCommit);
  lane.CommitTry();
  EXPECT_FALSE(lane.in_tx());
  ASSERT_EQ(lane.op().kind, OpKind::kStore);
  EXPECT_EQ(lane.op().addr, 30u);
  EXPECT_EQ(lane.op().data, 14u);  // 5 from the kernel's helper, 9 from the committed try
  lane.Resume();
  EXPECT_EQ(lane.op().kind, OpKind::kDone);
}

TEST(LdsKernel, ProgramPointsFollowTheSource) {
  auto kernel = [](Lane& l) -> Task {
    co_await l.Load(0);
    co_await l.Load(1);
  };
  Lane lane(0, 1, 1);
  lane.Start(kernel(lane));
  const uint32_t first = lane.op().pc;
  lane.Resume();
  EXPECT_LT(first, lane.op().pc);
}

TEST(LdsKernel, ExceptionsPropagateFromHelpersAndBodies) {
  auto kernel = [](Lane& l) -> Task {
    co_await Thrower(l);
    co_await l.Store(2, 2);
  };
  Lane a(0, 1, 1);
  a.Start(kernel(a));
  ASSERT_EQ(a.op().kind, OpKind::kLoad);
  EXPECT_THROW(a.Resume(0), std::runtime_error);

  auto tx_kernel = [](Lane& l) -> Task {
    co_await l.Transaction([](Lane& t) { return Thrower(t); });
  };
  Lane b(0, 1, 1);
  b.Start(tx_kernel(b));
  ASSERT_EQ(b.op().kind, OpKind::kTxBegin);
  b.BeginTry();
  ASSERT_EQ(b.op().kind, OpKind::kLoad);
  EXPECT_THROW(b.Resume(0), std::runtime_error);

  auto at_once = [](Lane&) -> Task {
    throw std::logic_error("before any operation");
    co_return;
  };
  Lane c(0, 1, 1);
  EXPECT_THROW(c.Start(at_once(c)), std::logic_error);
}

// ---- The functional executor ------------------------------------------------------------------

Geometry Small() {
  return Geometry{16, 4, 1024};
}

// Every work-item adds 1 to word 0 in a transaction and counts the tries it started.
struct CounterKernel {
  std::vector<int>* starts;
  Task operator()(Lane& l) const {
    int* mine = &(*starts)[l.wi()];
    co_await l.Transaction([mine](Lane& t) -> Task {
      ++*mine;
      const uint32_t v = co_await t.Load(0);
      co_await t.Compute(2);
      co_await t.Store(0, v + 1);
    });
  }
};

TEST(LdsFuncExec, TransactionsAreAtomicAndRestartAfterSimulatedAborts) {
  for (const Schedule s : {Schedule::kFree, Schedule::kSimt}) {
    std::vector<int> starts(256, 0);
    FuncExecOptions opt;
    opt.schedule = s;
    opt.abort_prob = 0.3;
    const FuncExecResult r = RunFunctional(Geometry{}, {0}, CounterKernel{&starts}, opt);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.mem.size(), 4096u);
    EXPECT_EQ(r.mem[0], 256u);
    int total = 0;
    for (const int n : starts) {
      EXPECT_GE(n, 1);
      total += n;
    }
    EXPECT_EQ(r.stats.tx_commits, 256u);
    EXPECT_EQ(r.stats.tx_tries, static_cast<uint64_t>(total));
    EXPECT_EQ(r.stats.tx_aborts, r.stats.tx_tries - r.stats.tx_commits);
    EXPECT_GT(r.stats.tx_aborts, 50u);
    EXPECT_EQ(r.stats.max_tx_ops, 3u);
  }
}

TEST(LdsFuncExec, FaultsBreakTransactions) {
  const struct {
    Fault fault;
    uint32_t want;
  } cases[] = {{Fault::kLoseTx, 15}, {Fault::kTearTx, 15}, {Fault::kRepeatTx, 17}};
  for (const auto& c : cases) {
    std::vector<int> starts(16, 0);
    FuncExecOptions opt;
    opt.fault = c.fault;
    opt.fault_at = 7;
    const FuncExecResult r = RunFunctional(Small(), {0}, CounterKernel{&starts}, opt);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.fault_applied);
    EXPECT_EQ(r.mem[0], c.want) << ToString(c.fault);
  }
}

TEST(LdsFuncExec, BarriersSynchronizeTheWorkGroup) {
  auto kernel = [](Lane& l) -> Task {
    for (int round = 0; round < 3; ++round) {
      co_await l.Store(l.wi(), static_cast<uint32_t>(round * 100 + l.wi()));
      co_await l.Barrier();
      const int other = (l.wi() + 5) % l.wg_size();
      const uint32_t v = co_await l.Load(other);
      co_await l.Store(100 + l.wi(), v == static_cast<uint32_t>(round * 100 + other) ? 1 : 0);
      co_await l.Barrier();
    }
  };
  for (const Schedule s : {Schedule::kFree, Schedule::kSimt}) {
    FuncExecOptions opt;
    opt.schedule = s;
    const FuncExecResult r = RunFunctional(Small(), {}, kernel, opt);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.stats.barriers, 6u);
    for (int wi = 0; wi < 16; ++wi) {
      EXPECT_EQ(r.mem[100 + wi], 1u) << wi;
    }
  }
}

TEST(LdsFuncExec, ReportsABarrierNotEveryWorkItemReaches) {
  auto kernel = [](Lane& l) -> Task {
    if (l.wi() % 2 == 0) {
      co_await l.Barrier();
    }
    co_await l.Store(l.wi(), 1);
  };
  FuncExecOptions opt;
  FuncExecResult r = RunFunctional(Small(), {}, kernel, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "every work-item must reach every barrier")) << r.error;
  EXPECT_TRUE(Has(r.error, "barrier line")) << r.error;
  // SIMT: the odd lanes cannot issue while the even ones of their wavefront wait at the barrier.
  opt.schedule = Schedule::kSimt;
  r = RunFunctional(Small(), {}, kernel, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "deadlock")) << r.error;
  EXPECT_TRUE(Has(r.error, "8 at barrier line")) << r.error;
}

TEST(LdsFuncExec, ReportsDifferentBarriersAndSimtDeadlock) {
  auto kernel = [](Lane& l) -> Task {
    if (l.lane() == 0) {
      co_await l.Barrier();
    }
    co_await l.Barrier();
  };
  FuncExecOptions opt;
  FuncExecResult r = RunFunctional(Small(), {}, kernel, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "different barriers")) << r.error;
  // SIMT: lane 0 waits at the first barrier, its wavefront's other lanes can never issue.
  opt.schedule = Schedule::kSimt;
  r = RunFunctional(Small(), {}, kernel, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "deadlock")) << r.error;
  EXPECT_TRUE(Has(r.error, "work-items 1, 2, 3")) << r.error;
}

TEST(LdsFuncExec, ANaiveSpinLockLivelocksOnSimtButTheLatchPatternWorks) {
  auto naive = [](Lane& l) -> Task {
    while (co_await l.Cas(0, 0, 1) != 0) {
    }
    const uint32_t v = co_await l.Load(1);
    co_await l.Store(1, v + 1);
    co_await l.Store(0, 0);
  };
  auto latched = [](Lane& l) -> Task {
    for (bool done = false; !done;) {
      if (co_await l.Cas(0, 0, 1) == 0) {
        const uint32_t v = co_await l.Load(1);
        co_await l.Store(1, v + 1);
        co_await l.Store(0, 0);
        done = true;
      }
      co_await l.Latch();
    }
  };
  FuncExecOptions opt;
  opt.max_ops = 200000;
  FuncExecResult r = RunFunctional(Small(), {}, naive, opt);
  ASSERT_TRUE(r.ok) << r.error;  // any interleaving: fine
  EXPECT_EQ(r.mem[1], 16u);
  opt.schedule = Schedule::kSimt;
  r = RunFunctional(Small(), {}, naive, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "livelock")) << r.error;
  EXPECT_TRUE(Has(r.error, "compare-and-swap line")) << r.error;
  r = RunFunctional(Small(), {}, latched, opt);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.mem[1], 16u);
}

TEST(LdsFuncExec, ReportsForbiddenOperationsInBodies) {
  const std::vector<std::function<Task(Lane&)>> bodies = {
      [](Lane& t) -> Task { co_await t.Barrier(); },
      [](Lane& t) -> Task { co_await t.AtomAdd(0, 1); },
      [](Lane& t) -> Task { co_await t.Cas(0, 0, 1); },
      [](Lane& t) -> Task {
        co_await t.Load(0);
        co_await t.Transaction([](Lane& u) -> Task { co_await u.Load(1); });
      },
  };
  const char* names[] = {"barrier", "atomic add", "compare-and-swap", "TX_Begin"};
  for (size_t i = 0; i < bodies.size(); ++i) {
    for (const Fault f : {Fault::kNone, Fault::kNoIsolation}) {
      FuncExecOptions opt;
      opt.fault = f;
      const TxBody body = bodies[i];
      const FuncExecResult r = RunFunctional(
          Small(), {}, [body](Lane& l) -> Task { co_await l.Transaction(body); }, opt);
      EXPECT_FALSE(r.ok);
      EXPECT_TRUE(Has(r.error, std::string("a ") + names[i] + " inside the transaction"))
          << r.error;
    }
  }
}

TEST(LdsFuncExec, ReportsAddressesOutsideTheLds) {
  auto kernel = [](Lane& l) -> Task { co_await l.Store(1020 + l.wi(), 1); };
  const FuncExecResult r = RunFunctional(Small(), {}, kernel);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "outside the LDS of 1024 words")) << r.error;
  EXPECT_TRUE(Has(r.error, "store of word 10")) << r.error;
}

TEST(LdsFuncExec, ReportsExceptionsEndlessBodiesAndBadInput) {
  auto throwing = [](Lane& l) -> Task {
    co_await l.Load(0);
    if (l.wi() == 3) {
      throw std::runtime_error("boom");
    }
  };
  FuncExecResult r = RunFunctional(Small(), {}, throwing);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "work-item 3 threw: boom")) << r.error;

  auto endless = [](Lane& l) -> Task {
    co_await l.Transaction([](Lane& t) -> Task {
      for (;;) {
        co_await t.Latch();
      }
    });
  };
  FuncExecOptions opt;
  opt.max_tx_ops = 1000;
  r = RunFunctional(Small(), {}, endless, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "has not finished after 1000 operations")) << r.error;

  r = RunFunctional(Small(), std::vector<uint32_t>(1025, 0), throwing);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r.error, "1025 words")) << r.error;

  EXPECT_THROW(RunFunctional(Geometry{16, 5, 1024}, {}, throwing), std::invalid_argument);
  EXPECT_THROW(RunFunctional(Geometry{0, 4, 1024}, {}, throwing), std::invalid_argument);
  opt = {};
  opt.max_burst = 0;
  EXPECT_THROW(RunFunctional(Small(), {}, throwing, opt), std::invalid_argument);
}

// ---- The workloads ----------------------------------------------------------------------------

TEST(LdsWorkloads, TheListIsTable57) {
  const std::vector<WorkloadInfo>& all = AllWorkloads();
  ASSERT_EQ(all.size(), 48u);
  const std::vector<std::string> benches = {"HT", "IT", "VA", "GC", "GA", "KM", "DB", "QU"};
  EXPECT_EQ(BenchmarkNames(), benches);
  std::set<std::string> names;
  for (size_t i = 0; i < all.size(); ++i) {
    const WorkloadInfo& w = all[i];
    EXPECT_EQ(w.bench, benches[i / 6]);
    EXPECT_EQ(w.contention, i % 6 < 3 ? Contention::kLow : Contention::kHigh);
    const bool atomics = w.bench == "HT" || w.bench == "IT" || w.bench == "DB" || w.bench == "QU";
    const Version third = atomics ? Version::kAtomic : Version::kFgl;
    const Version versions[3] = {Version::kTm, Version::kSerial, third};
    EXPECT_EQ(w.version, versions[i % 3]);
    EXPECT_EQ(w.name, w.bench + "-" + ToString(w.contention) + "/" + ToString(w.version));
    EXPECT_FALSE(w.description.empty());
    EXPECT_TRUE(names.insert(w.name).second) << w.name;
    EXPECT_EQ(&FindWorkload(w.name), &w);
  }
  EXPECT_THROW(FindWorkload("HT-LC/fgl"), std::invalid_argument);
  EXPECT_THROW(FindWorkload("nope"), std::invalid_argument);
}

TEST(LdsWorkloads, ImpossibleGeometriesAreRefused) {
  for (const WorkloadInfo& w : AllWorkloads()) {
    for (const Geometry g : {Geometry{256, 64, 64}, Geometry{0, 64, 4096}, Geometry{100, 64, 4096},
                             Geometry{256, 64, 0}}) {
      try {
        w.make(g, 1);
        ADD_FAILURE() << w.name << " accepted wg_size " << g.wg_size << " lds_words "
                      << g.lds_words;
      } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(Has(e.what(), w.name)) << e.what();
      }
    }
  }
}

// Every variant takes the geometries the thesis's sizes fit in, refuses the others with a
// message, and never breaks.
TEST(LdsWorkloads, OtherGeometriesRunOrAreRefused) {
  const Geometry geos[] = {
      {2, 2, 4096}, {12, 4, 1024}, {16, 4, 512}, {64, 64, 4096}, {128, 32, 2048}};
  for (const WorkloadInfo& info : AllWorkloads()) {
    EXPECT_NO_THROW(info.make(Small(), 1)) << info.name << " at the small test geometry";
    for (const Geometry& geo : geos) {
      std::unique_ptr<Workload> w;
      try {
        w = info.make(geo, 4);
      } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(Has(e.what(), "needs")) << e.what();
        continue;
      }
      for (const Schedule s : {Schedule::kFree, Schedule::kSimt}) {
        FuncExecOptions opt;
        opt.schedule = s;
        opt.abort_prob = 0.2;
        const WorkloadRun run = RunWorkload(*w, geo, opt);
        EXPECT_TRUE(run.ok()) << info.name << " wg_size " << geo.wg_size << " wf_size "
                              << geo.wf_size << " lds_words " << geo.lds_words << " " << ToString(s)
                              << ": " << run.Summary();
      }
    }
  }
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& c : n) {
    if (c == '-' || c == '/') {
      c = '_';
    }
  }
  return n;
}

/// The variants' names; only those of one version when `only` is given.
std::vector<std::string> AllNames(std::optional<Version> only = std::nullopt) {
  std::vector<std::string> names;
  for (const WorkloadInfo& w : AllWorkloads()) {
    if (!only || w.version == *only) {
      names.push_back(w.name);
    }
  }
  return names;
}

class LdsWorkloadRun : public ::testing::TestWithParam<std::string> {};

// Every variant, at the default and at a small geometry, a few seeds of the workload and of the
// executor, both schedules, with and without simulated aborts.
TEST_P(LdsWorkloadRun, FinalStateIsRight) {
  const WorkloadInfo& info = FindWorkload(GetParam());
  const auto start = std::chrono::steady_clock::now();
  std::string first;
  for (const Geometry& geo : {Geometry{}, Small()}) {
    for (const uint64_t seed : {1, 2}) {
      for (const Schedule s : {Schedule::kFree, Schedule::kSimt}) {
        for (const double abort_prob : {0.0, 0.25}) {
          auto w = info.make(geo, seed);
          FuncExecOptions opt;
          opt.seed = seed * 7 + 3;
          opt.schedule = s;
          opt.abort_prob = abort_prob;
          const WorkloadRun run = RunWorkload(*w, geo, opt);
          ASSERT_TRUE(run.ok()) << info.name << " wg_size " << geo.wg_size << " seed " << seed
                                << " " << ToString(s) << " abort_prob " << abort_prob << ": "
                                << run.Summary();
          if (first.empty()) {
            first = run.Summary();
          }
        }
      }
    }
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-13s 16 runs %6.0f ms; default geometry, free schedule: %s\n", info.name.c_str(),
              ms, first.c_str());
}

// The serialized versions run their critical sections in a fixed order: the final LDS does not
// depend on the schedule.
class LdsSerialRun : public ::testing::TestWithParam<std::string> {};

TEST_P(LdsSerialRun, FinalStateDoesNotDependOnTheSchedule) {
  const WorkloadInfo& info = FindWorkload(GetParam());
  std::vector<uint32_t> first;
  for (const Schedule s : {Schedule::kFree, Schedule::kSimt}) {
    for (const uint64_t exec_seed : {5, 6}) {
      auto w = info.make(Geometry{}, 9);
      FuncExecOptions opt;
      opt.seed = exec_seed;
      opt.schedule = s;
      const WorkloadRun run = RunWorkload(*w, Geometry{}, opt);
      ASSERT_TRUE(run.ok()) << run.Summary();
      if (first.empty()) {
        first = run.exec.mem;
      } else {
        EXPECT_EQ(run.exec.mem, first) << ToString(s) << " seed " << exec_seed;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, LdsWorkloadRun, ::testing::ValuesIn(AllNames()), ParamName);
INSTANTIATE_TEST_SUITE_P(All, LdsSerialRun, ::testing::ValuesIn(AllNames(Version::kSerial)),
                         ParamName);

// Check() must notice a transaction that lost its stores, kept only some of them, or ran twice,
// in every benchmark and contention level; and a transactional version run without isolation
// must break the HC variants.
class LdsWorkloadMutation : public ::testing::TestWithParam<std::string> {};

TEST_P(LdsWorkloadMutation, CheckNoticesBrokenTransactions) {
  for (const Contention c : {Contention::kLow, Contention::kHigh}) {
    const std::string name = GetParam() + "-" + ToString(c) + "/tm";
    const WorkloadInfo& info = FindWorkload(name);
    for (const uint64_t seed : {1, 2}) {
      auto clean = info.make(Geometry{}, seed);
      const WorkloadRun ok = RunWorkload(*clean, Geometry{});
      ASSERT_TRUE(ok.ok()) << ok.Summary();
      const uint64_t writers = ok.exec.stats.tx_writing_commits;
      ASSERT_GT(writers, 4u);
      for (const Fault f : {Fault::kLoseTx, Fault::kTearTx, Fault::kRepeatTx}) {
        for (const uint64_t at : {uint64_t{0}, writers / 2, writers - 1}) {
          auto w = info.make(Geometry{}, seed);
          FuncExecOptions opt;
          opt.fault = f;
          opt.fault_at = at;
          const WorkloadRun run = RunWorkload(*w, Geometry{}, opt);
          ASSERT_TRUE(run.exec.ok) << run.Summary();
          ASSERT_TRUE(run.exec.fault_applied);
          EXPECT_FALSE(run.check.empty())
              << name << " seed " << seed << ": Check() missed " << ToString(f) << " at " << at;
          if (seed == 1 && at == writers / 2) {
            std::printf("%-9s %-10s -> %s\n", name.c_str(), ToString(f),
                        run.check.substr(0, 150).c_str());
          }
        }
      }
    }
  }
  // Without isolation, concurrent critical sections interleave: the HC variant breaks. The
  // bodies' operations then issue as SIMT instructions too, and must still reconverge.
  const WorkloadInfo& hc = FindWorkload(GetParam() + "-HC/tm");
  int broken = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (const Schedule s : {Schedule::kFree, Schedule::kSimt}) {
      auto w = hc.make(Geometry{}, seed);
      FuncExecOptions opt;
      opt.seed = seed;
      opt.schedule = s;
      opt.fault = Fault::kNoIsolation;
      opt.max_burst = 1;
      const WorkloadRun run = RunWorkload(*w, Geometry{}, opt);
      EXPECT_TRUE(run.exec.ok) << run.Summary();
      broken += !run.check.empty();
    }
  }
  EXPECT_GE(broken, 6) << hc.name << " without isolation";
}

INSTANTIATE_TEST_SUITE_P(All, LdsWorkloadMutation, ::testing::ValuesIn(BenchmarkNames()));

}  // namespace
}  // namespace htm::lds
