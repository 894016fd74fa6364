// SPDX-License-Identifier: Apache-2.0
#include "htm/tb/cu_system.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <utility>

#include "htm/enums.h"
#include "htm/golden/serial_checker.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

namespace {

using golden::CommitUnitIn;
using golden::CommitUnitModel;
using golden::CommitUnitOut;
using golden::CommitUnitParams;
using golden::LowMask;
using golden::SerialChecker;

struct Msg {
  CuMsg type;
  uint64_t addr = 0, data = 0;
};

// One core's view of one unit during a commit.
struct Link {
  bool need_alloc = true;   // Alloc not yet granted
  bool alloc_wait = false;  // Alloc sent, reply pending
  int delay = 0;            // before asking again after AllocFail
  std::deque<Msg> q;        // messages still to send after the grant
  bool involved = false;    // has log words here (else Skip)
  bool writes = false;      // has write-set words here
  int rep = 0;              // 0: none yet, 1: Pass, 2: Fail
  bool done_wait = false;   // DoneCommit pending
};

enum class CoreSt { kThink, kExec, kCommit, kOutcome };

struct Core {
  CoreSt st = CoreSt::kThink;
  int delay = 0;
  uint64_t cid = 0;  // absolute commit id
  std::vector<uint64_t> read_addrs;
  SerialChecker::Transaction tx;
  std::vector<Link> links;
  bool committed = false;
};

struct MemReq {
  uint64_t addr, data, tag, due;
};

class System {
 public:
  System(const CommitUnitParams& p, const CuSystemOptions& o) : p_(p), o_(o), rng_(o.seed) {
    for (int u = 0; u < o_.units; ++u) {
      units_.emplace_back(p_);
    }
    cores_.resize(o_.cores);
    for (Core& c : cores_) {
      c.delay = static_cast<int>(rng_.Below(static_cast<uint64_t>(o_.max_think) + 1));
    }
    cur_.assign(o_.units, -1);
    vr_.resize(o_.units);
    cw_.resize(o_.units);
    const uint64_t space = uint64_t{1} << std::min(p_.addr_w, 40);
    for (int i = 0; i < o_.pool; ++i) {
      pool_.push_back(rng_.Below(space));
    }
  }

  CuSystemResult Run() {
    CuSystemResult r;
    const uint64_t limit = o_.max_cycles != 0
                               ? o_.max_cycles
                               : 100000 + 2000 * o_.transactions * static_cast<uint64_t>(o_.units);
    uint64_t cycle = 0;
    for (; cycle < limit && error_.empty(); ++cycle) {
      if (Drained()) {
        break;
      }
      StepCycle();
    }
    r.cycles = cycle;
    if (error_.empty() && !Drained()) {
      error_ = "the system did not drain within " + std::to_string(limit) +
               " cycles (deadlock?): " + std::to_string(checker_.replayed()) + " of " +
               std::to_string(started_) + " transactions decided";
    }
    for (const auto& [key, n] : rct_) {
      if (error_.empty() && n != 0) {
        error_ = "RCT events do not balance after draining (count " + std::to_string(n) + ")";
      }
    }
    if (error_.empty() && !checker_.CheckFinal(mem_)) {
      error_ = "serialisation check: " + checker_.error();
    }
    r.ok = error_.empty();
    r.error = error_;
    r.committed = committed_;
    r.aborted = aborted_;
    for (const CommitUnitModel& m : units_) {
      r.unit_stats.push_back(m.stats());
    }
    return r;
  }

 private:
  uint64_t Mem(uint64_t a) const {
    const auto it = mem_.find(a);
    return it == mem_.end() ? 0 : it->second;
  }
  static uint64_t RctKey(int u, uint64_t addr, uint64_t write) {
    return (addr << 8) | (write << 7) | static_cast<uint64_t>(u);
  }
  int UnitOf(uint64_t a) const { return static_cast<int>(a % static_cast<uint64_t>(o_.units)); }
  uint64_t Addr() {
    if (o_.pool > 0) {
      return rng_.Pick(pool_);
    }
    fresh_ = (fresh_ + 1) & LowMask(p_.addr_w);
    return fresh_;
  }
  uint64_t Latency() {
    return static_cast<uint64_t>(o_.min_latency) +
           rng_.Below(static_cast<uint64_t>(o_.max_latency - o_.min_latency) + 1);
  }
  bool Drained() const {
    if (started_ < o_.transactions) {
      return false;
    }
    for (const Core& c : cores_) {
      if (c.st != CoreSt::kThink) {
        return false;
      }
    }
    for (int u = 0; u < o_.units; ++u) {
      if (!vr_[u].empty() || !cw_[u].empty() || busy_[u]) {
        return false;
      }
    }
    return true;
  }
  void Fail(const std::string& what) {
    if (error_.empty()) {
      error_ = "cycle " + std::to_string(now_) + ": " + what;
    }
  }

  // The message a core wants to send to unit u now, if any.
  const Msg* Wants(const Core& c, int u) {
    if (c.st != CoreSt::kCommit && c.st != CoreSt::kOutcome) {
      return nullptr;
    }
    const Link& l = c.links[u];
    if (l.need_alloc) {
      static const Msg kAllocMsg{CuMsg::kAlloc};
      return (!l.alloc_wait && l.delay == 0) ? &kAllocMsg : nullptr;
    }
    return l.q.empty() ? nullptr : &l.q.front();
  }

  void StartTransaction(Core& c) {
    c.tx = SerialChecker::Transaction{};
    c.read_addrs.clear();
    const int nr =
        o_.min_reads +
        static_cast<int>(rng_.Below(static_cast<uint64_t>(o_.max_reads - o_.min_reads) + 1));
    const int nw =
        o_.min_writes +
        static_cast<int>(rng_.Below(static_cast<uint64_t>(o_.max_writes - o_.min_writes) + 1));
    for (int i = 0; i < nr; ++i) {
      c.read_addrs.push_back(Addr());
    }
    for (int i = 0; i < nw; ++i) {
      const uint64_t a = Addr();
      bool dup = false;
      for (const auto& w : c.tx.writes) {
        dup = dup || w.addr == a;
      }
      if (!dup) {  // the write set is a set
        c.tx.writes.push_back({a, rng_.Bits(p_.data_w)});
      }
    }
    c.st = CoreSt::kExec;
    ++started_;
  }

  void BeginCommit(Core& c) {
    c.cid = next_cid_++;
    c.links.assign(o_.units, Link{});
    std::vector<std::vector<Msg>> words(o_.units);
    for (const auto& r : c.tx.reads) {
      words[UnitOf(r.addr)].push_back(Msg{CuMsg::kReadSet, r.addr, r.value});
    }
    for (const auto& w : c.tx.writes) {
      words[UnitOf(w.addr)].push_back(Msg{CuMsg::kWriteSet, w.addr, w.value});
      c.links[UnitOf(w.addr)].writes = true;
    }
    for (int u = 0; u < o_.units; ++u) {
      Link& l = c.links[u];
      std::vector<Msg>& v = words[u];
      for (size_t i = v.size(); i > 1; --i) {
        std::swap(v[i - 1], v[rng_.Below(i)]);
      }
      l.involved = !v.empty();
      l.q.assign(v.begin(), v.end());
      l.q.push_back(Msg{l.involved ? CuMsg::kDoneFill : CuMsg::kSkip});
    }
    c.st = CoreSt::kCommit;
  }

  void Decide(Core& c) {
    c.committed = true;
    for (const Link& l : c.links) {
      c.committed = c.committed && (!l.involved || l.rep == 1);
    }
    for (Link& l : c.links) {
      if (l.involved && l.rep == 1) {
        l.q.push_back(Msg{c.committed ? CuMsg::kPass : CuMsg::kFail});
        l.done_wait = c.committed && l.writes;
      }
    }
    c.st = CoreSt::kOutcome;
  }

  void Finish(Core& c) {
    c.tx.committed = c.committed;
    (c.committed ? committed_ : aborted_) += 1;
    if (!checker_.Record(c.cid, std::move(c.tx))) {
      Fail("serialisation check: " + checker_.error());
    }
    c.st = CoreSt::kThink;
    c.delay = static_cast<int>(rng_.Below(static_cast<uint64_t>(o_.max_think) + 1));
  }

  void StepCores() {
    for (Core& c : cores_) {
      switch (c.st) {
        case CoreSt::kThink:
          if (c.delay > 0) {
            --c.delay;
          } else if (started_ < o_.transactions) {
            StartTransaction(c);
          }
          break;
        case CoreSt::kExec:
          // One read per cycle, at the memory's value of that cycle.
          if (c.tx.reads.size() < c.read_addrs.size()) {
            const uint64_t a = c.read_addrs[c.tx.reads.size()];
            c.tx.reads.push_back({a, Mem(a)});
          } else {
            BeginCommit(c);
          }
          break;
        case CoreSt::kCommit: {
          bool all = true;
          for (Link& l : c.links) {
            l.delay -= l.delay > 0 ? 1 : 0;
            all = all && !l.need_alloc && l.q.empty() && (!l.involved || l.rep != 0);
          }
          if (all) {
            Decide(c);
          }
          break;
        }
        case CoreSt::kOutcome: {
          bool all = true;
          for (const Link& l : c.links) {
            all = all && l.q.empty() && !l.done_wait;
          }
          if (all) {
            Finish(c);
          }
          break;
        }
      }
    }
  }

  void StepCycle() {
    StepCores();
    busy_.assign(o_.units, false);
    for (int u = 0; u < o_.units; ++u) {
      CommitUnitIn in;
      if (cur_[u] < 0 || Wants(cores_[cur_[u]], u) == nullptr) {
        cur_[u] = -1;
        std::vector<int> ready;
        for (int i = 0; i < o_.cores; ++i) {
          if (Wants(cores_[i], u) != nullptr) {
            ready.push_back(i);
          }
        }
        if (!ready.empty()) {
          cur_[u] = rng_.Pick(ready);
        }
      }
      if (cur_[u] >= 0) {
        const Msg& m = *Wants(cores_[cur_[u]], u);
        in.in_valid = 1;
        in.in_type = static_cast<uint64_t>(m.type);
        in.in_cid = cores_[cur_[u]].cid & LowMask(p_.cid_w);
        in.in_src = static_cast<uint64_t>(cur_[u]);
        in.in_addr = m.addr;
        in.in_data = m.data;
      }
      in.vr_req_ready = rng_.Chance(o_.ready_pct, 100);
      in.cw_req_ready = rng_.Chance(o_.ready_pct, 100);
      std::vector<MemReq>& vr = vr_[u];
      std::vector<size_t> due;
      for (size_t i = 0; i < vr.size(); ++i) {
        if (vr[i].due <= now_) {
          due.push_back(i);
        }
      }
      if (!due.empty()) {
        const size_t i = rng_.Pick(due);
        in.vr_rsp_valid = 1;
        in.vr_rsp_tag = vr[i].tag;
        in.vr_rsp_data = Mem(vr[i].addr);
        vr.erase(vr.begin() + static_cast<std::ptrdiff_t>(i));
      }
      std::deque<MemReq>& cw = cw_[u];
      if (!cw.empty() && cw.front().due <= now_) {
        in.cw_ack_valid = 1;
        mem_[cw.front().addr] = cw.front().data;
        cw.pop_front();
      }

      CommitUnitModel& m = units_[u];
      const CommitUnitOut out = m.Eval(in);
      m.Tick(in);
      busy_[u] = out.busy != 0;
      if (out.err) {
        Fail("unit " + std::to_string(u) + " flagged a protocol error");
      }
      if (in.in_valid && out.in_ready) {
        Core& c = cores_[cur_[u]];
        Link& l = c.links[u];
        if (l.need_alloc) {
          l.alloc_wait = true;
        } else {
          l.q.pop_front();
        }
        cur_[u] = -1;
      }
      if (out.vr_req_valid && in.vr_req_ready) {
        vr.push_back(MemReq{out.vr_req_addr, 0, out.vr_req_tag, now_ + Latency()});
      }
      if (out.cw_req_valid && in.cw_req_ready) {
        if (UnitOf(out.cw_req_addr) != u) {
          Fail("unit " + std::to_string(u) + " wrote an address of another unit");
        }
        const uint64_t last = cw.empty() ? 0 : cw.back().due;
        cw.push_back(MemReq{out.cw_req_addr, out.cw_req_data, 0, std::max(now_ + Latency(), last)});
      }
      // RCT events: every stored word is counted once up and once down, never below zero.
      if (out.rct_inc_valid) {
        ++rct_[RctKey(u, out.rct_inc_addr, out.rct_inc_write)];
      }
      if (out.rct_dec_valid) {
        int64_t& n = rct_[RctKey(u, out.rct_dec_addr, out.rct_dec_write)];
        if (--n < 0) {
          Fail("unit " + std::to_string(u) + " RCT decrement without an increment");
        }
      }
      if (out.arep_valid) {
        Reply(u, out.arep_src, out.arep_cid, out.arep_pass ? -1 : -2);
      }
      if (out.rep_valid) {
        Reply(u, out.rep_src, out.rep_cid, static_cast<int>(out.rep_type));
      }
    }
    ++now_;
  }

  // kind: -1 AllocPass, -2 AllocFail, else a cu_rep_e value.
  void Reply(int u, uint64_t src, uint64_t cid, int kind) {
    const std::string where = "unit " + std::to_string(u) + " reply to core " +
                              std::to_string(src) + " for cid " + std::to_string(cid);
    if (src >= cores_.size()) {
      Fail(where + ": no such core");
      return;
    }
    Core& c = cores_[src];
    if ((c.st != CoreSt::kCommit && c.st != CoreSt::kOutcome) ||
        (c.cid & LowMask(p_.cid_w)) != cid) {
      Fail(where + ": the core is not committing that cid");
      return;
    }
    Link& l = c.links[u];
    if (kind < 0) {
      if (!l.alloc_wait) {
        Fail(where + ": Alloc reply without an Alloc");
        return;
      }
      l.alloc_wait = false;
      l.need_alloc = kind == -2;
      l.delay = kind == -2 ? 1 + static_cast<int>(rng_.Below(8)) : 0;
      return;
    }
    const auto rep = static_cast<CuRep>(kind);
    if (rep == CuRep::kPass || rep == CuRep::kFail) {
      if (!l.involved || l.rep != 0 || !l.q.empty() || c.st != CoreSt::kCommit) {
        Fail(where + ": unexpected Pass/Fail");
        return;
      }
      l.rep = rep == CuRep::kPass ? 1 : 2;
    } else if (rep == CuRep::kDoneCommit) {
      if (!l.done_wait || !l.q.empty()) {
        Fail(where + ": unexpected DoneCommit");
        return;
      }
      l.done_wait = false;
    } else {
      Fail(where + ": unknown reply type " + std::to_string(kind));
    }
  }

  CommitUnitParams p_;
  CuSystemOptions o_;
  Rng rng_;
  std::vector<CommitUnitModel> units_;
  std::vector<Core> cores_;
  std::vector<int> cur_;
  std::vector<std::vector<MemReq>> vr_;
  std::vector<std::deque<MemReq>> cw_;
  std::vector<bool> busy_;
  std::vector<uint64_t> pool_;
  std::unordered_map<uint64_t, uint64_t> mem_;
  std::unordered_map<uint64_t, int64_t> rct_;  // (unit, address, write) -> count
  SerialChecker checker_{0};
  uint64_t fresh_ = 0, next_cid_ = 0, started_ = 0, now_ = 0;
  uint64_t committed_ = 0, aborted_ = 0;
  std::string error_;
};

}  // namespace

std::string CheckCuSystemOptions(const CommitUnitParams& p, const CuSystemOptions& o) {
  if (o.units < 1 || o.units > 64) {
    return "units must be in 1..64, got " + std::to_string(o.units);
  }
  const int max_cores = p.src_w >= 10 ? 1024 : (1 << p.src_w);
  if (o.cores < 1 || o.cores > max_cores) {
    return "cores must be in 1.." + std::to_string(max_cores) + " (SrcW " +
           std::to_string(p.src_w) + "), got " + std::to_string(o.cores);
  }
  if (o.min_reads < 0 || o.max_reads < o.min_reads || o.min_writes < 0 ||
      o.max_writes < o.min_writes) {
    return "read and write counts must satisfy 0 <= min <= max";
  }
  if (o.pool < 0) {
    return "pool must be >= 0";
  }
  if (o.min_latency < 1 || o.max_latency < o.min_latency) {
    return "latency must satisfy 1 <= min <= max";
  }
  if (o.ready_pct < 1 || o.ready_pct > 100) {
    return "ready percentage must be in 1..100";
  }
  if (o.max_think < 0) {
    return "think time must be >= 0";
  }
  return "";
}

CuSystemResult RunCuSystem(const CommitUnitParams& p, const CuSystemOptions& o) {
  if (std::string err = CheckCuSystemOptions(p, o); !err.empty()) {
    CuSystemResult r;
    r.error = "bad options: " + err;
    return r;
  }
  System s(p, o);
  return s.Run();
}

}  // namespace htm::tb
