// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/tx_simt_stack_model.h"

#include <stdexcept>

namespace htm::golden {

std::string CheckTxSimtStackParams(const TxSimtStackParams& p) {
  if (p.warp_size < 1 || p.warp_size > 64) {
    return "WarpSize must be in 1..64, got " + std::to_string(p.warp_size);
  }
  if (p.depth < 3 || p.depth > 64) {
    return "Depth must be in 3..64 (a Normal, a Retry and a Trans entry), got " +
           std::to_string(p.depth);
  }
  if (p.pc_w < 1 || p.pc_w > 64) {
    return "PcW must be in 1..64, got " + std::to_string(p.pc_w);
  }
  if (p.log_w < 1 || p.log_w > 32) {
    return "LogW must be in 1..32, got " + std::to_string(p.log_w);
  }
  return "";
}

const TxSimtStackParams& TxSimtStackModel::Checked(const TxSimtStackParams& p) {
  if (std::string err = CheckTxSimtStackParams(p); !err.empty()) {
    throw std::invalid_argument("htm_tx_simt_stack: " + err);
  }
  return p;
}

TxSimtStackModel::TxSimtStackModel(const TxSimtStackParams& p) : p_(Checked(p)) {
  Reset();
}

void TxSimtStackModel::Reset() {
  stk_.clear();
  ridx_ = -1;
  resumed_ = restarted_ = tx_done_ = paused_ = err_ = false;
}

TxSimtStackOut TxSimtStackModel::Eval(const TxSimtStackIn& in) const {
  (void)in;
  TxSimtStackOut o;
  const size_t n = stk_.size();
  o.top_valid = n > 0;
  if (n > 0) {
    const SimtEntry& t = stk_.back();
    o.top_type = static_cast<uint64_t>(t.type);
    o.top_pc = t.pc;
    o.top_rpc = t.rpc;
    o.top_mask = t.mask;
    o.top_log = t.log;
  }
  o.depth = n;
  o.in_tx = ridx_ >= 0;
  o.resumed = resumed_;
  o.restarted = restarted_;
  o.tx_done = tx_done_;
  o.paused = paused_;
  o.err = err_;
  for (size_t i = 0; i < n; ++i) {
    o.stk_type[i] = static_cast<uint64_t>(stk_[i].type);
    o.stk_pc[i] = stk_[i].pc;
    o.stk_rpc[i] = stk_[i].rpc;
    o.stk_mask[i] = stk_[i].mask;
    o.stk_log[i] = stk_[i].log;
  }
  return o;
}

void TxSimtStackModel::Settle(bool popped_trans) {
  const size_t r = static_cast<size_t>(ridx_);
  while (stk_.size() - 1 > r && stk_.back().mask == 0) {
    popped_trans = popped_trans || stk_.back().type == SimtType::kTrans;
    stk_.pop_back();
  }
  if (stk_.size() - 1 == r) {
    SimtEntry& retry = stk_[r];
    if (retry.mask != 0) {  // restart the failed lanes
      stk_.push_back(SimtEntry{SimtType::kTrans, retry.pc, 0, retry.mask, 0});
      stk_[r].mask = 0;
      restarted_ = true;
      ++cover_.restart;
    } else {  // every lane committed: leave the transaction
      const uint64_t exit_pc = retry.rpc;
      stk_.pop_back();
      stk_.back().pc = exit_pc;
      ridx_ = -1;
      tx_done_ = true;
      ++cover_.tx_done;
    }
  } else if (popped_trans && stk_.back().type == SimtType::kTrans) {
    resumed_ = true;  // paused lanes run on
    ++cover_.resume;
  }
}

bool TxSimtStackModel::Apply(const TxSimtStackIn& in) {
  const uint64_t all = LowMask(p_.warp_size);
  const uint64_t m = in.cmd_mask & all;
  const uint64_t pc = in.cmd_pc & LowMask(p_.pc_w);
  const uint64_t pc2 = in.cmd_pc2 & LowMask(p_.pc_w);
  const uint64_t rpc = in.cmd_rpc & LowMask(p_.pc_w);
  const uint64_t log = in.cmd_log & LowMask(p_.log_w);
  const size_t n = stk_.size();
  const size_t depth = static_cast<size_t>(p_.depth);
  const SimtOp op = static_cast<SimtOp>(in.cmd_op);
  if (op == SimtOp::kInit) {
    stk_.assign(1, SimtEntry{SimtType::kNormal, pc, rpc, m, 0});
    ridx_ = -1;
    return true;
  }
  if (n == 0) {
    return false;  // no warp
  }
  SimtEntry& top = stk_.back();
  switch (op) {
    case SimtOp::kNext:
      top.pc = pc;
      if (top.type == SimtType::kTrans) {
        top.log = log;
      } else if (top.type == SimtType::kNormal && n > 1 && pc == top.rpc) {
        stk_.pop_back();  // reconverged
        ++cover_.reconverge;
      }
      return true;
    case SimtOp::kBranch: {
      const uint64_t taken = m & top.mask;
      const uint64_t fall = top.mask & ~taken;
      if (top.type == SimtType::kTrans) {
        top.log = log;
      }
      if (fall == 0) {
        top.pc = pc;
      } else if (taken == 0) {
        top.pc = pc2;
      } else if (top.type == SimtType::kNormal && n > 1 && rpc == top.rpc) {
        // The same reconvergence point as the top's: the entry below already waits there with
        // every lane, so the top is reused for the paths (a path at rpc leaves it).
        const size_t pushes = pc2 != rpc && pc != rpc ? 1 : 0;
        if (n + pushes > depth) {
          ++cover_.overflow;
          return false;  // overflow
        }
        ++cover_.diverge;
        if (pc2 != rpc) {
          top.pc = pc2;
          top.mask = fall;
          if (pc != rpc) {
            stk_.push_back(SimtEntry{SimtType::kNormal, pc, rpc, taken, 0});
          }
        } else {
          top.pc = pc;
          top.mask = taken;
        }
      } else {
        const size_t pushes = (pc2 != rpc ? 1 : 0) + (pc != rpc ? 1 : 0);
        if (n + pushes > depth) {
          ++cover_.overflow;
          return false;  // overflow
        }
        ++cover_.diverge;
        top.pc = rpc;
        if (pc2 != rpc) {
          stk_.push_back(SimtEntry{SimtType::kNormal, pc2, rpc, fall, 0});
        }
        if (pc != rpc) {
          stk_.push_back(SimtEntry{SimtType::kNormal, pc, rpc, taken, 0});
        }
      }
      return true;
    }
    case SimtOp::kTxBegin:
      if (ridx_ >= 0) {  // nested: flattened into the outer transaction
        ++cover_.nested_begin;
        top.pc = pc;
        if (top.type == SimtType::kTrans) {
          top.log = log;
        }
        return true;
      }
      if (n + 2 > depth) {
        ++cover_.overflow;
        return false;
      }
      {
        const uint64_t lanes = top.mask;
        ridx_ = static_cast<int>(n);
        stk_.push_back(SimtEntry{SimtType::kRetry, pc, rpc, 0, 0});
        stk_.push_back(SimtEntry{SimtType::kTrans, pc, 0, lanes, 0});
      }
      return true;
    case SimtOp::kPause: {
      if (top.type != SimtType::kTrans) {
        ++cover_.pause_skipped;
        return true;  // skipped: the lanes go on (not a Trans top, e.g. divergence)
      }
      const uint64_t pm = m & top.mask;
      if (pm == 0) {
        return true;
      }
      if (pm == top.mask || n + 1 > depth) {
        cover_.overflow += pm != top.mask ? 1 : 0;
        return false;  // a pause must leave a lane running; overflow
      }
      ++cover_.pause;
      SimtEntry run = top;
      run.mask = top.mask & ~pm;
      run.log = log;
      top = SimtEntry{SimtType::kTrans, top.pc, top.rpc, pm, log};
      stk_.push_back(run);
      paused_ = true;
      return true;
    }
    case SimtOp::kCommit: {
      if (ridx_ < 0 || top.type != SimtType::kTrans) {
        return false;
      }
      const uint64_t failed = m & top.mask;
      const size_t r = static_cast<size_t>(ridx_);
      stk_[r].mask |= failed;
      for (size_t i = r + 1; i < n; ++i) {
        stk_[i].mask &= ~failed;
      }
      stk_.pop_back();
      Settle(true);
      return true;
    }
    case SimtOp::kAbort: {
      if (ridx_ < 0) {
        return false;
      }
      const size_t r = static_cast<size_t>(ridx_);
      uint64_t live = 0;
      for (size_t i = r + 1; i < n; ++i) {
        live |= stk_[i].mask;
      }
      const uint64_t a = m & live;
      cover_.abort += a != 0 ? 1 : 0;
      stk_[r].mask |= a;
      for (size_t i = r + 1; i < n; ++i) {
        stk_[i].mask &= ~a;
      }
      Settle(false);
      return true;
    }
    default:
      return false;  // unknown command
  }
}

void TxSimtStackModel::Tick(const TxSimtStackIn& in) {
  resumed_ = restarted_ = tx_done_ = paused_ = false;
  if (in.cmd_valid == 0) {
    return;
  }
  const std::vector<SimtEntry> saved = stk_;
  const int saved_ridx = ridx_;
  const uint64_t overflows = cover_.overflow;
  if (!Apply(in)) {
    stk_ = saved;
    ridx_ = saved_ridx;
    resumed_ = restarted_ = tx_done_ = paused_ = false;
    err_ = true;
    cover_.refused += cover_.overflow == overflows ? 1 : 0;
  }
}

}  // namespace htm::golden
