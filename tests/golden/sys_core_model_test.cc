// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the SIMT core's golden model (no RTL) and of the golden fabric that runs
// whole prototype workloads on it: ATM-P, HT-P and EB-P end with the memory their Check()
// expects in the three configurations of docs/htm_sys_core.md, and their commit log replays in
// commit-id order onto the initial memory (every committed read saw the memory of the
// transactions before it) to the final memory; directed tests hold the model to the page's
// timing (a batch's setup, a load and a store step, the walker's message order for one lane on
// two partitions, an AllocFail's retry after AllocRetry cycles) against a scripted environment
// that answers as the partitions do (the scenarios of htm/tb/sys_core_env.h, which
// tests/rtl/sys_core_directed_test.cc runs on the RTL in lockstep); errors and bad parameters
// are flagged.
#include "htm/golden/sys_core_model.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_sys_part.h"
#include "htm/golden/sys_fabric.h"
#include "htm/tb/sys_core_env.h"
#include "htm/workloads/gpu/proto.h"
#include "sys_test_configs.h"

namespace htm::golden {
namespace {

namespace proto = ::htm::gpu::proto;
using namespace systest;  // NOLINT(build/namespaces): the shared configurations

SysWl WlOf(proto::Kind k) {
  return k == proto::Kind::kAtm ? SysWl::kAtm : k == proto::Kind::kHt ? SysWl::kHt : SysWl::kEb;
}

SysRunConfig RunOf(const proto::Params& w) {
  return SysRunConfig{.workload = WlOf(w.kind),
                      .threads = w.threads,
                      .objlog2 = w.objects_log2,
                      .reads = w.reads,
                      .writes = w.writes,
                      .cold = w.cold,
                      .seed = w.seed};
}

// Replays the run's commit log: the committed transactions in commit-id order, each read equal
// to the memory left by the ones before, their writes applied; the result must be the final
// memory, and every thread must commit exactly once. Returns "" or what is wrong.
std::string ReplayCommitLog(const SysFabric& f, const std::vector<uint32_t>& init, int threads) {
  struct Tx {
    uint32_t thread = 0;
    int core = 0;
    bool decided = false, commit = false;
    std::vector<SysLogWord> words;
  };
  const int cid_w = f.params().core.cid_w;
  const int64_t span = int64_t{1} << cid_w;
  // Unwraps each commit id to the value nearest the largest seen so far (the ids in flight at
  // once span far less than half the id space), taking the records in cycle order.
  struct Rec {
    uint64_t cycle;
    int core;
    bool word;
    size_t index;
  };
  std::vector<Rec> recs;
  for (int c = 0; c < f.num_cores(); ++c) {
    for (size_t i = 0; i < f.log_words(c).size(); ++i) {
      recs.push_back(Rec{f.log_words(c)[i].cycle, c, true, i});
    }
    for (size_t i = 0; i < f.log_decisions(c).size(); ++i) {
      recs.push_back(Rec{f.log_decisions(c)[i].cycle, c, false, i});
    }
  }
  std::stable_sort(recs.begin(), recs.end(),
                   [](const Rec& a, const Rec& b) { return a.cycle < b.cycle; });
  std::map<int64_t, Tx> txs;
  int64_t top = -1;
  const auto unwrap = [&](uint64_t cid) {
    const int64_t base = top < 0 ? 0 : top;
    int64_t u = base - (base % span) + static_cast<int64_t>(cid);
    while (u > base + span / 2) {
      u -= span;
    }
    while (u < base - span / 2) {
      u += span;
    }
    top = std::max(top, u);
    return u;
  };
  for (const Rec& r : recs) {
    if (r.word) {
      const SysLogWord& w = f.log_words(r.core)[r.index];
      Tx& t = txs[unwrap(w.cid)];
      if (t.decided) {
        return "a log word of commit id " + std::to_string(w.cid) + " after its decision";
      }
      t.thread = w.thread;
      t.core = r.core;
      t.words.push_back(w);
    } else {
      const SysLogDecision& d = f.log_decisions(r.core)[r.index];
      Tx& t = txs[unwrap(d.cid)];
      if (t.decided) {
        return "commit id " + std::to_string(d.cid) + " decided twice";
      }
      if (!t.words.empty() && (t.thread != d.thread || t.core != r.core)) {
        return "commit id " + std::to_string(d.cid) + " decided for another thread";
      }
      t.thread = d.thread;
      t.decided = true;
      t.commit = d.commit;
    }
  }
  std::vector<uint32_t> mem = init;
  std::vector<int> commits(threads, 0);
  for (const auto& [cid, t] : txs) {
    if (!t.decided) {
      return "commit id " + std::to_string(cid) + " sent words and was never decided";
    }
    if (!t.commit) {
      continue;
    }
    if (t.thread >= static_cast<uint32_t>(threads)) {
      return "thread " + std::to_string(t.thread) + " is not in the grid";
    }
    ++commits[t.thread];
    for (const SysLogWord& w : t.words) {
      if (w.addr >= mem.size()) {
        return "an access outside the workload's memory";
      }
      if (!w.write && mem[w.addr] != w.data) {
        return "commit id " + std::to_string(cid) + " (thread " + std::to_string(t.thread) +
               ") read " + std::to_string(w.data) + " at " + std::to_string(w.addr) +
               ", the earlier commits left " + std::to_string(mem[w.addr]);
      }
    }
    for (const SysLogWord& w : t.words) {
      if (w.write) {
        mem[w.addr] = w.data;
      }
    }
  }
  for (int t = 0; t < threads; ++t) {
    if (commits[t] != 1) {
      return "thread " + std::to_string(t) + " committed " + std::to_string(commits[t]) + " times";
    }
  }
  if (mem != f.final_memory()) {
    return "the replayed commit log does not give the final memory";
  }
  return "";
}

struct RunResult {
  SysRunCounters ctr;
};

// Runs one workload on the fabric; fails the test on a wrong final memory or commit log.
RunResult RunWorkload(SysFabric& f, const proto::Params& w, const char* config) {
  const auto wl = proto::Make(w);
  const std::vector<uint32_t> init = wl->Init();
  f.Begin(RunOf(w), init);
  f.Run();
  const SysRunCounters& c = f.counters();
  std::printf(
      "%-7s %-5s T %4d obj 2^%d R%d W%d C%d seed %u: %6llu cycles, %4llu commits, %4llu "
      "aborts, %4llu alloc fails\n",
      config, proto::ToString(w.kind), w.threads, w.objects_log2, w.reads, w.writes, w.cold, w.seed,
      static_cast<unsigned long long>(c.cycles), static_cast<unsigned long long>(c.commits),
      static_cast<unsigned long long>(c.aborts), static_cast<unsigned long long>(c.alloc_fails));
  EXPECT_EQ(wl->Check(f.final_memory()), "");
  EXPECT_EQ(ReplayCommitLog(f, init, w.threads), "");
  EXPECT_EQ(c.commits, static_cast<uint64_t>(w.threads));
  return RunResult{c};
}

struct Case {
  const char* name;
  SysFabricParams fabric;
  std::vector<proto::Params> runs;
};

std::vector<Case> Cases() {
  using K = proto::Kind;
  return {
      {"default",
       FabricDefault(),
       {proto::ParamsAt(K::kAtm, gpu::Scale::kSmall, 1),
        proto::ParamsAt(K::kHt, gpu::Scale::kSmall, 1),
        proto::ParamsAt(K::kEb, gpu::Scale::kSmall, 1), Wl(K::kAtm, 100, 4, 2),
        Wl(K::kAtm, 203, 3, 3), Wl(K::kHt, 77, 2, 4), Wl(K::kHt, 150, 5, 5),
        Wl(K::kEb, 90, 4, 6, 0, 2, 2), Wl(K::kEb, 61, 5, 7, 4, 0, 3), Wl(K::kEb, 45, 3, 8, 3, 2, 0),
        Wl(K::kEb, 33, 2, 9, 8, 0, 0), Wl(K::kEb, 70, 4, 10, 0, 0, 4)}},
      {"small",
       FabricSmall(),
       {Wl(K::kAtm, 100, 4, 1), Wl(K::kAtm, 37, 1, 2), Wl(K::kHt, 60, 3, 3), Wl(K::kHt, 21, 1, 4),
        Wl(K::kEb, 50, 4, 5, 2, 1, 1), Wl(K::kEb, 30, 2, 6, 0, 2, 2), Wl(K::kEb, 30, 3, 7, 3, 0, 1),
        Wl(K::kEb, 25, 3, 8, 4, 1, 0)}},
      {"one",
       FabricOne(),
       {Wl(K::kAtm, 20, 2, 1), Wl(K::kAtm, 9, 1, 2), Wl(K::kHt, 20, 2, 3), Wl(K::kHt, 7, 1, 4),
        Wl(K::kEb, 12, 2, 5, 1, 1, 1), Wl(K::kEb, 10, 1, 6, 0, 1, 1), Wl(K::kEb, 9, 2, 7, 3, 0, 0),
        Wl(K::kEb, 8, 3, 8, 0, 0, 2)}},
  };
}

TEST(SysFabric, PrototypeWorkloadsEndRightInEveryConfiguration) {
  for (const Case& k : Cases()) {
    SCOPED_TRACE(k.name);
    SysFabric f(k.fabric);
    uint64_t aborts = 0, alloc_fails = 0;
    for (const proto::Params& w : k.runs) {
      SCOPED_TRACE(std::string(proto::ToString(w.kind)) + " seed " + std::to_string(w.seed));
      const RunResult r = RunWorkload(f, w, k.name);
      aborts += r.ctr.aborts;
      alloc_fails += r.ctr.alloc_fails;
      if (testing::Test::HasFailure()) {
        return;
      }
    }
    // Conflicts happen wherever two lanes run at once (not in `one`); the small ring makes
    // AllocFail happen; a ring of NumCores * WarpSize entries (`default`) never refuses.
    const std::string name = k.name;
    EXPECT_EQ(aborts > 0, name != "one");
    EXPECT_EQ(alloc_fails > 0, name == "small");
  }
}

TEST(SysFabric, RunsBackToBackAndAfterAReset) {
  // The same fabric runs one workload after another (the commit ids and the commit units'
  // pointers go on); after Reset the first run's numbers come again.
  SysFabric f(FabricSmall());
  const proto::Params a = Wl(proto::Kind::kAtm, 40, 3, 11);
  const proto::Params b = Wl(proto::Kind::kEb, 40, 3, 12, 2, 1, 1);
  const uint64_t first = RunWorkload(f, a, "small").ctr.cycles;
  RunWorkload(f, b, "small");
  RunWorkload(f, a, "small");
  f.Reset();
  EXPECT_EQ(RunWorkload(f, a, "small").ctr.cycles, first);
}

TEST(SysFabric, ExposesTheCoresPortsEachCycle) {
  SysFabric f(FabricSmall());
  const proto::Params w = Wl(proto::Kind::kHt, 16, 2, 3);
  f.Begin(RunOf(w), proto::Make(w)->Init());
  bool started = false, took_reply = false, took_request = false;
  while (!f.done()) {
    f.Step();
    const SysCoreIn& in = f.core_in(0);
    EXPECT_EQ(in.core_idx, 0u);
    EXPECT_EQ(f.core_in(1).core_idx, 1u);
    EXPECT_EQ(in.cfg_seed_hash, proto::SeedHash(w.seed));
    started = started || in.start != 0;
    took_reply = took_reply || in.rep_valid != 0;
    took_request = took_request || (f.core_out(0).req_valid != 0 && in.req_ready != 0);
  }
  EXPECT_TRUE(started && took_reply && took_request);
}

TEST(SysFabric, RefusesRunsTheCoresCannotRun) {
  SysFabric f(FabricOne());  // MaxReads 3, MaxWrites 4, 256 words
  const auto refused = [&](const SysRunConfig& c, size_t words) {
    EXPECT_THROW(f.Begin(c, std::vector<uint32_t>(words, 0)), std::invalid_argument);
  };
  refused(
      SysRunConfig{
          .workload = SysWl::kEb, .threads = 4, .objlog2 = 2, .reads = 2, .writes = 1, .cold = 1},
      8);  // 4 read rows
  refused(SysRunConfig{.workload = SysWl::kAtm, .threads = 4, .objlog2 = 2}, 257);
  refused(SysRunConfig{.workload = SysWl::kAtm, .threads = 0, .objlog2 = 2}, 8);
  refused(SysRunConfig{.workload = SysWl::kEb, .threads = 4, .objlog2 = 2, .reads = 17}, 8);
  EXPECT_NO_THROW(f.Begin(SysRunConfig{.workload = SysWl::kAtm, .threads = 4, .objlog2 = 2},
                          std::vector<uint32_t>(24, 0)));
  EXPECT_THROW(f.Begin(SysRunConfig{.workload = SysWl::kAtm, .threads = 4, .objlog2 = 2},
                       std::vector<uint32_t>(24, 0)),
               std::logic_error);  // a run is queued
}

TEST(SysFabric, ADeadlockIsReportedAtTheCycleBudget) {
  SysFabric f(FabricSmall());
  const proto::Params w = Wl(proto::Kind::kAtm, 64, 3, 1);
  SysRunConfig c = RunOf(w);
  c.max_cycles = 200;  // far too few for the run
  f.Begin(c, proto::Make(w)->Init());
  try {
    f.Run();
    FAIL() << "no deadlock reported";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("did not end within 200 cycles"), std::string::npos)
        << e.what();
  }
}

TEST(SysFabric, BadParametersAreRejected) {
  SysFabricParams f = FabricSmall();
  f.ring_size = 3;
  EXPECT_NE(CheckSysFabricParams(f).find("RingSize"), std::string::npos);
  EXPECT_THROW(SysFabric{f}, std::invalid_argument);
  f = FabricSmall();
  f.xbar_fifo_depth = 0;
  EXPECT_NE(CheckSysFabricParams(f).find("FifoDepth"), std::string::npos);
  f = FabricSmall();
  f.core.warp_size = 0;
  EXPECT_NE(CheckSysFabricParams(f).find("WarpSize"), std::string::npos);
  EXPECT_EQ(CheckSysFabricParams(FabricDefault()), "");
  EXPECT_EQ(CheckSysFabricParams(FabricOne()), "");
}

// ---- The core alone, against a scripted environment that answers as the partitions do: the
// directed scenarios of htm/tb/sys_core_env.h, which the RTL's directed tests run in lockstep
// on the named configurations; here on the model alone, at sizes of their own.

using tb::SysCoreModelTarget;

// A core of one slot: NumWarps 1, the small configuration's other sizes.
SysCoreParams OneSlot(int warp_size, int num_parts, int alloc_retry = 3) {
  SysCoreParams p = kCoreSmall;
  p.num_cores = 1;
  p.num_warps = 1;
  p.warp_size = warp_size;
  p.num_parts = num_parts;
  p.alloc_retry = alloc_retry;
  return p;
}

TEST(SysCoreModel, SetupOfABatchTakesTheDrawsAndFiveCycles) {
  tb::SysCoreSetupOfABatchTakesTheDrawsAndFiveCycles(SysCoreModelTarget(OneSlot(4, 2)));
}

TEST(SysCoreModel, EveryWorkloadsLogWordsAreItsSteps) {
  tb::SysCoreEveryWorkloadsLogWordsAreItsSteps(SysCoreModelTarget(OneSlot(2, 2)));
}

TEST(SysCoreModel, ALoadStepAndAStoreStepTakeTheirCycles) {
  tb::SysCoreALoadStepAndAStoreStepTakeTheirCycles(SysCoreModelTarget(OneSlot(4, 2)));
}

TEST(SysCoreModel, AnEmptyStepTakesOneCycle) {
  tb::SysCoreAnEmptyStepTakesOneCycle(SysCoreModelTarget(OneSlot(2, 2)));
}

TEST(SysCoreModel, TheWalkerSendsOneLanesMessagesInOrderToTwoPartitions) {
  // IlvLog2 2: words 4p..4p+3 are partition p's, mod 8.
  tb::SysCoreTheWalkerSendsOneLanesMessagesInOrder(SysCoreModelTarget(OneSlot(1, 2)));
}

TEST(SysCoreModel, LanesArePipelinedAndTheFillEngineGoesFirst) {
  // Four partitions: lane 1 sends two of its four Allocs before lane 0's fill and the other
  // two after it.
  tb::SysCoreLanesArePipelinedAndTheFillEngineGoesFirst(SysCoreModelTarget(OneSlot(2, 4)));
}

TEST(SysCoreModel, TheDrawUnitIdlesACycleBetweenSlots) {
  SysCoreParams p = OneSlot(2, 2);
  p.num_warps = 2;
  tb::SysCoreTheDrawUnitIdlesACycleBetweenSlots(SysCoreModelTarget(p));
}

TEST(SysCoreModel, AnAllocFailIsRetriedAfterAllocRetryCycles) {
  for (int retry : {1, 3, 8}) {
    SCOPED_TRACE("AllocRetry " + std::to_string(retry));
    tb::SysCoreAnAllocFailIsRetriedAfterAllocRetryCycles(SysCoreModelTarget(OneSlot(1, 2, retry)));
  }
}

TEST(SysCoreModel, TheAllocFailEventAndTheLogStreams) {
  tb::SysCoreTheAllocFailEventAndTheLogStreams(SysCoreModelTarget(OneSlot(2, 2)));
}

TEST(SysCoreModel, AFailedValidationAbortsTheLaneAndRunsItAgain) {
  tb::SysCoreAFailedValidationAbortsTheLaneAndRunsItAgain(SysCoreModelTarget(OneSlot(2, 2)));
}

TEST(SysCoreModel, ManyBatchesUnderBackPressure) {
  SysCoreParams p = OneSlot(2, 2);
  p.num_warps = 2;
  tb::SysCoreManyBatchesUnderBackPressure(SysCoreModelTarget(p));
}

TEST(SysCoreModel, RepliesThatFitNothingAreDroppedDuringARun) {
  tb::SysCoreRepliesThatFitNothingAreDroppedDuringARun(SysCoreModelTarget(OneSlot(2, 2)));
}

TEST(SysCoreModel, ErrorsAreSticky) {
  tb::SysCoreErrorsAreSticky(SysCoreModelTarget(kCoreSmall));
  // ATM-P's third load with MaxReads 2.
  SysCoreParams p = OneSlot(1, 2);
  p.max_reads = 2;
  tb::SysCoreALoadStepBeyondTheReadLogSetsErr(
      SysCoreModelTarget(p),
      tb::SysCoreRun{.wl = SysWl::kAtm, .threads = 1, .objlog2 = 3, .seed = 4});
  // HT-P's fourth store with MaxWrites 3.
  p = OneSlot(1, 2);
  p.max_writes = 3;
  tb::SysCoreAStoreStepBeyondTheWriteLogSetsErr(
      SysCoreModelTarget(p),
      tb::SysCoreRun{.wl = SysWl::kHt, .threads = 1, .objlog2 = 3, .seed = 4});
}

TEST(SysCoreModel, StartIsIgnoredWhileRunning) {
  tb::SysCoreStartIsIgnoredWhileRunning(SysCoreModelTarget(OneSlot(2, 2)));
}

TEST(SysCoreModel, BadParametersAreRejectedByName) {
  const auto bad = [](void (*edit)(SysCoreParams&), const char* name) {
    SysCoreParams p = kCoreDefault;
    edit(p);
    const std::string why = CheckSysCoreParams(p);
    EXPECT_NE(why.find(name), std::string::npos) << name << ": " << why;
    EXPECT_THROW(SysCoreModel{p}, std::invalid_argument) << name;
  };
  bad([](SysCoreParams& p) { p.num_cores = 0; }, "NumCores");
  bad([](SysCoreParams& p) { p.num_warps = 0; }, "NumWarps");
  bad([](SysCoreParams& p) { p.warp_size = 33; }, "WarpSize");
  bad([](SysCoreParams& p) { p.num_parts = 3; }, "NumParts");
  bad([](SysCoreParams& p) { p.addr_w = 1; }, "AddrW");
  bad([](SysCoreParams& p) { p.ilv_log2 = 13; }, "IlvLog2");
  bad([](SysCoreParams& p) { p.cid_w = 0; }, "CidW");
  bad([](SysCoreParams& p) { p.max_reads = 0; }, "MaxReads");
  bad([](SysCoreParams& p) { p.max_writes = 0; }, "MaxWrites");
  bad([](SysCoreParams& p) { p.alloc_retry = 0; }, "AllocRetry");
  bad([](SysCoreParams& p) { p.cid_w = 11; }, "64-bit");  // ReqW 65
  for (const SysCoreParams& p : {kCoreDefault, kCoreSmall, kCoreOne}) {
    EXPECT_EQ(CheckSysCoreParams(p), "");
  }
  // The default's request is 64 bits, its reply 52 (docs/htm_sys_core.md, "Parameters").
  EXPECT_EQ(SysPartReqW(10, SysCoreRouteW(kCoreDefault), 13, 32), 64);
  EXPECT_EQ(SysPartRepW(10, SysCoreRouteW(kCoreDefault), 32), 52);
}

}  // namespace
}  // namespace htm::golden
