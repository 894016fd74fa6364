// SPDX-License-Identifier: Apache-2.0
#include "htm/machine/lds/cu_model.h"

#include <algorithm>
#include <bit>
#include <sstream>
#include <stdexcept>

namespace htm::lds {
namespace {

using golden::LdsTmIn;
using golden::LdsTmModel;
using golden::LdsTmOut;

LdsIns InsOf(OpKind k) {
  switch (k) {
    case OpKind::kStore:
      return LdsIns::kStore;
    case OpKind::kAtomAdd:
      return LdsIns::kAtomAdd;
    case OpKind::kAtomCas:
      return LdsIns::kAtomCas;
    default:
      return LdsIns::kLoad;
  }
}

// One run of a workload on the LDS.
class Runner {
 public:
  Runner(const golden::LdsTmParams& p, const CuTiming& t, Workload& w)
      : p_(p),
        t_(t),
        w_(w),
        lds_(p),
        num_wf_(p.wg_size / p.wf_size),
        all_(golden::LowMask(p.wf_size)) {
    wfs_.resize(num_wf_);
    r_.stats.wf_tries.assign(num_wf_, 0);
    r_.stats.wf_tries_committing.assign(num_wf_, 0);
  }

  CuResult Run();

 private:
  struct WfState {
    uint64_t ready_at = 0;   // the cycle the wavefront may issue again
    bool mem_out = false;    // a memory instruction in flight
    uint64_t mem_lanes = 0;  // its work-items still waiting for it
    OpKind mem_kind = OpKind::kNone;
    std::array<uint32_t, golden::kMaxVec> mem_addr{};
    bool in_tx = false;      // between the first TX_Begin and the last TX_Commit (CU's view)
    bool try_live = false;   // a try runs (TX_Begin seen, no TX_Commit or abort yet)
    uint64_t try_lanes = 0;  // the work-items running the body in this try
    enum class After : uint8_t { kNone, kBegin, kCommit } after = After::kNone;
    uint64_t barrier = 0;  // work-items waiting at a barrier
  };
  struct WordSets {
    std::bitset<256> readers, writers;
  };

  Lane& L(int wf, int lane) { return *lanes_[wf * p_.wf_size + lane]; }
  int Wi(int wf, int lane) const { return wf * p_.wf_size + lane; }

  bool Fail(const std::string& msg) {
    if (r_.error.empty()) {
      r_.error = msg;
    }
    return false;
  }
  // Every wavefront's state, for a failure message.
  std::string DescribeAll() {
    std::string msg;
    for (int v = 0; v < num_wf_; ++v) {
      msg += ' ';
      msg += Describe(v);
      msg += ';';
    }
    return msg;
  }
  std::string Describe(int wf) {
    std::ostringstream os;
    const WfState& w = wfs_[wf];
    os << "wavefront " << wf << " (mem_out " << w.mem_out << ", ready_at " << w.ready_at
       << ", after " << static_cast<int>(w.after) << ", try " << w.try_live << "):";
    for (int l = 0; l < p_.wf_size; ++l) {
      const Op& op = L(wf, l).op();
      os << " " << Wi(wf, l) << "=" << OpKindName(op.kind) << "@" << (op.pc >> 10) << ":"
         << (op.pc & 1023);
    }
    return os.str();
  }

  void Forget(int wi) {
    for (uint32_t a : touched_[wi]) {
      auto it = sets_.find(a);
      if (it != sets_.end()) {
        it->second.readers.reset(static_cast<size_t>(wi));
        it->second.writers.reset(static_cast<size_t>(wi));
      }
    }
    touched_[wi].clear();
  }
  bool TrueConflict(int wi, uint32_t a, bool we) const {
    auto it = sets_.find(a);
    if (it == sets_.end()) {
      return false;
    }
    std::bitset<256> w = it->second.writers, r = it->second.readers;
    w.reset(static_cast<size_t>(wi));
    r.reset(static_cast<size_t>(wi));
    return w.any() || (we && r.any());
  }

  bool Init();
  void Response(const LdsTmOut& o);
  bool Decide(int v, const LdsTmOut& o, LdsTmIn& in);
  void Accepted(int v, const LdsTmIn& in, const LdsTmOut& o);
  void BeginTry(int v, const LdsTmOut& o);
  void EndTry(int v, uint64_t committed, const LdsTmOut& o);
  bool ReleaseBarrier();
  bool AllDone() const;

  golden::LdsTmParams p_;
  CuTiming t_;
  Workload& w_;
  LdsTmModel lds_;
  int num_wf_;
  uint64_t all_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::vector<WfState> wfs_;
  std::unordered_map<uint32_t, WordSets> sets_;
  std::vector<std::vector<uint32_t>> touched_;
  uint64_t now_ = 0;
  int rr_ = 0;
  bool resumed_ = false;  // ALU work or a latch resumed work-items this cycle
  CuResult r_;
  size_t words_ = 0;
};

bool Runner::Init() {
  const std::vector<uint32_t> init = w_.Init();
  words_ = init.size();
  if (words_ > static_cast<size_t>(lds_.words())) {
    return Fail("the workload uses " + std::to_string(words_) + " LDS words; the LDS has " +
                std::to_string(lds_.words()));
  }
  // Non-transactional stores of wavefront 0 (EXEC is all ones after reset), 64 words each.
  for (size_t base = 0; base < words_; base += static_cast<size_t>(p_.wf_size)) {
    LdsTmIn in;
    in.ins_valid = 1;
    in.ins_op = static_cast<uint64_t>(LdsIns::kStore);
    for (int l = 0; l < p_.wf_size; ++l) {
      const size_t a = std::min(base + static_cast<size_t>(l), words_ - 1);
      in.ins_addr[l] = a;
      in.ins_data[l] = init[a];
    }
    for (;;) {
      const LdsTmOut o = lds_.Eval(in);
      lds_.Tick(in);
      ++r_.stats.init_cycles;
      if (o.ins_ready) {
        break;
      }
    }
  }
  while (lds_.Eval(LdsTmIn{}).busy) {
    lds_.Tick(LdsTmIn{});
    ++r_.stats.init_cycles;
  }
  return true;
}

bool Runner::AllDone() const {
  for (const auto& l : lanes_) {
    if (l->op().kind != OpKind::kDone) {
      return false;
    }
  }
  return true;
}

// A memory instruction's response: its work-items continue with the data, unless their access
// conflicted (TCM set: the work-item waits for the end of the try) or was dropped.
void Runner::Response(const LdsTmOut& o) {
  const int v = static_cast<int>(o.rsp_wf);
  WfState& w = wfs_[v];
  if (!w.mem_out) {
    Fail("a response for wavefront " + std::to_string(v) + " with no instruction in flight");
    return;
  }
  w.mem_out = false;
  w.ready_at = now_ + 1;
  const bool tx = w.try_live;
  for (uint64_t m = w.mem_lanes; m != 0; m &= m - 1) {
    const int l = std::countr_zero(m);
    const uint64_t bit = uint64_t{1} << l;
    const int wi = Wi(v, l);
    const uint32_t a = w.mem_addr[l];
    const bool we = w.mem_kind != OpKind::kLoad;
    if ((o.rsp_conf & bit) != 0) {
      ++r_.stats.positives;
      if (!TrueConflict(wi, a, we)) {
        ++r_.stats.false_positives;
      }
      continue;  // TCM set: frozen until the end of the try
    }
    if ((o.rsp_lanes & bit) == 0) {
      if (!tx) {
        Fail("work-item " + std::to_string(wi) + ": its " + OpKindName(w.mem_kind) + " of word " +
             std::to_string(a) + " was not performed");
      }
      continue;  // dropped: its TCM was set by an earlier conflict
    }
    if (tx) {
      WordSets& s = sets_[a];
      (we ? s.writers : s.readers).set(static_cast<size_t>(wi));
      touched_[wi].push_back(a);
    }
    L(v, l).Resume(static_cast<uint32_t>(o.rsp_data[l]));
  }
  w.mem_lanes = 0;
}

// The cycle after TX_Begin: the work-items the LDS runs start the body.
void Runner::BeginTry(int v, const LdsTmOut& o) {
  WfState& w = wfs_[v];
  w.after = WfState::After::kNone;
  if (!((o.wf_in_try >> v) & 1)) {
    Fail("wavefront " + std::to_string(v) + ": TX_Begin accepted but no try runs");
    return;
  }
  const uint64_t run = o.wf_exec[v] & ~o.wf_tcm[v] & all_;
  w.try_live = true;
  w.in_tx = true;
  w.try_lanes = run;
  ++r_.stats.tries;
  ++r_.stats.wf_tries[v];
  ++r_.stats.tries_by_mode[o.wf_mode[v] & 3];
  for (uint64_t m = run; m != 0; m &= m - 1) {
    const int l = std::countr_zero(m);
    if (L(v, l).op().kind != OpKind::kTxBegin) {
      Fail("work-item " + std::to_string(Wi(v, l)) + " runs a try but waits on " +
           OpKindName(L(v, l).op().kind));
      return;
    }
    ++r_.stats.wi_tries;
    L(v, l).BeginTry();
  }
}

// The end of a try: `committed` work-items continue after the transaction, the rest of the
// try's work-items restart at the next TX_Begin.
void Runner::EndTry(int v, uint64_t committed, const LdsTmOut& o) {
  WfState& w = wfs_[v];
  w.after = WfState::After::kNone;
  w.try_live = false;
  if (committed != 0) {
    ++r_.stats.tries_committing;
    ++r_.stats.wf_tries_committing[v];
  }
  w.mem_lanes &= committed;  // nothing of an aborted try is resumed
  for (uint64_t m = w.try_lanes; m != 0; m &= m - 1) {
    const int l = std::countr_zero(m);
    Forget(Wi(v, l));
    if ((committed >> l) & 1) {
      ++r_.stats.wi_commits;
      L(v, l).CommitTry();
    } else {
      L(v, l).AbortTry();
    }
  }
  w.try_lanes = 0;
  if (!((o.wf_in_try >> v) & 1) && !((o.wf_retry >> v) & 1)) {
    w.in_tx = false;
    ++r_.stats.transactions;
  }
}

// Chooses wavefront v's next instruction. Returns false when it has none this cycle.
bool Runner::Decide(int v, const LdsTmOut& o, LdsTmIn& in) {
  WfState& w = wfs_[v];
  if (w.mem_out || w.ready_at > now_ || w.after != WfState::After::kNone) {
    return false;
  }
  in = LdsTmIn{};
  in.ins_valid = 1;
  in.ins_wf = static_cast<uint64_t>(v);
  const uint64_t exec = o.wf_exec[v] & all_;
  if ((o.wf_retry >> v) & 1) {
    in.ins_op = static_cast<uint64_t>(LdsIns::kTxBegin);  // a retry (or replay) starts at once
    return true;
  }
  // The candidates: the try's running work-items, or every work-item outside a try.
  uint64_t cand = 0;
  if (w.try_live) {
    cand = w.try_lanes & ~o.wf_tcm[v];
    uint64_t at_commit = 0;
    for (uint64_t m = cand; m != 0; m &= m - 1) {
      const int l = std::countr_zero(m);
      if (L(v, l).op().kind == OpKind::kTxCommit) {
        at_commit |= uint64_t{1} << l;
      }
    }
    if (at_commit == cand) {
      in.ins_op = static_cast<uint64_t>(LdsIns::kTxCommit);
      return true;
    }
    cand &= ~at_commit;
  } else {
    for (int l = 0; l < p_.wf_size; ++l) {
      const OpKind k = L(v, l).op().kind;
      if (k != OpKind::kDone && !((w.barrier >> l) & 1)) {
        cand |= uint64_t{1} << l;
      }
    }
  }
  if (cand == 0) {
    return false;
  }
  // The group: the lowest program point (then the lowest operation kind) among the candidates.
  uint32_t pc = ~0u;
  OpKind kind = OpKind::kNone;
  for (uint64_t m = cand; m != 0; m &= m - 1) {
    const Op& op = L(v, std::countr_zero(m)).op();
    if (op.pc < pc || (op.pc == pc && op.kind < kind)) {
      pc = op.pc;
      kind = op.kind;
    }
  }
  uint64_t group = 0;
  for (uint64_t m = cand; m != 0; m &= m - 1) {
    const int l = std::countr_zero(m);
    const Op& op = L(v, l).op();
    if (op.pc == pc && op.kind == kind) {
      group |= uint64_t{1} << l;
    }
  }
  if (group != exec) {
    in.ins_op = static_cast<uint64_t>(LdsIns::kExecWrite);
    in.ins_exec = group;
    return true;
  }
  switch (kind) {
    case OpKind::kTxBegin:
      if (w.try_live) {
        Fail("work-item at TX_Begin inside a try (nested transactions): " + Describe(v));
        return false;
      }
      in.ins_op = static_cast<uint64_t>(LdsIns::kTxBegin);
      return true;
    case OpKind::kLoad:
    case OpKind::kStore:
    case OpKind::kAtomAdd:
    case OpKind::kAtomCas:
      in.ins_op = static_cast<uint64_t>(InsOf(kind));
      for (uint64_t m = group; m != 0; m &= m - 1) {
        const int l = std::countr_zero(m);
        const Op& op = L(v, l).op();
        if (op.addr >= words_) {
          Fail("work-item " + std::to_string(Wi(v, l)) + ": " + OpKindName(kind) + " of word " +
               std::to_string(op.addr) + " outside the workload's " + std::to_string(words_) +
               " words");
          return false;
        }
        in.ins_addr[l] = op.addr;
        in.ins_data[l] = op.data;
        in.ins_cmp[l] = op.cmp;
      }
      return true;
    case OpKind::kCompute: {
      // ALU work does not use the LDS port.
      const int n = L(v, std::countr_zero(group)).op().count;
      r_.stats.instructions += static_cast<uint64_t>(std::max(n, 0));
      if (w.try_live) {
        r_.stats.tx_instructions += static_cast<uint64_t>(std::max(n, 0));
      }
      w.ready_at = now_ + static_cast<uint64_t>(std::max(n, 1) * t_.valu_cycles);
      resumed_ = true;
      for (uint64_t m = group; m != 0; m &= m - 1) {
        L(v, std::countr_zero(m)).Resume();
      }
      return false;
    }
    case OpKind::kLatch:
    case OpKind::kFence:  // local memory: every access is performed in order already
      ++r_.stats.instructions;
      w.ready_at = now_ + 1;
      resumed_ = true;
      for (uint64_t m = group; m != 0; m &= m - 1) {
        L(v, std::countr_zero(m)).Resume();
      }
      return false;
    case OpKind::kBarrier:
      if (w.try_live) {
        Fail("barrier inside a transaction: " + Describe(v));
        return false;
      }
      ++r_.stats.instructions;
      w.barrier |= group;
      w.ready_at = now_ + 1;
      return false;
    default:
      Fail("work-item waits on " + std::string(OpKindName(kind)) + ": " + Describe(v));
      return false;
  }
}

void Runner::Accepted(int v, const LdsTmIn& in, const LdsTmOut& o) {
  WfState& w = wfs_[v];
  ++r_.stats.instructions;
  if (w.try_live) {
    ++r_.stats.tx_instructions;
  }
  w.ready_at = now_ + 1;
  switch (static_cast<LdsIns>(in.ins_op)) {
    case LdsIns::kExecWrite:
      ++r_.stats.exec_writes;
      break;
    case LdsIns::kTxBegin:
      w.after = WfState::After::kBegin;
      break;
    case LdsIns::kTxCommit:
      w.after = WfState::After::kCommit;
      break;
    default: {
      const uint64_t lanes = o.wf_exec[v] & ~o.wf_tcm[v] & all_;
      w.mem_out = true;
      w.mem_lanes = lanes;
      w.mem_kind = L(v, std::countr_zero(lanes | (uint64_t{1} << 63))).op().kind;
      for (int l = 0; l < p_.wf_size; ++l) {
        w.mem_addr[l] = static_cast<uint32_t>(in.ins_addr[l]);
      }
      ++r_.stats.mem_instructions;
      r_.stats.lds_accesses += static_cast<uint64_t>(std::popcount(lanes));
      break;
    }
  }
}

// Every work-item that is not done waits at a barrier: all continue.
bool Runner::ReleaseBarrier() {
  int waiting = 0, live = 0;
  for (int v = 0; v < num_wf_; ++v) {
    for (int l = 0; l < p_.wf_size; ++l) {
      if (L(v, l).op().kind != OpKind::kDone) {
        ++live;
        waiting += static_cast<int>((wfs_[v].barrier >> l) & 1);
      }
    }
  }
  if (waiting == 0 || waiting != live) {
    return false;
  }
  ++r_.stats.barriers;
  for (int v = 0; v < num_wf_; ++v) {
    const uint64_t b = wfs_[v].barrier;
    wfs_[v].barrier = 0;
    for (uint64_t m = b; m != 0; m &= m - 1) {
      L(v, std::countr_zero(m)).Resume();
    }
  }
  return true;
}

CuResult Runner::Run() {
  try {
    if (!Init()) {
      return r_;
    }
    touched_.resize(p_.wg_size);
    lanes_.reserve(p_.wg_size);
    for (int i = 0; i < p_.wg_size; ++i) {
      lanes_.push_back(std::make_unique<Lane>(i, p_.wf_size, p_.wg_size));
    }
    for (auto& l : lanes_) {
      l->Start(w_.Kernel(*l));
    }
    uint64_t last_progress = 0;
    for (now_ = 0;; ++now_) {
      if (!r_.error.empty()) {
        return r_;
      }
      const LdsTmOut o = lds_.Eval(LdsTmIn{});
      if (AllDone() && !o.busy) {
        break;
      }
      if (now_ > t_.max_cycles) {
        Fail("no end after " + std::to_string(t_.max_cycles) + " cycles;" + DescribeAll());
        return r_;
      }
      if (o.err) {
        Fail("the LDS flagged a protocol violation (err_o)");
        return r_;
      }
      // What the last cycle's instructions did.
      if (o.rsp_valid) {
        Response(o);
        last_progress = now_;
      }
      for (int v = 0; v < num_wf_; ++v) {
        WfState& w = wfs_[v];
        const bool in_try = (o.wf_in_try >> v) & 1;
        if (w.after == WfState::After::kBegin) {
          BeginTry(v, o);
        } else if (w.after == WfState::After::kCommit) {
          if (!o.cmt_valid || o.cmt_wf != static_cast<uint64_t>(v)) {
            Fail("wavefront " + std::to_string(v) + ": TX_Commit without the commit broadcast");
          } else {
            EndTry(v, o.cmt_mask, o);
          }
        } else if (w.try_live && !in_try) {
          // Aborted by another wavefront's work-group serialization.
          ++r_.stats.wgs_aborted_tries;
          EndTry(v, 0, o);
        }
      }
      if (ReleaseBarrier()) {
        last_progress = now_;
      }
      // Every wavefront's ALU work; one instruction for the LDS port, round robin.
      LdsTmIn in;
      int issuer = -1;
      for (int k = 0; k < num_wf_; ++k) {
        const int v = (rr_ + k) % num_wf_;
        LdsTmIn cand;
        if (Decide(v, o, cand) && issuer < 0) {
          issuer = v;
          in = cand;
        }
      }
      if (resumed_) {
        resumed_ = false;
        last_progress = now_;
      }
      if (issuer >= 0) {
        const LdsTmOut oi = lds_.Eval(in);
        // The round-robin pointer passes a wavefront when its instruction is accepted, or when
        // it is a TX_Begin/TX_Commit the LDS holds back (WgS, instructions in flight): a memory
        // instruction that waits for the LDS keeps its turn, so no wavefront starves.
        if (oi.ins_ready || in.ins_op >= static_cast<uint64_t>(LdsIns::kExecWrite)) {
          rr_ = (issuer + 1) % num_wf_;
        }
        if (oi.ins_ready) {
          Accepted(issuer, in, o);
          last_progress = now_;
        }
        lds_.Tick(in);
      } else {
        lds_.Tick(LdsTmIn{});
      }
      if (now_ - last_progress > t_.stall_limit) {
        Fail("no progress for " + std::to_string(t_.stall_limit) + " cycles;" + DescribeAll());
        return r_;
      }
    }
    r_.stats.cycles = now_;
    r_.lds.resize(words_);
    for (size_t a = 0; a < words_; ++a) {
      r_.lds[a] = lds_.Word(static_cast<int>(a));
    }
    r_.check = w_.Check(r_.lds);
    r_.ok = r_.check.empty();
    if (!r_.ok) {
      r_.error = "final-state check: " + r_.check;
    }
  } catch (const std::exception& e) {
    Fail(std::string("exception: ") + e.what());
  }
  return r_;
}

}  // namespace

ComputeUnit::ComputeUnit(const golden::LdsTmParams& p, const CuTiming& t) : p_(p), t_(t) {
  if (std::string e = golden::CheckLdsTmParams(p); !e.empty()) {
    throw std::invalid_argument("htm_lds_tm: " + e);
  }
}

CuResult ComputeUnit::Run(Workload& w) {
  Runner r(p_, t_, w);
  return r.Run();
}

}  // namespace htm::lds
