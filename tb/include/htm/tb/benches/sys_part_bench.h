// SPDX-License-Identifier: Apache-2.0
//
// Reactive random stimulus for htm_sys_part, and the scoreboard that checks its replies.
//
// The partition's index is drawn once per run. Several cores with several routes each (each
// route a protocol-following KILO TM agent, htm/tb/cu_cores.h) run transactions against the
// commit unit over one request port: Alloc (again after AllocFail), read and write sets over a
// small pool of this partition's words (conflicts) and now and then the rest of a region of
// it (LWH evictions, a huge transaction's capacity fail), DoneFill or Skip, and after the
// unit's Pass the final Pass (one unit here: the core's outcome is this unit's reply), then
// DoneCommit. A read's value is the memory's as the bench knows it (the maintenance writes and
// the writes of transactions whose DoneCommit came back), or stale on purpose. Routes also
// issue loads of pool and region words. rep_ready follows phases of 256 to 2047 cycles: always
// ready, ready one cycle in eight, at random, or stalled for most of the phase (the reply
// queues fill and the intake is gated). The run starts by writing the region through the
// maintenance port; from time to time the transactions drain (an idle phase) and maintenance
// reads and writes run beside loads. Under a knob a message or a maintenance access carries
// another partition's address (the partition drops it and raises err_o).
//
// The scoreboard throws (failing the run) on: a reply that no accepted message expects (an
// Alloc reply without an Alloc, a Pass or Fail without a DoneFill, a DoneCommit without a final
// Pass with writes, a load value for no load of that core, route and cid, each in order); a
// load value that is neither the word's value when the load was accepted nor a value a
// committing transaction writes there; a maintenance read that differs from the word; an
// expected reply missing for `timeout` cycles; err_o without a bad address sent.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/sys_part_model.h"
#include "htm/tb/cu_cores.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class SysPartBench {
 public:
  using Ports = golden::SysPartPorts;
  using Model = golden::SysPartModel;
  using In = golden::SysPartIn;
  using Out = golden::SysPartOut;

  struct Knobs {
    int cores = 4;                   // cores (at most 2**CoreW)
    int routes = 3;                  // routes per core (at most 2**RouteW)
    int max_reads = 4;               // read-set words per transaction
    int max_writes = 3;              // write-set words
    uint32_t skip_pct = 10;          // transactions with nothing at this partition
    uint32_t stale_pct = 5;          // reads whose value is wrong
    uint32_t huge_every = 1000;      // every so many transactions, one with BufWords + 4 reads
    uint32_t load_pct = 15;          // cycles that start a load (when the port is free)
    uint32_t bad_per_million = 100;  // cycles presenting another partition's address
    uint32_t idle_every = 6000;      // mean cycles between idle phases
    int idle_accesses = 24;          // maintenance accesses per idle phase
    uint64_t timeout = 30000;        // cycles within which an expected reply must come
  };

  SysPartBench(const golden::SysPartParams& p, uint64_t seed) : SysPartBench(p, seed, Knobs{}) {}
  SysPartBench(const golden::SysPartParams& p, uint64_t seed, const Knobs& k)
      : p_(p),
        k_(k),
        rng_(seed),
        part_(p.num_parts > 1 ? static_cast<int>(rng_.Below(p.num_parts)) : 0),
        cores_(golden::SysPartCuParams(p), rng_, CoreKnobs(k), Sources(p, k), Hooks()) {
    const uint64_t words = std::min<uint64_t>(golden::SysPartWords(p), 256);
    for (uint64_t i = 0; i < words; ++i) {
      region_.push_back(golden::SysPartGlobal(p, part_, i));
    }
    const size_t pool = std::min<size_t>(3 + p.lwh_sets * p.lwh_ways / 2, 32);
    std::vector<uint64_t> r = region_;
    for (size_t i = 0; i < pool && !r.empty(); ++i) {
      const size_t j = rng_.Below(r.size());
      pool_.push_back(r[j]);
      r.erase(r.begin() + static_cast<std::ptrdiff_t>(j));
    }
    OnReset();
  }

  /// The partition and its memory restart (the memory keeps its words, but a commit cut by the
  /// reset may have written part of its write set): the region is written again first.
  void OnReset() {
    cores_.Reset();
    cores_.set_paused(true);
    pending_.reset();
    mt_.reset();
    mt_expect_.clear();
    loads_.clear();
    agents_.assign(cores_.cores(), Agent{});
    phase_ = Phase::kInit;
    init_next_ = 0;
    bad_sent_ = false;
    decided_ = 0;
    last_busy_ = true;
  }
  /// A mid-run reset waits until the commit ids have wrapped (or 1024 transactions were
  /// decided), and for no huge transaction under way and no initialisation.
  bool MayReset() const {
    const uint64_t wrap = std::min(uint64_t{1} << p_.cid_w,
                                   std::max<uint64_t>(static_cast<uint64_t>(p_.ring_size), 1024));
    return phase_ == Phase::kRun && decided_ > wrap && !cores_.HugeUnderway();
  }

  In Next() {
    In in;
    in.part_idx = static_cast<uint64_t>(part_);
    if (now_ % 64 == 0) {
      CheckTimeouts();
    }
    if (now_ >= phase_end_) {
      NewReadyPhase();
    }
    StepPhase();
    // Requests: the message presented is held until it is accepted (a core's message stays
    // the cores' offer until then).
    const std::optional<CuCores::Offer> offer = cores_.Next();
    if (pending_ && pending_->kind == Kind::kCu && !offer) {
      pending_.reset();
    }
    if (!pending_) {
      const bool want_load = phase_ != Phase::kInit && rng_.Chance(k_.load_pct, 100);
      if (p_.num_parts > 1 && rng_.Chance(k_.bad_per_million, 1000000)) {
        pending_ = BadMessage();
      } else if (want_load && (!offer || rng_.Chance(1, 2))) {
        pending_ = NewLoad();
      } else if (offer) {
        pending_ = Presented{Kind::kCu, offer->core, 0, {}};
      }
    }
    if (pending_) {
      in.req_valid = 1;
      if (pending_->kind == Kind::kCu) {
        const CuCores::Msg& m = offer->msg;
        golden::SysPartReq r;
        r.kind = SysReq::kCu;
        r.type = static_cast<uint64_t>(m.type);
        r.cid = m.cid;
        r.route = Route(pending_->agent);
        r.addr = m.addr;
        r.data = m.data;
        if (m.type == CuMsg::kReadSet && !m.stale) {
          r.data = Image(m.addr);  // the value the core read (or stale, on purpose)
        }
        pending_->req = r;
        in.req_src = Core(pending_->agent);
      } else {
        in.req_src = pending_->core;
      }
      in.req_data = golden::PackSysPartReq(p_, pending_->req);
    }
    in.rep_ready = RepReady();
    if (mt_) {
      in.mt_valid = 1;
      in.mt_we = mt_->we;
      in.mt_addr = mt_->addr;
      in.mt_wdata = mt_->data;
    }
    ++now_;
    return in;
  }

  void Observe(const In& in, const Out& out) {
    const uint64_t t = now_ - 1;  // the cycle of `in`
    last_busy_ = out.busy != 0;
    if (out.err && !bad_sent_) {
      Fail("err_o rose without a message or access for another partition");
    }
    if (in.req_valid && out.req_ready && pending_) {
      Accepted(*pending_, t);
      pending_.reset();
    }
    if (in.mt_valid && out.mt_ready && mt_) {
      if (mt_->mine) {
        if (mt_->we) {
          image_[mt_->addr] = mt_->data;
        } else {
          mt_expect_.push_back({mt_->addr, Image(mt_->addr), t + 2});
        }
      }
      mt_.reset();
      ++mt_done_;
    }
    if (out.mt_rvalid) {
      if (mt_expect_.empty() || mt_expect_.front().due != t) {
        Fail("a maintenance read value that no read expects");
      }
      if (out.mt_rdata != mt_expect_.front().value) {
        Fail("maintenance read of " + Hex(mt_expect_.front().addr) + " gave " + Hex(out.mt_rdata) +
             ", the word holds " + Hex(mt_expect_.front().value));
      }
      mt_expect_.pop_front();
      ++mt_checked_;
    }
    if (out.rep_valid && in.rep_ready) {
      Reply(out.rep_dst, golden::UnpackSysPartRep(p_, out.rep_data));
    }
  }

  // Statistics of the run (tests).
  uint64_t loads_answered() const { return loads_answered_; }
  uint64_t cu_replies() const { return cu_replies_; }
  uint64_t alloc_fails() const { return alloc_fails_; }
  uint64_t committed() const { return cores_.committed(); }
  uint64_t mt_checked() const { return mt_checked_; }
  uint64_t idle_phases() const { return idle_phases_; }
  int part() const { return part_; }

 private:
  enum class Kind { kCu, kLoad, kBad };
  enum class Phase { kInit, kRun, kDrain, kMaint };
  enum class ReadyMode { kFree, kHeavy, kRandom, kStall };
  struct Presented {
    Kind kind;
    int agent;      // kCu: the core's agent index
    uint64_t core;  // kLoad, kBad: the core
    golden::SysPartReq req;
  };
  struct Mt {
    bool we, mine;
    uint64_t addr, data;
  };
  struct MtRead {
    uint64_t addr, value, due;
  };
  struct Expect {
    bool on = false;
    uint64_t cid = 0, since = 0;
  };
  struct Agent {
    Expect alloc, rep, done;
    std::vector<std::pair<uint64_t, uint64_t>> writes;  // the transaction's write set
    bool committing = false;  // its final Pass was taken and it has writes
  };
  struct Load {
    uint64_t cid, addr, since;
    std::vector<uint64_t> allowed;
  };

  static CuCores::Knobs CoreKnobs(const Knobs& k) {
    CuCores::Knobs c;
    c.max_reads = k.max_reads;
    c.max_writes = k.max_writes;
    c.skip_pct = k.skip_pct;
    c.stale_pct = k.stale_pct;
    c.other_fail_pct = 0;  // one unit: the final outcome is this unit's reply
    c.bad_per_million = 0;
    c.huge_every = k.huge_every;
    return c;
  }
  // Spread over the index space (the highest index included).
  static std::vector<uint64_t> Spread(int n, int width) {
    const uint64_t space = uint64_t{1} << width;
    const uint64_t m = std::min<uint64_t>(static_cast<uint64_t>(std::max(n, 1)), space);
    std::vector<uint64_t> v;
    for (uint64_t j = 0; j < m; ++j) {
      v.push_back((j + 1) * space / m - 1);
    }
    return v;
  }
  static std::vector<uint64_t> Sources(const golden::SysPartParams& p, const Knobs& k) {
    std::vector<uint64_t> s;
    for (uint64_t c : Spread(k.cores, p.core_w)) {
      for (uint64_t r : Spread(k.routes, p.route_w)) {
        s.push_back((c << p.route_w) | r);
      }
    }
    return s;
  }
  CuCores::Hooks Hooks() {
    return CuCores::Hooks{[this] { return Addr(); }, [this] { return rng_.Pick(region_); }};
  }
  uint64_t Addr() { return rng_.Chance(7, 8) ? rng_.Pick(pool_) : rng_.Pick(region_); }
  uint64_t Core(int agent) const { return cores_.src(agent) >> p_.route_w; }
  uint64_t Route(int agent) const { return cores_.src(agent) & golden::LowMask(p_.route_w); }
  uint64_t Image(uint64_t addr) const {
    const auto it = image_.find(addr);
    return it == image_.end() ? 0 : it->second;
  }
  static std::string Hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
  }
  [[noreturn]] void Fail(const std::string& what) const {
    throw std::runtime_error("htm_sys_part scoreboard, cycle " + std::to_string(now_ - 1) + ": " +
                             what);
  }

  // An address of another partition (a random word of it).
  uint64_t BadAddr() {
    int other = static_cast<int>(rng_.Below(p_.num_parts - 1));
    other += other >= part_ ? 1 : 0;
    return golden::SysPartGlobal(p_, other, rng_.Below(golden::SysPartWords(p_)));
  }
  Presented BadMessage() {
    golden::SysPartReq r;
    const int kind = static_cast<int>(rng_.Below(3));
    r.kind = kind == 0 ? SysReq::kLoad : SysReq::kCu;
    r.type = kind == 0 ? 0 : static_cast<uint64_t>(kind == 1 ? CuMsg::kReadSet : CuMsg::kWriteSet);
    r.cid = rng_.Bits(p_.cid_w);
    r.route = rng_.Bits(p_.route_w);
    r.addr = BadAddr();
    r.data = rng_.Bits(p_.data_w);
    bad_sent_ = true;
    return Presented{Kind::kBad, 0, rng_.Bits(p_.core_w), r};
  }
  Presented NewLoad() {
    const int a = static_cast<int>(rng_.Below(static_cast<uint64_t>(cores_.cores())));
    golden::SysPartReq r;
    r.kind = SysReq::kLoad;
    r.cid = rng_.Bits(p_.cid_w);  // a tag the reply echoes
    r.route = Route(a);
    r.addr = Addr();
    return Presented{Kind::kLoad, a, Core(a), r};
  }

  void NewReadyPhase() {
    ready_ = static_cast<ReadyMode>(rng_.Below(4));
    phase_start_ = now_;
    phase_end_ = now_ + 256 + rng_.Below(1792);
  }
  bool RepReady() {
    switch (ready_) {
      case ReadyMode::kHeavy:
        return rng_.Chance(1, 8);
      case ReadyMode::kRandom:
        return rng_.Chance(1, 2);
      case ReadyMode::kStall:
        return (now_ - phase_start_) * 4 >= (phase_end_ - phase_start_) * 3;
      default:
        return true;
    }
  }

  // The run's phases: initialisation, traffic, draining, maintenance beside loads.
  void StepPhase() {
    switch (phase_) {
      case Phase::kInit:
        if (!mt_) {
          if (init_next_ < region_.size()) {
            mt_ = Mt{true, true, region_[init_next_++], rng_.Bits(p_.data_w)};
          } else {
            phase_ = Phase::kRun;
            cores_.set_paused(false);
            idle_at_ = now_ + k_.idle_every / 2 + rng_.Below(k_.idle_every + 1);
          }
        }
        break;
      case Phase::kRun:
        if (now_ >= idle_at_) {
          phase_ = Phase::kDrain;
          drain_start_ = now_;
          cores_.set_paused(true);
        }
        break;
      case Phase::kDrain: {
        bool quiet = cores_.Idle() && !last_busy_ && !(pending_ && pending_->kind == Kind::kCu);
        for (const Agent& a : agents_) {
          quiet = quiet && !a.alloc.on && !a.rep.on && !a.done.on;
        }
        if (quiet) {
          phase_ = Phase::kMaint;
          mt_left_ = k_.idle_accesses;
          ++idle_phases_;
        } else if (now_ - drain_start_ > k_.timeout) {
          Fail("the transactions did not drain within " + std::to_string(k_.timeout) + " cycles");
        }
        break;
      }
      case Phase::kMaint:
        if (!mt_) {
          if (mt_left_ > 0) {
            --mt_left_;
            if (p_.num_parts > 1 && rng_.Chance(k_.bad_per_million, 100000)) {
              bad_sent_ = true;
              mt_ = Mt{rng_.Chance(1, 2), false, BadAddr(), rng_.Bits(p_.data_w)};
            } else {
              const bool we = rng_.Chance(1, 2);
              mt_ = Mt{we, true, Addr(), rng_.Bits(p_.data_w)};
            }
          } else if (mt_expect_.empty()) {
            phase_ = Phase::kRun;
            cores_.set_paused(false);
            idle_at_ = now_ + k_.idle_every / 2 + rng_.Below(k_.idle_every + 1);
          }
        }
        break;
    }
  }

  void Accepted(const Presented& m, uint64_t t) {
    if (m.kind == Kind::kBad) {
      return;
    }
    if (m.kind == Kind::kLoad) {
      Load l{m.req.cid, m.req.addr, t, {Image(m.req.addr)}};
      for (const Agent& a : agents_) {
        for (const auto& [addr, data] : a.writes) {
          if (a.committing && addr == m.req.addr) {
            l.allowed.push_back(data);
          }
        }
      }
      loads_[(m.core << p_.route_w) | m.req.route].push_back(l);
      return;
    }
    cores_.Accepted();
    Agent& a = agents_[m.agent];
    switch (static_cast<CuMsg>(m.req.type)) {
      case CuMsg::kAlloc:
        if (a.alloc.on) {
          Fail("a second Alloc from one route before its reply");
        }
        a.alloc = Expect{true, m.req.cid, t};
        a.writes.clear();
        a.committing = false;
        break;
      case CuMsg::kWriteSet:
        a.writes.emplace_back(m.req.addr, m.req.data);
        break;
      case CuMsg::kDoneFill:
        a.rep = Expect{true, m.req.cid, t};
        break;
      case CuMsg::kPass:
        if (!a.writes.empty()) {
          a.done = Expect{true, m.req.cid, t};
          a.committing = true;
        }
        break;
      default:
        break;
    }
  }

  void Reply(uint64_t dst, const golden::SysPartRep& r) {
    const uint64_t src = (dst << p_.route_w) | r.route;
    const std::string who = "core " + std::to_string(dst) + " route " + std::to_string(r.route) +
                            " cid " + std::to_string(r.cid);
    if (r.kind == SysRep::kLoad) {
      auto it = loads_.find(src);
      if (r.type != 0 || it == loads_.end() || it->second.empty()) {
        Fail("a load value for " + who + ", which has no load outstanding");
      }
      const Load& l = it->second.front();
      if (l.cid != r.cid) {
        Fail("a load value for " + who + ", but its oldest load has cid " + std::to_string(l.cid));
      }
      if (std::find(l.allowed.begin(), l.allowed.end(), r.data) == l.allowed.end()) {
        Fail("load of " + Hex(l.addr) + " for " + who + " returned " + Hex(r.data) +
             ", the word held " + Hex(l.allowed.front()));
      }
      it->second.pop_front();
      ++loads_answered_;
      return;
    }
    if (r.data != 0) {
      Fail("a commit-unit reply with data for " + who);
    }
    int ai = -1;
    for (int i = 0; i < cores_.cores(); ++i) {
      ai = cores_.src(i) == src ? i : ai;
    }
    if (ai < 0) {
      Fail("a reply for " + who + ", which is no core's route");
    }
    Agent& a = agents_[ai];
    ++cu_replies_;
    const auto type = static_cast<CuRep>(r.type);
    if (r.kind == SysRep::kAlloc && (type == CuRep::kAllocPass || type == CuRep::kAllocFail)) {
      if (!a.alloc.on || a.alloc.cid != r.cid) {
        Fail("an Alloc reply for " + who + " without its Alloc");
      }
      a.alloc.on = false;
      alloc_fails_ += type == CuRep::kAllocFail;
      cores_.AllocReply(src, r.cid, type == CuRep::kAllocPass);
    } else if (r.kind == SysRep::kCu && (type == CuRep::kPass || type == CuRep::kFail)) {
      if (!a.rep.on || a.rep.cid != r.cid) {
        Fail("a Pass or Fail for " + who + " without its DoneFill");
      }
      a.rep.on = false;
      ++decided_;
      cores_.Reply(src, r.cid, type);
    } else if (r.kind == SysRep::kCu && type == CuRep::kDoneCommit) {
      if (!a.done.on || a.done.cid != r.cid) {
        Fail("a DoneCommit for " + who + " without a final Pass with writes");
      }
      a.done.on = false;
      for (const auto& [addr, data] : a.writes) {
        image_[addr] = data;
      }
      a.committing = false;
      cores_.Reply(src, r.cid, type);
    } else {
      Fail("a reply of kind " + std::to_string(static_cast<int>(r.kind)) + " and type " +
           std::to_string(r.type) + " for " + who);
    }
  }

  void CheckTimeouts() const {
    const auto late = [&](const Expect& e) { return e.on && now_ > e.since + k_.timeout; };
    for (const Agent& a : agents_) {
      if (late(a.alloc) || late(a.rep) || late(a.done)) {
        Fail("a commit-unit reply missing for " + std::to_string(k_.timeout) + " cycles");
      }
    }
    for (const auto& [src, q] : loads_) {
      if (!q.empty() && now_ > q.front().since + k_.timeout) {
        Fail("a load unanswered for " + std::to_string(k_.timeout) + " cycles");
      }
    }
  }

  golden::SysPartParams p_;
  Knobs k_;
  Rng rng_;
  int part_;
  CuCores cores_;
  std::vector<uint64_t> region_, pool_;
  std::unordered_map<uint64_t, uint64_t> image_;  // the words as the bench knows them
  std::optional<Presented> pending_;              // the request presented until accepted
  std::optional<Mt> mt_;                          // the maintenance access presented
  std::deque<MtRead> mt_expect_;
  std::map<uint64_t, std::deque<Load>> loads_;  // per {core, route}: loads in order
  std::vector<Agent> agents_;
  Phase phase_ = Phase::kInit;
  size_t init_next_ = 0;
  uint64_t idle_at_ = 0, drain_start_ = 0;
  int mt_left_ = 0;
  ReadyMode ready_ = ReadyMode::kFree;
  uint64_t phase_start_ = 0, phase_end_ = 0;
  uint64_t now_ = 0;
  bool bad_sent_ = false, last_busy_ = true;
  uint64_t decided_ = 0;
  uint64_t loads_answered_ = 0, cu_replies_ = 0, alloc_fails_ = 0, mt_checked_ = 0;
  uint64_t mt_done_ = 0, idle_phases_ = 0;
};

}  // namespace htm::tb
