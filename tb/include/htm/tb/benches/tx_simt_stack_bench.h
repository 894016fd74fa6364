// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_tx_simt_stack: a warp's pipeline running transactional code.
//
// The warp launches, runs instructions (PCs from a small pool, so that paths reconverge; the
// pool's PCs pair up with equal low bits and different high ones, so that a PC comparator that
// ignores high bits shows: one that compared 8 bits passed this bench when its PCs were 0..56,
// and failed at once on the workloads, whose PCs are source lines and columns), takes
// branches with random taken lanes, begins transactions (nested ones too), pauses lanes of the
// top entry, commits with random failing lanes, aborts lanes, and now and then relaunches or
// sends a command that is an error (a command before Init, a commit or abort outside a
// transaction, a commit while the try's top has diverged, a pause of every lane, an unknown
// command, too many pushes). Commands follow the outputs of the last cycle (one command
// behind when commands come back to back, which is allowed: every command is defined in every
// state).
#pragma once

#include <array>
#include <cstdint>

#include "htm/enums.h"
#include "htm/golden/tx_simt_stack_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class TxSimtStackBench {
 public:
  using Ports = golden::TxSimtStackPorts;
  using Model = golden::TxSimtStackModel;
  using In = golden::TxSimtStackIn;
  using Out = golden::TxSimtStackOut;

  TxSimtStackBench(const golden::TxSimtStackParams& p, uint64_t seed)
      : p_(p), rng_(seed), all_(golden::LowMask(p.warp_size)) {
    const uint64_t low = golden::LowMask(p.pc_w < 6 ? p.pc_w : 6);
    for (size_t i = 0; i < pool_.size(); i += 2) {
      const uint64_t l = rng_.Bits(p.pc_w) & low;
      pool_[i] = ((rng_.Bits(p.pc_w) & ~low) | l) & golden::LowMask(p.pc_w);
      pool_[i + 1] = ((rng_.Bits(p.pc_w) & ~low) | l) & golden::LowMask(p.pc_w);
    }
    OnReset();
  }

  void OnReset() {
    last_ = Out{};
    log_ = 0;
    deep_ = false;
  }

  In Next() {
    In in;
    if (rng_.Chance(1, 5)) {
      return in;  // no command
    }
    in.cmd_valid = 1;
    in.cmd_pc = Pc();
    in.cmd_pc2 = Pc();
    in.cmd_rpc = Pc();
    in.cmd_mask = rng_.Bits(p_.warp_size);
    if (rng_.Chance(1, 2)) {
      log_ = (log_ + 1) & golden::LowMask(p_.log_w);
    }
    in.cmd_log = log_;
    const uint64_t top = last_.top_mask;
    if (!last_.top_valid && rng_.Chance(1, 10)) {
      in.cmd_op = static_cast<uint64_t>(SimtOp::kNext);  // a command before Init: an error
      return in;
    }
    if (!last_.top_valid || rng_.Chance(1, 300)) {
      in.cmd_op = static_cast<uint64_t>(SimtOp::kInit);
      in.cmd_mask = rng_.Chance(1, 2) ? all_ : in.cmd_mask;
      return in;
    }
    // Now and then a stretch of nested divergence without reconvergence fills the stack.
    if (rng_.Chance(1, 150)) {
      deep_ = !deep_;
    }
    if (deep_ && rng_.Chance(1, 2)) {
      in.cmd_op = static_cast<uint64_t>(SimtOp::kBranch);
      in.cmd_mask = top & ~(top & (~top + 1));  // all but the lowest lane taken
      in.cmd_pc = 0x10 & golden::LowMask(p_.pc_w);
      in.cmd_pc2 = 0x20 & golden::LowMask(p_.pc_w);
      in.cmd_rpc = 0x30 & golden::LowMask(p_.pc_w);
      return in;
    }
    const uint32_t k = static_cast<uint32_t>(rng_.Below(100));
    SimtOp op;
    const bool diverged_tx =
        last_.in_tx && last_.top_type == static_cast<uint64_t>(SimtType::kNormal);
    if (diverged_tx && rng_.Chance(1, 4)) {
      in.cmd_op = static_cast<uint64_t>(SimtOp::kNext);
      in.cmd_pc = last_.top_rpc;  // the divergent path reaches its reconvergence point
      return in;
    }
    if (k < 35) {
      op = SimtOp::kNext;
      if (rng_.Chance(1, 3)) {
        in.cmd_pc = last_.top_rpc;  // reconverge
      }
    } else if (k < 47) {
      op = SimtOp::kBranch;
      const uint32_t b = static_cast<uint32_t>(rng_.Below(3));
      in.cmd_mask = b == 0 ? top : b == 1 ? 0 : in.cmd_mask;  // all, none or some taken
    } else if (k < 57) {
      op = SimtOp::kTxBegin;
    } else if (k < 72) {
      op = SimtOp::kPause;
      // Usually some of the top's lanes, now and then all of them (an error) or none.
      in.cmd_mask = rng_.Chance(1, 40) ? top : in.cmd_mask & top;
    } else if (k < 90) {
      op = SimtOp::kCommit;
      in.cmd_mask = rng_.Chance(1, 3) ? 0 : in.cmd_mask & top;
    } else if (k < 99) {
      op = SimtOp::kAbort;
    } else {
      op = static_cast<SimtOp>(7);  // unknown
    }
    in.cmd_op = static_cast<uint64_t>(op);
    return in;
  }

  void Observe(const In& in, const Out& out) {
    (void)in;
    last_ = out;
  }

 private:
  uint64_t Pc() { return pool_[rng_.Below(pool_.size())]; }

  golden::TxSimtStackParams p_;
  Rng rng_;
  uint64_t all_;
  Out last_;
  uint64_t log_ = 0;
  bool deep_ = false;
  std::array<uint64_t, 8> pool_{};
};

}  // namespace htm::tb
