// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/commit_unit_model.h"

#include <stdexcept>

namespace htm::golden {

namespace {

constexpr int kAlloc = static_cast<int>(CuMsg::kAlloc);
constexpr int kReadSet = static_cast<int>(CuMsg::kReadSet);
constexpr int kWriteSet = static_cast<int>(CuMsg::kWriteSet);
constexpr int kDoneFill = static_cast<int>(CuMsg::kDoneFill);
constexpr int kSkip = static_cast<int>(CuMsg::kSkip);
constexpr int kPass = static_cast<int>(CuMsg::kPass);
constexpr int kFail = static_cast<int>(CuMsg::kFail);

LwhParams LwhOf(const CommitUnitParams& p) {
  return LwhParams{.addr_w = p.addr_w,
                   .cid_w = p.cid_w,
                   .sets = p.lwh_sets,
                   .ways = p.lwh_ways,
                   .bf_hashes = p.lwh_bf_hashes,
                   .bf_slots = p.lwh_bf_slots,
                   .scrub_interval = p.lwh_scrub_interval,
                   .res_pipe = p.lwh_pipe};
}

}  // namespace

std::string CheckCommitUnitParams(const CommitUnitParams& p) {
  if (p.addr_w < 1 || p.addr_w > 64) {
    return "AddrW must be in 1..64, got " + std::to_string(p.addr_w);
  }
  if (p.data_w < 1 || p.data_w > 64) {
    return "DataW must be in 1..64, got " + std::to_string(p.data_w);
  }
  if (p.src_w < 1 || p.src_w > 64) {
    return "SrcW must be in 1..64, got " + std::to_string(p.src_w);
  }
  if (p.cid_w < 4 || p.cid_w > 63) {
    return "CidW must be in 4..63, got " + std::to_string(p.cid_w);
  }
  if (!IsPow2(p.ring_size) || p.ring_size < 2) {
    return "RingSize must be a power of two >= 2, got " + std::to_string(p.ring_size);
  }
  if (uint64_t(p.ring_size) > (uint64_t{1} << (p.cid_w - 2))) {
    return "RingSize " + std::to_string(p.ring_size) + " must not exceed 2**(CidW-2)";
  }
  if (p.buf_words < 2 || p.buf_words > (1 << 20)) {
    return "BufWords must be in 2..2**20, got " + std::to_string(p.buf_words);
  }
  if (p.val_tags < 1 || p.val_tags > 256) {
    return "ValTags must be in 1..256, got " + std::to_string(p.val_tags);
  }
  if (p.lwh_pipe != 0 && p.lwh_pipe != 1) {
    return "LwhPipe must be 0 or 1, got " + std::to_string(p.lwh_pipe);
  }
  if (std::string err = CheckLwhParams(LwhOf(p)); !err.empty()) {
    return "LWH: " + err;
  }
  return "";
}

const CommitUnitParams& CommitUnitModel::Checked(const CommitUnitParams& p) {
  if (std::string err = CheckCommitUnitParams(p); !err.empty()) {
    throw std::invalid_argument("htm_commit_unit: " + err);
  }
  return p;
}

CommitUnitModel::CommitUnitModel(const CommitUnitParams& p) : p_(Checked(p)), lwh_(LwhOf(p)) {
  buf_.resize(p_.buf_words);
  fl_mem_.resize(p_.buf_words);
  Reset();
}

void CommitUnitModel::Reset() {
  lwh_.Reset();
  ent_.assign(p_.ring_size, Entry{});
  active_ = 0;
  tags_.assign(p_.val_tags, Tag{});
  // Buffer and free-list RAM contents survive reset (block RAM); nothing reads them before a
  // write after reset.
  fresh_ = 0;
  fl_w_ = fl_r_ = fl_cnt_ = 0;
  fl_inflight_ = false;
  ob_cnt_ = 0;
  ptr_r_ = ptr_c_ = ptr_p_ = ptr_f_ = 0;
  fw_.active = pw_.active = cw_.active = rw_.active = false;
  r_state_ = RetireState::kIdle;
  r_wcount_ = 0;
  lk_ = Lookup{};
  hz_ = Lookup{};
  cw_out_ = ack_pool_ = 0;
  arep_valid_ = false;
  err_ = false;
}

int CommitUnitModel::FreeWords() const {
  return (p_.buf_words - fresh_) + fl_cnt_ + ob_cnt_ + (fl_inflight_ ? 1 : 0);
}

int CommitUnitModel::TagsInFlight() const {
  int n = 0;
  for (const Tag& t : tags_) {
    n += t.valid ? 1 : 0;
  }
  return n;
}

bool CommitUnitModel::Pending(int idx) const {
  for (const Tag& t : tags_) {
    if (t.valid && t.idx == idx) {
      return true;
    }
  }
  return false;
}

CommitUnitModel::Comb CommitUnitModel::Decide(const CommitUnitIn& in) const {
  Comb c;
  const uint64_t amask = LowMask(p_.addr_w);
  const uint64_t dmask = LowMask(p_.data_w);

  // ---- Validation tags: the lowest free one.
  for (int t = 0; t < p_.val_tags; ++t) {
    if (!tags_[t].valid) {
      c.tag_free = true;
      c.tag = t;
      break;
    }
  }

  // ---- Retire pointer (first: its DoneCommit reply has priority on the reply port).
  const Entry& er = ent_[Idx(ptr_r_)];
  bool r_try_finish = false;
  c.r_next = r_state_;
  if (r_state_ == RetireState::kIdle) {
    if (ptr_r_ != ptr_c_) {
      if (er.rd_has || er.wr_has) {
        c.r_start = true;
        c.r_rd_en = true;
        c.r_kind = er.rd_has ? 0 : 1;
        c.r_raddr = er.rd_has ? er.rd_head : er.wr_head;
        c.r_next = RetireState::kWalk;
      } else {
        r_try_finish = true;
      }
    }
  } else if (r_state_ == RetireState::kWalk) {
    c.r_consume = true;  // one word per cycle, never stalls
    c.r_kind = rw_.kind;
    if (!rw_.rd.last) {
      c.r_rd_en = true;
      c.r_raddr = rw_.rd.next;
    } else if (rw_.kind == 0 && er.wr_has) {
      c.r_rd_en = true;
      c.r_kind = 1;
      c.r_raddr = er.wr_head;
    } else {
      r_try_finish = true;  // the last word: finish in this cycle when no ack is missing
      c.r_wcount = r_wcount_ + (rw_.kind == 1 ? 1 : 0);
      c.r_next = RetireState::kDone;
    }
  } else {
    r_try_finish = true;
    c.r_wcount = r_wcount_;
  }
  if (r_try_finish) {
    const bool need_ack = er.rep_pass && er.out_pass && c.r_wcount > 0;
    c.r_finish = !need_ack || ack_pool_ >= c.r_wcount;
    c.r_rep = need_ack && c.r_finish;
    c.r_ack_wait = !c.r_finish;
  }
  if (c.r_finish) {
    c.r_next = RetireState::kIdle;
    // Start the next entry's walk in the same cycle when it is already eligible.
    const uint64_t nr = (ptr_r_ + 1) & Mask();
    const Entry& en = ent_[Idx(nr)];
    if (nr != ptr_c_ && (en.rd_has || en.wr_has)) {
      c.r_start = true;
      c.r_rd_en = true;
      c.r_kind = en.rd_has ? 0 : 1;
      c.r_raddr = en.rd_has ? en.rd_head : en.wr_head;
      c.r_next = RetireState::kWalk;
    }
  }
  c.fl_push = c.r_consume;

  // ---- Commit pointer. cw_.active: the RAM copy's output holds the next write-set word of
  // the entry at the pointer (its head is fetched as soon as the entry is eligible, before the
  // core's outcome arrives).
  const Entry& ec = ent_[Idx(ptr_c_)];
  if (ptr_c_ != ptr_p_) {
    if (ec.skip || !ec.rep_pass || ec.out_fail) {
      c.c_adv = true;
    } else if (!ec.wr_has) {
      c.c_adv = ec.out_pass;
    } else if (!cw_.active) {
      c.c_rd_en = true;
      c.c_raddr = ec.wr_head;
      c.c_bubble = ec.out_pass;
    } else if (ec.out_pass) {
      c.c_valid = true;
      c.c_fire = in.cw_req_ready != 0;
      if (c.c_fire) {
        if (!cw_.rd.last) {
          c.c_rd_en = true;
          c.c_raddr = cw_.rd.next;
        } else {
          c.c_adv = true;
        }
      }
    }
  }
  if (c.c_adv) {
    // Fetch the next entry's head in the same cycle when it is already eligible.
    const uint64_t nc = (ptr_c_ + 1) & Mask();
    const Entry& en = ent_[Idx(nc)];
    if (nc != ptr_p_ && !en.skip && en.rep_pass && !en.out_fail && en.wr_has) {
      c.c_rd_en = true;
      c.c_raddr = en.wr_head;
    }
  }

  // ---- Pass pointer.
  const int pidx = Idx(ptr_p_);
  const Entry& ep = ent_[pidx];
  const bool p_elig = ptr_p_ != ptr_f_ && !(lk_.valid && lk_.idx == pidx) &&
                      !(p_.lwh_pipe && hz_.valid && hz_.idx == pidx);
  if (!pw_.active) {
    if (p_elig) {
      if (ep.skip) {
        c.p_adv = true;
      } else if (Pending(pidx)) {
        // wait for the validations in flight
      } else if (ep.fail) {
        if (!c.r_rep) {
          c.p_rep = true;
          c.p_adv = true;
        } else {
          c.p_deferred = true;
        }
      } else if (ep.conflict) {
        if (Dist(ep.conf_cid, ptr_r_) >= uint64_t(p_.ring_size)) {  // the writer has retired
          c.p_clear_conflict = true;
          c.p_start = true;
          c.p_rd_en = true;
          c.p_raddr = ep.rd_head;
        }
      } else if (!c.r_rep) {
        c.p_rep = true;
        c.p_rep_pass = true;
        c.p_adv = true;
      } else {
        c.p_deferred = true;
      }
    }
  }

  // ---- Validation request port: revalidation first, then intake.
  c.type = static_cast<int>(in.in_type);
  c.in_idx = Idx(in.in_cid);
  const Entry& ei = ent_[c.in_idx];
  const bool win = InWindow(in.in_cid);
  const bool open = win && !ei.filled && !ei.skip;
  switch (c.type) {
    case kAlloc:
      c.legal = true;
      break;
    case kReadSet:
    case kWriteSet:
    case kDoneFill:
      c.legal = open;
      break;
    case kSkip:
      c.legal = open && !ei.started;
      break;
    case kPass:
    case kFail:
      c.legal = win && ei.rep_pass && !ei.out_pass && !ei.out_fail;
      break;
    default:
      c.legal = false;
      break;
  }
  const bool is_word = c.type == kReadSet || c.type == kWriteSet;
  const bool store_try = c.legal && is_word && !ei.fail;
  c.need_vr = store_try && SlotAvail() && c.type == kReadSet;
  if (pw_.active) {
    c.vr_from_reval = true;
    c.vr_valid = c.tag_free;
    c.vr_addr = pw_.rd.addr;
    c.vr_value = pw_.rd.data;
    c.vr_idx = pidx;
    c.in_ready = !c.need_vr;
  } else {
    c.vr_valid = in.in_valid && c.need_vr && c.tag_free;
    c.vr_addr = in.in_addr & amask;
    c.vr_value = in.in_data & dmask;
    c.vr_idx = c.in_idx;
    c.in_ready = !c.need_vr || (c.tag_free && in.vr_req_ready);
  }
  c.vr_fire = c.vr_valid && in.vr_req_ready;
  if (pw_.active && c.vr_fire) {
    if (!pw_.rd.last) {
      c.p_rd_en = true;
      c.p_raddr = pw_.rd.next;
    } else {
      c.p_end = true;
    }
  }
  c.accept = in.in_valid && c.in_ready;
  c.store = c.accept && store_try && SlotAvail();
  c.cap_fail = c.accept && store_try && !SlotAvail();
  c.from_fifo = c.store && fresh_ >= p_.buf_words;
  c.slot = fresh_ < p_.buf_words ? fresh_ : ob_[0];
  c.fl_pop = c.from_fifo;

  // ---- Hazard detection pointer and the LWH.
  const Entry& ef = ent_[Idx(ptr_f_)];
  c.lwh_in.now = ptr_f_;
  if (!fw_.active) {
    if (Dist(ptr_f_, ptr_r_) < uint64_t(p_.ring_size) && (ef.filled || ef.skip)) {
      if (ef.skip || ef.fail || (!ef.rd_has && !ef.wr_has)) {
        c.f_adv = true;
      } else {
        c.f_start = true;
        c.f_rd_en = true;
        c.f_kind = ef.rd_has ? 0 : 1;
        c.f_raddr = ef.rd_has ? ef.rd_head : ef.wr_head;
      }
    }
  } else {
    c.f_kind = fw_.kind;
    c.lwh_in.op_valid = 1;
    c.lwh_in.op_write = static_cast<uint64_t>(fw_.kind);
    c.lwh_in.op_addr = fw_.rd.addr;
    c.lwh_in.op_cid = ptr_f_;
    c.f_consume = lwh_.ready();
    if (c.f_consume) {
      c.f_lookup = fw_.kind == 0;
      if (!fw_.rd.last) {
        c.f_rd_en = true;
        c.f_raddr = fw_.rd.next;
      } else if (fw_.kind == 0 && ef.wr_has) {
        c.f_rd_en = true;
        c.f_kind = 1;
        c.f_raddr = ef.wr_head;
      } else {
        c.f_adv = true;
        // Chain: start the next entry's walk in the same cycle when it is ready.
        const uint64_t nf = (ptr_f_ + 1) & Mask();
        const Entry& en = ent_[Idx(nf)];
        if (Dist(nf, ptr_r_) < uint64_t(p_.ring_size) && en.filled && !en.skip && !en.fail &&
            (en.rd_has || en.wr_has)) {
          c.f_start = true;
          c.f_rd_en = true;
          c.f_kind = en.rd_has ? 0 : 1;
          c.f_raddr = en.rd_has ? en.rd_head : en.wr_head;
        }
      }
    }
  }
  c.lwh_out = lwh_.Eval(c.lwh_in);

  // ---- Free-list RAM read: keep the two-word output buffer full.
  const int ob_after = ob_cnt_ - (c.fl_pop ? 1 : 0) + (fl_inflight_ ? 1 : 0);
  c.fl_issue = fl_cnt_ > 0 && ob_after < 2;

  // ---- Acknowledgements and responses.
  c.ack_ok = in.cw_ack_valid && cw_out_ > 0;
  c.ack_err = in.cw_ack_valid && cw_out_ == 0;
  c.rsp_ok = in.vr_rsp_valid && in.vr_rsp_tag < uint64_t(p_.val_tags) && tags_[in.vr_rsp_tag].valid;
  c.rsp_err = in.vr_rsp_valid && !c.rsp_ok;
  return c;
}

CommitUnitOut CommitUnitModel::Eval(const CommitUnitIn& in) const {
  const Comb c = Decide(in);
  CommitUnitOut o;
  o.in_ready = c.in_ready;
  o.arep_valid = arep_valid_;
  o.arep_pass = arep_pass_;
  o.arep_cid = arep_cid_;
  o.arep_src = arep_src_;
  if (c.r_rep) {
    o.rep_valid = 1;
    o.rep_type = static_cast<uint64_t>(CuRep::kDoneCommit);
    o.rep_cid = ptr_r_;
    o.rep_src = ent_[Idx(ptr_r_)].src;
  } else if (c.p_rep) {
    o.rep_valid = 1;
    o.rep_type = static_cast<uint64_t>(c.p_rep_pass ? CuRep::kPass : CuRep::kFail);
    o.rep_cid = ptr_p_;
    o.rep_src = ent_[Idx(ptr_p_)].src;
    o.rep_cap = !c.p_rep_pass && ent_[Idx(ptr_p_)].cap ? 1 : 0;
  }
  o.vr_req_valid = c.vr_valid;
  o.vr_req_addr = c.vr_addr;
  o.vr_req_tag = static_cast<uint64_t>(c.tag);
  o.cw_req_valid = c.c_valid;
  o.cw_req_addr = cw_.rd.addr;
  o.cw_req_data = cw_.rd.data;
  o.rct_inc_valid = c.store;
  o.rct_inc_addr = in.in_addr & LowMask(p_.addr_w);
  o.rct_inc_write = c.type == kWriteSet;
  o.rct_dec_valid = c.r_consume;
  o.rct_dec_addr = rw_.rd.addr;
  o.rct_dec_write = static_cast<uint64_t>(rw_.kind);
  o.ptr_retire = ptr_r_;
  o.ptr_commit = ptr_c_;
  o.ptr_pass = ptr_p_;
  o.ptr_fcd = ptr_f_;
  o.busy = (cw_out_ > 0 || TagsInFlight() > 0 || active_ > 0) ? 1 : 0;
  o.sweep = lwh_.ready() ? 0 : 1;
  o.err = err_;
  return o;
}

void CommitUnitModel::Tick(const CommitUnitIn& in) {
  const Comb c = Decide(in);
  const uint64_t mask = Mask();
  const uint64_t amask = LowMask(p_.addr_w);
  const uint64_t dmask = LowMask(p_.data_w);

  ++stats_.cycles;
  stats_.intake += c.accept;
  stats_.stored += c.store;
  stats_.cap_fails += c.cap_fail;
  stats_.validations += c.vr_fire;
  stats_.hazard_words += c.f_consume;
  stats_.revalidations += c.p_start;
  stats_.commit_words += c.c_fire;
  stats_.retired += c.r_finish;
  stats_.errors += (c.accept && !c.legal) || c.ack_err || c.rsp_err;
  stats_.intake_busy += in.in_valid != 0;
  stats_.val_busy += pw_.active || (in.in_valid && c.need_vr);
  stats_.hazard_busy += fw_.active || c.f_start || c.f_adv;
  stats_.commit_busy += c.c_valid || c.c_adv || c.c_bubble;
  stats_.retire_busy += r_state_ != RetireState::kIdle || c.r_start || c.r_finish;
  stats_.retire_words += c.r_consume;
  // Coverage (the LWH's own: lwh_.Tick; the lookup conflicts and value fails below).
  const bool alloc = c.accept && c.type == kAlloc;
  cover_.alloc_fail += alloc && !InWindow(in.in_cid) ? 1 : 0;
  cover_.ring_full += alloc && Dist(in.in_cid, ptr_r_) == uint64_t(p_.ring_size) - 1 ? 1 : 0;
  cover_.ring_wrap += c.r_finish && Idx(ptr_r_) == p_.ring_size - 1 ? 1 : 0;
  cover_.cid_wrap += c.r_finish && ptr_r_ == mask ? 1 : 0;
  cover_.cap_fail += c.cap_fail;
  cover_.buf_reuse += c.from_fifo;
  cover_.tag_stall += in.in_valid && c.need_vr && !c.in_ready ? 1 : 0;
  cover_.revalidation += c.p_start;
  cover_.cw_stall += c.c_valid && !c.c_fire ? 1 : 0;
  cover_.ack_wait += c.r_ack_wait;
  cover_.rep_deferred += c.p_deferred;
  cover_.protocol_error += (c.accept && !c.legal) || c.ack_err || c.rsp_err;
  const int r_slot_old = rw_.slot;  // the slot the retire walker frees this cycle
  // RAM reads (read-first: before this cycle's writes).
  auto read = [&](Walker& w, bool en, int addr) {
    if (en) {
      w.rd = buf_[addr];
      w.slot = addr;
    }
  };
  read(fw_, c.f_rd_en, c.f_raddr);
  read(pw_, c.p_rd_en, c.p_raddr);
  read(cw_, c.c_rd_en, c.c_raddr);
  read(rw_, c.r_rd_en, c.r_raddr);
  const int fl_rd_old = fl_rd_;
  if (c.fl_issue) {
    fl_rd_ = fl_mem_[fl_r_];
  }

  // LWH result of the lookup accepted last cycle (two cycles ago with LwhPipe).
  const Lookup& hz = p_.lwh_pipe ? hz_ : lk_;
  if (hz.valid && c.lwh_out.res_valid && c.lwh_out.res_found) {
    Entry& e = ent_[hz.idx];
    const uint64_t d_found = Dist(c.lwh_out.res_cid, hz.raf);
    if (d_found < Dist(hz.own, hz.raf)) {
      ++stats_.conflicts;
      ++cover_.hazard_conflict;
      if (!e.conflict || Dist(e.conf_cid, hz.raf) < d_found) {
        e.conf_cid = c.lwh_out.res_cid;
      }
      e.conflict = true;
    }
  }
  lwh_.Tick(c.lwh_in);
  if (p_.lwh_pipe) {
    hz_ = lk_;
  }
  lk_.valid = c.f_lookup;
  if (c.f_lookup) {
    lk_.idx = Idx(ptr_f_);
    lk_.own = ptr_f_;
    lk_.raf = ent_[Idx(ptr_f_)].raf;
  }

  // Validation responses.
  if (c.rsp_ok) {
    Tag& t = tags_[in.vr_rsp_tag];
    if ((in.vr_rsp_data & dmask) != t.value) {
      ++stats_.val_fails;
      ++cover_.val_fail;
      ent_[t.idx].fail = true;  // value mismatch
    }
    t.valid = false;
  }
  if (c.vr_fire) {
    tags_[c.tag] = Tag{true, c.vr_idx, c.vr_value};
  }

  // Intake.
  arep_valid_ = c.accept && c.type == kAlloc;
  if (arep_valid_) {
    arep_pass_ = InWindow(in.in_cid);
    arep_cid_ = in.in_cid & mask;
    arep_src_ = in.in_src & LowMask(p_.src_w);
  }
  if (c.accept && !c.legal) {
    err_ = true;
  }
  if (c.accept && c.legal && c.type != kAlloc) {
    Entry& e = ent_[c.in_idx];
    switch (c.type) {
      case kReadSet:
      case kWriteSet:
      case kDoneFill:
        if (!e.started) {
          active_ += e.skip ? 0 : 1;
          e.started = true;
          e.raf = ptr_r_;
        }
        if (c.type == kDoneFill) {
          e.filled = true;
          e.src = in.in_src & LowMask(p_.src_w);
        }
        break;
      case kSkip:
        active_ += (e.started || e.skip) ? 0 : 1;
        e.skip = true;
        break;
      case kPass:
        e.out_pass = true;
        break;
      case kFail:
        e.out_fail = true;
        break;
      default:
        break;
    }
    if (c.cap_fail) {
      e.fail = true;  // word buffer full
      e.cap = true;
    }
    if (c.store) {
      const bool wr = c.type == kWriteSet;
      bool& has = wr ? e.wr_has : e.rd_has;
      int& head = wr ? e.wr_head : e.rd_head;
      buf_[c.slot] = Word{!has, head, in.in_addr & amask, in.in_data & dmask};
      has = true;
      head = c.slot;
    }
  }

  // Free list: output buffer pop, RAM data arriving, RAM read issue, push.
  if (c.fl_pop) {
    ob_[0] = ob_[1];
    --ob_cnt_;
  }
  if (fl_inflight_) {
    ob_[ob_cnt_++] = fl_rd_old;
  }
  fl_inflight_ = c.fl_issue;
  if (c.fl_issue) {
    fl_r_ = (fl_r_ + 1) % p_.buf_words;
    --fl_cnt_;
  }
  if (c.store && !c.from_fifo) {
    ++fresh_;
  }
  if (c.fl_push) {
    fl_mem_[fl_w_] = r_slot_old;
    fl_w_ = (fl_w_ + 1) % p_.buf_words;
    ++fl_cnt_;
  }

  // Hazard detection pointer.
  if (c.f_start || c.f_consume) {
    fw_.kind = c.f_kind;
  }
  if (c.f_adv) {
    fw_.active = false;
    ptr_f_ = (ptr_f_ + 1) & mask;
  }
  if (c.f_start) {
    fw_.active = true;
  }

  // Pass pointer.
  Entry& ep = ent_[Idx(ptr_p_)];
  if (c.p_clear_conflict) {
    ep.conflict = false;
  }
  if (c.p_start) {
    pw_.active = true;
  }
  if (c.p_end) {
    pw_.active = false;
  }
  if (c.p_rep_pass) {
    ep.rep_pass = true;
  }
  if (c.p_adv) {
    ptr_p_ = (ptr_p_ + 1) & mask;
  }

  // Commit pointer.
  cw_.active = c.c_rd_en || (cw_.active && !c.c_adv);
  if (c.c_adv) {
    ptr_c_ = (ptr_c_ + 1) & mask;
  }
  cw_out_ += (c.c_fire ? 1 : 0) - (c.ack_ok ? 1 : 0);
  ack_pool_ += c.ack_ok ? 1 : 0;
  if (c.ack_err || c.rsp_err) {
    err_ = true;
  }

  // Retire pointer.
  if (c.r_start) {
    r_wcount_ = 0;  // also when the last word of the previous entry is consumed (chain)
  } else if (c.r_consume && rw_.kind == 1) {
    ++r_wcount_;
  }
  if (c.r_start || c.r_consume) {
    rw_.kind = c.r_kind;
  }
  if (c.r_rep) {
    ack_pool_ -= c.r_wcount;
  }
  if (c.r_finish) {
    Entry& done = ent_[Idx(ptr_r_)];
    active_ -= (done.started || done.skip) ? 1 : 0;
    done = Entry{};
    ptr_r_ = (ptr_r_ + 1) & mask;
  }
  r_state_ = c.r_next;
}

Coverage CommitUnitModel::coverage() const {
  Coverage c = cover_.View();
  const Coverage lwh = lwh_.coverage("lwh.");
  c.insert(c.end(), lwh.begin(), lwh.end());
  return c;
}

bool CommitUnitModel::CapacityFailed(uint64_t cid) const {
  return ent_[Idx(cid)].cap;
}

}  // namespace htm::golden
