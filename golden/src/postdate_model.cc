// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/postdate_model.h"

#include <stdexcept>

namespace htm::golden {

std::string CheckPostdateParams(const PostdateParams& p) {
  if (p.num_tx < 2 || p.num_tx > 65536) {
    return "NumTx must be in 2..65536, got " + std::to_string(p.num_tx);
  }
  if (p.ts_w < 3 || p.ts_w > 48) {
    return "TsW must be in 3..48, got " + std::to_string(p.ts_w);
  }
  if (p.inc < 1 || static_cast<uint64_t>(p.inc) > LowMask(p.ts_w) - 1) {
    return "Inc must be in 1..2^TsW-2, got " + std::to_string(p.inc);
  }
  return "";
}

namespace {
const PostdateParams& Checked(const PostdateParams& p) {
  if (std::string err = CheckPostdateParams(p); !err.empty()) {
    throw std::invalid_argument("htm_postdate: " + err);
  }
  return p;
}
}  // namespace

bool PdBadOp(const PostdateParams& p, uint64_t kind, uint64_t a, uint64_t b) {
  const uint64_t n = static_cast<uint64_t>(p.num_tx);
  const auto k = static_cast<PdOp>(kind);
  const bool known = k == PdOp::kEdge || k == PdOp::kBegin || k == PdOp::kCommit ||
                     k == PdOp::kAbort || k == PdOp::kQuery;
  return !known || a >= n || (k == PdOp::kEdge && (b >= n || a == b));
}

PostdateTable::PostdateTable(const PostdateParams& p) : p_(Checked(p)) {
  Reset();
}

void PostdateTable::Reset() {
  slots_.assign(static_cast<size_t>(p_.num_tx), PdSlot{});
}

PdResult PostdateTable::Apply(uint64_t kind, uint64_t a, uint64_t b) {
  const uint64_t max = LowMask(p_.ts_w);
  PdResult r;
  r.kind = kind;
  r.a = a;
  r.b = b;
  const auto k = static_cast<PdOp>(kind);
  if (PdBadOp(p_, kind, a, b)) {
    r.err = true;
    return r;
  }
  PdSlot& sa = slots_[a];
  r.prev = sa.prev;
  r.committed = sa.committed;
  r.cts = sa.cts;
  r.pdts = sa.pdts_set ? sa.pdts : 0;
  r.pdts_set = sa.pdts_set;
  switch (k) {
    case PdOp::kEdge: {
      PdSlot& sb = slots_[b];
      const uint64_t c = sa.cts, d = sa.pdts, s = sb.pdts;
      uint64_t ts;
      if (sa.committed) {
        ts = sa.prev;  // Figure 7, line 2
      } else if (sb.pdts_set && c < s) {
        const uint64_t m = (c + s - 1) >> 1;  // the midpoint, lines 10-12
        ts = (sa.pdts_set && d <= m) ? d : m;
      } else {
        ts = sa.pdts_set ? d : c + static_cast<uint64_t>(p_.inc);  // lines 3-8
      }
      const uint64_t nc = ts + 1;
      const uint64_t ncts = sb.cts > nc ? sb.cts : nc;
      const bool pred_bad = !sa.committed && ts <= c;
      const bool succ_loop = sb.pdts_set && nc >= s;
      r.loop = pred_bad || succ_loop;
      r.ts = ts;
      r.cts = r.loop ? nc : ncts;
      if (!sa.committed) {
        r.pdts = ts;
        r.pdts_set = true;
      }
      if (r.loop) {
        return r;
      }
      if (ncts > max || (!sa.committed && ts > max)) {
        r.ovf = true;
        return r;
      }
      sb.cts = ncts;
      if (!sa.committed) {
        sa.pdts = ts;
        sa.pdts_set = true;
      }
      return r;
    }
    case PdOp::kBegin:
      sa.committed = false;
      r.committed = false;
      return r;
    case PdOp::kCommit:
    case PdOp::kAbort: {
      if (sa.cts + 1 > max) {
        r.ovf = true;
        return r;
      }
      sa.prev = sa.cts;
      sa.cts = sa.cts + 1;
      sa.pdts = 0;
      sa.pdts_set = false;
      sa.committed = k == PdOp::kCommit;
      r.cts = sa.cts;
      r.pdts = 0;
      r.pdts_set = false;
      r.prev = sa.prev;
      r.committed = sa.committed;
      return r;
    }
    default:  // Query
      return r;
  }
}

PostdateModel::PostdateModel(const PostdateParams& p) : p_(Checked(p)), table_(p) {
  Reset();
}

void PostdateModel::Reset() {
  table_.Reset();
  sweep_ = true;
  sweep_idx_ = 0;
  s1_ = s1_bad_ = false;
  s1_kind_ = s1_a_ = s1_b_ = 0;
  res_valid_ = err_ = false;
  res_ = PdResult{};
}

PostdateOut PostdateModel::Eval(const PostdateIn& in) const {
  (void)in;
  PostdateOut o;
  o.op_ready = !sweep_;
  o.res_valid = res_valid_;
  o.res_kind = res_.kind;
  o.res_a = res_.a;
  o.res_b = res_.b;
  o.res_loop = res_.loop;
  o.res_ovf = res_.ovf;
  o.res_err = res_.err;
  o.res_ts = res_.ts;
  o.res_cts = res_.cts;
  o.res_pdts = res_.pdts;
  o.res_pdts_set = res_.pdts_set;
  o.res_prev = res_.prev;
  o.res_committed = res_.committed;
  o.err = err_;
  return o;
}

// Which case of post-dating the edge s1_a_ -> s1_b_ about to be applied takes (coverage).
void PostdateModel::CountEdge() {
  const PdSlot& sa = table_.slot(static_cast<int>(s1_a_));
  const PdSlot& sb = table_.slot(static_cast<int>(s1_b_));
  const uint64_t c = sa.cts, s = sb.pdts;
  uint64_t ts;
  if (sa.committed) {
    ++cover_.edge_committed;
    ts = sa.prev;
  } else if (sb.pdts_set && c < s) {
    const uint64_t m = (c + s - 1) >> 1;
    ts = (sa.pdts_set && sa.pdts <= m) ? sa.pdts : m;
    ++(m <= c ? cover_.midpoint_exhausted : cover_.edge_midpoint);
  } else {
    ts = sa.pdts_set ? sa.pdts : c + static_cast<uint64_t>(p_.inc);
  }
  const bool pred_bad = !sa.committed && ts <= c;
  const bool succ_loop = sb.pdts_set && ts + 1 >= s;
  cover_.loop_pred += pred_bad ? 1 : 0;
  cover_.loop_succ += succ_loop ? 1 : 0;
  cover_.succ_cts_raised +=
      !pred_bad && !succ_loop && ts + 1 > sb.cts && ts + 1 <= LowMask(p_.ts_w) ? 1 : 0;
}

void PostdateModel::Tick(const PostdateIn& in) {
  const bool acc = in.op_valid != 0 && !sweep_;
  cover_.op_stall += in.op_valid != 0 && !acc ? 1 : 0;
  // Stage 1.
  bool start_sweep = false;
  res_valid_ = s1_;
  if (s1_) {
    if (s1_bad_) {
      res_ = table_.Apply(s1_kind_, s1_a_, s1_b_);  // reports the error, writes nothing
      err_ = true;
      ++cover_.bad_op;
    } else if (sweep_) {
      ++cover_.dropped_in_sweep;
      res_ = PdResult{};  // dropped behind an overflow
      res_.kind = s1_kind_;
      res_.a = s1_a_;
      res_.b = s1_b_;
      res_.ovf = true;
    } else {
      if (static_cast<PdOp>(s1_kind_) == PdOp::kEdge) {
        CountEdge();
      }
      res_ = table_.Apply(s1_kind_, s1_a_, s1_b_);
      start_sweep = res_.ovf;
      cover_.overflow_sweep += res_.ovf ? 1 : 0;
    }
  }
  // Initialisation.
  if (start_sweep) {
    sweep_ = true;
    sweep_idx_ = 0;
    table_.Reset();
  } else if (sweep_) {
    if (sweep_idx_ == p_.num_tx - 1) {
      sweep_ = false;
    }
    ++sweep_idx_;
  }
  // Stage 0.
  s1_ = acc;
  if (acc) {
    const uint64_t a = in.op_a & LowMask(IdxWidth(p_.num_tx));
    const uint64_t b = in.op_b & LowMask(IdxWidth(p_.num_tx));
    s1_kind_ = in.op_kind & 7;
    s1_a_ = a;
    s1_b_ = b;
    s1_bad_ = PdBadOp(p_, s1_kind_, a, b);
  }
}

}  // namespace htm::golden
