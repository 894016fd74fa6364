// SPDX-License-Identifier: Apache-2.0
//
// Directed scenarios of htm_sys_core (docs/htm_sys_core.md), written once and run on the golden
// model alone (tests/golden/sys_core_model_test.cc) and on the RTL in lockstep with the model
// (tests/rtl/sys_core_directed_test.cc).
//
// SysCoreEnv is a scripted environment that answers the core as the memory partitions and the
// subsystem's commit-id allocator do: a load is answered with the word's value, an Alloc with
// AllocPass, a DoneFill with Pass and a final Pass with DoneCommit where the transaction wrote;
// replies come a fixed latency after the request, one per cycle; commit ids are granted in the
// order asked (0, 1, ...). A scenario may ask for an AllocFail or a failed validation, hold
// req_ready_i or the grants low in some cycles, or inject a reply. The environment is templated
// on what it steps: the golden model alone (golden::SysCoreModel), or a lockstep pair of the RTL
// and the model (a tb::Lockstep, stepped by DirectedCycle, so that every output is compared
// every cycle and the first mismatch ends the test). The scenarios check the page's cycles,
// messages and log records on the outputs and on the model's state, which the RTL's outputs
// follow whenever the lockstep step passed; a scenario that checks a choice or a register of
// the model runs on until it has reached the request port, where the lockstep compares it.
//
// A scenario takes a target that knows the core's parameters and makes environments:
// `params()` and `Make(SysCoreRun)` (SysCoreModelTarget below; the RTL test has its own). The
// scenarios are written for any configuration; where one needs two lanes or two slots it says
// so, and the caller picks the configurations that have them.
#ifndef HTM_TB_SYS_CORE_ENV_H_
#define HTM_TB_SYS_CORE_ENV_H_

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "htm/enums.h"
#include "htm/golden/ports.h"
#include "htm/golden/sys_core_model.h"
#include "htm/golden/sys_part_model.h"
#include "htm/golden/tx_simt_stack_model.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::tb {

// ---- What the environment steps.

/// One cycle of the golden model alone: its outputs (registers only), then the clock edge.
inline golden::SysCoreOut SysCoreCycle(golden::SysCoreModel& m, const golden::SysCoreIn& in) {
  const golden::SysCoreOut out = m.Eval(in);
  m.Tick(in);
  return out;
}
inline const golden::SysCoreModel& SysCoreModelOf(const golden::SysCoreModel& m) {
  return m;
}

/// One cycle of a lockstep pair (tb::Lockstep<SysCorePorts, Top, SysCoreModel>): DirectedCycle
/// of htm/tb/directed.h, which throws LockstepFailure with the report on the first mismatch or
/// RTL assertion. It is found where the pair's type is known (argument-dependent lookup in
/// htm::tb), so that this header needs no Verilator.
template <class L>
golden::SysCoreOut SysCoreCycle(L& ls, const golden::SysCoreIn& in) {
  return DirectedCycle(ls, in);
}
template <class L>
const golden::SysCoreModel& SysCoreModelOf(const L& ls) {
  return ls.model();
}

// ---- The environment.

/// A run's configuration inputs (docs/htm_sys_core.md, "Ports"): the workload, the threads of
/// the grid, log2 of its objects, the seed (the core gets SeedHash(seed)), EB-P's R, W, C.
struct SysCoreRun {
  SysWl wl = SysWl::kAtm;
  int threads = 1;
  int objlog2 = 1;
  uint32_t seed = 1;
  int reads = 0, writes = 0, cold = 0;
};

/// A request the core's port held in a cycle where it was taken.
struct SysCoreMsg {
  uint64_t cycle;
  int dst;
  golden::SysPartReq req;
};

/// A reply the environment delivered (rep_valid_i high in that cycle).
struct SysCoreDelivery {
  uint64_t cycle;
  int src;
  golden::SysPartRep rep;
};

/// A log word (logw_*_o) or a decision (logd_*_o) on the core's log streams.
struct SysCoreLogWord {
  uint64_t cycle, cid, thread;
  bool write;
  uint64_t addr, data;
};
struct SysCoreLogDecision {
  uint64_t cycle, cid, thread;
  bool commit;
};

/// The request port in one cycle.
struct SysCorePortCycle {
  uint64_t cycle;
  bool valid, ready;
  uint64_t dst, data;
};

template <class D>
class SysCoreEnv {
 public:
  /// D is built from the parameters and `dut_args` (a lockstep pair's RunOptions). Memory word
  /// a starts as a * 0x9E3779B9 + 7.
  template <class... A>
  SysCoreEnv(const golden::SysCoreParams& p, const SysCoreRun& run, A&&... dut_args)
      : p_(p),
        mp_(golden::SysCoreMsgParams(p)),
        dut_(p, std::forward<A>(dut_args)...),
        mem_(size_t{1} << p.addr_w, 0) {
    in_.core_idx = 0;
    in_.cfg_wl = static_cast<uint64_t>(run.wl);
    in_.cfg_threads = static_cast<uint64_t>(run.threads);
    in_.cfg_objlog2 = static_cast<uint64_t>(run.objlog2);
    in_.cfg_reads = static_cast<uint64_t>(run.reads);
    in_.cfg_writes = static_cast<uint64_t>(run.writes);
    in_.cfg_cold = static_cast<uint64_t>(run.cold);
    in_.cfg_seed_hash = gpu::proto::SeedHash(run.seed);
    for (size_t a = 0; a < mem_.size(); ++a) {
      mem_[a] = Initial(a);
    }
  }

  /// The initial value of memory word a.
  static uint32_t Initial(uint64_t a) { return static_cast<uint32_t>(a * 0x9E3779B9u + 7); }

  /// One cycle: the core's outputs (registers: known before the inputs), the environment's
  /// answers in the same cycle (the commit id, req_ready, the reply due), the clock edge. Inputs
  /// that are meaningful only with their valid hold other values meanwhile, as registers would:
  /// cid_i always shows the next commit id, rep_src_i and rep_data_i the last reply.
  void Step(bool start = false) {
    golden::SysCoreIn in = in_;
    in.start = start ? 1 : 0;
    in.cid = next_cid_ & golden::LowMask(p_.cid_w);
    in.rep_src = last_rep_src_;
    in.rep_data = last_rep_data_;
    const golden::SysCoreOut now = core().Eval(in);
    if (now.cid_req != 0 && (!grant_ || grant_(cycle_))) {
      in.cid_gnt = 1;
      ++next_cid_;
    }
    const bool ready = !ready_ || ready_(cycle_);
    in.req_ready = ready ? 1 : 0;
    if (auto it = injected_.find(cycle_); it != injected_.end()) {
      // An injected reply takes the reply port; the queue's next reply waits a cycle.
      Deliver(&in, it->second);
      injected_.erase(it);
    } else if (!replies_.empty() && replies_.front().cycle <= cycle_) {
      Deliver(&in, replies_.front());
      replies_.pop_front();
    }
    port_.push_back(SysCorePortCycle{cycle_, now.req_valid != 0, ready, now.req_dst, now.req_data});
    if (now.req_valid != 0 && ready) {
      Answer(SysCoreMsg{cycle_, static_cast<int>(now.req_dst),
                        golden::UnpackSysPartReq(mp_, now.req_data)});
    }
    if (now.logw_valid != 0) {
      logw_.push_back(cycle_);
      words_.push_back(SysCoreLogWord{cycle_, now.logw_cid, now.logw_thread, now.logw_write != 0,
                                      now.logw_addr, now.logw_data});
    }
    if (now.logd_valid != 0) {
      decisions_.push_back(
          SysCoreLogDecision{cycle_, now.logd_cid, now.logd_thread, now.logd_commit != 0});
    }
    out_ = SysCoreCycle(dut_, in);
    ++cycle_;
  }
  /// One cycle with exactly these inputs (no answers); returns the cycle's outputs.
  golden::SysCoreOut Raw(const golden::SysCoreIn& in) {
    out_ = SysCoreCycle(dut_, in);
    ++cycle_;
    return out_;
  }
  /// Steps until pred() holds (tested before each step), at most `limit` cycles.
  template <class F>
  ::testing::AssertionResult StepUntil(F pred, int limit = 2000) {
    for (int i = 0; i < limit && !pred(); ++i) {
      Step();
    }
    if (pred()) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "not reached within " << limit << " cycles (cycle " << cycle_ << ")";
  }

  /// The golden model (the lockstep pair's model, whose outputs equal the RTL's).
  const golden::SysCoreModel& core() const { return SysCoreModelOf(dut_); }
  const golden::SysCoreParams& params() const { return p_; }
  const golden::SysPartParams& msg_params() const { return mp_; }
  /// The requests taken, in order.
  const std::vector<SysCoreMsg>& sent() const { return sent_; }
  /// The cycles in which logw_valid_o was high.
  const std::vector<uint64_t>& logw_cycles() const { return logw_; }
  /// The cycle the next Step runs (the number of cycles stepped).
  uint64_t cycle() const { return cycle_; }
  /// The outputs of the last cycle stepped.
  const golden::SysCoreOut& out() const { return out_; }
  uint32_t mem(uint64_t a) const { return mem_[a]; }
  /// Cycles from a request to its reply (one reply per cycle: later if the port is busy).
  void set_latency(int l) { lat_ = l; }
  /// req_ready_i in each cycle (high in every cycle unless set).
  void set_ready(std::function<bool(uint64_t)> ready) { ready_ = std::move(ready); }
  /// Whether the allocator grants a commit id asked for in a cycle (every cycle unless set).
  void set_grant(std::function<bool(uint64_t)> grant) { grant_ = std::move(grant); }
  /// The next Alloc of commit id `cid` to partition `part` is answered AllocFail (once).
  void FailAllocOnce(uint64_t cid, int part) { fail_alloc_.insert({cid, part}); }
  /// The first DoneFill of commit id `cid` is answered Fail (a failed validation).
  void FailValidationOnce(uint64_t cid) { fail_val_.insert(cid); }
  /// A reply delivered in cycle `at` (in place of the queue's, which waits a cycle).
  void InjectReply(uint64_t at, int src, const golden::SysPartRep& rep) {
    injected_[at] = SysCoreDelivery{at, src, rep};
  }
  /// The log streams' records and the request port, cycle by cycle.
  const std::vector<SysCoreLogWord>& log_words() const { return words_; }
  const std::vector<SysCoreLogDecision>& log_decisions() const { return decisions_; }
  const std::vector<SysCorePortCycle>& port() const { return port_; }
  /// The replies delivered, in order.
  const std::vector<SysCoreDelivery>& deliveries() const { return delivered_; }
  /// The cycles at which a reply of `kind` and `type` was delivered.
  std::vector<uint64_t> delivered(SysRep kind, uint64_t type) const {
    std::vector<uint64_t> v;
    for (const SysCoreDelivery& d : delivered_) {
      if (d.rep.kind == kind && d.rep.type == type) {
        v.push_back(d.cycle);
      }
    }
    return v;
  }

 private:
  void Reply(int part, SysRep kind, uint64_t type, const golden::SysPartReq& req, uint64_t data) {
    golden::SysPartRep r;
    r.kind = kind;
    r.type = type;
    r.cid = req.cid;
    r.route = req.route;
    r.data = data;
    uint64_t due = cycle_ + static_cast<uint64_t>(lat_);
    if (!replies_.empty()) {
      due = std::max(due, replies_.back().cycle + 1);  // one reply per cycle
    }
    replies_.push_back(SysCoreDelivery{due, part, r});
  }
  void Deliver(golden::SysCoreIn* in, const SysCoreDelivery& r) {
    in->rep_valid = 1;
    in->rep_src = last_rep_src_ = static_cast<uint64_t>(r.src);
    in->rep_data = last_rep_data_ = golden::PackSysPartRep(mp_, r.rep);
    delivered_.push_back(SysCoreDelivery{cycle_, r.src, r.rep});
  }
  void Answer(const SysCoreMsg& m) {
    sent_.push_back(m);
    const golden::SysPartReq& r = m.req;
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
      case CuMsg::kDoneFill: {
        const bool fail = fail_val_.erase(r.cid) != 0;
        Reply(m.dst, SysRep::kCu, static_cast<uint64_t>(fail ? CuRep::kFail : CuRep::kPass), r, 0);
        break;
      }
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

  golden::SysCoreParams p_;
  golden::SysPartParams mp_;
  D dut_;
  golden::SysCoreIn in_;
  golden::SysCoreOut out_;
  std::vector<uint32_t> mem_;
  uint64_t cycle_ = 0, next_cid_ = 0;
  uint64_t last_rep_src_ = 0, last_rep_data_ = 0;
  std::function<bool(uint64_t)> ready_, grant_;
  int lat_ = 3;
  std::deque<SysCoreDelivery> replies_;  // due cycle, source, reply
  std::map<uint64_t, SysCoreDelivery> injected_;
  std::vector<SysCoreDelivery> delivered_;
  std::vector<SysCoreMsg> sent_;
  std::vector<uint64_t> logw_;
  std::vector<SysCoreLogWord> words_;
  std::vector<SysCoreLogDecision> decisions_;
  std::vector<SysCorePortCycle> port_;
  std::set<std::pair<uint64_t, int>> fail_alloc_;
  std::set<uint64_t> fail_val_;
  std::map<std::pair<uint64_t, int>, std::vector<std::pair<uint64_t, uint32_t>>> writes_;
};

/// Makes environments around the golden model alone.
class SysCoreModelTarget {
 public:
  explicit SysCoreModelTarget(const golden::SysCoreParams& p) : p_(p) {}
  const golden::SysCoreParams& params() const { return p_; }
  SysCoreEnv<golden::SysCoreModel> Make(const SysCoreRun& run) const {
    return SysCoreEnv<golden::SysCoreModel>(p_, run);
  }

 private:
  golden::SysCoreParams p_;
};

// ---- Helpers of the scenarios.

using SysCoreS = golden::SysCoreModel;  // its slot states: SysCoreS::kSExec, ...

/// Slot s's pc: its SIMT stack's top_pc_o.
inline uint64_t SysCorePc(const golden::SysCoreModel& m, int s) {
  return m.stack(s).Eval(golden::TxSimtStackIn{}).top_pc;
}

/// The walker's messages (kind Cu), in the order they were taken.
template <class E>
std::vector<SysCoreMsg> SysCoreWalkerMsgs(const E& e) {
  std::vector<SysCoreMsg> v;
  for (const SysCoreMsg& m : e.sent()) {
    if (m.req.kind == SysReq::kCu) {
      v.push_back(m);
    }
  }
  return v;
}

/// No slot has a batch left or in flight (running_o low once registered).
inline bool SysCoreIdle(const golden::SysCoreModel& m) {
  return m.Eval(golden::SysCoreIn{}).running == 0;
}

/// A log word as the page's steps make it (docs/htm_sys_core.md, "Workloads as steps").
struct SysCoreWord {
  bool write;
  uint64_t addr, data;
};

/// The log words of slot s's lane l (thread base + l) for one try of its transaction, in the
/// walker's order (the read rows, then the write rows), with the values that memory `mem` gives
/// its loads. The lane's choices are read from the model (they stay after the batch).
template <class Mem>
std::vector<SysCoreWord> SysCoreStepWords(const golden::SysCoreModel& m, const SysCoreRun& run,
                                          int s, int l, uint64_t base, Mem mem) {
  const uint64_t amask = golden::LowMask(m.params().addr_w);
  const uint32_t a = uint32_t{1} << run.objlog2, om = a - 1;
  const uint32_t c0 = m.choice(s, l, 0), c1 = m.choice(s, l, 1), c2 = m.choice(s, l, 2);
  const uint32_t tid = static_cast<uint32_t>(base + static_cast<uint64_t>(l));
  const uint32_t t = static_cast<uint32_t>(run.threads);
  std::vector<SysCoreWord> rd, wr;
  const auto load = [&](uint32_t addr) {
    const uint64_t ad = addr & amask;
    const uint32_t v = mem(ad);
    rd.push_back({false, ad, v});
    return v;
  };
  const auto store = [&](uint32_t addr, uint32_t v) { wr.push_back({true, addr & amask, v}); };
  switch (run.wl) {
    case SysWl::kAtm: {
      const uint32_t r0 = load(a + c2), r1 = load(c0), r2 = load(c1);
      store(c0, r1 - r0);
      store(c1, r2 + r0);
      break;
    }
    case SysWl::kHt: {
      const uint32_t n = 2 * a + 2 * tid;
      const uint32_t r0 = load(c1), r1 = load(a + c1);
      store(n, c0);
      store(n + 1, r0);
      store(c1, n);
      store(a + c1, r1 + 1);
      break;
    }
    case SysWl::kEb:
      for (uint32_t k = 0; k < static_cast<uint32_t>(run.reads); ++k) {
        load((c0 + k) & om);
      }
      for (uint32_t k = 0; k < static_cast<uint32_t>(run.writes); ++k) {
        store((c1 + k) & om, load((c1 + k) & om) + 1);
      }
      for (uint32_t k = 0; k < static_cast<uint32_t>(run.cold); ++k) {
        store(a + k * t + tid, load(a + k * t + tid) + 1);
      }
      break;
  }
  rd.insert(rd.end(), wr.begin(), wr.end());
  return rd;
}

// ---- The scenarios.

/// docs/htm_sys_core.md, "Timing": a batch's setup takes WarpSize * K issue cycles + 5 (HT-P
/// twice) after the grant, then Init and TxBegin; the choices are the workloads' draws (every
/// lane's, active or not). Slot 0 runs min(3, WarpSize) threads, to the batch's end.
template <class T>
void SysCoreSetupOfABatchTakesTheDrawsAndFiveCycles(const T& t) {
  const int ws = t.params().warp_size;
  const int threads = std::min(3, ws), objlog2 = 5;
  const uint32_t seed = 9;
  for (SysWl wl : {SysWl::kAtm, SysWl::kHt, SysWl::kEb}) {
    SCOPED_TRACE(std::string(ToString(wl)));
    auto e = t.Make(SysCoreRun{.wl = wl,
                               .threads = threads,
                               .objlog2 = objlog2,
                               .seed = seed,
                               .reads = 1,
                               .writes = 1,
                               .cold = 1});
    e.Step(true);  // cycle 0: start
    EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSBatch);
    e.Step();  // cycle 1: SBatch
    EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSSetupWait);
    e.Step();  // cycle 2: the grant
    const int k = wl == SysWl::kAtm ? 3 : wl == SysWl::kHt ? 1 : 2;
    const int setup = wl == SysWl::kHt ? 2 * (ws * k + 5) : ws * k + 5;
    for (int i = 0; i < setup; ++i) {
      ASSERT_EQ(e.core().slot_state(0), SysCoreS::kSSetup) << "setup cycle " << i;
      e.Step();
    }
    EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSInit);
    e.Step();
    EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSTxBegin);
    e.Step();
    EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSExec);
    EXPECT_EQ(SysCorePc(e.core(), 0), 1u);
    EXPECT_EQ(e.core().stack(0).Eval(golden::TxSimtStackIn{}).top_mask,
              golden::LowMask(threads));  // the batch's active lanes
    namespace proto = ::htm::gpu::proto;
    const uint32_t h = proto::SeedHash(seed), m = (1u << objlog2) - 1;
    for (int l = 0; l < ws; ++l) {
      const uint32_t tid = static_cast<uint32_t>(l);
      const golden::SysCoreModel& c = e.core();
      if (wl == SysWl::kAtm) {
        const uint32_t from = proto::Draw(h, proto::kAtmFrom, tid) & m;
        const uint32_t o = proto::Draw(h, proto::kAtmTo, tid) & m;
        EXPECT_EQ(c.choice(0, l, 0), from);
        EXPECT_EQ(c.choice(0, l, 1), from ^ (o == 0 ? 1 : o));
        EXPECT_EQ(c.choice(0, l, 2), proto::Draw(h, proto::kAtmAmount, tid) & 15);
      } else if (wl == SysWl::kHt) {
        const uint32_t key = proto::Draw(h, proto::kHtKey, tid);
        EXPECT_EQ(c.choice(0, l, 0), key);
        EXPECT_EQ(c.choice(0, l, 1), proto::LowBias32(key ^ proto::kHtBucketSalt) & m);
      } else {
        EXPECT_EQ(c.choice(0, l, 0), proto::Draw(h, proto::kEbRead, tid) & m);
        EXPECT_EQ(c.choice(0, l, 1), proto::Draw(h, proto::kEbWrite, tid) & m);
      }
    }
    // The batch to its end: the choices reach the request port (its addresses and values).
    ASSERT_TRUE(e.StepUntil([&] { return SysCoreIdle(e.core()); }, 5000));
    EXPECT_EQ(e.log_decisions().size(), static_cast<size_t>(threads));
  }
}

/// Every workload's log words are its steps' (docs/htm_sys_core.md, "Workloads as steps"): one
/// batch of min(2, WarpSize) threads of ATM-P, HT-P, EB-P with R, W, C = 2, 2, 2 (its loops;
/// 1, 1, 1 where the logs hold fewer than 6 reads or 4 writes), 2, 0, 0 (reads only: the fill
/// goes from the reads to DoneFill) and 0, 0, 0 (every step empty: Skip to every partition, a
/// commit without words). Each lane's words are on the logw stream in the walker's order (lane
/// by lane, reads then writes) with its commit id and thread, then its decision; the memory
/// holds the writes.
template <class T>
void SysCoreEveryWorkloadsLogWordsAreItsSteps(const T& t) {
  const int threads = std::min(2, t.params().warp_size);
  const int loop = t.params().max_reads >= 6 && t.params().max_writes >= 4 ? 2 : 1;
  const SysCoreRun runs[] = {
      {.wl = SysWl::kAtm, .threads = threads, .objlog2 = 3, .seed = 21},
      {.wl = SysWl::kHt, .threads = threads, .objlog2 = 2, .seed = 22},
      {.wl = SysWl::kEb,
       .threads = threads,
       .objlog2 = 3,
       .seed = 23,
       .reads = loop,
       .writes = loop,
       .cold = loop},
      {.wl = SysWl::kEb, .threads = threads, .objlog2 = 3, .seed = 24, .reads = 2},
      {.wl = SysWl::kEb, .threads = threads, .objlog2 = 3, .seed = 25},
  };
  for (const SysCoreRun& run : runs) {
    SCOPED_TRACE(std::string(ToString(run.wl)) + " R" + std::to_string(run.reads) + " W" +
                 std::to_string(run.writes) + " C" + std::to_string(run.cold));
    auto e = t.Make(run);
    using E = decltype(e);
    e.Step(true);
    ASSERT_TRUE(e.StepUntil([&] { return SysCoreIdle(e.core()); }, 5000));
    std::vector<SysCoreLogWord> want;
    for (int l = 0; l < threads; ++l) {
      for (const SysCoreWord& w : SysCoreStepWords(e.core(), run, 0, l, 0, E::Initial)) {
        want.push_back(SysCoreLogWord{0, static_cast<uint64_t>(l), static_cast<uint64_t>(l),
                                      w.write, w.addr, w.data});
      }
    }
    const std::vector<SysCoreLogWord>& got = e.log_words();
    ASSERT_EQ(got.size(), want.size());
    std::map<uint64_t, uint64_t> last;  // the lanes commit in lane order
    for (size_t i = 0; i < got.size(); ++i) {
      SCOPED_TRACE("log word " + std::to_string(i));
      EXPECT_EQ(got[i].cid, want[i].cid);
      EXPECT_EQ(got[i].thread, want[i].thread);
      EXPECT_EQ(got[i].write, want[i].write);
      EXPECT_EQ(got[i].addr, want[i].addr);
      EXPECT_EQ(got[i].data, want[i].data);
      if (want[i].write) {
        last[want[i].addr] = want[i].data;
      }
    }
    for (const auto& [addr, data] : last) {
      EXPECT_EQ(e.mem(addr), data) << "the committed word " << addr;
    }
    ASSERT_EQ(e.log_decisions().size(), static_cast<size_t>(threads));
    for (int l = 0; l < threads; ++l) {
      const SysCoreLogDecision& d = e.log_decisions()[l];
      EXPECT_EQ(d.cid, static_cast<uint64_t>(l));
      EXPECT_EQ(d.thread, static_cast<uint64_t>(l));
      EXPECT_TRUE(d.commit);
    }
    if (run.wl == SysWl::kEb && run.reads + run.writes + run.cold == 0) {
      // No words: Skip to every partition, no final message.
      for (const SysCoreMsg& m : SysCoreWalkerMsgs(e)) {
        const CuMsg type = static_cast<CuMsg>(m.req.type);
        EXPECT_TRUE(type == CuMsg::kAlloc || type == CuMsg::kSkip) << ToString(type);
      }
    }
    EXPECT_EQ(e.out().err, 0u);
  }
}

/// A load step of n lanes: 1 decode cycle, n issue cycles, the replies, the Next cycle; a store
/// step: 1 + n + 1. ATM-P with n = min(3, WarpSize) threads, 16 accounts, replies 6 cycles
/// after their request.
template <class T>
void SysCoreALoadStepAndAStoreStepTakeTheirCycles(const T& t) {
  const int n = std::min(3, t.params().warp_size);
  const uint64_t accounts = 16;
  auto e = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = n, .objlog2 = 4, .seed = 5});
  e.set_latency(6);
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSExec; }));
  const uint64_t d = e.cycle();  // pc 1's decode
  ASSERT_EQ(SysCorePc(e.core(), 0), 1u);
  e.Step();
  ASSERT_EQ(e.core().slot_state(0), SysCoreS::kSLoad);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) != SysCoreS::kSLoad; }));
  ASSERT_EQ(e.sent().size(), static_cast<size_t>(n));
  for (int l = 0; l < n; ++l) {
    const SysCoreMsg& m = e.sent()[l];
    EXPECT_EQ(m.cycle, d + 2 + l) << "the request register holds lane " << l << "'s load";
    EXPECT_EQ(m.req.kind, SysReq::kLoad);
    EXPECT_EQ(m.req.route, static_cast<uint64_t>(l));            // {slot 0, lane l}
    EXPECT_EQ(m.req.addr, accounts + e.core().choice(0, l, 2));  // A + c2
    EXPECT_EQ(m.dst, golden::SysPartOf(e.msg_params(), m.req.addr));
    EXPECT_EQ(e.core().reg(0, l, 0), e.mem(m.req.addr));
  }
  const std::vector<uint64_t> rep = e.delivered(SysRep::kLoad, 0);
  ASSERT_EQ(rep.size(), static_cast<size_t>(n));
  EXPECT_EQ(rep.back(), d + 2 + (n - 1) + 6);  // the last load's reply
  // The cycle after the last reply is the Next cycle; then pc 2 is decoded.
  EXPECT_EQ(e.cycle(), rep.back() + 2);
  EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSExec);
  EXPECT_EQ(SysCorePc(e.core(), 0), 2u);
  EXPECT_EQ(e.core().slot_rrow(0), 1);

  ASSERT_TRUE(e.StepUntil(
      [&] { return SysCorePc(e.core(), 0) == 4 && e.core().slot_state(0) == SysCoreS::kSExec; }));
  const uint64_t s = e.cycle();
  ASSERT_TRUE(e.StepUntil([&] { return SysCorePc(e.core(), 0) == 5; }));
  EXPECT_EQ(e.cycle(), s + 1 + n + 1);
  EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSExec);
  EXPECT_EQ(e.core().slot_wrow(0), 1);
}

/// EB-P with R = W = 0: pcs 1, 2 and 3 take one cycle each; pc 4 is C's load.
template <class T>
void SysCoreAnEmptyStepTakesOneCycle(const T& t) {
  const int threads = std::min(2, t.params().warp_size);
  auto e = t.Make(SysCoreRun{.wl = SysWl::kEb,
                             .threads = threads,
                             .objlog2 = 3,
                             .seed = 1,
                             .reads = 0,
                             .writes = 0,
                             .cold = 1});
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSExec; }));
  EXPECT_EQ(SysCorePc(e.core(), 0), 1u);
  e.Step();
  EXPECT_EQ(SysCorePc(e.core(), 0), 2u);
  e.Step();
  EXPECT_EQ(SysCorePc(e.core(), 0), 3u);
  e.Step();
  EXPECT_EQ(SysCorePc(e.core(), 0), 4u);
  EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSExec);
  e.Step();
  EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSLoad);
}

/// One lane of ATM-P (8 accounts) on the configuration's NumParts partitions: a commit id,
/// Alloc to every partition, the three reads and two writes to their words' partitions,
/// DoneFill where a word went and Skip elsewhere, then the final Pass to the partitions that
/// replied Pass; DoneCommit from the written ones ends the transaction.
template <class T>
void SysCoreTheWalkerSendsOneLanesMessagesInOrder(const T& t) {
  const int np = t.params().num_parts;
  auto e = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = 1, .objlog2 = 3, .seed = 4});
  const golden::SysPartParams& mp = e.msg_params();
  e.set_latency(4);
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSCommitWait; }));
  const uint64_t cw = e.cycle();
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSBatch; }));
  const golden::SysCoreModel& c = e.core();
  const std::vector<SysCoreMsg> w = SysCoreWalkerMsgs(e);
  // The expected order.
  const uint64_t accounts = 8;
  const uint64_t reads[3] = {accounts + c.choice(0, 0, 2), c.choice(0, 0, 0), c.choice(0, 0, 1)};
  const uint64_t writes[2] = {c.choice(0, 0, 0), c.choice(0, 0, 1)};
  std::vector<std::pair<CuMsg, int>> want;
  for (int q = 0; q < np; ++q) {
    want.push_back({CuMsg::kAlloc, q});
  }
  std::vector<bool> touched(np, false);
  for (uint64_t a : reads) {
    want.push_back({CuMsg::kReadSet, golden::SysPartOf(mp, a)});
    touched[golden::SysPartOf(mp, a)] = true;
  }
  for (uint64_t a : writes) {
    want.push_back({CuMsg::kWriteSet, golden::SysPartOf(mp, a)});
    touched[golden::SysPartOf(mp, a)] = true;
  }
  for (int q = 0; q < np; ++q) {
    want.push_back({touched[q] ? CuMsg::kDoneFill : CuMsg::kSkip, q});
  }
  for (int q = 0; q < np; ++q) {
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
  // cycle (granted at once) and sends the Allocs back to back; the fill waits for every
  // AllocPass (registered), then its 5 + NumParts messages go one per cycle.
  const size_t first_word = static_cast<size_t>(np);
  for (int q = 0; q < np; ++q) {
    EXPECT_EQ(w[q].cycle, cw + 3 + q) << "Alloc " << q;
  }
  const std::vector<uint64_t> arep = e.delivered(SysRep::kAlloc, 0);
  ASSERT_EQ(arep.size(), static_cast<size_t>(np));
  EXPECT_EQ(w[first_word].cycle, arep.back() + 3);
  for (size_t i = first_word + 1; i < first_word + 5 + np; ++i) {
    EXPECT_EQ(w[i].cycle, w[i - 1].cycle + 1) << "message " << i;
  }
  // Each ReadSet and WriteSet is on the logw stream in the cycle it is on the request port.
  ASSERT_EQ(e.logw_cycles().size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(e.logw_cycles()[i], w[first_word + i].cycle);
  }
  // The transfer is in memory.
  using E = decltype(e);
  EXPECT_EQ(e.mem(writes[0]), E::Initial(writes[0]) - E::Initial(reads[0]));
  EXPECT_EQ(e.mem(writes[1]), E::Initial(writes[1]) + E::Initial(reads[0]));
}

/// Two lanes of ATM-P (WarpSize >= 2), replies one cycle after their request: lane 1's Allocs
/// are sent while lane 0 waits for its AllocPass, and stop while lane 0's fill engine sends (it
/// goes before the alloc engine); lane 0's final Pass messages go before everything (the
/// outcome engine first), and lane 1's other Allocs take the port's other cycles.
template <class T>
void SysCoreLanesArePipelinedAndTheFillEngineGoesFirst(const T& t) {
  const int np = t.params().num_parts;
  ASSERT_GE(t.params().warp_size, 2);
  auto e = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = 2, .objlog2 = 3, .seed = 4});
  e.set_latency(1);
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSCommitWait; }));
  const uint64_t cw = e.cycle();
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSDone; }));
  const std::vector<SysCoreMsg> w = SysCoreWalkerMsgs(e);
  // {cycle on the port, type, lane (its route), partition or -1 for a word}
  struct Want {
    uint64_t cycle;
    CuMsg type;
    uint64_t lane;
    int dst;
  };
  std::vector<Want> want;
  // Lane 0's commit id at cw + 1, its Allocs on the port from cw + 3.
  for (int q = 0; q < np; ++q) {
    want.push_back({cw + 3 + q, CuMsg::kAlloc, 0, q});
  }
  // cw + 2 + NumParts: lane 1's commit id (no message on the port at cw + 3 + NumParts); its
  // Allocs from cw + 4 + NumParts. Lane 0's last AllocPass is delivered at cw + 3 + NumParts
  // and seen by the fill engine at cw + 4 + NumParts, which loads its first word in the next
  // cycle: from cw + 6 + NumParts the fill engine holds the port, so lane 1 has sent at most
  // two Allocs.
  const int early = std::min(2, np);
  for (int q = 0; q < early; ++q) {
    want.push_back({cw + 4 + np + q, CuMsg::kAlloc, 1, q});
  }
  const uint64_t f0 = cw + 6 + np;
  for (int i = 0; i < 3; ++i) {
    want.push_back({f0 + i, CuMsg::kReadSet, 0, -1});
  }
  for (int i = 0; i < 2; ++i) {
    want.push_back({f0 + 3 + i, CuMsg::kWriteSet, 0, -1});
  }
  for (int q = 0; q < np; ++q) {
    want.push_back({f0 + 5 + q, CuMsg::kDoneFill, 0, q});  // or Skip: below
  }
  const uint64_t last_fill = f0 + 4 + np;
  size_t head = 0;
  while (head < w.size() && w[head].cycle <= last_fill) {
    ++head;
  }
  ASSERT_EQ(head, want.size()) << "the walker's messages up to lane 0's last DoneFill or Skip";
  std::vector<bool> touched(np, false);
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("message " + std::to_string(i));
    EXPECT_EQ(w[i].cycle, want[i].cycle);
    const CuMsg type = static_cast<CuMsg>(w[i].req.type);
    if (want[i].type == CuMsg::kDoneFill) {
      EXPECT_EQ(type, touched[want[i].dst] ? CuMsg::kDoneFill : CuMsg::kSkip);
    } else {
      EXPECT_EQ(type, want[i].type);
    }
    EXPECT_EQ(w[i].req.route, want[i].lane);
    if (want[i].dst >= 0) {
      EXPECT_EQ(w[i].dst, want[i].dst);
    } else if (w[i].dst >= 0 && w[i].dst < np) {
      touched[w[i].dst] = true;  // a word of lane 0
    }
  }
  // Lane 0 is decided in the cycle after its last Pass reply (and after its last fill
  // message); its final Pass goes to each partition it touched (each replied Pass) from two
  // cycles later, one per cycle, before anything else. Lane 1's other Allocs take the free
  // cycles from last_fill + 1 (its words wait for their AllocPass, after its last Alloc).
  uint64_t last_vrep = 0;
  for (const SysCoreDelivery& d : e.deliveries()) {
    if (d.rep.kind == SysRep::kCu && d.rep.route == 0 &&
        d.rep.type == static_cast<uint64_t>(CuRep::kPass)) {
      last_vrep = std::max(last_vrep, d.cycle);
    }
  }
  const uint64_t decide = std::max(last_vrep + 1, last_fill);
  std::vector<Want> lane0_pass, lane1_alloc;
  std::set<uint64_t> outcome_cycles;
  for (int q = 0; q < np; ++q) {
    if (touched[q]) {
      const uint64_t at = decide + 2 + lane0_pass.size();
      lane0_pass.push_back({at, CuMsg::kPass, 0, q});
      outcome_cycles.insert(at);
    }
  }
  uint64_t free_cycle = last_fill + 1;
  for (int q = early; q < np; ++q) {
    while (outcome_cycles.count(free_cycle) != 0) {
      ++free_cycle;
    }
    lane1_alloc.push_back({free_cycle++, CuMsg::kAlloc, 1, q});
  }
  std::vector<SysCoreMsg> got0, got1;
  for (size_t i = head; i < w.size(); ++i) {
    if (w[i].req.route == 0) {
      got0.push_back(w[i]);
    } else if (static_cast<CuMsg>(w[i].req.type) == CuMsg::kAlloc) {
      got1.push_back(w[i]);
    }
  }
  const auto check = [](const std::vector<Want>& want_list, const std::vector<SysCoreMsg>& got,
                        const char* what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(got.size(), want_list.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].cycle, want_list[i].cycle) << "message " << i;
      EXPECT_EQ(static_cast<CuMsg>(got[i].req.type), want_list[i].type) << "message " << i;
      EXPECT_EQ(got[i].dst, want_list[i].dst) << "message " << i;
    }
  };
  check(lane0_pass, got0, "lane 0's final messages");
  check(lane1_alloc, got1, "lane 1's later Allocs");
}

/// Two slots (NumWarps >= 2) with a batch each: the second is granted in the cycle after the
/// first's last result (the grant needs !ds_busy as registered), so it enters SSetup one cycle
/// after the first enters SInit.
template <class T>
void SysCoreTheDrawUnitIdlesACycleBetweenSlots(const T& t) {
  const int ws = t.params().warp_size;
  ASSERT_GE(t.params().num_warps, 2);
  // Slot 1's batch is threads ws and ws + 1 (lanes 0 and 1, or lane 0 alone with one lane).
  auto e = t.Make(SysCoreRun{.wl = SysWl::kEb,
                             .threads = ws + 2,
                             .objlog2 = 3,
                             .seed = 1,
                             .reads = 1,
                             .writes = 1,
                             .cold = 1});
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSInit; }));
  EXPECT_EQ(e.core().slot_state(1), SysCoreS::kSSetupWait);  // granted in this cycle
  e.Step();
  EXPECT_EQ(e.core().slot_state(1), SysCoreS::kSSetup);
  EXPECT_EQ(e.core().slot_base(1), static_cast<uint64_t>(ws));
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(1) == SysCoreS::kSInit; }));
  namespace proto = ::htm::gpu::proto;
  const int l = std::min(1, ws - 1);
  EXPECT_EQ(e.core().choice(1, l, 0),
            proto::Draw(proto::SeedHash(1), proto::kEbRead, static_cast<uint32_t>(ws + l)) & 7);
  // Both batches to their end: slot 1's choices reach the request port, its replies and its
  // walk are slot 1's.
  ASSERT_TRUE(e.StepUntil([&] { return SysCoreIdle(e.core()); }, 5000));
  EXPECT_EQ(e.log_decisions().size(), static_cast<size_t>(ws + 2));
}

/// Commit id 0's first Alloc to the last partition fails: only that partition is asked again,
/// AllocRetry cycles after the fill engine saw the reply, and the fill goes on. With two lanes
/// (WarpSize >= 2), lane 1's AllocPass replies stand while lane 0 retries.
template <class T>
void SysCoreAnAllocFailIsRetriedAfterAllocRetryCycles(const T& t) {
  const int np = t.params().num_parts, retry = t.params().alloc_retry;
  auto e = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = 1, .objlog2 = 3, .seed = 4});
  e.FailAllocOnce(0, np - 1);
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSDone; }));
  const std::vector<uint64_t> fail =
      e.delivered(SysRep::kAlloc, static_cast<uint64_t>(CuRep::kAllocFail));
  ASSERT_EQ(fail.size(), 1u);
  const std::vector<SysCoreMsg> w = SysCoreWalkerMsgs(e);
  ASSERT_GE(w.size(), static_cast<size_t>(np + 2));
  // The Allocs, then only the failed partition again: the reply is seen by the fill engine the
  // next cycle, which then waits AllocRetry cycles; the Alloc is loaded in the Retry cycle and
  // held by the port the cycle after.
  const size_t r = static_cast<size_t>(np);
  EXPECT_EQ(static_cast<CuMsg>(w[r].req.type), CuMsg::kAlloc);
  EXPECT_EQ(w[r].dst, np - 1);
  EXPECT_EQ(w[r].cycle, fail[0] + static_cast<uint64_t>(retry) + 3);
  EXPECT_EQ(static_cast<CuMsg>(w[r + 1].req.type), CuMsg::kReadSet);
  EXPECT_EQ(e.core().Eval(golden::SysCoreIn{}).err, 0u);
  e.Step();
  EXPECT_EQ(e.out().err, 0u);

  // With two lanes: lane 0's retry asks only lane 0's failed partition again; lane 1's
  // AllocPass replies, already in, stand, and both lanes commit.
  if (t.params().warp_size < 2) {
    return;
  }
  auto two = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = 2, .objlog2 = 3, .seed = 4});
  two.FailAllocOnce(0, np - 1);
  two.Step(true);
  ASSERT_TRUE(two.StepUntil([&] { return SysCoreIdle(two.core()); }, 5000));
  int allocs = 0;
  for (const SysCoreMsg& m : SysCoreWalkerMsgs(two)) {
    allocs += static_cast<CuMsg>(m.req.type) == CuMsg::kAlloc ? 1 : 0;
  }
  EXPECT_EQ(allocs, 2 * np + 1);
  ASSERT_EQ(two.log_decisions().size(), 2u);
  EXPECT_TRUE(two.log_decisions()[0].commit && two.log_decisions()[1].commit);
}

/// HT-P with min(2, WarpSize) lanes; the last lane's first Alloc to partition 0 fails:
/// ev_alloc_fail_o once, the cycle after the AllocFail was taken; one logd record per lane, each
/// a commit with ev_commit_o beside it.
template <class T>
void SysCoreTheAllocFailEventAndTheLogStreams(const T& t) {
  const int threads = std::min(2, t.params().warp_size);
  auto e = t.Make(SysCoreRun{.wl = SysWl::kHt, .threads = threads, .objlog2 = 2, .seed = 6});
  e.FailAllocOnce(static_cast<uint64_t>(threads - 1), 0);
  e.Step(true);
  int alloc_fail = 0, logd = 0, commits = 0;
  std::vector<uint64_t> fail_cycles;
  for (int i = 0; i < 3000 && e.core().slot_state(0) != SysCoreS::kSDone; ++i) {
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
  EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSDone);
  EXPECT_EQ(alloc_fail, 1);
  // ev_alloc_fail_o the cycle after the AllocFail was taken.
  const std::vector<uint64_t> fail =
      e.delivered(SysRep::kAlloc, static_cast<uint64_t>(CuRep::kAllocFail));
  ASSERT_EQ(fail.size(), 1u);
  ASSERT_EQ(fail_cycles.size(), 1u);
  EXPECT_EQ(fail_cycles[0], fail[0] + 1);
  EXPECT_EQ(logd, threads);
  EXPECT_EQ(commits, threads);
}

/// err_o is sticky: a reply that fits nothing (a load's value for a slot that is not loading,
/// a reply of kind 3, an Alloc reply while the walker is idle) sets it from the next cycle, for
/// good, and raises no ev_alloc_fail_o; an unknown workload sets it and sends the slots to
/// SDone.
template <class T>
void SysCoreErrorsAreSticky(const T& t) {
  const golden::SysPartParams mp = golden::SysCoreMsgParams(t.params());
  {
    auto e = t.Make(SysCoreRun{});
    golden::SysCoreIn in;
    in.rep_valid = 1;
    in.rep_data = golden::PackSysPartRep(mp, golden::SysPartRep{});
    EXPECT_EQ(e.Raw(in).err, 0u);
    EXPECT_EQ(e.Raw(golden::SysCoreIn{}).err, 1u);
    EXPECT_EQ(e.Raw(golden::SysCoreIn{}).err, 1u);
  }
  for (uint64_t kind : {3u, 1u}) {
    SCOPED_TRACE("reply kind " + std::to_string(kind));
    auto e = t.Make(SysCoreRun{});
    golden::SysCoreIn in;
    in.rep_valid = 1;
    golden::SysPartRep r;
    r.kind = static_cast<SysRep>(kind);
    in.rep_data = golden::PackSysPartRep(mp, r);
    e.Raw(in);
    const golden::SysCoreOut out = e.Raw(golden::SysCoreIn{});
    EXPECT_EQ(out.err, 1u);
    EXPECT_EQ(out.ev_alloc_fail, 0u);
  }
  {
    auto e = t.Make(SysCoreRun{});
    golden::SysCoreIn in;
    in.start = 1;
    in.cfg_wl = 3;
    in.cfg_threads = 100;
    e.Raw(in);
    const golden::SysCoreOut out = e.Raw(golden::SysCoreIn{});
    EXPECT_EQ(out.err, 1u);
    EXPECT_EQ(out.running, 0u);
    EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSDone);
  }
}

/// A load step that finds the read log full (rrow = MaxReads): err_o from the cycle after its
/// decode; the step runs, its log writes are dropped, the row count stays, and the transaction
/// still ends. `run` must have more load steps than the configuration's MaxReads.
template <class T>
void SysCoreALoadStepBeyondTheReadLogSetsErr(const T& t, const SysCoreRun& run) {
  const int max_reads = t.params().max_reads;
  auto e = t.Make(run);
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] {
    return e.core().slot_rrow(0) == max_reads && e.core().slot_state(0) == SysCoreS::kSExec;
  }));
  EXPECT_EQ(e.out().err, 0u);
  e.Step();  // the decode
  ASSERT_EQ(e.core().slot_state(0), SysCoreS::kSLoad) << "the step beyond the log is a load";
  EXPECT_EQ(e.out().err, 0u);
  e.Step();
  EXPECT_EQ(e.out().err, 1u);
  EXPECT_EQ(e.core().slot_rrow(0), max_reads);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSDone; }));
  EXPECT_EQ(e.core().slot_rrow(0), max_reads);
  EXPECT_EQ(e.out().err, 1u);
}

/// A store step that finds the write log full (wrow = MaxWrites): err_o from the cycle after
/// its decode (the step's first SStore cycle); the step runs, its log writes are dropped, the
/// row count stays. `run` must have more store steps than the configuration's MaxWrites and no
/// more load steps than its MaxReads.
template <class T>
void SysCoreAStoreStepBeyondTheWriteLogSetsErr(const T& t, const SysCoreRun& run) {
  const int max_writes = t.params().max_writes;
  auto e = t.Make(run);
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] {
    return e.core().slot_wrow(0) == max_writes && e.core().slot_state(0) == SysCoreS::kSStore;
  }));
  EXPECT_EQ(e.out().err, 0u);  // the decode
  e.Step();
  EXPECT_EQ(e.out().err, 1u);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSDone; }));
  EXPECT_EQ(e.core().slot_wrow(0), max_writes);
  EXPECT_EQ(e.out().err, 1u);
}

/// start_i is ignored while running_o is high and starts a new run once every slot is done.
template <class T>
void SysCoreStartIsIgnoredWhileRunning(const T& t) {
  const int threads = std::min(2, t.params().warp_size);
  auto e = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = threads, .objlog2 = 3, .seed = 4});
  e.Step(true);
  e.Step();
  const uint64_t base = e.core().slot_base(0);
  e.Step(true);  // running: ignored
  EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSSetup);
  EXPECT_EQ(e.core().slot_base(0), base);
  ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSDone; }));
  e.Step(true);  // done: a new run
  EXPECT_EQ(e.out().running, 0u);
  EXPECT_EQ(e.core().slot_state(0), SysCoreS::kSBatch);
  e.Step();
  EXPECT_EQ(e.out().running, 1u);

  // start_i held high through a run of one batch per slot (two slots when there are two): it
  // is taken once, and a slot that ends while another still runs is not started again. It is
  // taken again in the first cycle running_o is low.
  const int nw = std::min(2, t.params().num_warps);
  const int ws = t.params().warp_size;
  const int held_threads = (nw - 1) * ws + 1;
  auto h = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = held_threads, .objlog2 = 3, .seed = 4});
  h.Step(true);
  h.Step(true);
  ASSERT_EQ(h.out().running, 1u);
  for (int i = 0; i < 20000 && h.out().running != 0; ++i) {
    h.Step(true);
  }
  ASSERT_EQ(h.out().running, 0u);
  EXPECT_EQ(h.log_decisions().size(), static_cast<size_t>(held_threads));
  EXPECT_EQ(h.core().slot_state(0), SysCoreS::kSBatch) << "the start of the next run";
}

/// A failed validation: lane 0's first DoneFill is answered Fail. Lane 0 is decided an abort
/// (logd, ev_abort), its final Fail goes to the partitions that replied Pass, the other lane
/// commits; the stack's Commit restarts the slot with lane 0 alone (its loads only, its loop
/// counter back to 0), which asks for a new commit id, sends the same words again and commits.
/// EB-P with R, W, C = 1 and 2^IlvLog2 hot words: the hot words are in partition 0, the cold
/// ones in partition 1 (with two partitions), so the Fail comes from partition 0 and the final
/// Fail goes to partition 1.
template <class T>
void SysCoreAFailedValidationAbortsTheLaneAndRunsItAgain(const T& t) {
  const int threads = std::min(2, t.params().warp_size);
  auto e = t.Make(SysCoreRun{.wl = SysWl::kEb,
                             .threads = threads,
                             .objlog2 = t.params().ilv_log2,
                             .seed = 4,
                             .reads = 1,
                             .writes = 1,
                             .cold = 1});
  e.FailValidationOnce(0);
  // req_ready_i high one cycle in three: a final message may wait in the request register.
  e.set_ready([](uint64_t c) { return c % 3 == 0; });
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return SysCoreIdle(e.core()); }, 5000));
  const std::vector<SysCoreLogDecision>& d = e.log_decisions();
  ASSERT_EQ(d.size(), static_cast<size_t>(threads + 1));
  EXPECT_EQ(d[0].cid, 0u);
  EXPECT_EQ(d[0].thread, 0u);
  EXPECT_FALSE(d[0].commit);
  for (int l = 1; l < threads; ++l) {
    EXPECT_EQ(d[l].cid, static_cast<uint64_t>(l));
    EXPECT_TRUE(d[l].commit);
  }
  EXPECT_EQ(d.back().cid, static_cast<uint64_t>(threads)) << "the retry's new commit id";
  EXPECT_EQ(d.back().thread, 0u);
  EXPECT_TRUE(d.back().commit);
  // Lane 0's first try: DoneFill to the partitions its words went to (the lowest answered
  // Fail), then the final Fail to the others.
  std::vector<int> done_fill, finals;
  for (const SysCoreMsg& m : SysCoreWalkerMsgs(e)) {
    if (m.req.cid != 0) {
      continue;
    }
    const CuMsg type = static_cast<CuMsg>(m.req.type);
    if (type == CuMsg::kDoneFill) {
      done_fill.push_back(m.dst);
    }
    if (type == CuMsg::kPass || type == CuMsg::kFail) {
      EXPECT_EQ(type, CuMsg::kFail);
      EXPECT_GT(m.cycle, d[0].cycle);
      finals.push_back(m.dst);
    }
  }
  ASSERT_FALSE(done_fill.empty());
  EXPECT_EQ(finals, std::vector<int>(done_fill.begin() + 1, done_fill.end()));
  EXPECT_EQ(finals.size(), static_cast<size_t>(std::min(2, t.params().num_parts) - 1));
  // The retry: lane 0's loads only, and the same words as the first try.
  int retry_loads = 0;
  for (const SysCoreMsg& m : e.sent()) {
    if (m.req.kind == SysReq::kLoad && m.cycle > d[0].cycle) {
      EXPECT_EQ(m.req.route, 0u) << "a load of the retry";
      ++retry_loads;
    }
  }
  EXPECT_EQ(retry_loads, 3);
  std::vector<SysCoreLogWord> first, again;
  for (const SysCoreLogWord& w : e.log_words()) {
    if (w.cid == 0) {
      first.push_back(w);
    } else if (w.cid == static_cast<uint64_t>(threads)) {
      again.push_back(w);
    }
  }
  ASSERT_EQ(first.size(), 5u);
  ASSERT_EQ(again.size(), first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(again[i].write, first[i].write) << "word " << i;
    EXPECT_EQ(again[i].addr, first[i].addr) << "word " << i;
    EXPECT_EQ(again[i].thread, 0u);
  }
  EXPECT_EQ(e.out().err, 0u);
}

/// A run of several batches per slot under back-pressure: ATM-P with stride + 1 threads (slot 0
/// of core 0 runs a second batch, base + stride), req_ready_i high one cycle in three, commit
/// ids granted in even cycles only (cid_req_o stays high until one is). The request register
/// holds a message until it is taken; every thread of this core commits once.
template <class T>
void SysCoreManyBatchesUnderBackPressure(const T& t) {
  const golden::SysCoreParams& p = t.params();
  const int stride = p.num_cores * p.num_warps * p.warp_size;
  auto e = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = stride + 1, .objlog2 = 3, .seed = 7});
  e.set_ready([](uint64_t c) { return c % 3 == 0; });
  e.set_grant([](uint64_t c) { return c % 2 == 0; });
  e.Step(true);
  ASSERT_TRUE(e.StepUntil([&] { return SysCoreIdle(e.core()); }, 100000));
  const std::vector<SysCorePortCycle>& port = e.port();
  int held = 0;
  for (size_t i = 0; i + 1 < port.size(); ++i) {
    if (port[i].valid && !port[i].ready) {
      ++held;
      EXPECT_TRUE(port[i + 1].valid) << "cycle " << port[i].cycle;
      EXPECT_EQ(port[i + 1].dst, port[i].dst) << "cycle " << port[i].cycle;
      EXPECT_EQ(port[i + 1].data, port[i].data) << "cycle " << port[i].cycle;
    }
  }
  EXPECT_GT(held, 0);
  std::multiset<uint64_t> got;
  for (const SysCoreLogDecision& d : e.log_decisions()) {
    EXPECT_TRUE(d.commit);
    got.insert(d.thread);
  }
  std::multiset<uint64_t> want;
  for (int i = 0; i < p.num_warps * p.warp_size; ++i) {
    want.insert(static_cast<uint64_t>(i));
  }
  want.insert(static_cast<uint64_t>(stride));  // slot 0's second batch
  EXPECT_EQ(got, want);
  EXPECT_EQ(e.out().err, 0u);
}

/// Replies that fit nothing (one lane of ATM-P): during the first load step, a second reply to
/// the load (in the step's Next cycle) and an Alloc reply while the load is pending; while the
/// walker holds slot 0, a Cu reply of an Alloc type, an Alloc reply of a Cu type, an AllocFail
/// for lane 1 (not a lane of the transaction, or beyond WarpSize) and a Pass for slot 1 (not
/// the walker's slot, or beyond NumWarps); an AllocPass once the walker is idle again. Each is
/// dropped and sets err_o from the next cycle (no ev_alloc_fail_o); the run goes on and
/// commits.
template <class T>
void SysCoreRepliesThatFitNothingAreDroppedDuringARun(const T& t) {
  const int lane_w = golden::IdxWidth(t.params().warp_size);
  enum When { kLoadNext, kLoadPending, kWalk, kAfter };
  struct Bad {
    const char* what;
    When when;
    SysRep kind;
    CuRep type;
    uint64_t slot, lane;
  };
  const Bad bads[] = {
      {"a second reply to a load", kLoadNext, SysRep::kLoad, CuRep::kAllocPass, 0, 0},
      {"an Alloc reply while a load is pending", kLoadPending, SysRep::kAlloc, CuRep::kAllocPass, 0,
       0},
      {"a Cu reply of type AllocPass", kWalk, SysRep::kCu, CuRep::kAllocPass, 0, 0},
      {"an Alloc reply of type Pass", kWalk, SysRep::kAlloc, CuRep::kPass, 0, 0},
      {"an AllocFail for lane 1", kWalk, SysRep::kAlloc, CuRep::kAllocFail, 0, 1},
      {"a Pass for slot 1", kWalk, SysRep::kCu, CuRep::kPass, 1, 0},
      {"an AllocPass after the walk", kAfter, SysRep::kAlloc, CuRep::kAllocPass, 0, 0},
  };
  for (const Bad& b : bads) {
    SCOPED_TRACE(b.what);
    auto e = t.Make(SysCoreRun{.wl = SysWl::kAtm, .threads = 1, .objlog2 = 3, .seed = 4});
    e.set_latency(3);
    e.Step(true);
    golden::SysPartRep r;
    r.kind = b.kind;
    r.type = static_cast<uint64_t>(b.type);
    r.route = (b.slot << lane_w) | (b.lane & golden::LowMask(lane_w));
    uint64_t at = 0;
    switch (b.when) {
      case kLoadNext:
      case kLoadPending:
        // pc 1 decoded at d, lane 0's load on the port at d + 2 (pending from then on) and
        // answered at d + 5; d + 6 is the step's Next cycle.
        ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSExec; }));
        at = e.cycle() + (b.when == kLoadNext ? 6 : 3);
        break;
      case kWalk:
        // The walker is busy from the cycle after the slot reaches SCommitWait.
        ASSERT_TRUE(e.StepUntil([&] { return e.core().slot_state(0) == SysCoreS::kSCommitWait; }));
        at = e.cycle() + 2;
        break;
      case kAfter:
        ASSERT_TRUE(e.StepUntil([&] { return SysCoreIdle(e.core()); }, 5000));
        at = e.cycle() + 1;
        break;
    }
    e.InjectReply(at, 0, r);
    while (e.cycle() <= at) {
      e.Step();
      EXPECT_EQ(e.out().err, 0u);
    }
    e.Step();
    EXPECT_EQ(e.out().err, 1u);
    bool alloc_fail = false;
    for (int i = 0; i < 5000 && !SysCoreIdle(e.core()); ++i) {
      e.Step();
      alloc_fail = alloc_fail || e.out().ev_alloc_fail != 0;
      EXPECT_EQ(e.out().err, 1u);
    }
    EXPECT_TRUE(SysCoreIdle(e.core()));
    EXPECT_FALSE(alloc_fail);
    ASSERT_EQ(e.log_decisions().size(), 1u);
    EXPECT_TRUE(e.log_decisions()[0].commit);
  }
}

}  // namespace htm::tb

#endif  // HTM_TB_SYS_CORE_ENV_H_
