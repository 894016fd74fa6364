// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/lds_wf_ctrl_model.h"

#include <bit>
#include <stdexcept>

namespace htm::golden {

namespace {

bool Ascending(LdsSel sel) {
  return sel == LdsSel::kSingleAsc || sel == LdsSel::kMultiAsc;
}
bool Multiple(LdsSel sel) {
  return sel == LdsSel::kMultiAsc || sel == LdsSel::kMultiDesc;
}

uint64_t LowestBit(uint64_t x) {
  return x & (~x + 1);
}
uint64_t HighestBit(uint64_t x) {
  return x == 0 ? 0 : uint64_t{1} << (std::bit_width(x) - 1);
}

}  // namespace

std::string CheckLdsWfCtrlParams(const LdsWfCtrlParams& p) {
  if (p.wf_size < 1 || p.wf_size > kMaxPortBits) {
    return "WfSize must be in 1..64, got " + std::to_string(p.wf_size);
  }
  const int sel = static_cast<int>(p.sel);
  if (sel < 0 || sel > 3) {
    return "Sel is not an lds_sel_e value: " + std::to_string(sel);
  }
  if (p.max_depth < 1 || p.max_depth > 255) {
    return "MaxDepth must be in 1..255, got " + std::to_string(p.max_depth);
  }
  return "";
}

const LdsWfCtrlParams& LdsWfCtrlModel::Checked(const LdsWfCtrlParams& p) {
  if (std::string err = CheckLdsWfCtrlParams(p); !err.empty()) {
    throw std::invalid_argument("htm_lds_wf_ctrl: " + err);
  }
  return p;
}

LdsWfCtrlModel::LdsWfCtrlModel(const LdsWfCtrlParams& p)
    : p_(Checked(p)), all_(LowMask(p.wf_size)) {
  Reset();
}

void LdsWfCtrlModel::Reset() {
  r_ = Regs{};
  r_.exec = all_;
  r_.mcm = all_;
}

uint64_t LdsWfCtrlModel::SerializedTcm(LdsSel sel, LdsMode mode, uint64_t tcm, uint64_t mcm) {
  const uint64_t one = Ascending(sel) ? LowestBit(tcm) : HighestBit(tcm);
  uint64_t selected = one;
  if (mode == LdsMode::kWfS && Multiple(sel) && (tcm & mcm) != 0) {
    selected = tcm & mcm;
  }
  return tcm & ~selected;
}

bool LdsWfCtrlModel::Aborting(const LdsWfCtrlIn& in) const {
  return r_.state == State::kTry && in.wgs_other;
}

bool LdsWfCtrlModel::OpReady(const LdsWfCtrlIn& in) const {
  const bool begin_ok =
      !in.wgs_other && (r_.state != State::kRetry || r_.next != LdsMode::kWgS || in.wgs_grant);
  return !Aborting(in) &&
         (in.op != static_cast<uint64_t>(LdsOp::kTxBegin) || r_.state == State::kTry || begin_ok);
}

LdsWfCtrlModel::Regs LdsWfCtrlModel::Next(const LdsWfCtrlIn& in) const {
  Regs n = r_;
  n.cmt_valid = false;
  n.abort = false;
  const uint64_t part = r_.try_exec & ~r_.try_tcm;
  const uint64_t conf = in.conf & all_;
  const uint64_t tcm_conf = r_.tcm | (conf & part);
  const uint64_t mcm_clr =
      conf & part & (in.conf_self | (Ascending(p_.sel) ? in.conf_lower : ~in.conf_lower));

  if (r_.state == State::kTry) {
    n.tcm = tcm_conf;
    n.mcm = r_.mcm & ~mcm_clr & all_;
  }
  if (conf != 0 && (r_.state != State::kTry || (conf & ~part) != 0)) {
    n.err = true;
  }

  if (Aborting(in)) {
    n.state = State::kRetry;
    n.next = r_.mode;
    n.replay = true;
    n.tcm = tcm_conf | part;
    n.exec = r_.try_exec;
    n.depth = 0;
    n.abort = true;
    return n;
  }
  if (!in.op_valid || !OpReady(in)) {
    return n;
  }
  switch (static_cast<LdsOp>(in.op)) {
    case LdsOp::kExecWrite:
      if (r_.state == State::kRetry) {
        n.err = true;
      } else {
        n.exec = in.op_exec & all_;
      }
      break;
    case LdsOp::kTxBegin:
      if (r_.state == State::kTry) {
        if (r_.depth == p_.max_depth) {
          n.err = true;
        } else {
          ++n.depth;
        }
        break;
      }
      n.state = State::kTry;
      n.try_exec = r_.exec;
      n.mcm = all_;
      n.replay = false;
      if (r_.state == State::kIdle) {
        n.mode = LdsMode::kTx;
        n.orig = r_.exec;
        n.tcm = 0;
        n.try_tcm = 0;
        n.prev_valid = false;
      } else {
        uint64_t start = 0;
        if (r_.replay) {
          start = r_.try_tcm;
        } else if (r_.next != LdsMode::kTx) {
          start = SerializedTcm(p_.sel, r_.next, r_.tcm, r_.mcm);
        }
        n.mode = r_.next;
        n.tcm = start;
        n.try_tcm = start;
        if (!r_.replay) {
          n.prev = r_.tcm;
          n.prev_valid = true;
        }
      }
      break;
    case LdsOp::kTxCommit:
      if (r_.state != State::kTry) {
        n.err = true;
      } else if (r_.depth != 0) {
        --n.depth;
      } else {
        n.cmt_valid = true;
        n.cmt_mask = part & ~tcm_conf;
        if (tcm_conf == 0) {
          n.state = State::kIdle;
          n.mode = LdsMode::kNonTx;
          n.exec = r_.orig;
          n.tcm = 0;
          n.prev_valid = false;
        } else {
          n.state = State::kRetry;
          n.exec = tcm_conf;
          switch (r_.mode) {
            case LdsMode::kTx:
              n.next = (r_.prev_valid && tcm_conf == r_.prev) ? LdsMode::kWfS : LdsMode::kTx;
              break;
            case LdsMode::kWfS:
              n.next = (tcm_conf & part) != 0 ? LdsMode::kWgS : LdsMode::kTx;
              break;
            default:
              n.next = LdsMode::kTx;
              break;
          }
        }
      }
      break;
    default:
      n.err = true;
      break;
  }
  return n;
}

LdsWfCtrlOut LdsWfCtrlModel::Eval(const LdsWfCtrlIn& in) const {
  LdsWfCtrlOut o;
  o.op_ready = OpReady(in);
  o.wgs_req = (r_.state == State::kRetry && r_.next == LdsMode::kWgS) ||
              (r_.state == State::kTry && r_.mode == LdsMode::kWgS);
  o.exec = r_.exec;
  o.tcm = r_.tcm;
  o.run = r_.exec & ~r_.tcm;
  o.mcm = r_.mcm;
  o.prev = r_.prev;
  o.prev_valid = r_.prev_valid;
  o.mode = static_cast<uint64_t>(r_.mode);
  o.in_try = r_.state == State::kTry;
  o.part = r_.try_exec & ~r_.try_tcm;
  o.retry = r_.state == State::kRetry;
  o.cmt_valid = r_.cmt_valid;
  o.cmt_mask = r_.cmt_mask;
  o.abort = r_.abort;
  o.err = r_.err;
  return o;
}

void LdsWfCtrlModel::Tick(const LdsWfCtrlIn& in) {
  r_ = Next(in);
}

// ---- LdsWgsArbModel
// ------------------------------------------------------------------------------

namespace {
const LdsWgsArbParams& CheckedArb(const LdsWgsArbParams& p) {
  if (p.num_wf < 1 || p.num_wf > 64) {
    throw std::invalid_argument("htm_lds_wgs_arb: NumWf must be in 1..64, got " +
                                std::to_string(p.num_wf));
  }
  return p;
}
}  // namespace

LdsWgsArbModel::LdsWgsArbModel(const LdsWgsArbParams& p)
    : p_(CheckedArb(p)), pick_(RrArbParams{.num_req = p.num_wf}) {}

void LdsWgsArbModel::Reset() {
  pick_.Reset();
  hold_ = false;
  holder_ = 0;
}

LdsWgsArbOut LdsWgsArbModel::Eval(const LdsWgsArbIn&) const {
  LdsWgsArbOut o;
  if (hold_) {
    o.grant = uint64_t{1} << holder_;
    o.other = LowMask(p_.num_wf) & ~o.grant;
  }
  return o;
}

void LdsWgsArbModel::Tick(const LdsWgsArbIn& in) {
  const bool keep = hold_ && ((in.req >> holder_) & 1) != 0;
  const RrArbIn pin{.req = in.req, .ack = 0};
  const RrArbOut pick = pick_.Eval(pin);
  const bool take = !keep && pick.gnt_valid != 0;
  pick_.Tick(RrArbIn{.req = in.req, .ack = take ? 1u : 0u});
  hold_ = keep || take;
  if (take) {
    holder_ = static_cast<int>(pick.gnt_idx);
  }
}

}  // namespace htm::golden
