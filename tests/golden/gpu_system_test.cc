// SPDX-License-Identifier: Apache-2.0
//
// The GPU-TM system model (htm/gpu/system.h): every workload under every TM configuration on
// the small machine finishes, replays consistently in its serialization order and passes its
// check; KILO TM really runs transactions concurrently (aborts happen under contention, the
// commit units' rings wrap); WarpTM's intra-warp conflict detection aborts exactly the lanes
// that conflict with a lower lane; bad machines are refused.
#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "htm/machine/gpu/commit_log.h"
#include "htm/machine/gpu/system.h"

namespace htm::gpu {
namespace {

using Param = std::tuple<std::string, TmMode>;

class GpuSystem : public ::testing::TestWithParam<Param> {};

TEST_P(GpuSystem, RunsChecksAndReplaysOnTheSmallMachine) {
  const auto& [name, tm] = GetParam();
  for (const uint64_t seed : {1, 2}) {
    auto w = FindWorkload(name)->make(Scale::kSmall, seed);
    RunOptions opt;
    opt.seed = seed;
    const RunResult r = RunSystem(*FindMachine("small"), tm, *w, opt);
    ASSERT_EQ(r.error, "") << name << " " << ToString(tm) << " seed " << seed;
    EXPECT_EQ(r.check, "") << name << " " << ToString(tm) << " seed " << seed;
    EXPECT_TRUE(r.ok);
    if (w->OneTransactionPerThread()) {
      EXPECT_EQ(r.stats.commits, static_cast<uint64_t>(w->threads()));
    } else {
      EXPECT_GT(r.stats.commits, static_cast<uint64_t>(w->threads()));
    }
    EXPECT_GE(r.stats.log_events, r.stats.commits - r.stats.read_only_commits);
    EXPECT_GT(r.stats.cycles, 0u);
    if (tm != TmMode::kSerial) {
      EXPECT_GT(r.stats.cu_messages, 0u);
    }
    // Every try ends once, committed or aborted (a pause continues the try).
    EXPECT_EQ(r.stats.tries, r.stats.commits + r.stats.aborts);
    const bool ea = tm == TmMode::kWarpTmEa || tm == TmMode::kWarpTmEaPg;
    const bool pg = tm == TmMode::kWarpTmPg || tm == TmMode::kWarpTmEaPg;
    EXPECT_EQ(r.stats.iwcd_warps > 0, tm != TmMode::kSerial && tm != TmMode::kKiloTm && !IsSi(tm));
    if (IsSi(tm)) {
      // Commits became snapshots, and the dependency graph ordered the log.
      EXPECT_GT(r.stats.si_snapshots, 0u);
      EXPECT_GT(r.stats.si_graph_edges, 0u);
      // The Version Index Table: its regions added, a Translate per transactional load, an
      // Acquire and a Release per region of every snapshot read, and the publications' versions.
      EXPECT_GT(r.stats.si_vit_regions, 0u);
      EXPECT_GT(r.stats.si_vit_ops, r.stats.si_vit_regions + r.stats.si_snapshots);
      // SITM_TS posts edges to the post-dating unit; the loops it misses are aborted by the
      // model's exact graph and counted among the loop aborts.
      EXPECT_EQ(r.stats.si_pd_edges > 0, tm == TmMode::kSitm);
      EXPECT_LE(r.stats.si_loops_missed, r.stats.aborts_loop);
    } else {
      EXPECT_EQ(r.stats.si_snapshots + r.stats.si_version_waits + r.stats.si_graph_edges +
                    r.stats.aborts_loop + r.stats.aborts_single_writer + r.stats.aborts_si_full +
                    r.stats.si_pd_edges + r.stats.si_vit_regions + r.stats.si_vit_ops,
                0u);
    }
    if (ea || pg) {
      // The RCTs' messages reached the CATs, lanes were looked up, and at the end, with every
      // transaction retired, every RCT and CAT is empty again.
      EXPECT_GT(r.stats.rct_messages, 0u);
      EXPECT_GT(r.stats.cat_lookups, 0u);
      EXPECT_LE(r.stats.aborts_early + r.stats.pauses, r.stats.cat_hits);
      EXPECT_EQ(r.stats.ea_left, 0u);
    } else {
      EXPECT_EQ(r.stats.rct_messages + r.stats.cat_lookups, 0u);
    }
    if (!ea) {
      EXPECT_EQ(r.stats.aborts_early, 0u);
    }
    if (pg) {
      EXPECT_GT(r.stats.pag_checks, 0u);
    } else {
      EXPECT_EQ(r.stats.pag_checks + r.stats.pauses, 0u);
    }
  }
}

std::string Name(const ::testing::TestParamInfo<Param>& i) {
  std::string name = std::get<0>(i.param) + "_" + ToString(std::get<1>(i.param));
  std::replace(name.begin(), name.end(), '-', '_');  // warptm-ea -> warptm_ea
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Small, GpuSystem,
    ::testing::Combine(::testing::Values("HT1K", "HT512", "ATM25K", "ATM10K", "SpMV", "List",
                                         "BinTree", "RBT180", "RBT450", "LinkedList1",
                                         "LinkedList2", "BinaryTree1", "BinaryTree2", "RBTree1",
                                         "RBTree2", "GraphCut1", "GraphCut2", "Vacation1",
                                         "Vacation2"),
                       ::testing::ValuesIn(AllTmModes())),
    Name);

TEST(GpuSystemKiloTm, ConflictsAbortAndTheRingWraps) {
  auto w = FindWorkload("HT512")->make(Scale::kSmall, 3);
  const RunResult r = RunSystem(*FindMachine("small"), TmMode::kKiloTm, *w);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_GT(r.stats.aborts_validation, 0u);
  EXPECT_GT(r.stats.tries, r.stats.commits);
  // The 32-entry rings wrapped many times.
  EXPECT_GE(r.stats.commits, 8u * 32u);
}

// One warp; lane l reads word Read(l) and writes it plus one to word Write(l) in a
// transaction. Every order used here is equivalent to lane order, which the check replays.
class Counters : public Workload {
 public:
  Counters(std::function<uint32_t(int)> read, std::function<uint32_t(int)> write)
      : read_(std::move(read)), write_(std::move(write)) {}
  int threads() const override { return 32; }
  std::vector<uint32_t> Init() override { return std::vector<uint32_t>(64, 0); }
  Task Kernel(Lane& l) override {
    const uint32_t r = read_(l.tid()), w = write_(l.tid());
    co_await l.Transaction([r, w](Lane& t) -> Task {
      const uint32_t v = co_await t.Load(r);
      co_await t.Store(w, v + 1);
    });
  }
  std::string Check(const std::vector<uint32_t>& mem) const override {
    std::vector<uint32_t> want(64, 0);
    for (int t = 0; t < 32; ++t) {
      want[write_(t)] = want[read_(t)] + 1;
    }
    return mem == want ? "" : "counters wrong";
  }
  std::string Describe() const override { return "counters"; }

 private:
  std::function<uint32_t(int)> read_, write_;
};

/// Records the threads of the committed transactions in their serialization order.
class TxOrder : public LogSink {
 public:
  void Begin(const std::vector<uint32_t>&) override {}
  void Event(const LogEvent& e) override {
    if (e.kind == LogEvent::Kind::kTx) {
      threads.push_back(e.thread);
    }
  }
  void End(const std::vector<uint32_t>&) override {}
  std::vector<int> threads;
};

// The intra-warp conflict detection aborts exactly the lanes that conflict with a lower lane of
// the warp, and every try's lowest lane goes on to the commit units (the papers' machine: 4096
// entries, no aliasing among these addresses). KILO TM resolves the same conflicts in the
// commit units instead.
TEST(GpuSystemWarpTm, IntraWarpAbortsAreTheConflictingLanes) {
  const MachineConfig& m = *FindMachine("default");
  std::vector<int> lanes(32), evens_first;
  for (int t = 0; t < 32; ++t) {
    lanes[t] = t;
  }
  for (int t = 0; t < 64; t += 2) {
    evens_first.push_back(t % 32 + (t >= 32 ? 1 : 0));
  }
  auto lane = [](int t) { return static_cast<uint32_t>(t); };
  auto next = [](int t) { return static_cast<uint32_t>(t + 1); };
  auto half = [](int t) { return static_cast<uint32_t>(t / 2); };
  auto seven = [](int) { return 7u; };
  struct Case {
    const char* what;
    std::function<uint32_t(int)> read, write;
    uint64_t iw_aborts;
    std::vector<int> order;  // the committed threads in serialization order
  };
  const Case cases[] = {
      // Disjoint counters: no conflict; lanes get commit ids in lane order.
      {"disjoint", lane, lane, 0, lanes},
      // Pairs: lane 2j+1 reads what lane 2j writes, so the even lanes commit first and the odd
      // ones after one retry.
      {"pairs", half, half, 16, evens_first},
      // One counter: each try commits its lowest lane and aborts the rest: 31 + 30 + ... + 1.
      {"one", seven, seven, 31 * 32 / 2, lanes},
      // Lane l writes the word lane l-1 reads: a write after a lower lane's read is no conflict.
      {"write after read", next, lane, 0, lanes},
  };
  for (const Case& c : cases) {
    for (const TmMode tm : {TmMode::kWarpTm, TmMode::kKiloTm}) {
      Counters w(c.read, c.write);
      TxOrder order;
      RunOptions opt;
      opt.log = &order;
      const RunResult r = RunSystem(m, tm, w, opt);
      const std::string what = std::string(c.what) + " " + ToString(tm);
      ASSERT_TRUE(r.ok) << what << ": " << r.error << r.check;
      EXPECT_EQ(r.stats.commits, 32u) << what;
      EXPECT_EQ(order.threads, c.order) << what;
      if (tm == TmMode::kWarpTm) {
        EXPECT_EQ(r.stats.aborts_intra_warp, c.iw_aborts) << what;
        EXPECT_EQ(r.stats.aborts_validation, 0u) << what;
        EXPECT_GT(r.stats.iwcd_warps, 0u) << what;
      } else {
        EXPECT_EQ(r.stats.aborts_intra_warp, 0u) << what;
        EXPECT_EQ(r.stats.iwcd_warps, 0u) << what;
        EXPECT_EQ(r.stats.aborts_validation, c.iw_aborts) << what;
      }
    }
  }
}

// A commit unit whose word buffer is full fails the transaction whose word found no slot; that
// abort is counted as capacity, not validation. Disjoint counters have no value conflict, so
// with 16 buffer words for the warp's 64 all aborts are capacity ones, and all commit in the end.
TEST(GpuSystemKiloTm, BufferFullAbortsCountAsCapacity) {
  for (const int buf : {4096, 16}) {
    MachineConfig m = *FindMachine("default");
    m.cu.buf_words = buf;
    auto lane = [](int t) { return static_cast<uint32_t>(t); };
    Counters w(lane, lane);
    const RunResult r = RunSystem(m, TmMode::kKiloTm, w);
    ASSERT_TRUE(r.ok) << buf << ": " << r.error << r.check;
    EXPECT_EQ(r.stats.commits, 32u);
    EXPECT_EQ(r.stats.aborts_validation, 0u) << buf;
    EXPECT_EQ(r.stats.aborts, r.stats.aborts_capacity) << buf;
    if (buf == 16) {
      EXPECT_GT(r.stats.aborts_capacity, 0u);
    } else {
      EXPECT_EQ(r.stats.aborts_capacity, 0u);
    }
  }
}

// A transaction whose log for one commit unit exceeds the unit's buffer can never commit: the
// run stops at its first try with a message naming the thread, the unit and the sizes (List's
// walks at the default scale outgrow the small machine's 256 words).
TEST(GpuSystemKiloTm, ALogThatCannotFitStopsTheRun) {
  auto w = FindWorkload("List")->make(Scale::kDefault, 1);
  RunOptions opt;
  opt.max_cycles = 5'000'000;  // without the check the run would end here, at the limit
  const RunResult r = RunSystem(*FindMachine("small"), TmMode::kKiloTm, *w, opt);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("whose buffer holds 256 (BufWords): it can never commit"),
            std::string::npos)
      << r.error;
}

// Early-Abort aborts lanes whose words committing transactions hold, on the papers' machine
// and the small one (whose tables fill), and keeps RCTs and CATs in agreement.
TEST(GpuSystemWarpTmEa, CatHitsAbortEarly) {
  for (const char* machine : {"default", "small"}) {
    auto w = FindWorkload("HT512")->make(Scale::kSmall, 5);
    const RunResult r = RunSystem(*FindMachine(machine), TmMode::kWarpTmEa, *w);
    ASSERT_TRUE(r.ok) << machine << ": " << r.error << r.check;
    EXPECT_GT(r.stats.aborts_early, 0u) << machine;
    EXPECT_GT(r.stats.cat_hits, 0u) << machine;
    EXPECT_EQ(r.stats.ea_left, 0u) << machine;
  }
}

// Two warps on two cores. After a warm-up (the CATs clear their tables after reset, 1024
// sets), warp 0's lanes increment counters 0..31 and warp 1's lanes run the transaction a
// subclass gives them, which reads some of those counters while warp 0 may be committing.
class CounterRace : public Workload {
 public:
  static constexpr int kWarmUp = 2200;
  int threads() const override { return 64; }
  std::vector<uint32_t> Init() override { return std::vector<uint32_t>(256, 0); }
  Task Kernel(Lane& l) override {
    const int t = l.tid();
    co_await l.Compute(kWarmUp);
    if (t < 32) {
      co_await l.Transaction([t](Lane& x) -> Task {
        const uint32_t v = co_await x.Load(static_cast<uint32_t>(t));
        co_await x.Store(static_cast<uint32_t>(t), v + 1);
      });
    } else {
      co_await Warp1(l, t);
    }
  }
  std::string Check(const std::vector<uint32_t>& mem) const override {
    for (int t = 0; t < 32; ++t) {
      if (mem[t] != 1) {
        return "counter " + std::to_string(t) + " is " + std::to_string(mem[t]);
      }
    }
    // Warp 1 reads warp 0's counters or zeros; serializability is the replay's business.
    return "";
  }

 protected:
  /// Warp 1's thread t: its transaction (warp 1's threads write words 64 + t only).
  virtual Task Warp1(Lane& l, int t) = 0;
};

// Warp 1's lanes wait `delay` cycles inside their transaction, then read a counter and write
// its increment to a word of their own: the even lanes read warp 0's counter of their lane, the
// odd lanes an untouched word. When warp 1 reads while warp 0 is committing, the even lanes
// read stale counters.
class Overtake : public CounterRace {
 public:
  // diverge: the even and the odd lanes load at two program points.
  explicit Overtake(int delay, bool diverge = false) : delay_(delay), diverge_(diverge) {}
  static uint32_t Read(int t) {
    const int l = t % 32;
    return static_cast<uint32_t>(l % 2 == 0 ? l : 128 + l);
  }
  std::string Describe() const override { return "overtake"; }

 private:
  Task Warp1(Lane& l, int t) override {
    co_await l.Transaction([this, t](Lane& x) -> Task {
      co_await x.Compute(delay_);
      uint32_t v = 0;
      if (diverge_ && t % 2 == 1) {
        v = co_await x.Load(Read(t));
      } else {
        v = co_await x.Load(Read(t));
      }
      co_await x.Store(static_cast<uint32_t>(64 + t), v + 1);
    });
  }

  int delay_;
  bool diverge_;
};

// Pause-and-Go pauses lanes whose words committing transactions hold, on the papers' machine
// and the small one, and keeps RCTs and CATs in agreement.
TEST(GpuSystemWarpTmPg, CatHitsPause) {
  for (const char* machine : {"default", "small"}) {
    auto w = FindWorkload("HT512")->make(Scale::kSmall, 5);
    const RunResult r = RunSystem(*FindMachine(machine), TmMode::kWarpTmPg, *w);
    ASSERT_TRUE(r.ok) << machine << ": " << r.error << r.check;
    EXPECT_GT(r.stats.pauses, 0u) << machine;
    EXPECT_LE(r.stats.pauses, r.stats.cat_hits) << machine;
    EXPECT_EQ(r.stats.aborts_early, 0u) << machine;
    EXPECT_EQ(r.stats.ea_left, 0u) << machine;
  }
}

// The model jumps over cycles in which nothing can change. Simulating every cycle instead must
// give the same run: the same statistics and the same final memory. (Work a block does without
// input, like the sweeps after reset or a reply registered after the message it answers, must
// keep the clock running.)
TEST(GpuSystem, SkippingIdleCyclesChangesNothing) {
  struct Run {
    const char* workload;
    const char* machine;
    std::vector<TmMode> modes;
  };
  const Run runs[] = {{"HT512", "small", AllTmModes()},
                      {"ATM10K", "small", AllTmModes()},
                      {"ATM10K", "default", {TmMode::kKiloTm, TmMode::kWarpTmEaPg}}};
  auto key = [](const RunResult& r) {
    const SystemStats& s = r.stats;
    return std::vector<uint64_t>{s.cycles,       s.commits,     s.tries,        s.aborts,
                                 s.aborts_early, s.pauses,      s.pag_checks,   s.cu_messages,
                                 s.cat_lookups,  s.cat_hits,    s.rct_messages, s.iwcd_cycles,
                                 s.tx_cycles,    s.mem_requests};
  };
  for (const Run& run : runs) {
    for (const TmMode tm : run.modes) {
      const std::string what = std::string(run.workload) + " " + run.machine + " " + ToString(tm);
      auto w1 = FindWorkload(run.workload)->make(Scale::kSmall, 3);
      auto w2 = FindWorkload(run.workload)->make(Scale::kSmall, 3);
      RunOptions every;
      every.skip_idle = false;
      const RunResult a = RunSystem(*FindMachine(run.machine), tm, *w1);
      const RunResult b = RunSystem(*FindMachine(run.machine), tm, *w2, every);
      ASSERT_TRUE(a.ok && b.ok) << what << ": " << a.error << b.error;
      EXPECT_EQ(key(a), key(b)) << what;
      EXPECT_EQ(a.mem, b.mem) << what;
    }
  }
}

// A regression: a committer whose logs failed at one unit while its Alloc to another unit was
// still unanswered was forgotten too early, and the unit's AllocPass then named a commit id no
// core knew (List at the default scale on the papers' machine, cycle 110 345). The first
// 200 000 cycles must run without a model error.
// Pause-and-Go on the papers' machine with a 40-cycle memory. Warp 1 loads while warp 0's
// counters are in the CATs: the check pauses even lanes only (the odd ones read untouched
// words); the paused lanes keep their tries, run on after the others committed, and commit in a
// second round. Every transactional access of the converged warps goes through the check.
MachineConfig FastMemory() {
  MachineConfig m = *FindMachine("default");
  m.mem_latency = 40;
  m.cu_mem_latency = 12;
  return m;
}

TEST(GpuSystemWarpTmPg, PausedLanesKeepTheirTryAndCommitAfterTheOthers) {
  const MachineConfig m = FastMemory();
  Overtake w(400);
  TxOrder order;
  RunOptions opt;
  opt.log = &order;
  const RunResult r = RunSystem(m, TmMode::kWarpTmPg, w, opt);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_EQ(r.stats.commits, 64u);
  EXPECT_EQ(r.stats.aborts, 0u);
  EXPECT_EQ(r.stats.tries, 64u) << "a pause must not begin a new try";
  EXPECT_GT(r.stats.pauses, 0u);
  // Warp 0's load and store, warp 1's load and store, and the paused lanes' load and store.
  EXPECT_EQ(r.stats.pag_checks, 6u);
  // Warp 1's commits: the first round in lane order, then the paused lanes in lane order.
  std::vector<int> w1;
  for (const int t : order.threads) {
    if (t >= 32) {
      w1.push_back(t - 32);
    }
  }
  ASSERT_EQ(w1.size(), 32u);
  size_t split = 1;
  while (split < w1.size() && w1[split] > w1[split - 1]) {
    ++split;
  }
  const std::vector<int> paused(w1.begin() + static_cast<std::ptrdiff_t>(split), w1.end());
  EXPECT_EQ(paused.size(), r.stats.pauses);
  EXPECT_TRUE(std::is_sorted(paused.begin(), paused.end()));
  for (const int l : paused) {
    EXPECT_EQ(l % 2, 0) << "lane " << l << " read an untouched word and paused";
  }
}

// As Overtake, but warp 1's lanes load twice: lanes 0-7 first read warp 0's counters, lanes
// 8-15 then read them at the second load. Any other lane reads untouched words.
class TwoPauses : public CounterRace {
 public:
  explicit TwoPauses(int delay) : delay_(delay) {}
  std::string Describe() const override { return "two pauses"; }

 private:
  Task Warp1(Lane& l, int t) override {
    const int lane = t - 32;
    const auto first = static_cast<uint32_t>(lane < 8 ? lane : 128 + lane);
    const auto second = static_cast<uint32_t>(lane >= 8 && lane < 16 ? lane : 160 + lane);
    co_await l.Transaction([this, t, first, second](Lane& x) -> Task {
      co_await x.Compute(delay_);
      const uint32_t a = co_await x.Load(first);
      const uint32_t b = co_await x.Load(second);
      co_await x.Store(static_cast<uint32_t>(64 + t), a + b);
    });
  }

  int delay_;
};

// Lanes paused at the first load and lanes paused at the second load of the same try are two
// Trans entries of the SIMT stack: the later one is just below the top, so it resumes first.
TEST(GpuSystemWarpTmPg, TheLastPausedLanesResumeFirst) {
  TwoPauses w(295);
  TxOrder order;
  RunOptions opt;
  opt.log = &order;
  const RunResult r = RunSystem(FastMemory(), TmMode::kWarpTmPg, w, opt);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_EQ(r.stats.aborts, 0u);
  EXPECT_EQ(r.stats.tries, 64u);
  // Warp 1's commits, split into rounds (each in lane order).
  std::vector<std::vector<int>> rounds;
  for (const int t : order.threads) {
    if (t < 32) {
      continue;
    }
    if (rounds.empty() || t - 32 < rounds.back().back()) {
      rounds.emplace_back();
    }
    rounds.back().push_back(t - 32);
  }
  ASSERT_EQ(rounds.size(), 3u) << "the lanes that went on, then two paused groups";
  for (const int l : rounds[1]) {
    EXPECT_TRUE(l >= 8 && l < 16) << "lane " << l
                                  << " of the second round paused at the second load";
  }
  for (const int l : rounds[2]) {
    EXPECT_LT(l, 8) << "lane " << l << " of the last round paused at the first load";
  }
  EXPECT_EQ(rounds[1].size() + rounds[2].size(), r.stats.pauses);
}

// Pausing needs the warp converged inside the transaction (the SIMT stack's top entry is the
// Trans entry): loads at two program points are not checked, the common store is.
TEST(GpuSystemWarpTmPg, DivergedAccessesAreNotChecked) {
  for (const bool diverge : {false, true}) {
    Overtake w(600, diverge);  // warp 0 has committed when warp 1 loads
    const RunResult r = RunSystem(FastMemory(), TmMode::kWarpTmPg, w);
    ASSERT_TRUE(r.ok) << r.error << r.check;
    EXPECT_EQ(r.stats.aborts, 0u);
    EXPECT_EQ(r.stats.pag_checks, diverge ? 3u : 4u) << "diverge " << diverge;
  }
}

// The warps issue through their SIMT stacks (docs/htmsim.md, "The transactional SIMT stack"):
// a list walk whose lanes leave at different iterations and a transaction inside fit the
// default 16 entries and need more than 3; a stack too shallow for the warp stops the run
// with a report naming the stack, its warp and its top.
TEST(GpuSystemSimtStack, AStackTooShallowStopsTheRun) {
  auto w = FindWorkload("List")->make(Scale::kSmall, 1);
  MachineConfig m = *FindMachine("small");
  const RunResult ok = RunSystem(m, TmMode::kKiloTm, *w);
  ASSERT_TRUE(ok.ok) << ok.error << ok.check;
  EXPECT_GT(ok.stats.simt_depth_max, 3u);
  EXPECT_LE(ok.stats.simt_depth_max, 16u);
  EXPECT_GT(ok.stats.simt_commands, ok.stats.warp_instructions / 2);
  m.simt.depth = 3;
  auto w2 = FindWorkload("List")->make(Scale::kSmall, 1);
  const RunResult r = RunSystem(m, TmMode::kKiloTm, *w2);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("htm_tx_simt_stack core"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("refused a command"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("depth 3"), std::string::npos) << r.error;
}

// The Version Index Table serves snapshot isolation: a workload whose memory does not fit its
// regions stops the run with a message naming the table; a table that answers a Translate with
// the wrong version is a departure.
TEST(GpuSystemVersionTable, AFootprintTooLargeStopsTheRun) {
  MachineConfig m = *FindMachine("small");
  m.vit.regions = 2;
  m.vit.stride_log2 = 8;  // 2 regions of at most 256 bytes: 128 words
  auto w = FindWorkload("HT1K")->make(Scale::kSmall, 1);
  const RunResult r = RunSystem(m, TmMode::kSitmOracle, *w);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("htm_version_index version_index: the workload's"), std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("above the version stride (256)"), std::string::npos) << r.error;
}

TEST(GpuSystemVersionTable, RegionsCoverTheMemoryAndEveryLoadIsTranslated) {
  for (const TmMode tm : {TmMode::kSitm, TmMode::kSitmOracle}) {
    auto w = FindWorkload("HT1K")->make(Scale::kSmall, 1);
    const size_t words = w->Init().size();
    auto w2 = FindWorkload("HT1K")->make(Scale::kSmall, 1);
    const MachineConfig& m = *FindMachine("small");
    const RunResult r = RunSystem(m, tm, *w2);
    ASSERT_TRUE(r.ok) << r.error << r.check;
    // As many equal power-of-two regions as the table holds, covering the memory.
    uint64_t len = 4;
    while (len * static_cast<uint64_t>(m.vit.regions) < 4 * words) {
      len *= 2;
    }
    EXPECT_EQ(r.stats.si_vit_regions, (4 * words + len - 1) / len) << ToString(tm);
    EXPECT_LE(r.stats.si_vit_regions, static_cast<uint64_t>(m.vit.regions));
  }
}

// Serial runs one thread's transaction at a time: no SIMT stack, and the counters say so.
TEST(GpuSystemSimtStack, SerialHasNone) {
  auto w = FindWorkload("HT1K")->make(Scale::kSmall, 1);
  const RunResult r = RunSystem(*FindMachine("small"), TmMode::kSerial, *w);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_EQ(r.stats.simt_commands, 0u);
  EXPECT_EQ(r.stats.simt_depth_max, 0u);
}

TEST(GpuSystemWarpTmEa, LateAllocRepliesFindTheirCommitter) {
  auto w = FindWorkload("List")->make(Scale::kDefault, 1);
  RunOptions opt;
  opt.max_cycles = 200000;
  const RunResult r = RunSystem(*FindMachine("default"), TmMode::kWarpTmEa, *w, opt);
  EXPECT_NE(r.error.find("no end after 200000 cycles"), std::string::npos) << r.error;
}

// The exported log passes the independent checker, and the checker notices a changed value, a
// missing transaction, two swapped transactions, a wrong writer and a cut-short log.
TEST(GpuCommitLog, TheCheckerAcceptsARunAndRejectsDamage) {
  auto w = FindWorkload("ATM10K")->make(Scale::kSmall, 4);
  std::ostringstream os;
  JsonLogWriter writer(os, {"ATM10K", "kilotm", "small", "small", 4});
  RunOptions opt;
  opt.log = &writer;
  const RunResult r = RunSystem(*FindMachine("small"), TmMode::kKiloTm, *w, opt);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  const std::string log = os.str();
  {
    std::istringstream is(log);
    const LogCheckResult c = CheckCommitLog(is);
    EXPECT_TRUE(c.ok) << c.error;
    EXPECT_EQ(c.transactions, r.stats.commits - r.stats.read_only_commits);
    EXPECT_GT(c.edges, c.transactions);
  }
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string l; std::getline(in, l);) {
    lines.push_back(l);
  }
  ASSERT_GT(lines.size(), 10u);
  auto check = [](const std::vector<std::string>& ls) {
    std::string text;
    for (const auto& l : ls) {
      text += l + "\n";
    }
    std::istringstream is(text);
    return CheckCommitLog(is);
  };
  auto damaged = lines;
  // A changed write value (the first write of transaction 5).
  const size_t wpos = damaged[6].find("\"writes\":[[");
  ASSERT_NE(wpos, std::string::npos);
  const size_t comma = damaged[6].find(',', wpos + 11);
  damaged[6].insert(comma + 1, "9");
  EXPECT_FALSE(check(damaged).ok);
  // A missing transaction (ids no longer consecutive).
  damaged = lines;
  damaged.erase(damaged.begin() + 3);
  EXPECT_FALSE(check(damaged).ok);
  // Two transactions swapped (ids out of order).
  damaged = lines;
  std::swap(damaged[3], damaged[4]);
  EXPECT_FALSE(check(damaged).ok);
  // The final memory missing.
  damaged = lines;
  damaged.pop_back();
  const LogCheckResult cut = check(damaged);
  EXPECT_FALSE(cut.ok);
  EXPECT_NE(cut.error.find("cut short"), std::string::npos) << cut.error;
  // Not JSON.
  damaged = lines;
  damaged[2] = "{\"type\":\"tx\",";
  EXPECT_FALSE(check(damaged).ok);
}

TEST(GpuSystemMachine, ImpossibleMachinesAreRefused) {
  MachineConfig m = *FindMachine("small");
  m.cores = 0;
  EXPECT_NE(CheckMachine(m), "");
  auto w = FindWorkload("ATM10K")->make(Scale::kSmall, 1);
  EXPECT_THROW(RunSystem(m, TmMode::kKiloTm, *w), std::invalid_argument);
  m = *FindMachine("small");
  m.cores = 5;  // SrcW 2 names 4 cores
  EXPECT_NE(CheckMachine(m), "");
  m = *FindMachine("small");
  m.cu.ring_size = 24;
  EXPECT_NE(CheckMachine(m), "");
  m = *FindMachine("small");
  m.vit.versions = 1;  // no version to write the next snapshot into
  EXPECT_NE(CheckMachine(m), "");
  EXPECT_EQ(CheckMachine(*FindMachine("default")), "");
}

// Lane::Fence waits until the warp's earlier stores are performed: a store, a fence and a load
// take at least two memory latencies; without the fence the load overtakes the store.
class StoreFenceLoad : public Workload {
 public:
  explicit StoreFenceLoad(bool fence) : fence_(fence) {}
  int threads() const override { return 32; }
  std::vector<uint32_t> Init() override { return std::vector<uint32_t>(64, 0); }
  Task Kernel(Lane& l) override {
    co_await l.Store(static_cast<uint32_t>(l.tid()), 1);
    if (fence_) {
      co_await l.Fence();
    }
    co_await l.Load(32 + static_cast<uint32_t>(l.tid()));
  }
  std::string Check(const std::vector<uint32_t>& mem) const override {
    return mem[0] == 1 && mem[31] == 1 ? "" : "stores lost";
  }
  std::string Describe() const override { return "store, fence, load"; }

 private:
  bool fence_;
};

TEST(GpuSystem, AFenceWaitsForTheStores) {
  const MachineConfig& m = *FindMachine("small");
  StoreFenceLoad with(true), without(false);
  const RunResult a = RunSystem(m, TmMode::kKiloTm, with);
  const RunResult b = RunSystem(m, TmMode::kKiloTm, without);
  ASSERT_TRUE(a.ok) << a.error << a.check;
  ASSERT_TRUE(b.ok) << b.error << b.check;
  EXPECT_GE(a.stats.cycles, 2u * static_cast<uint64_t>(m.mem_latency));
  EXPECT_GE(a.stats.cycles, b.stats.cycles + static_cast<uint64_t>(m.mem_latency) / 2);
}

// The fine-grained-lock baseline: HashTable's and ATM's lock kernels run without a transaction,
// every lock is free again at the end and the invariants hold, on both machines (at the small
// scale); a workload without a lock kernel is refused.
TEST(GpuSystemFgl, LockKernelsKeepTheInvariants) {
  for (const char* name : {"HT1K", "HT512", "ATM25K", "ATM10K"}) {
    for (const char* machine : {"small", "default"}) {
      for (const uint64_t seed : {1u, 2u}) {
        SCOPED_TRACE(std::string(name) + " on " + machine + ", seed " + std::to_string(seed));
        auto w = FindWorkload(name)->make(Scale::kSmall, seed);
        ASSERT_TRUE(w->HasLocks());
        const RunResult r = RunSystem(*FindMachine(machine), TmMode::kFgl, *w);
        ASSERT_TRUE(r.ok) << r.error << r.check;
        EXPECT_EQ(r.stats.tries, 0u);
        EXPECT_EQ(r.stats.cu_messages, 0u);
        EXPECT_GT(r.stats.log_events, static_cast<uint64_t>(w->threads()));  // stores, atomics
      }
    }
  }
  auto list = FindWorkload("List")->make(Scale::kSmall, 1);
  EXPECT_FALSE(list->HasLocks());
  EXPECT_THROW(RunSystem(*FindMachine("small"), TmMode::kFgl, *list), std::invalid_argument);
}

}  // namespace
}  // namespace htm::gpu
