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
// through Observe(). The scripted cores are htm/tb/cu_cores.h (shared with htm_sys_part's
// bench); this bench adds the memory side and the address pool.
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
#include <optional>
#include <unordered_map>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/commit_unit_model.h"
#include "htm/tb/cu_cores.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class CommitUnitBench {
 public:
  using Ports = golden::CommitUnitPorts;
  using Model = golden::CommitUnitModel;
  using In = golden::CommitUnitIn;
  using Out = golden::CommitUnitOut;

  /// Knobs of the random traffic (the lockstep tests use the defaults; the rates benchmark and
  /// the directed tests set their own): the cores' (htm/tb/cu_cores.h: `cores` at most 2**SrcW
  /// here, `bad_per_million` also gives the memory's violations, 1/25 of it: cycles with a
  /// stray acknowledgement or response) and the memory's.
  struct Knobs : CuCores::Knobs {
    uint32_t ext_write_pct = 2;  // cycles with a write by another unit
    uint32_t ready_pct = 85;     // vr_req_ready / cw_req_ready
    int max_latency = 12;        // memory latency: 1..max_latency cycles
  };

  CommitUnitBench(const golden::CommitUnitParams& p, uint64_t seed)
      : CommitUnitBench(p, seed, Knobs{}) {}
  CommitUnitBench(const golden::CommitUnitParams& p, uint64_t seed, const Knobs& k)
      : p_(p), k_(k), rng_(seed), cores_(p, rng_, CoreKnobs(p, k), Sources(p, k), Hooks()) {
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
    OnReset();
  }

  void OnReset() {
    cores_.Reset();
    vr_pending_.clear();
    cw_pending_.clear();
    offer_.reset();
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
           words_ > static_cast<uint64_t>(p_.buf_words) && !cores_.HugeUnderway();
  }

  In Next() {
    In in;
    // Intake: the cores keep presenting the chosen core's message until it is accepted.
    offer_ = cores_.Next();
    if (offer_) {
      const CuCores::Msg& m = offer_->msg;
      in.in_valid = 1;
      in.in_type = static_cast<uint64_t>(m.type);
      in.in_cid = m.cid;
      in.in_src = cores_.src(offer_->core);
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
    if (in.in_valid && out.in_ready && offer_) {
      cores_.Accepted();
      offer_.reset();
    }
    if (out.vr_req_valid && in.vr_req_ready) {
      vr_pending_.push_back(Pending{out.vr_req_addr, 0, out.vr_req_tag, now_ + Latency()});
    }
    if (out.cw_req_valid && in.cw_req_ready) {
      const uint64_t due =
          std::max(now_ + Latency(), cw_pending_.empty() ? 0 : cw_pending_.back().due);
      cw_pending_.push_back(Pending{out.cw_req_addr, out.cw_req_data, 0, due});
    }
    if (out.arep_valid) {
      cores_.AllocReply(out.arep_src, out.arep_cid, out.arep_pass != 0);
    }
    if (out.rep_valid) {
      cores_.Reply(out.rep_src, out.rep_cid, static_cast<CuRep>(out.rep_type));
    }
  }

  uint64_t committed() const { return cores_.committed(); }

 private:
  struct Pending {
    uint64_t addr, data, tag, due;
  };

  static CuCores::Knobs CoreKnobs(const golden::CommitUnitParams& p, const Knobs& k) {
    CuCores::Knobs c = k;
    const int max_cores = p.src_w >= 4 ? 16 : (1 << p.src_w);
    c.cores = k.cores < 1 ? 1 : (k.cores > max_cores ? max_cores : k.cores);
    return c;
  }
  // Core i's source is i.
  static std::vector<uint64_t> Sources(const golden::CommitUnitParams& p, const Knobs& k) {
    std::vector<uint64_t> s(CoreKnobs(p, k).cores);
    for (size_t i = 0; i < s.size(); ++i) {
      s[i] = i;
    }
    return s;
  }
  CuCores::Hooks Hooks() {
    return CuCores::Hooks{[this] { return Addr(); }, [this] { return rng_.Bits(p_.addr_w); }};
  }

  uint64_t Mem(uint64_t addr) const {
    const auto it = mem_.find(addr);
    return it == mem_.end() ? 0 : it->second;
  }
  uint64_t Addr() { return rng_.Chance(7, 8) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w); }
  uint64_t Latency() { return 1 + rng_.Below(static_cast<uint64_t>(k_.max_latency)); }

  golden::CommitUnitParams p_;
  Knobs k_;
  Rng rng_;
  CuCores cores_;
  std::vector<uint64_t> pool_;
  std::optional<CuCores::Offer> offer_;  // the message presented this cycle
  std::vector<Pending> vr_pending_;
  std::deque<Pending> cw_pending_;
  std::unordered_map<uint64_t, uint64_t> mem_;
  uint64_t now_ = 0;
  uint64_t retired_ = 0, last_retire_ = 0;  // entries retired since the last reset
  uint64_t words_ = 0;                      // log words stored since the last reset
};

}  // namespace htm::tb
