// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/lds_tm_model.h"

#include <bit>
#include <stdexcept>

namespace htm::golden {

std::string CheckLdsTmParams(const LdsTmParams& p) {
  if (p.num_banks < 1 || p.num_banks > 32 || (p.num_banks & (p.num_banks - 1)) != 0) {
    return "NumBanks must be a power of two in 1..32, got " + std::to_string(p.num_banks);
  }
  const LdsBankParams bp{
      .mode = p.mode, .bank_words = p.bank_words, .wg_size = p.wg_size, .wf_size = p.wf_size};
  if (std::string e = CheckLdsBankParams(bp); !e.empty()) {
    return e;
  }
  if (p.wg_size / p.wf_size > 16) {
    return "WgSize / WfSize (wavefronts) must be at most 16, got " +
           std::to_string(p.wg_size / p.wf_size);
  }
  const int sel = static_cast<int>(p.sel);
  if (sel < 0 || sel > 3) {
    return "Sel is not an lds_sel_e value: " + std::to_string(sel);
  }
  if (p.max_depth < 1 || p.max_depth > 255) {
    return "MaxDepth must be in 1..255, got " + std::to_string(p.max_depth);
  }
  if (p.num_buf < 1 || p.num_buf > 4) {
    return "NumBuf must be in 1..4, got " + std::to_string(p.num_buf);
  }
  return "";
}

const LdsTmParams& LdsTmModel::Checked(const LdsTmParams& p) {
  if (std::string err = CheckLdsTmParams(p); !err.empty()) {
    throw std::invalid_argument("htm_lds_tm: " + err);
  }
  return p;
}

LdsTmModel::LdsTmModel(const LdsTmParams& p)
    : p_(Checked(p)),
      num_wf_(p.wg_size / p.wf_size),
      wf_w_(IdxWidth(p.wg_size / p.wf_size)),
      aw_(IdxWidth(p.num_banks * p.bank_words)),
      arb_(LdsWgsArbParams{.num_wf = p.wg_size / p.wf_size}) {
  const LdsBankParams bp{
      .mode = p.mode, .bank_words = p.bank_words, .wg_size = p.wg_size, .wf_size = p.wf_size};
  banks_.reserve(p.num_banks);
  for (int b = 0; b < p.num_banks; ++b) {
    banks_.emplace_back(bp);
  }
  const LdsWfCtrlParams wp{.wf_size = p.wf_size, .sel = p.sel, .max_depth = p.max_depth};
  wfs_.reserve(num_wf_);
  for (int w = 0; w < num_wf_; ++w) {
    wfs_.emplace_back(wp);
  }
  Reset();
}

void LdsTmModel::Reset() {
  for (auto& b : banks_) {
    b.Reset();
  }
  for (auto& w : wfs_) {
    w.Reset();
  }
  arb_.Reset();
  slot_ = Slot{};
  bufs_.assign(p_.num_buf, Buf{});
  hd_ = tl_ = cnt_ = 0;
  bst_.assign(p_.num_banks, BankSt{});
  pa_.assign(num_wf_, 0);
  tcm_q_.assign(num_wf_, 0);
  in_try_q_.assign(num_wf_, false);
  err_ = false;
  bank_acc_.assign(p_.num_banks, 0);
  cache_valid_ = false;
}

bool LdsTmModel::BufComplete(int j) const {
  const Buf& b = bufs_[j];
  return b.v && !(slot_.v && slot_.buf == j) && b.out == 0;
}

namespace {

bool IsAtomic(LdsIns op) {
  return op == LdsIns::kAtomAdd || op == LdsIns::kAtomCas;
}

// The wavefront control's op for an instruction (only its TX_Begin/TX_Commit/ExecWrite count).
uint64_t WfOp(uint64_t ins_op) {
  switch (static_cast<LdsIns>(ins_op)) {
    case LdsIns::kTxBegin:
      return static_cast<uint64_t>(LdsOp::kTxBegin);
    case LdsIns::kTxCommit:
      return static_cast<uint64_t>(LdsOp::kTxCommit);
    default:
      return static_cast<uint64_t>(LdsOp::kExecWrite);
  }
}

}  // namespace

const LdsTmModel::Comb& LdsTmModel::Cached(const LdsTmIn& in) const {
  if (!cache_valid_ || !(in == cache_in_)) {
    cache_ = Comb{};
    Compute(in, cache_);
    cache_in_ = in;
    cache_valid_ = true;
  }
  return cache_;
}

void LdsTmModel::Compute(const LdsTmIn& in, Comb& c) const {
  const int nb = p_.num_banks;
  const int ws = p_.wf_size;
  const uint64_t all_lanes = LowMask(ws);

  // The wavefronts' control (op_ready depends on the instruction and on the WgS state).
  c.arb_out = arb_.Eval(c.arb_in);
  for (int v = 0; v < num_wf_; ++v) {
    LdsWfCtrlIn& wi = c.wf_in[v];
    wi.op = WfOp(in.ins_op);
    wi.op_exec = in.ins_exec;
    wi.wgs_grant = (c.arb_out.grant >> v) & 1;
    wi.wgs_other = (c.arb_out.other >> v) & 1;
    c.wf_out[v] = wfs_[v].Eval(wi);
    c.arb_in.req |= static_cast<uint64_t>(c.wf_out[v].wgs_req != 0) << v;
  }

  // Aborts: TCM bits set at the last edge while the wavefront was in a try, and those still
  // waiting; one wavefront's per cycle to the banks, lowest first. No bank request meanwhile.
  c.abt_wf = -1;
  for (int v = 0; v < num_wf_; ++v) {
    const uint64_t fresh = in_try_q_[v] ? c.wf_out[v].tcm & ~tcm_q_[v] : 0;
    c.abt_all[v] = pa_[v] | fresh;
    if (c.abt_all[v] != 0 && c.abt_wf < 0) {
      c.abt_wf = v;
    }
  }
  c.stall = c.abt_wf >= 0;
  int& cmt_wf = c.cmt_wf;
  for (int v = 0; v < num_wf_; ++v) {
    if (c.wf_out[v].cmt_valid) {
      cmt_wf = v;
    }
  }

  // SMDCD's shared-read remnants are dropped while no try is live but a WgS one.
  bool shr_clr = true;
  for (int v = 0; v < num_wf_; ++v) {
    shr_clr = shr_clr &&
              !(c.wf_out[v].in_try && c.wf_out[v].mode != static_cast<uint64_t>(LdsMode::kWgS));
  }

  // The banks' outputs (their ready depends on the broadcasts only).
  for (int b = 0; b < nb; ++b) {
    LdsBankIn& bi = c.bank_in[b];
    bi.shr_clr = shr_clr ? 1 : 0;
    if (c.stall) {
      bi.abt_valid = 1;
      bi.abt_wf = static_cast<uint64_t>(c.abt_wf);
      bi.abt_mask = c.abt_all[c.abt_wf];
    }
    if (cmt_wf >= 0) {
      bi.cmt_valid = 1;
      bi.cmt_wf = static_cast<uint64_t>(cmt_wf);
      bi.cmt_mask = c.wf_out[cmt_wf].cmt_mask;
    }
    c.bank_out[b] = banks_[b].Eval(bi);
  }

  // Conflicts answered this cycle, to the wavefronts in a try.
  for (int b = 0; b < nb; ++b) {
    const LdsBankOut& bo = c.bank_out[b];
    if (!bo.rsp_valid || !bo.rsp_conflict) {
      continue;
    }
    const int v = static_cast<int>(bo.rsp_wi) / ws;
    const uint64_t bit = uint64_t{1} << (static_cast<int>(bo.rsp_wi) % ws);
    if (v < num_wf_ && c.wf_out[v].in_try) {
      c.wf_in[v].conf |= bit;
      c.wf_in[v].conf_lower |= bo.rsp_lower ? bit : 0;
      c.wf_in[v].conf_self |= bo.rsp_self ? bit : 0;
    }
  }

  // Issue: per bank, the lowest pending lane of the instruction in the slot that maps to it (a
  // bank with an atomic in progress takes only that atomic's write).
  c.issue_lane.fill(-1);
  if (slot_.v) {
    c.drop = slot_.tx ? slot_.pend & c.wf_out[slot_.wf].tcm : 0;
    if (!c.stall) {
      for (uint64_t m = slot_.pend & ~c.drop; m != 0; m &= m - 1) {
        const int l = std::countr_zero(m);
        const int b = static_cast<int>(slot_.addr[l]) & (nb - 1);
        if (c.issue_lane[b] < 0 && bst_[b].at == At::kIdle) {
          c.issue_lane[b] = l;
        }
      }
      for (int b = 0; b < nb; ++b) {
        const bool wr = bst_[b].at == At::kWritePend;
        if (wr) {
          c.issue_lane[b] = bst_[b].at_lane;
        }
        const int l = c.issue_lane[b];
        if (l < 0) {
          continue;
        }
        LdsBankIn& bi = c.bank_in[b];
        bi.req_valid = 1;
        bi.req_tx = slot_.tx ? 1 : 0;
        bi.req_we = (wr || slot_.op == LdsIns::kStore) ? 1 : 0;
        bi.req_wi = static_cast<uint64_t>(slot_.wf * ws + l);
        bi.req_addr = slot_.addr[l] / static_cast<uint32_t>(nb);
        bi.req_data = wr ? bst_[b].at_wdata : slot_.data[l];
        // A non-transactional load answers every pending lane that reads the same word.
        uint64_t lanes = uint64_t{1} << l;
        if (!wr && slot_.op == LdsIns::kLoad && !slot_.tx) {
          for (uint64_t m = slot_.pend & ~c.drop; m != 0; m &= m - 1) {
            const int k = std::countr_zero(m);
            lanes |= slot_.addr[k] == slot_.addr[l] ? uint64_t{1} << k : 0;
          }
        }
        c.issue_lanes[b] = lanes;
        c.acc[b] = c.bank_out[b].req_ready != 0;
        if (c.acc[b]) {
          if (wr || !IsAtomic(slot_.op)) {
            c.issued_final |= lanes;
          }
          if (!wr) {
            c.first_issue |= lanes;
          }
        }
      }
    }
    c.pend_next = slot_.pend & ~c.issued_final & ~c.drop;
  }
  c.head_cpl = cnt_ > 0 && BufComplete(hd_);

  // The instruction port.
  const int w = static_cast<int>(in.ins_wf);
  const auto op = static_cast<LdsIns>(in.ins_op);
  c.ins_ok = w < num_wf_ && in.ins_op <= static_cast<uint64_t>(LdsIns::kTxCommit);
  c.is_mem = in.ins_op <= static_cast<uint64_t>(LdsIns::kAtomCas);
  if (!c.ins_ok) {
    c.ready = true;
  } else if (c.is_mem) {
    c.ready = (!slot_.v || c.pend_next == 0) && (cnt_ < p_.num_buf || c.head_cpl);
  } else {
    bool busy = (slot_.v && slot_.wf == w) || c.abt_all[w] != 0;
    for (int j = 0; j < p_.num_buf; ++j) {
      busy = busy || (bufs_[j].v && bufs_[j].wf == w);
    }
    c.ready = c.wf_out[w].op_ready && (op == LdsIns::kExecWrite || !busy);
  }
  c.accept = in.ins_valid && c.ready;
  bool err = err_ || (c.accept && !c.ins_ok);
  if (c.accept && c.ins_ok && !c.is_mem) {
    c.wf_in[w].op_valid = 1;
  }
  if (c.accept && c.ins_ok && c.is_mem) {
    const LdsWfCtrlOut& wo = c.wf_out[w];
    uint64_t lanes = wo.run & all_lanes;
    if (wo.in_try) {
      err = err || (lanes & ~wo.part) != 0;  // EXEC widened inside a try
      lanes &= wo.part;
      if (IsAtomic(op)) {
        err = err || lanes != 0;  // atomics are not transactional
        lanes = 0;
      }
    }
    for (uint64_t m = lanes; m != 0; m &= m - 1) {
      const int l = std::countr_zero(m);
      if (in.ins_addr[l] >= static_cast<uint64_t>(words())) {
        err = true;
        lanes &= ~(uint64_t{1} << l);
      }
    }
    c.lanes = lanes;
  }
  for (int b = 0; b < nb; ++b) {
    err = err || c.bank_out[b].err != 0;
  }
  for (int v = 0; v < num_wf_; ++v) {
    err = err || c.wf_out[v].err != 0;
  }
  c.err = err;

  // Outputs.
  LdsTmOut& o = c.out;
  o.ins_ready = c.ready;
  if (c.head_cpl) {
    const Buf& hb = bufs_[hd_];
    o.rsp_valid = 1;
    o.rsp_wf = static_cast<uint64_t>(hb.wf);
    o.rsp_lanes = hb.lanes;
    o.rsp_conf = hb.conf;
    o.rsp_known = hb.known;
    for (int l = 0; l < ws; ++l) {
      o.rsp_data[l] = hb.data[l];
    }
  }
  for (int v = 0; v < num_wf_; ++v) {
    const LdsWfCtrlOut& wo = c.wf_out[v];
    o.wf_exec[v] = wo.exec;
    o.wf_tcm[v] = wo.tcm;
    o.wf_mode[v] = wo.mode;
    o.wf_in_try |= static_cast<uint64_t>(wo.in_try != 0) << v;
    o.wf_retry |= static_cast<uint64_t>(wo.retry != 0) << v;
    bool busy = (slot_.v && slot_.wf == v) || c.abt_all[v] != 0;
    for (int j = 0; j < p_.num_buf; ++j) {
      busy = busy || (bufs_[j].v && bufs_[j].wf == v);
    }
    o.wf_busy |= static_cast<uint64_t>(busy) << v;
  }
  o.wgs_grant = c.arb_out.grant;
  if (c.stall) {
    o.abt_valid = 1;
    o.abt_wf = static_cast<uint64_t>(c.abt_wf);
    o.abt_mask = c.abt_all[c.abt_wf];
  }
  if (cmt_wf >= 0) {
    o.cmt_valid = 1;
    o.cmt_wf = static_cast<uint64_t>(cmt_wf);
    o.cmt_mask = c.wf_out[cmt_wf].cmt_mask;
  }
  bool busy = slot_.v || cnt_ != 0 || c.stall;
  for (int b = 0; b < nb; ++b) {
    busy = busy || c.bank_out[b].busy || bst_[b].at != At::kIdle;
  }
  o.busy = busy;
  o.err = err_;
}

LdsTmOut LdsTmModel::Eval(const LdsTmIn& in) const {
  return Cached(in).out;
}

void LdsTmModel::Tick(const LdsTmIn& in) {
  const Comb& c = Cached(in);
  const int nb = p_.num_banks;
  const int ws = p_.wf_size;

  // Bank responses into the buffers (with the outstanding access's kind and buffer).
  for (int b = 0; b < nb; ++b) {
    const LdsBankOut& bo = c.bank_out[b];
    if (!bo.rsp_valid) {
      continue;
    }
    BankSt& st = bst_[b];
    Buf& buf = bufs_[st.ob_buf];
    const int l = static_cast<int>(bo.rsp_wi) % ws;
    const uint64_t bit = uint64_t{1} << l;
    switch (st.ob) {
      case Ob::kNormal:
        for (uint64_t m = st.ob_lanes; m != 0; m &= m - 1) {
          const int k = std::countr_zero(m);
          buf.data[k] = static_cast<uint32_t>(bo.rsp_data);
        }
        buf.known = bo.rsp_known ? buf.known | st.ob_lanes : buf.known & ~st.ob_lanes;
        buf.conf |= bo.rsp_conflict ? st.ob_lanes : 0;
        buf.out &= ~st.ob_lanes;
        break;
      case Ob::kAtomRead: {
        const auto old = static_cast<uint32_t>(bo.rsp_data);
        buf.data[l] = old;
        buf.known = bo.rsp_known ? buf.known | bit : buf.known & ~bit;
        st.at = At::kWritePend;
        st.at_wdata = slot_.op == LdsIns::kAtomAdd ? old + slot_.data[l]
                                                   : (old == slot_.cmp[l] ? slot_.data[l] : old);
        break;
      }
      case Ob::kAtomWrite:
        buf.out &= ~bit;
        break;
    }
  }
  // Accesses accepted by the banks.
  for (int b = 0; b < nb; ++b) {
    if (!c.acc[b]) {
      continue;
    }
    BankSt& st = bst_[b];
    const int l = c.issue_lane[b];
    if (st.at == At::kWritePend) {
      st.ob = Ob::kAtomWrite;
      st.at = At::kIdle;
    } else if (IsAtomic(slot_.op)) {
      st.ob = Ob::kAtomRead;
      st.at = At::kReadOut;
      st.at_lane = l;
    } else {
      st.ob = Ob::kNormal;
    }
    st.ob_buf = slot_.buf;
    st.ob_lanes = c.issue_lanes[b];
    ++bank_acc_[b];
  }
  if (slot_.v) {
    Buf& sb = bufs_[slot_.buf];
    sb.lanes |= c.first_issue;
    sb.out &= ~c.drop;
    slot_.pend = c.pend_next;
    slot_.v = c.pend_next != 0;
  }
  if (c.head_cpl) {
    bufs_[hd_].v = false;
    hd_ = (hd_ + 1) % p_.num_buf;
    --cnt_;
  }
  if (c.accept && c.ins_ok && c.is_mem) {
    const int w = static_cast<int>(in.ins_wf);
    Buf& nbuf = bufs_[tl_];
    nbuf = Buf{};
    nbuf.v = true;
    nbuf.wf = w;
    nbuf.out = c.lanes;
    if (c.lanes != 0) {
      slot_.v = true;
      slot_.wf = w;
      slot_.op = static_cast<LdsIns>(in.ins_op);
      slot_.tx = c.wf_out[w].in_try != 0;
      slot_.buf = tl_;
      slot_.pend = c.lanes;
      for (int l = 0; l < ws; ++l) {
        slot_.addr[l] = static_cast<uint32_t>(in.ins_addr[l]);
        slot_.data[l] = static_cast<uint32_t>(in.ins_data[l]);
        slot_.cmp[l] = static_cast<uint32_t>(in.ins_cmp[l]);
      }
    }
    tl_ = (tl_ + 1) % p_.num_buf;
    ++cnt_;
  }
  for (int v = 0; v < num_wf_; ++v) {
    pa_[v] = (c.stall && v == c.abt_wf) ? 0 : c.abt_all[v];
    tcm_q_[v] = c.wf_out[v].tcm;
    in_try_q_[v] = c.wf_out[v].in_try != 0;
  }
  err_ = c.err;

  // The sub-blocks.
  for (int b = 0; b < nb; ++b) {
    banks_[b].Tick(c.bank_in[b]);
  }
  for (int v = 0; v < num_wf_; ++v) {
    wfs_[v].Tick(c.wf_in[v]);
  }
  arb_.Tick(c.arb_in);
  cache_valid_ = false;
}

}  // namespace htm::golden
