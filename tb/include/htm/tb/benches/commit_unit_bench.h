// SPDX-License-Identifier: Apache-2.0
//
// Reactive random stimulus for htm_commit_unit: scripted cores that run the KILO TM protocol
// against the unit (Alloc, log words, DoneFill or Skip, the final outcome), a memory with
// random-latency validation reads answered in any order and commit writes acknowledged in
// order, and writes by other commit units to the same memory at any time. Transactions draw
// their addresses from a small pool (conflicts) and sometimes from the whole address space (LWH
// evictions; with a large LWH, the pool also has groups of addresses that share an LWH set);
// some are large, one in a thousand huge (more words than the buffer holds: capacity); some
// reads carry a stale value; some cores fail a transaction the unit passed (another unit failed
// it); in skip bursts most transactions have nothing at this unit, as when the machine's other
// units get their words, and a few outcomes come late (another unit is slow), so commit ids
// race ahead of the retire pointer (the ring fills: AllocFail); rarely a core breaks the
// protocol, in every way the unit flags (docs/htm_commit_unit.md, "Protocol errors"): a word
// after DoneFill or outside the window, a Skip after words, a second DoneFill, a message type
// with no meaning, an outcome before this unit's reply, a second outcome, an outcome for an
// entry this unit failed; and rarely the memory acknowledges a write that was not sent or
// answers a validation read with a tag not in flight. The bench sees every cycle's outputs
// through Observe().
//
// A mid-run reset waits until the commit ids have wrapped since the last one (for the
// paper-size unit, whose 16-bit ids cannot wrap in a test, until the retire pointer has gone
// round the ring), more words than the buffer holds have been stored and no huge transaction
// is under way: the harness's resets came more often than that, so the larger configurations'
// rings, ids and buffers never wrapped or filled (docs/coverage.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/commit_unit_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class CommitUnitBench {
 public:
  using Ports = golden::CommitUnitPorts;
  using Model = golden::CommitUnitModel;
  using In = golden::CommitUnitIn;
  using Out = golden::CommitUnitOut;

  /// Knobs of the random traffic (the lockstep tests use the defaults; the rates benchmark and
  /// the directed tests set their own).
  struct Knobs {
    int cores = 8;                            // scripted cores (at most 2**SrcW)
    int max_reads = 6;                        // read-set words per transaction: 0..max_reads
    int max_writes = 4;                       // write-set words: 0..max_writes
    uint32_t big_per_mille = 20;              // transactions with 4x the words
    uint32_t skip_pct = 10;                   // transactions with nothing at this unit
    uint32_t stale_pct = 5;                   // reads whose value is wrong
    uint32_t other_fail_pct = 10;             // passed transactions another unit fails
    uint32_t ext_write_pct = 2;               // cycles with a write by another unit
    uint32_t ready_pct = 85;                  // vr_req_ready / cw_req_ready
    uint32_t msg_pct = 90;                    // cycles a waiting core presents its message
    int max_latency = 12;                     // memory latency: 1..max_latency cycles
    uint32_t bad_per_million = 500;           // transactions with a protocol violation; and
                                              // 1/25 of it: cycles with a stray ack or response
    uint32_t huge_every = 1000;               // every so many, one with BufWords + 4 reads
    uint32_t burst_start_per_million = 1000;  // cycles that start a skip burst
    uint32_t burst_end_per_million = 5000;    // cycles that end one
    uint32_t burst_skip_pct = 90;             // transactions with nothing here during a burst
    uint32_t burst_slow_pct = 20;  // of its outcomes, those sent up to min(16 * RingSize, 1000)
                                   // cycles late (another unit is slow)
  };

  CommitUnitBench(const golden::CommitUnitParams& p, uint64_t seed)
      : CommitUnitBench(p, seed, Knobs{}) {}
  CommitUnitBench(const golden::CommitUnitParams& p, uint64_t seed, const Knobs& k)
      : p_(p), k_(k), rng_(seed) {
    const int pool = 3 + p_.lwh_sets * p_.lwh_ways / 2;
    for (int i = 0; i < pool && i < 64; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
    if (pool > 64) {
      // An LWH too large for the pool to fill: two sets' worth of addresses that share an LWH
      // set (Ways + 2 each), so that writes evict pool words to the recency filter and later
      // lookups of them find them there.
      const golden::LwhModel lwh(golden::LwhParams{.addr_w = p_.addr_w,
                                                   .cid_w = p_.cid_w,
                                                   .sets = p_.lwh_sets,
                                                   .ways = p_.lwh_ways,
                                                   .bf_hashes = p_.lwh_bf_hashes,
                                                   .bf_slots = p_.lwh_bf_slots,
                                                   .scrub_interval = p_.lwh_scrub_interval});
      for (int k = 0; k < 2; ++k) {
        const uint64_t set = lwh.SetIndex(rng_.Bits(p_.addr_w));
        for (int n = 0; n < p_.lwh_ways + 2;) {
          const uint64_t a = rng_.Bits(p_.addr_w);
          if (lwh.SetIndex(a) == set && std::find(pool_.begin(), pool_.end(), a) == pool_.end()) {
            pool_.push_back(a);
            ++n;
          }
        }
      }
    }
    const int max_cores = p_.src_w >= 4 ? 16 : (1 << p_.src_w);
    k_.cores = k_.cores < 1 ? 1 : (k_.cores > max_cores ? max_cores : k_.cores);
    OnReset();
  }

  void OnReset() {
    cores_.assign(k_.cores, Core{});
    next_cid_ = 0;
    vr_pending_.clear();
    cw_pending_.clear();
    cur_ = -1;
    now_ = 0;
    retired_ = 0;
    last_retire_ = 0;
    words_ = 0;
  }
  /// A mid-run reset waits for the commit ids to wrap, or for at most 1024 retirements (the
  /// ring's at least), for more log words stored than the buffer holds, and for no huge
  /// transaction to be under way (it would not reach the buffer's end).
  bool MayReset() const {
    const uint64_t ring = static_cast<uint64_t>(p_.ring_size);
    return retired_ > std::min(uint64_t{1} << p_.cid_w, std::max<uint64_t>(ring, 1024)) &&
           words_ > static_cast<uint64_t>(p_.buf_words) &&
           std::none_of(cores_.begin(), cores_.end(),
                        [](const Core& c) { return c.huge && c.st != St::kIdle; });
  }

  In Next() {
    In in;
    if (rng_.Chance(burst_ ? k_.burst_end_per_million : k_.burst_start_per_million, 1000000)) {
      burst_ = !burst_;
    }
    for (Core& c : cores_) {
      Step(c);
    }
    // Intake: keep presenting the chosen core's message until it is accepted.
    if (cur_ < 0 || !Wants(cores_[cur_])) {
      cur_ = -1;
      std::vector<int> ready;
      for (int i = 0; i < k_.cores; ++i) {
        if (Wants(cores_[i])) {
          ready.push_back(i);
        }
      }
      if (!ready.empty() && rng_.Chance(k_.msg_pct, 100)) {
        cur_ = rng_.Pick(ready);
      }
    }
    if (cur_ >= 0) {
      const Msg m = Current(cores_[cur_]);
      in.in_valid = 1;
      in.in_type = static_cast<uint64_t>(m.type);
      in.in_cid = m.cid;
      in.in_src = static_cast<uint64_t>(cur_);
      in.in_addr = m.addr;
      in.in_data = m.data;
      if (m.type == CuMsg::kReadSet && !m.stale) {
        in.in_data = Mem(m.addr);  // the value the core read: memory now (or stale, on purpose)
      }
    }
    // Memory.
    in.vr_req_ready = rng_.Chance(k_.ready_pct, 100);
    in.cw_req_ready = rng_.Chance(k_.ready_pct, 100);
    std::vector<size_t> due;
    for (size_t i = 0; i < vr_pending_.size(); ++i) {
      if (vr_pending_[i].due <= now_) {
        due.push_back(i);
      }
    }
    if (!due.empty()) {
      const size_t i = rng_.Pick(due);
      in.vr_rsp_valid = 1;
      in.vr_rsp_tag = vr_pending_[i].tag;
      in.vr_rsp_data = Mem(vr_pending_[i].addr);
      vr_pending_.erase(vr_pending_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (!cw_pending_.empty() && cw_pending_.front().due <= now_) {
      in.cw_ack_valid = 1;
      mem_[cw_pending_.front().addr] = cw_pending_.front().data;
      cw_pending_.pop_front();
    }
    if (rng_.Chance(k_.bad_per_million / 25, 1000000)) {
      // A protocol violation by the memory: an acknowledgement with no write outstanding, or
      // a validation response whose tag is not in flight (the unit flags and ignores both).
      if (cw_pending_.empty() && !in.cw_ack_valid) {
        in.cw_ack_valid = 1;
      } else if (!in.vr_rsp_valid) {
        const uint64_t tag = rng_.Bits(golden::IdxWidth(p_.val_tags));
        if (std::none_of(vr_pending_.begin(), vr_pending_.end(),
                         [&](const Pending& v) { return v.tag == tag; })) {
          in.vr_rsp_valid = 1;
          in.vr_rsp_tag = tag;
          in.vr_rsp_data = rng_.Bits(p_.data_w);
        }
      }
    }
    if (rng_.Chance(k_.ext_write_pct, 100)) {
      mem_[Addr()] = rng_.Bits(p_.data_w);  // another commit unit's write
    }
    ++now_;
    return in;
  }

  void Observe(const In& in, const Out& out) {
    if (out.ptr_retire != last_retire_) {
      ++retired_;
      last_retire_ = out.ptr_retire;
    }
    words_ += out.rct_inc_valid;  // a log word stored
    if (in.in_valid && out.in_ready && cur_ >= 0) {
      Accepted(cores_[cur_]);
      cur_ = -1;
    }
    if (out.vr_req_valid && in.vr_req_ready) {
      vr_pending_.push_back(Pending{out.vr_req_addr, 0, out.vr_req_tag, now_ + Latency()});
    }
    if (out.cw_req_valid && in.cw_req_ready) {
      const uint64_t due =
          std::max(now_ + Latency(), cw_pending_.empty() ? 0 : cw_pending_.back().due);
      cw_pending_.push_back(Pending{out.cw_req_addr, out.cw_req_data, 0, due});
    }
    if (out.arep_valid && out.arep_src < cores_.size()) {
      Core& c = cores_[out.arep_src];
      if (c.st == St::kAllocWait && c.cid == out.arep_cid) {
        c.st = out.arep_pass ? St::kSend : St::kAlloc;
        c.delay = out.arep_pass ? 0 : static_cast<int>(rng_.Below(8));
      }
    }
    if (out.rep_valid && out.rep_src < cores_.size()) {
      Core& c = cores_[out.rep_src];
      const auto type = static_cast<CuRep>(out.rep_type);
      // The reply may come while the core still sends a protocol violation after DoneFill.
      const bool waits = c.st == St::kWaitRep || (c.st == St::kSend && !c.outcome && c.filled);
      if (waits && c.cid == out.rep_cid && type != CuRep::kDoneCommit) {
        c.outcome = true;
        if (type == CuRep::kPass) {
          const bool fail = rng_.Chance(k_.other_fail_pct, 100);
          c.msgs = {Msg{fail ? CuMsg::kFail : CuMsg::kPass, c.cid, 0, 0, false}};
          if (rng_.Chance(k_.bad_per_million, 1000000)) {
            // A protocol violation: a second outcome for the same entry.
            c.msgs.push_back(
                Msg{rng_.Chance(1, 2) ? CuMsg::kFail : CuMsg::kPass, c.cid, 0, 0, false});
          }
          c.next = 0;
          c.commit = !fail && c.writes;
          c.st = St::kSend;
          c.delay = static_cast<int>(rng_.Below(4));
          if (burst_ && rng_.Chance(k_.burst_slow_pct, 100)) {
            c.delay = static_cast<int>(
                rng_.Below(std::min<uint64_t>(16 * static_cast<uint64_t>(p_.ring_size), 1000)));
          }
        } else if (rng_.Chance(k_.bad_per_million, 1000000)) {
          // A protocol violation: an outcome for an entry this unit failed.
          c.msgs = {Msg{rng_.Chance(1, 2) ? CuMsg::kFail : CuMsg::kPass, c.cid, 0, 0, false}};
          c.next = 0;
          c.commit = false;
          c.st = St::kSend;
          c.delay = static_cast<int>(rng_.Below(2));
        } else {
          c.st = St::kIdle;
        }
      } else if ((c.st == St::kWaitDone || (c.st == St::kSend && c.outcome && c.commit)) &&
                 c.cid == out.rep_cid && type == CuRep::kDoneCommit) {
        // (DoneCommit may come while the core still sends a second outcome: it drops it.)
        c.st = St::kIdle;
        ++committed_;
      }
    }
  }

  uint64_t committed() const { return committed_; }

 private:
  enum class St { kIdle, kAlloc, kAllocWait, kSend, kWaitRep, kWaitDone };
  struct Msg {
    CuMsg type;
    uint64_t cid, addr, data;
    bool stale;
  };
  struct Core {
    St st = St::kIdle;
    uint64_t cid = 0;
    std::vector<Msg> msgs;
    size_t next = 0;
    bool writes = false;   // the transaction has writes here
    bool outcome = false;  // msgs is the final outcome
    bool filled = false;   // DoneFill was taken
    bool huge = false;     // a huge transaction (no reset until it is over)
    bool commit = false;   // the outcome is Pass with writes: wait for DoneCommit
    int delay = 0;
  };
  struct Pending {
    uint64_t addr, data, tag, due;
  };

  uint64_t Mem(uint64_t addr) const {
    const auto it = mem_.find(addr);
    return it == mem_.end() ? 0 : it->second;
  }
  uint64_t Addr() { return rng_.Chance(7, 8) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w); }
  uint64_t Latency() { return 1 + rng_.Below(static_cast<uint64_t>(k_.max_latency)); }

  bool Wants(const Core& c) const {
    return c.delay == 0 && (c.st == St::kAlloc || (c.st == St::kSend && c.next < c.msgs.size()));
  }
  static Msg Current(const Core& c) {
    return c.st == St::kAlloc ? Msg{CuMsg::kAlloc, c.cid, 0, 0, false} : c.msgs[c.next];
  }

  // Advance a core that is not waiting on the unit.
  void Step(Core& c) {
    if (c.delay > 0) {
      --c.delay;
      return;
    }
    if (c.st != St::kIdle) {
      return;
    }
    if (!rng_.Chance(1, 3)) {
      return;  // think time
    }
    c.cid = next_cid_;
    next_cid_ = (next_cid_ + 1) & golden::LowMask(p_.cid_w);
    c.msgs.clear();
    c.next = 0;
    c.writes = false;
    c.commit = false;
    c.outcome = false;
    c.filled = false;
    c.huge = false;
    if (rng_.Chance(burst_ ? k_.burst_skip_pct : k_.skip_pct, 100)) {
      c.msgs.push_back(Msg{CuMsg::kSkip, c.cid, 0, 0, false});
    } else {
      const int mul = rng_.Chance(k_.big_per_mille, 1000) ? 4 : 1;
      int nr = static_cast<int>(rng_.Below(uint64_t(k_.max_reads * mul) + 1));
      // A huge one reads fresh words from the whole address space: no stale value or other
      // unit's write fails it before its words have filled the buffer.
      const bool huge = k_.huge_every != 0 && ++since_huge_ >= k_.huge_every;
      since_huge_ = huge ? 0 : since_huge_;
      c.huge = huge;
      if (huge) {
        nr = p_.buf_words + 4;
      }
      const int nw = static_cast<int>(rng_.Below(uint64_t(k_.max_writes * mul) + 1));
      std::vector<uint64_t> waddrs;
      std::vector<Msg> words;
      for (int i = 0; i < nr; ++i) {
        words.push_back(Msg{CuMsg::kReadSet, c.cid, huge ? rng_.Bits(p_.addr_w) : Addr(),
                            rng_.Bits(p_.data_w), !huge && rng_.Chance(k_.stale_pct, 100)});
      }
      for (int i = 0; i < nw; ++i) {
        const uint64_t a = Addr();
        bool dup = false;
        for (uint64_t w : waddrs) {
          dup = dup || w == a;
        }
        if (!dup) {  // the write set is a set
          waddrs.push_back(a);
          words.push_back(Msg{CuMsg::kWriteSet, c.cid, a, rng_.Bits(p_.data_w), false});
        }
      }
      // Reads and writes interleave in any order.
      for (size_t i = words.size(); i > 1; --i) {
        std::swap(words[i - 1], words[rng_.Below(i)]);
      }
      c.msgs = words;
      c.msgs.push_back(Msg{CuMsg::kDoneFill, c.cid, 0, 0, false});
      c.writes = !waddrs.empty();
    }
    if (rng_.Chance(k_.bad_per_million, 1000000)) {
      AddViolation(c);
    }
    c.st = St::kAlloc;
  }

  // Appends (or inserts) one message that breaks the protocol to a new transaction's list; the
  // unit flags it (err) and drops it, and the rest of the transaction goes on.
  void AddViolation(Core& c) {
    const uint64_t cmask = golden::LowMask(p_.cid_w);
    const bool words = c.msgs.size() > 1;  // some log words before DoneFill
    switch (rng_.Below(6)) {
      case 0:  // a word after DoneFill (or Skip)
        c.msgs.push_back(Msg{CuMsg::kReadSet, c.cid, Addr(), 0, false});
        break;
      case 1:  // a word for a cid outside the window
        c.msgs.push_back(Msg{CuMsg::kWriteSet, (c.cid + p_.ring_size) & cmask, Addr(), 0, false});
        break;
      case 2:  // a Skip after the first word (or after DoneFill or Skip)
        c.msgs.insert(c.msgs.begin() + (words ? 1 : static_cast<std::ptrdiff_t>(c.msgs.size())),
                      Msg{CuMsg::kSkip, c.cid, 0, 0, false});
        break;
      case 3:  // a second DoneFill (or one after Skip)
        c.msgs.push_back(Msg{CuMsg::kDoneFill, c.cid, 0, 0, false});
        break;
      case 4:  // a message type with no meaning
        c.msgs.push_back(Msg{static_cast<CuMsg>(7), c.cid, 0, 0, false});
        break;
      default:  // an outcome before this unit's reply (with words: it has not filled yet)
        c.msgs.insert(c.msgs.begin() + (words ? 1 : static_cast<std::ptrdiff_t>(c.msgs.size())),
                      Msg{rng_.Chance(1, 2) ? CuMsg::kPass : CuMsg::kFail, c.cid, 0, 0, false});
        break;
    }
  }

  void Accepted(Core& c) {
    if (c.st == St::kAlloc) {
      c.st = St::kAllocWait;
      return;
    }
    c.filled = c.filled || c.msgs[c.next].type == CuMsg::kDoneFill;
    ++c.next;
    if (c.next < c.msgs.size()) {
      return;
    }
    if (c.outcome) {
      c.st = c.commit ? St::kWaitDone : St::kIdle;
    } else if (c.msgs.front().type == CuMsg::kSkip) {
      c.st = St::kIdle;
    } else {
      c.st = St::kWaitRep;
      c.outcome = true;  // the next message list is the outcome
    }
  }

  golden::CommitUnitParams p_;
  Knobs k_;
  Rng rng_;
  std::vector<uint64_t> pool_;
  std::vector<Core> cores_;
  uint64_t next_cid_ = 0;
  std::vector<Pending> vr_pending_;
  std::deque<Pending> cw_pending_;
  std::unordered_map<uint64_t, uint64_t> mem_;
  int cur_ = -1;
  uint64_t now_ = 0;
  uint64_t committed_ = 0;
  uint64_t retired_ = 0, last_retire_ = 0;  // entries retired since the last reset
  uint64_t words_ = 0;                      // log words stored since the last reset
  bool burst_ = false;                      // a skip burst
  uint32_t since_huge_ = 0;                 // transactions with words since the last huge one
};

}  // namespace htm::tb
