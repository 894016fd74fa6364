// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the SIMT core's golden model (no RTL) and of the golden fabric that runs
// whole prototype workloads on it: ATM-P, HT-P and EB-P end with the memory their Check()
// expects in the three configurations of docs/htm_sys_core.md, and their commit log replays in
// commit-id order onto the initial memory (every committed read saw the memory of the
// transactions before it) to the final memory; directed tests hold the model to the page's
// timing (a batch's setup, a load and a store step, the walker's message order for one lane on
// two partitions, an AllocFail's retry after AllocRetry cycles) against a scripted environment
// that answers as the partitions do; errors and bad parameters are flagged.
#include "htm/golden/sys_core_model.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_sys_part.h"
#include "htm/golden/sys_fabric.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::golden {
namespace {

namespace proto = ::htm::gpu::proto;

// The page's named configurations (docs/htm_sys_core.md, "Parameters").
constexpr SysCoreParams kCoreDefault{.num_cores = 4,
                                     .num_warps = 4,
                                     .warp_size = 8,
                                     .num_parts = 2,
                                     .addr_w = 13,
                                     .ilv_log2 = 6,
                                     .cid_w = 10,
                                     .max_reads = 8,
                                     .max_writes = 4,
                                     .alloc_retry = 8};
constexpr SysCoreParams kCoreSmall{.num_cores = 2,
                                   .num_warps = 2,
                                   .warp_size = 4,
                                   .num_parts = 2,
                                   .addr_w = 9,
                                   .ilv_log2 = 2,
                                   .cid_w = 8,
                                   .max_reads = 8,
                                   .max_writes = 4,
                                   .alloc_retry = 3};
constexpr SysCoreParams kCoreOne{.num_cores = 1,
                                 .num_warps = 1,
                                 .warp_size = 1,
                                 .num_parts = 1,
                                 .addr_w = 8,
                                 .ilv_log2 = 0,
                                 .cid_w = 6,
                                 .max_reads = 3,
                                 .max_writes = 4,
                                 .alloc_retry = 1};

// The fabric around each: `default` with the partition's `default` commit unit and the
// crossbar's `default` link; `small` with a 4-entry ring (AllocFail and retries happen) and the
// crossbar's `small` link (two credits: back-pressure); `one` with a 2-entry ring and the
// crossbar's `one` link.
SysFabricParams FabricDefault() {
  const SysPartParams& cu = configs::htm_sys_part::kDefault;
  SysFabricParams f;
  f.core = kCoreDefault;
  f.ring_size = cu.ring_size;
  f.buf_words = cu.buf_words;
  f.val_tags = cu.val_tags;
  f.lwh_sets = cu.lwh_sets;
  f.lwh_ways = cu.lwh_ways;
  f.lwh_bf_hashes = cu.lwh_bf_hashes;
  f.lwh_bf_slots = cu.lwh_bf_slots;
  f.lwh_scrub_interval = cu.lwh_scrub_interval;
  f.xbar_latency = 4;
  f.xbar_fifo_depth = 8;
  return f;
}

SysFabricParams FabricSmall() {
  SysFabricParams f;
  f.core = kCoreSmall;
  f.ring_size = 4;
  f.buf_words = 32;
  f.val_tags = 3;
  f.lwh_sets = 4;
  f.lwh_ways = 2;
  f.lwh_bf_hashes = 2;
  f.lwh_bf_slots = 4;
  f.lwh_scrub_interval = 4;
  f.xbar_latency = 2;
  f.xbar_fifo_depth = 2;
  return f;
}

SysFabricParams FabricOne() {
  SysFabricParams f;
  f.core = kCoreOne;
  f.ring_size = 2;
  f.buf_words = 8;
  f.val_tags = 1;
  f.lwh_sets = 1;
  f.lwh_ways = 1;
  f.lwh_bf_hashes = 1;
  f.lwh_bf_slots = 1;
  f.lwh_scrub_interval = 2;
  f.xbar_latency = 1;
  f.xbar_fifo_depth = 1;
  return f;
}

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

proto::Params Wl(proto::Kind k, int threads, int objlog2, uint32_t seed, int r = 0, int w = 0,
                 int c = 0) {
  return proto::Params{.kind = k,
                       .threads = threads,
                       .objects_log2 = objlog2,
                       .reads = r,
                       .writes = w,
                       .cold = c,
                       .seed = seed};
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

// ---- The core alone, against a scripted environment that answers as the partitions do.

struct Msg {
  uint64_t cycle;  // the cycle the request port held it (and it was taken)
  int dst;
  SysPartReq req;
};

class Env {
 public:
  Env(const SysCoreParams& p, SysWl wl, int threads, int objlog2, uint32_t seed, int r = 0,
      int w = 0, int c = 0)
      : p_(p), mp_(SysCoreMsgParams(p)), core_(p), mem_(size_t{1} << p.addr_w, 0) {
    in_.core_idx = 0;
    in_.cfg_wl = static_cast<uint64_t>(wl);
    in_.cfg_threads = static_cast<uint64_t>(threads);
    in_.cfg_objlog2 = static_cast<uint64_t>(objlog2);
    in_.cfg_reads = static_cast<uint64_t>(r);
    in_.cfg_writes = static_cast<uint64_t>(w);
    in_.cfg_cold = static_cast<uint64_t>(c);
    in_.cfg_seed_hash = proto::SeedHash(seed);
    for (size_t a = 0; a < mem_.size(); ++a) {
      mem_[a] = static_cast<uint32_t>(a * 0x9E3779B9u + 7);
    }
  }

  // One cycle: the core's outputs, the environment's answers, the clock edge.
  void Step(bool start = false) {
    SysCoreIn in = in_;
    in.start = start;
    out_ = core_.Eval(in);
    if (out_.cid_req != 0 && grant_cids_) {
      in.cid_gnt = 1;
      in.cid = next_cid_++ & LowMask(p_.cid_w);
    }
    in.req_ready = ready_ ? 1 : 0;
    if (!replies_.empty() && replies_.front().first <= cycle_) {
      in.rep_valid = 1;
      in.rep_src = static_cast<uint64_t>(replies_.front().second.first);
      in.rep_data = PackSysPartRep(mp_, replies_.front().second.second);
      replies_.pop_front();
    }
    if (out_.req_valid != 0 && ready_) {
      Answer(Msg{cycle_, static_cast<int>(out_.req_dst), UnpackSysPartReq(mp_, out_.req_data)});
    }
    if (out_.logw_valid != 0) {
      logw_.push_back(cycle_);
    }
    in_seen_ = in;
    core_.Tick(in);
    ++cycle_;
  }
  // Steps until pred() holds (before the step), at most `limit` cycles.
  template <class F>
  void StepUntil(F pred, int limit = 2000) {
    for (int i = 0; i < limit && !pred(); ++i) {
      Step();
    }
    ASSERT_TRUE(pred()) << "not reached within " << limit << " cycles (cycle " << cycle_ << ")";
  }

  SysCoreModel& core() { return core_; }
  const std::vector<Msg>& sent() const { return sent_; }
  const std::vector<uint64_t>& logw_cycles() const { return logw_; }
  uint64_t cycle() const { return cycle_; }
  const SysCoreOut& out() const { return out_; }
  uint32_t mem(uint64_t a) const { return mem_[a]; }
  void set_latency(int l) { lat_ = l; }
  // Partitions whose next Alloc of commit id `cid` is answered AllocFail (once each).
  void FailAllocOnce(uint64_t cid, int part) { fail_alloc_.insert({cid, part}); }
  // Cycles at which a reply of `kind` and `type` was delivered.
  std::vector<uint64_t> delivered(SysRep kind, uint64_t type) const {
    std::vector<uint64_t> v;
    for (const auto& [c, k, t] : delivered_) {
      if (k == kind && t == type) {
        v.push_back(c);
      }
    }
    return v;
  }

 private:
  void Reply(int part, SysRep kind, uint64_t type, const SysPartReq& req, uint64_t data) {
    SysPartRep r;
    r.kind = kind;
    r.type = type;
    r.cid = req.cid;
    r.route = req.route;
    r.data = data;
    uint64_t due = cycle_ + static_cast<uint64_t>(lat_);
    if (!replies_.empty()) {
      due = std::max(due, replies_.back().first + 1);  // one reply per cycle
    }
    replies_.push_back({due, {part, r}});
    delivered_.push_back({due, kind, type});
  }
  void Answer(const Msg& m) {
    sent_.push_back(m);
    const SysPartReq& r = m.req;
    if (r.kind == SysReq::kLoad) {
      Reply(m.dst, SysRep::kLoad, 0, r, mem_[r.addr]);
      return;
    }
    switch (static_cast<CuMsg>(r.type)) {
      case CuMsg::kAlloc: {
        const bool fail = fail_alloc_.erase({r.cid, m.dst}) != 0;
        Reply(m.dst, SysRep::kAlloc,
              static_cast<uint64_t>(fail ? CuRep::kAllocFail : CuRep::kAllocPass), r, 0);
        break;
      }
      case CuMsg::kWriteSet:
        writes_[{r.cid, m.dst}].push_back({r.addr, static_cast<uint32_t>(r.data)});
        break;
      case CuMsg::kDoneFill:
        Reply(m.dst, SysRep::kCu, static_cast<uint64_t>(CuRep::kPass), r, 0);
        break;
      case CuMsg::kPass: {
        auto it = writes_.find({r.cid, m.dst});
        if (it != writes_.end()) {
          for (const auto& [a, v] : it->second) {
            mem_[a] = v;
          }
          Reply(m.dst, SysRep::kCu, static_cast<uint64_t>(CuRep::kDoneCommit), r, 0);
        }
        break;
      }
      default:
        break;
    }
  }

  SysCoreParams p_;
  SysPartParams mp_;
  SysCoreModel core_;
  SysCoreIn in_, in_seen_;
  SysCoreOut out_;
  std::vector<uint32_t> mem_;
  uint64_t cycle_ = 0, next_cid_ = 0;
  bool ready_ = true, grant_cids_ = true;
  int lat_ = 3;
  std::deque<std::pair<uint64_t, std::pair<int, SysPartRep>>> replies_;
  std::vector<std::tuple<uint64_t, SysRep, uint64_t>> delivered_;
  std::vector<Msg> sent_;
  std::vector<uint64_t> logw_;
  std::set<std::pair<uint64_t, int>> fail_alloc_;
  std::map<std::pair<uint64_t, int>, std::vector<std::pair<uint64_t, uint32_t>>> writes_;
};

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

using S = SysCoreModel;

uint64_t Pc(const SysCoreModel& m, int s) {
  return m.stack(s).Eval(TxSimtStackIn{}).top_pc;
}

TEST(SysCoreModel, SetupOfABatchTakesTheDrawsAndFiveCycles) {
  // docs/htm_sys_core.md, "Timing": WarpSize * K issue cycles + 5 (HT-P twice), the grant, then
  // Init and TxBegin; the choices are the workloads' draws.
  for (SysWl wl : {SysWl::kAtm, SysWl::kHt, SysWl::kEb}) {
    SCOPED_TRACE(std::string(ToString(wl)));
    const int ws = 4, objlog2 = 5, seed = 9;
    Env e(OneSlot(ws, 2), wl, 3, objlog2, seed, 1, 1, 1);
    e.Step(true);  // cycle 0: start
    EXPECT_EQ(e.core().slot_state(0), S::kSBatch);
    e.Step();  // cycle 1: SBatch
    EXPECT_EQ(e.core().slot_state(0), S::kSSetupWait);
    e.Step();  // cycle 2: the grant
    const int k = wl == SysWl::kAtm ? 3 : wl == SysWl::kHt ? 1 : 2;
    const int setup = wl == SysWl::kHt ? 2 * (ws * k + 5) : ws * k + 5;
    for (int i = 0; i < setup; ++i) {
      ASSERT_EQ(e.core().slot_state(0), S::kSSetup) << "setup cycle " << i;
      e.Step();
    }
    EXPECT_EQ(e.core().slot_state(0), S::kSInit);
    e.Step();
    EXPECT_EQ(e.core().slot_state(0), S::kSTxBegin);
    e.Step();
    EXPECT_EQ(e.core().slot_state(0), S::kSExec);
    EXPECT_EQ(Pc(e.core(), 0), 1u);
    EXPECT_EQ(e.core().stack(0).Eval(TxSimtStackIn{}).top_mask, 0x7u);  // 3 threads of 4 lanes
    const uint32_t h = proto::SeedHash(seed), m = (1u << objlog2) - 1;
    for (int l = 0; l < ws; ++l) {
      const uint32_t t = static_cast<uint32_t>(l);
      const SysCoreModel& c = e.core();
      if (wl == SysWl::kAtm) {
        const uint32_t from = proto::Draw(h, proto::kAtmFrom, t) & m;
        const uint32_t o = proto::Draw(h, proto::kAtmTo, t) & m;
        EXPECT_EQ(c.choice(0, l, 0), from);
        EXPECT_EQ(c.choice(0, l, 1), from ^ (o == 0 ? 1 : o));
        EXPECT_EQ(c.choice(0, l, 2), proto::Draw(h, proto::kAtmAmount, t) & 15);
      } else if (wl == SysWl::kHt) {
        const uint32_t key = proto::Draw(h, proto::kHtKey, t);
        EXPECT_EQ(c.choice(0, l, 0), key);
        EXPECT_EQ(c.choice(0, l, 1), proto::LowBias32(key ^ proto::kHtBucketSalt) & m);
      } else {
        EXPECT_EQ(c.choice(0, l, 0), proto::Draw(h, proto::kEbRead, t) & m);
        EXPECT_EQ(c.choice(0, l, 1), proto::Draw(h, proto::kEbWrite, t) & m);
      }
    }
  }
}

TEST(SysCoreModel, ALoadStepAndAStoreStepTakeTheirCycles) {
  // A load step of n lanes: 1 decode cycle, n issue cycles, the replies, the Next cycle; a
  // store step: 1 + n + 1.
  const int ws = 4, n = 3;
  Env e(OneSlot(ws, 2), SysWl::kAtm, n, 4, 5);
  e.set_latency(6);
  e.Step(true);
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSExec; });
  const uint64_t d = e.cycle();  // pc 1's decode
  ASSERT_EQ(Pc(e.core(), 0), 1u);
  e.Step();
  ASSERT_EQ(e.core().slot_state(0), S::kSLoad);
  e.StepUntil([&] { return e.core().slot_state(0) != S::kSLoad; });
  ASSERT_EQ(e.sent().size(), static_cast<size_t>(n));
  for (int l = 0; l < n; ++l) {
    const Msg& m = e.sent()[l];
    EXPECT_EQ(m.cycle, d + 2 + l) << "the request register holds lane " << l << "'s load";
    EXPECT_EQ(m.req.kind, SysReq::kLoad);
    EXPECT_EQ(m.req.route, static_cast<uint64_t>(l));       // {slot 0, lane l}
    EXPECT_EQ(m.req.addr, 16u + e.core().choice(0, l, 2));  // A + c2
    EXPECT_EQ(m.dst, SysPartOf(SysCoreMsgParams(OneSlot(ws, 2)), m.req.addr));
    EXPECT_EQ(e.core().reg(0, l, 0), e.mem(m.req.addr));
  }
  const std::vector<uint64_t> rep = e.delivered(SysRep::kLoad, 0);
  ASSERT_EQ(rep.size(), static_cast<size_t>(n));
  EXPECT_EQ(rep.back(), d + 2 + (n - 1) + 6);  // the last load's reply
  // The cycle after the last reply is the Next cycle; then pc 2 is decoded.
  EXPECT_EQ(e.cycle(), rep.back() + 2);
  EXPECT_EQ(e.core().slot_state(0), S::kSExec);
  EXPECT_EQ(Pc(e.core(), 0), 2u);
  EXPECT_EQ(e.core().slot_rrow(0), 1);

  e.StepUntil([&] { return Pc(e.core(), 0) == 4 && e.core().slot_state(0) == S::kSExec; });
  const uint64_t s = e.cycle();
  e.StepUntil([&] { return Pc(e.core(), 0) == 5; });
  EXPECT_EQ(e.cycle(), s + 1 + n + 1);
  EXPECT_EQ(e.core().slot_state(0), S::kSExec);
  EXPECT_EQ(e.core().slot_wrow(0), 1);
}

TEST(SysCoreModel, AnEmptyStepTakesOneCycle) {
  // EB-P with R = W = 0: pcs 1, 2 and 3 take one cycle each; pc 4 is C's load.
  Env e(OneSlot(2, 2), SysWl::kEb, 2, 3, 1, 0, 0, 1);
  e.Step(true);
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSExec; });
  EXPECT_EQ(Pc(e.core(), 0), 1u);
  e.Step();
  EXPECT_EQ(Pc(e.core(), 0), 2u);
  e.Step();
  EXPECT_EQ(Pc(e.core(), 0), 3u);
  e.Step();
  EXPECT_EQ(Pc(e.core(), 0), 4u);
  EXPECT_EQ(e.core().slot_state(0), S::kSExec);
  e.Step();
  EXPECT_EQ(e.core().slot_state(0), S::kSLoad);
}

// The walker's messages of one transaction, in the order they were taken.
std::vector<Msg> WalkerMsgs(const Env& e) {
  std::vector<Msg> v;
  for (const Msg& m : e.sent()) {
    if (m.req.kind == SysReq::kCu) {
      v.push_back(m);
    }
  }
  return v;
}

TEST(SysCoreModel, TheWalkerSendsOneLanesMessagesInOrderToTwoPartitions) {
  // One lane of ATM-P on two partitions (IlvLog2 2: words 4p..4p+3 are partition p's, mod 8):
  // a commit id, Alloc to partitions 0 and 1, the three reads and two writes to their words'
  // partitions, DoneFill where a word went and Skip elsewhere, then the final Pass to the
  // partitions that replied Pass; DoneCommit from the written ones ends the transaction.
  const SysCoreParams p = OneSlot(1, 2);
  const SysPartParams mp = SysCoreMsgParams(p);
  Env e(p, SysWl::kAtm, 1, 3, 4);
  e.set_latency(4);
  e.Step(true);
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSCommitWait; });
  const uint64_t cw = e.cycle();
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSBatch; });
  const SysCoreModel& c = e.core();
  const std::vector<Msg> w = WalkerMsgs(e);
  // The expected order.
  const uint64_t accounts = 8;
  const uint64_t reads[3] = {accounts + c.choice(0, 0, 2), c.choice(0, 0, 0), c.choice(0, 0, 1)};
  const uint64_t writes[2] = {c.choice(0, 0, 0), c.choice(0, 0, 1)};
  std::vector<std::pair<CuMsg, int>> want = {{CuMsg::kAlloc, 0}, {CuMsg::kAlloc, 1}};
  bool touched[2] = {false, false}, written[2] = {false, false};
  for (uint64_t a : reads) {
    want.push_back({CuMsg::kReadSet, SysPartOf(mp, a)});
    touched[SysPartOf(mp, a)] = true;
  }
  for (uint64_t a : writes) {
    want.push_back({CuMsg::kWriteSet, SysPartOf(mp, a)});
    touched[SysPartOf(mp, a)] = written[SysPartOf(mp, a)] = true;
  }
  for (int q = 0; q < 2; ++q) {
    want.push_back({touched[q] ? CuMsg::kDoneFill : CuMsg::kSkip, q});
  }
  for (int q = 0; q < 2; ++q) {
    if (touched[q]) {
      want.push_back({CuMsg::kPass, q});
    }
  }
  ASSERT_EQ(w.size(), want.size());
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(static_cast<CuMsg>(w[i].req.type), want[i].first) << "message " << i;
    EXPECT_EQ(w[i].dst, want[i].second) << "message " << i;
    EXPECT_EQ(w[i].req.cid, 0u);
    EXPECT_EQ(w[i].req.route, 0u);
  }
  // Timing: the walker starts in the first SCommitWait cycle, asks for a commit id the next
  // cycle (granted at once) and sends the Allocs back to back; the fill waits for both
  // AllocPass (registered), then its seven messages go one per cycle.
  EXPECT_EQ(w[0].cycle, cw + 3);
  EXPECT_EQ(w[1].cycle, cw + 4);
  const std::vector<uint64_t> arep = e.delivered(SysRep::kAlloc, 0);
  ASSERT_EQ(arep.size(), 2u);
  EXPECT_EQ(w[2].cycle, arep[1] + 3);
  for (size_t i = 3; i < 9; ++i) {
    EXPECT_EQ(w[i].cycle, w[i - 1].cycle + 1) << "message " << i;
  }
  // Each ReadSet and WriteSet is on the logw stream in the cycle it is on the request port.
  ASSERT_EQ(e.logw_cycles().size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(e.logw_cycles()[i], w[2 + i].cycle);
  }
  // The transfer is in memory (the environment's initial word a is a * 0x9E3779B9 + 7).
  const auto initial = [](uint64_t a) { return static_cast<uint32_t>(a * 0x9E3779B9u + 7); };
  EXPECT_EQ(e.mem(writes[0]), initial(writes[0]) - initial(reads[0]));
  EXPECT_EQ(e.mem(writes[1]), initial(writes[1]) + initial(reads[0]));
}

TEST(SysCoreModel, LanesArePipelinedAndTheFillEngineGoesFirst) {
  // Two lanes on four partitions, replies one cycle after their request: lane 1's Allocs are
  // sent while lane 0 waits for its AllocPass, and stop while lane 0's fill engine sends (it
  // has priority over the alloc engine), then go on.
  SysCoreParams p = OneSlot(2, 4);
  Env e(p, SysWl::kAtm, 2, 3, 4);
  e.set_latency(1);
  e.Step(true);
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSCommitWait; });
  const uint64_t cw = e.cycle();
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSDone; });
  const std::vector<Msg> w = WalkerMsgs(e);
  // {cycle on the port, type, lane (its route), partition or -1 for a word}
  struct Want {
    uint64_t cycle;
    CuMsg type;
    uint64_t lane;
    int dst;
  };
  std::vector<Want> want;
  for (int q = 0; q < 4; ++q) {
    want.push_back({cw + 3 + q, CuMsg::kAlloc, 0, q});  // a commit id at cw + 1, then Allocs
  }
  // cw + 6: lane 1's commit id (no message at cw + 7); lane 0's last AllocPass is delivered at
  // cw + 7 and seen by the fill engine at cw + 8, which loads its first word at cw + 9.
  want.push_back({cw + 8, CuMsg::kAlloc, 1, 0});
  want.push_back({cw + 9, CuMsg::kAlloc, 1, 1});
  for (int i = 0; i < 3; ++i) {
    want.push_back({cw + 10 + i, CuMsg::kReadSet, 0, -1});
  }
  for (int i = 0; i < 2; ++i) {
    want.push_back({cw + 13 + i, CuMsg::kWriteSet, 0, -1});
  }
  for (int q = 0; q < 4; ++q) {
    want.push_back({cw + 15 + q, CuMsg::kSkip, 0, q});  // DoneFill or Skip
  }
  want.push_back({cw + 19, CuMsg::kAlloc, 1, 2});
  want.push_back({cw + 20, CuMsg::kAlloc, 1, 3});
  ASSERT_GE(w.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("message " + std::to_string(i));
    EXPECT_EQ(w[i].cycle, want[i].cycle);
    const CuMsg t = static_cast<CuMsg>(w[i].req.type);
    if (want[i].type == CuMsg::kSkip) {
      EXPECT_TRUE(t == CuMsg::kSkip || t == CuMsg::kDoneFill);
    } else {
      EXPECT_EQ(t, want[i].type);
    }
    EXPECT_EQ(w[i].req.route, want[i].lane);
    if (want[i].dst >= 0) {
      EXPECT_EQ(w[i].dst, want[i].dst);
    }
  }
}

TEST(SysCoreModel, TheDrawUnitIdlesACycleBetweenSlots) {
  // Two slots: the second is granted in the cycle after the first's last result (the grant
  // needs !ds_busy as registered), so it enters SSetup one cycle after the first enters SInit.
  SysCoreParams p = OneSlot(2, 2);
  p.num_warps = 2;
  Env e(p, SysWl::kEb, 4, 3, 1, 1, 1, 1);
  e.Step(true);
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSInit; });
  EXPECT_EQ(e.core().slot_state(1), S::kSSetupWait);  // granted in this cycle
  e.Step();
  EXPECT_EQ(e.core().slot_state(1), S::kSSetup);
  // Slot 1's batch is threads 2 and 3.
  EXPECT_EQ(e.core().slot_base(1), 2u);
  e.StepUntil([&] { return e.core().slot_state(1) == S::kSInit; });
  EXPECT_EQ(e.core().choice(1, 1, 0), proto::Draw(proto::SeedHash(1), proto::kEbRead, 3) & 7);
}

TEST(SysCoreModel, AnAllocFailIsRetriedAfterAllocRetryCycles) {
  for (int retry : {1, 3, 8}) {
    SCOPED_TRACE("AllocRetry " + std::to_string(retry));
    Env e(OneSlot(1, 2, retry), SysWl::kAtm, 1, 3, 4);
    e.FailAllocOnce(0, 1);  // commit id 0's first Alloc to partition 1
    e.Step(true);
    e.StepUntil([&] { return e.core().slot_state(0) == S::kSDone; });
    const std::vector<uint64_t> fail =
        e.delivered(SysRep::kAlloc, static_cast<uint64_t>(CuRep::kAllocFail));
    ASSERT_EQ(fail.size(), 1u);
    const std::vector<Msg> w = WalkerMsgs(e);
    ASSERT_GE(w.size(), 4u);
    // Alloc 0, Alloc 1 (failed), then only partition 1 is asked again: the reply is seen by
    // the fill engine the next cycle, which then waits AllocRetry cycles; the Alloc is loaded
    // in the Retry cycle and held by the port the cycle after.
    EXPECT_EQ(static_cast<CuMsg>(w[2].req.type), CuMsg::kAlloc);
    EXPECT_EQ(w[2].dst, 1);
    EXPECT_EQ(w[2].cycle, fail[0] + static_cast<uint64_t>(retry) + 3);
    EXPECT_EQ(static_cast<CuMsg>(w[3].req.type), CuMsg::kReadSet);
    EXPECT_EQ(e.core().Eval(SysCoreIn{}).err, 0u);
  }
}

TEST(SysCoreModel, TheAllocFailEventAndTheLogStreams) {
  Env e(OneSlot(2, 2), SysWl::kHt, 2, 2, 6);
  e.FailAllocOnce(1, 0);
  e.Step(true);
  int alloc_fail = 0, logd = 0, commits = 0;
  std::vector<uint64_t> fail_cycles;
  for (int i = 0; i < 3000 && e.core().slot_state(0) != S::kSDone; ++i) {
    e.Step();
    alloc_fail += e.out().ev_alloc_fail != 0;
    if (e.out().ev_alloc_fail != 0) {
      fail_cycles.push_back(e.cycle() - 1);
    }
    if (e.out().logd_valid != 0) {
      ++logd;
      commits += e.out().logd_commit != 0;
      EXPECT_EQ(e.out().ev_commit, e.out().logd_commit);
      EXPECT_EQ(e.out().ev_abort, 1 - e.out().logd_commit);
      EXPECT_EQ(e.out().logd_thread, e.out().logd_cid);  // lane l's cid is l here
    }
  }
  EXPECT_EQ(e.core().slot_state(0), S::kSDone);
  EXPECT_EQ(alloc_fail, 1);
  // ev_alloc_fail_o the cycle after the AllocFail was taken.
  const std::vector<uint64_t> fail =
      e.delivered(SysRep::kAlloc, static_cast<uint64_t>(CuRep::kAllocFail));
  ASSERT_EQ(fail.size(), 1u);
  EXPECT_EQ(fail_cycles.at(0), fail[0] + 1);
  EXPECT_EQ(logd, 2);
  EXPECT_EQ(commits, 2);
}

TEST(SysCoreModel, ErrorsAreSticky) {
  {
    // A reply that fits nothing: a load's value for a slot that is not loading.
    SysCoreModel m(kCoreSmall);
    SysCoreIn in;
    in.rep_valid = 1;
    in.rep_data = PackSysPartRep(SysCoreMsgParams(kCoreSmall), SysPartRep{});
    EXPECT_EQ(m.Eval(in).err, 0u);
    m.Tick(in);
    EXPECT_EQ(m.Eval(SysCoreIn{}).err, 1u);
    m.Tick(SysCoreIn{});
    EXPECT_EQ(m.Eval(SysCoreIn{}).err, 1u);
  }
  {
    // Reply kind 3, and an Alloc reply while the walker is idle.
    for (uint64_t kind : {3u, 1u}) {
      SysCoreModel m(kCoreSmall);
      SysCoreIn in;
      in.rep_valid = 1;
      SysPartRep r;
      r.kind = static_cast<SysRep>(kind);
      in.rep_data = PackSysPartRep(SysCoreMsgParams(kCoreSmall), r);
      m.Tick(in);
      EXPECT_EQ(m.Eval(SysCoreIn{}).err, 1u);
      EXPECT_EQ(m.Eval(SysCoreIn{}).ev_alloc_fail, 0u);
    }
  }
  {
    // An unknown workload: err, and the slots go to SDone.
    SysCoreModel m(kCoreSmall);
    SysCoreIn in;
    in.start = 1;
    in.cfg_wl = 3;
    in.cfg_threads = 100;
    m.Tick(in);
    EXPECT_EQ(m.Eval(SysCoreIn{}).err, 1u);
    EXPECT_EQ(m.Eval(SysCoreIn{}).running, 0u);
    EXPECT_EQ(m.slot_state(0), S::kSDone);
  }
  {
    // A load step beyond the read log (ATM-P's third load with MaxReads 2): err from the cycle
    // after its decode; the step runs and the transaction still commits.
    SysCoreParams p = OneSlot(1, 2);
    p.max_reads = 2;
    Env e(p, SysWl::kAtm, 1, 3, 4);
    e.Step(true);
    e.StepUntil([&] { return Pc(e.core(), 0) == 3 && e.core().slot_state(0) == S::kSExec; });
    EXPECT_EQ(e.out().err, 0u);
    e.Step();
    e.Step();
    EXPECT_EQ(e.out().err, 1u);
    EXPECT_EQ(e.core().slot_rrow(0), 2);
    e.StepUntil([&] { return e.core().slot_state(0) == S::kSDone; });
    EXPECT_EQ(e.core().slot_rrow(0), 2);
  }
}

TEST(SysCoreModel, StartIsIgnoredWhileRunning) {
  Env e(OneSlot(2, 2), SysWl::kAtm, 2, 3, 4);
  e.Step(true);
  e.Step();
  const uint64_t base = e.core().slot_base(0);
  e.Step(true);  // running: ignored
  EXPECT_EQ(e.core().slot_state(0), S::kSSetup);
  EXPECT_EQ(e.core().slot_base(0), base);
  e.StepUntil([&] { return e.core().slot_state(0) == S::kSDone; });
  e.Step(true);  // done: a new run
  EXPECT_EQ(e.core().slot_state(0), S::kSBatch);
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
