// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/lwh_model.h"

#include <algorithm>
#include <stdexcept>

#include "htm/sig_masks.h"

namespace htm::golden {

namespace {

SigRecencyRamParams BloomParams(const LwhParams& p) {
  return SigRecencyRamParams{.addr_w = p.addr_w,
                             .num_hashes = p.bf_hashes,
                             .slots_per_hash = p.bf_slots,
                             .val_w = p.cid_w,
                             .hash_kind = htm::SigHash::kH3};
}

}  // namespace

const LwhParams& LwhModel::Checked(const LwhParams& p) {
  if (std::string err = CheckLwhParams(p); !err.empty()) {
    throw std::invalid_argument("htm_lwh: " + err);
  }
  return p;
}

std::string CheckLwhParams(const LwhParams& p) {
  if (p.addr_w < 1 || p.addr_w > 64) {
    return "AddrW must be in 1..64, got " + std::to_string(p.addr_w);
  }
  if (p.cid_w < 4 || p.cid_w > 63) {
    return "CidW must be in 4..63, got " + std::to_string(p.cid_w);
  }
  if (!IsPow2(p.sets) || SigIdxWidth(p.sets) > kSigMaxIdxBits) {
    return "Sets must be a power of two in 1..65536, got " + std::to_string(p.sets);
  }
  if (p.ways < 1) {
    return "Ways must be at least 1, got " + std::to_string(p.ways);
  }
  if (p.bf_hashes < 1 || p.bf_hashes >= kSigMaxHashes) {
    return "BfHashes must be in 1.." + std::to_string(kSigMaxHashes - 1) + ", got " +
           std::to_string(p.bf_hashes);
  }
  if (!IsPow2(p.bf_slots) || SigIdxWidth(p.bf_slots) > kSigMaxIdxBits) {
    return "BfSlots must be a power of two in 1..65536, got " + std::to_string(p.bf_slots);
  }
  if (p.scrub_interval < 2) {
    return "ScrubInterval must be at least 2, got " + std::to_string(p.scrub_interval);
  }
  if (p.res_pipe != 0 && p.res_pipe != 1) {
    return "ResPipe must be 0 or 1, got " + std::to_string(p.res_pipe);
  }
  const uint64_t steps = static_cast<uint64_t>(std::max(p.sets, p.bf_slots));
  const uint64_t bound = (uint64_t{1} << (p.cid_w - 2)) + steps * p.scrub_interval + 2;
  if (bound >= (uint64_t{1} << (p.cid_w - 1))) {
    return "the age bound 2**(CidW-2) + max(Sets, BfSlots) * ScrubInterval + 2 = " +
           std::to_string(bound) + " must be below 2**(CidW-1): widen CidW or scrub more often";
  }
  return "";
}

LwhModel::LwhModel(const LwhParams& p)
    : p_(p), set_w_(SigIdxWidth(p.sets)), bf_(BloomParams(Checked(p))) {
  Reset();
}

void LwhModel::Reset() {
  // The RAM words are unknown after reset; the initial sweep invalidates them before any
  // operation is accepted.
  table_.assign(static_cast<size_t>(p_.sets) * p_.ways, Way{});
  bf_.Reset();
  init_ = true;
  init_set_ = 0;
  scrub_ptr_ = scrub_cnt_ = 0;
  s1_ = Stage{};
  s2_ = Stage2{};
  res_q_ = Answer{};
}

uint64_t LwhModel::SetIndex(uint64_t addr) const {
  return p_.sets == 1 ? 0 : SigHashIndex(htm::SigHash::kH3, p_.addr_w, set_w_, p_.bf_hashes, addr);
}

uint64_t LwhModel::AgeBound() const {
  return StaleAge() + static_cast<uint64_t>(std::max(p_.sets, p_.bf_slots)) * p_.scrub_interval + 2;
}

bool LwhModel::ready() const {
  return !init_ && bf_.ready() && !ScrubForce();
}

LwhModel::Result LwhModel::Compute() const {
  Result r;
  const Way* set = &table_[s1_.set * p_.ways];
  uint64_t old_age = Age(s1_.now, set[0].cid);
  for (int w = p_.ways - 1; w >= 0; --w) {
    if (set[w].valid && set[w].addr == s1_.addr) {
      r.hit = true;
      r.hit_cid = set[w].cid;
      r.ins_way = w;
    }
    if (!set[w].valid) {
      r.any_free = true;
    }
  }
  for (int w = 1; w < p_.ways; ++w) {
    if (Age(s1_.now, set[w].cid) > old_age) {
      old_age = Age(s1_.now, set[w].cid);
      r.old_way = w;
    }
  }
  if (!r.hit) {
    r.ins_way = r.old_way;
    for (int w = p_.ways - 1; w >= 0; --w) {
      if (!set[w].valid) {
        r.ins_way = w;
      }
    }
  }
  r.evict = s1_.op && s1_.write && !r.hit && !r.any_free;
  return r;
}

SigRecencyRamIn LwhModel::BloomIn(const LwhIn& in, const Result& r) const {
  SigRecencyRamIn b;
  b.now = in.now & LowMask(p_.cid_w);
  b.lkp_valid = in.op_valid && ready() && !in.op_write;
  b.lkp_addr = in.op_addr & LowMask(p_.addr_w);
  if (p_.res_pipe) {
    // The victim and the scrub step of last cycle's stage 1.
    b.ins_valid = s2_.evict;
    b.ins_addr = s2_.evict ? s2_.addr : 0;
    b.ins_val = s2_.evict ? s2_.cid : 0;
    b.scrub_valid = s2_.scrub;
    b.scrub_idx = s2_.bf_scrub_idx;
  } else {
    const Way& victim = table_[s1_.set * p_.ways + r.old_way];
    b.ins_valid = r.evict;
    b.ins_addr = r.evict ? victim.addr : 0;
    b.ins_val = r.evict ? victim.cid : 0;
    b.scrub_valid = s1_.scrub;
    b.scrub_idx = s1_.bf_scrub_idx;
  }
  b.scrub_all = 0;
  return b;
}

LwhModel::Answer LwhModel::Lookup(const LwhIn& in, const Result& r) const {
  const SigRecencyRamOut b = bf_.Eval(BloomIn(in, r));
  const bool lookup = s1_.op && !s1_.write;
  // With ResPipe, the entry evicted last cycle is not in the filter yet: its address answers
  // from the stage-2 register.
  const bool fwd = p_.res_pipe && s2_.evict && s2_.addr == s1_.addr;
  Answer a;
  a.valid = lookup;
  a.hit = lookup && r.hit;
  a.found = lookup && (r.hit || fwd || b.lkp_found);
  a.cid = !lookup ? 0 : r.hit ? r.hit_cid : fwd ? s2_.cid : b.lkp_val;
  return a;
}

LwhOut LwhModel::Eval(const LwhIn& in) const {
  const Result r = Compute();
  const Answer a = p_.res_pipe ? res_q_ : Lookup(in, r);
  LwhOut out;
  out.ready = ready();
  out.res_valid = a.valid;
  out.res_hit = a.hit;
  out.res_found = a.found;
  out.res_cid = a.cid;
  out.evict_valid = r.evict;
  const Way& victim = table_[s1_.set * p_.ways + r.old_way];
  out.evict_addr = r.evict ? victim.addr : 0;
  out.evict_cid = r.evict ? victim.cid : 0;
  return out;
}

void LwhModel::Tick(const LwhIn& in) {
  const Result r = Compute();
  const bool was_init = init_;
  const bool bf_ready = bf_.ready();
  const bool rdy = ready();
  const bool force = ScrubForce();
  // Coverage (the filter's lookup result is registered: its Eval reads no input).
  const bool lookup = s1_.op && !s1_.write;
  if (lookup) {
    if (r.hit) {
      ++cover_.lookup_hit;
    } else if (bf_.Eval(SigRecencyRamIn{}).lkp_found) {
      ++cover_.lookup_filter;
    } else {
      ++cover_.lookup_miss;
    }
  }
  if (!was_init && s1_.op && s1_.write) {
    cover_.write_update += r.hit ? 1 : 0;
    cover_.write_insert += !r.hit && r.any_free ? 1 : 0;
  }
  cover_.evict += r.evict ? 1 : 0;
  cover_.op_stall += in.op_valid && !rdy ? 1 : 0;
  cover_.forced_scrub += in.op_valid && force && !was_init && bf_ready ? 1 : 0;
  if (p_.res_pipe) {
    res_q_ = Lookup(in, r);
  }
  bf_.Tick(BloomIn(in, r));
  if (p_.res_pipe) {
    const Way& victim = table_[s1_.set * p_.ways + r.old_way];
    s2_ = Stage2{.evict = r.evict,
                 .scrub = s1_.scrub,
                 .addr = victim.addr,
                 .cid = victim.cid,
                 .bf_scrub_idx = s1_.bf_scrub_idx};
  }

  // Stage 1 writes the table.
  if (was_init) {
    for (int w = 0; w < p_.ways; ++w) {
      table_[init_set_ * p_.ways + w] = Way{};
    }
  } else if (s1_.scrub) {
    for (int w = 0; w < p_.ways; ++w) {
      Way& way = table_[s1_.set * p_.ways + w];
      if (way.valid && Age(s1_.now, way.cid) >= StaleAge()) {
        way.valid = false;
        ++cover_.scrub_remove;
      }
    }
  } else if (s1_.op && s1_.write) {
    table_[s1_.set * p_.ways + r.ins_way] = Way{true, s1_.addr, s1_.cid};
  }

  // Stage 0: acceptance and the scrub schedule.
  const bool op_acc = in.op_valid && rdy;
  const bool scrub_go = !was_init && bf_ready && (force || !in.op_valid);
  const int steps = std::max(p_.sets, p_.bf_slots);
  Stage next;
  next.op = op_acc;
  next.write = op_acc && in.op_write;
  next.scrub = scrub_go;
  next.addr = in.op_addr & LowMask(p_.addr_w);
  next.cid = in.op_cid & LowMask(p_.cid_w);
  next.now = in.now & LowMask(p_.cid_w);
  next.set = op_acc ? SetIndex(next.addr) : static_cast<uint64_t>(scrub_ptr_ % p_.sets);
  next.bf_scrub_idx = static_cast<uint64_t>(scrub_ptr_ % p_.bf_slots);
  if (was_init) {
    if (++init_set_ == p_.sets) {
      init_ = false;
    }
  }
  if (scrub_go) {
    scrub_ptr_ = (scrub_ptr_ + 1) % steps;
    scrub_cnt_ = 0;
  } else if (!was_init && bf_ready && !force) {
    ++scrub_cnt_;
  }
  s1_ = next;
}

}  // namespace htm::golden
