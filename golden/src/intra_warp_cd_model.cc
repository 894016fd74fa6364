// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/intra_warp_cd_model.h"

#include <stdexcept>

namespace htm::golden {

namespace {
bool Pow2(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}
uint64_t Lowest(uint64_t m) {
  return m & (~m + 1);
}
}  // namespace

std::string CheckIntraWarpCdParams(const IntraWarpCdParams& p) {
  if (p.addr_w < 1 || p.addr_w > 62) {
    return "AddrW must be in 1..62, got " + std::to_string(p.addr_w);
  }
  if (p.warp_size < 1 || p.warp_size > 64) {
    return "WarpSize must be in 1..64, got " + std::to_string(p.warp_size);
  }
  if (!Pow2(p.entries) || p.entries < 2 || p.entries > (1 << 20)) {
    return "Entries must be a power of two in 2..2**20, got " + std::to_string(p.entries);
  }
  if (!Pow2(p.banks) || p.banks > p.entries / 2) {
    return "Banks must be a power of two of at most Entries / 2, got " + std::to_string(p.banks);
  }
  return "";
}

const IntraWarpCdParams& IntraWarpCdModel::Checked(const IntraWarpCdParams& p) {
  if (std::string err = CheckIntraWarpCdParams(p); !err.empty()) {
    throw std::invalid_argument("htm_intra_warp_cd: " + err);
  }
  return p;
}

IntraWarpCdModel::IntraWarpCdModel(const IntraWarpCdParams& p)
    : p_(Checked(p)), all_(LowMask(p.warp_size)) {
  owner_.assign(p_.entries, 0);
  Reset();
}

void IntraWarpCdModel::Reset() {
  phase_ = Phase::kNone;
  lanes_ = iw_ = ea_ = 0;
  ea_en_ = err_ = false;
  row_ = row_check_ = row_write_ = cat_pend_ = cat_wait_ = false;
  row_pend_ = row_lanes_ = 0;
  row_addr_.fill(0);
  s1_.assign(p_.banks, Access{});
  s1_check_ = s1_write_ = false;
  valid_.assign(p_.entries, false);  // owner_ (block RAM) keeps its contents
  res_ = false;
  res_abort_ = res_iw_ = res_ea_ = res_spared_ = 0;
}

int IntraWarpCdModel::Index(uint64_t addr) const {
  const uint64_t n = static_cast<uint64_t>(p_.entries);
  const uint64_t a = addr & LowMask(p_.addr_w);
  return static_cast<int>((a % n + (a / n) * 17) % n);
}

IntraWarpCdModel::Stage0 IntraWarpCdModel::Issue() const {
  Stage0 s;
  s.acc.assign(p_.banks, Access{});
  if (!row_) {
    return s;
  }
  for (int b = 0; b < p_.banks; ++b) {
    for (int l = 0; l < p_.warp_size; ++l) {
      if (((row_pend_ >> l) & 1) != 0 && Index(row_addr_[l]) % p_.banks == b) {
        s.acc[b] = Access{true, l, Index(row_addr_[l])};
        s.issue |= uint64_t{1} << l;
        break;
      }
    }
  }
  return s;
}

uint64_t IntraWarpCdModel::AbortsNow() const {
  uint64_t aborts = 0;
  if (!s1_check_) {
    return 0;
  }
  for (const Access& a : s1_) {
    if (!a.valid || !valid_[a.idx]) {
      continue;
    }
    const int own = owner_[a.idx];
    if (s1_write_ ? own != a.lane : own < a.lane) {
      aborts |= uint64_t{1} << a.lane;
    }
  }
  return aborts;
}

bool IntraWarpCdModel::Idle() const {
  if (row_) {
    return false;
  }
  for (const Access& a : s1_) {
    if (a.valid) {
      return false;
    }
  }
  return true;
}

bool IntraWarpCdModel::CmdReady(const IntraWarpCdIn& in, const Stage0& s0) const {
  const auto op = static_cast<IwcdOp>(in.cmd_op & 3);
  if (op == IwcdOp::kMark || op == IwcdOp::kCheck) {
    const bool row_done = row_ && (row_pend_ & ~s0.issue) == 0 && CatDone(in);
    return !row_ || row_done;
  }
  return Idle();
}

bool IntraWarpCdModel::Bad(const IntraWarpCdIn& in, bool acc) const {
  const auto op = static_cast<IwcdOp>(in.cmd_op & 3);
  const bool row_or_end = op != IwcdOp::kBegin;
  return acc && ((row_or_end && phase_ == Phase::kNone) ||
                 (op == IwcdOp::kMark && phase_ == Phase::kCheck));
}

IntraWarpCdOut IntraWarpCdModel::Eval(const IntraWarpCdIn& in) const {
  const Stage0 s0 = Issue();
  IntraWarpCdOut o;
  o.cmd_ready = CmdReady(in, s0);
  o.cat_req_valid = row_ && cat_pend_;
  o.cat_req_mask = row_ ? row_lanes_ : 0;
  o.cat_req_addr = row_addr_;
  o.cat_req_write = row_write_;
  o.res_valid = res_;
  o.res_abort = res_ ? res_abort_ : 0;
  o.res_iw = res_ ? res_iw_ : 0;
  o.res_ea = res_ ? res_ea_ : 0;
  o.res_spared = res_ ? res_spared_ : 0;
  o.busy = !Idle();
  o.err = err_;
  return o;
}

void IntraWarpCdModel::Tick(const IntraWarpCdIn& in) {
  const Stage0 s0 = Issue();
  const auto op = static_cast<IwcdOp>(in.cmd_op & 3);
  const bool acc = in.cmd_valid && CmdReady(in, s0);
  const bool bad = Bad(in, acc);
  const bool acc_begin = acc && op == IwcdOp::kBegin;
  const bool acc_row = acc && (op == IwcdOp::kMark || op == IwcdOp::kCheck) && !bad;
  const bool acc_end = acc && op == IwcdOp::kEnd && !bad;
  const bool row_done = row_ && (row_pend_ & ~s0.issue) == 0 && CatDone(in);
  const uint64_t iw_now = AbortsNow();

  // Coverage.
  cover_.cmd_stall += in.cmd_valid && !acc ? 1 : 0;
  cover_.bank_conflict += row_ && (row_pend_ & ~s0.issue) != 0 ? 1 : 0;
  if (!s1_check_) {
    for (const Access& a : s1_) {
      cover_.mark_alias += a.valid && valid_[a.idx] ? 1 : 0;
    }
  }
  if (iw_now != 0) {
    ++(s1_write_ ? cover_.iw_abort_write : cover_.iw_abort_read);
  }
  cover_.cat_stall += row_ && cat_pend_ && !in.cat_req_ready ? 1 : 0;
  cover_.ea_hit += cat_wait_ && in.cat_rsp_valid && (in.cat_rsp_hit & lanes_) != 0 ? 1 : 0;
  cover_.spared += acc_end && lanes_ != 0 && ((iw_ | ea_) & lanes_) == lanes_ ? 1 : 0;
  cover_.protocol_error += bad;

  // The outcome of End, from the state before this cycle's updates.
  if (acc_end) {
    const uint64_t all = (iw_ | ea_) & lanes_;
    res_iw_ = iw_ & lanes_;
    res_ea_ = ea_ & lanes_;
    if (lanes_ != 0 && all == lanes_) {
      res_spared_ = Lowest(lanes_);
      res_abort_ = lanes_ & ~res_spared_;
    } else {
      res_abort_ = all;
      res_spared_ = 0;
    }
  }
  res_ = acc_end;

  // Stage 1 of the banks: marks (valid bits and owners).
  std::vector<bool> valid_next = valid_;
  if (!s1_check_) {
    for (const Access& a : s1_) {
      if (a.valid && (!valid_[a.idx] || owner_[a.idx] > a.lane)) {
        owner_[a.idx] = a.lane;
        valid_next[a.idx] = true;
      }
    }
  }
  if (acc_begin) {
    valid_next.assign(p_.entries, false);
  }
  valid_ = valid_next;

  // Command state.
  if (bad) {
    err_ = true;
  }
  const bool cat_rsp = cat_wait_ && in.cat_rsp_valid;
  if (acc_begin) {
    lanes_ = in.cmd_mask & all_;
    ea_en_ = in.ea_en != 0;
    iw_ = ea_ = 0;
  } else {
    iw_ |= iw_now;
    if (cat_rsp) {
      ea_ |= in.cat_rsp_hit & lanes_;
    }
  }
  if (row_ && cat_pend_ && in.cat_req_ready) {
    cat_pend_ = false;
    cat_wait_ = true;
  } else if (cat_rsp) {
    cat_wait_ = false;
  }
  // Stage 1 registers: this cycle's issues, with the kind of the row that issued them.
  s1_ = s0.acc;
  s1_check_ = row_check_;
  s1_write_ = row_write_;
  // The row register.
  if (acc_row) {
    row_ = true;
    row_check_ = op == IwcdOp::kCheck;
    row_write_ = in.cmd_write != 0;
    row_pend_ = row_lanes_ = in.cmd_mask & lanes_;
    row_addr_ = in.cmd_addr;
    for (int l = 0; l < p_.warp_size; ++l) {
      row_addr_[l] &= LowMask(p_.addr_w);
    }
    cat_pend_ = op == IwcdOp::kCheck && ea_en_;
  } else if (row_done) {
    row_ = false;
    row_pend_ = 0;
  } else {
    row_pend_ &= ~s0.issue;
  }
  // Phase.
  if (acc_begin) {
    phase_ = Phase::kMark;
  } else if (acc_end) {
    phase_ = Phase::kNone;
  } else if (acc_row && op == IwcdOp::kCheck) {
    phase_ = Phase::kCheck;
  }
}

}  // namespace htm::golden
