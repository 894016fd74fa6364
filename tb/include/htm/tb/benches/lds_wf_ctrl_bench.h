// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_lds_wf_ctrl: one wavefront running transactions, the LDS banks
// reporting conflicts, and the rest of the work-group (the WgS arbiter and other wavefronts).
//
// The program alternates non-transactional code (EXEC writes) and transactions. In a try it
// writes EXEC (subsets of the try's EXEC, restored before TX_Commit), nests TX_Begin/TX_Commit
// now and then (beyond MaxDepth rarely, on purpose), and reports conflicts for running work-items
// with random owner relations. Each transaction has a "hot" set of work-items that conflict in most
// tries they run in, so tries end with the same TCM (livelock, WfS) and selected work-items
// conflict again (WgS). The arbiter grants WgS after a random delay and holds it while requested;
// other wavefronts take WgS now and then, aborting a try in progress. A few protocol violations are
// sent on purpose.
//
// The bench sees the outputs of the cycle before (Observe), so after an accepted instruction
// it waits one cycle (no instruction, no conflict) to see its effect.
#pragma once

#include <cstdint>

#include "htm/golden/lds_wf_ctrl_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class LdsWfCtrlBench {
 public:
  using Ports = golden::LdsWfCtrlPorts;
  using Model = golden::LdsWfCtrlModel;
  using In = golden::LdsWfCtrlIn;
  using Out = golden::LdsWfCtrlOut;

  LdsWfCtrlBench(const golden::LdsWfCtrlParams& p, uint64_t seed)
      : p_(p), rng_(seed), all_(golden::LowMask(p.wf_size)) {}

  void OnReset() {
    out_ = Out{};
    out_.exec = all_;
    have_out_ = false;
    pending_ = false;
    cool_ = 1;
    grant_ = other_ = false;
    other_left_ = grant_wait_ = 0;
    depth_ = 0;
  }

  In Next() {
    In in;
    // The rest of the work-group: our grant, and other wavefronts' WgS episodes.
    if (grant_ && !out_.wgs_req && have_out_) {
      grant_ = false;
    }
    if (!grant_ && out_.wgs_req && !other_) {
      if (grant_wait_ == 0) {
        grant_wait_ = 1 + rng_.Below(6);
      } else if (--grant_wait_ == 0) {
        grant_ = true;
      }
    }
    if (other_) {
      other_ = --other_left_ > 0;
    } else if (!grant_ && rng_.Chance(1, 150)) {
      other_ = true;
      other_left_ = 1 + rng_.Below(20);
    }
    in.wgs_grant = grant_;
    in.wgs_other = other_;

    presented_ = false;
    const uint64_t prev_conf = last_conf_;  // a work-item conflicts once
    last_conf_ = 0;
    if (cool_ > 0) {
      --cool_;
      return in;
    }
    if (rng_.Chance(1, 1000)) {
      return Violation(in);
    }
    if (!pending_) {
      Choose();
    }
    presented_ = pending_;
    if (pending_) {
      in.op_valid = 1;
      in.op = static_cast<uint64_t>(op_);
      in.op_exec = op_exec_;
    }
    // Conflicts for running work-items of a try.
    if (out_.in_try && !CommitPending() && out_.mode != static_cast<uint64_t>(htm::LdsMode::kWgS)) {
      const uint64_t run = out_.run & try_exec_ & ~prev_conf;
      uint64_t conf = 0;
      for (int i = 0; i < p_.wf_size; ++i) {
        const uint64_t b = uint64_t{1} << i;
        if ((run & b) && ((hot_ & b) ? rng_.Chance(1, 6) : rng_.Chance(1, 200))) {
          conf |= b;
        }
      }
      in.conf = conf;
      last_conf_ = conf;
      in.conf_lower = rng_.Bits(p_.wf_size);
      in.conf_self = rng_.Chance(1, 8) ? rng_.Bits(p_.wf_size) & rng_.Bits(p_.wf_size) : 0;
    }
    return in;
  }

  void Observe(const In& in, const Out& out) {
    if (in.op_valid && out.op_ready && presented_) {
      pending_ = false;
      cool_ = 1;
      if (op_ == LdsOp::kTxBegin && !out.in_try) {
        begun_ = true;  // the try's EXEC is the EXEC seen after the cool-down
      }
      if (op_ == LdsOp::kTxBegin && out.in_try) {
        ++depth_;
      }
      if (op_ == LdsOp::kTxCommit && depth_ > 0) {
        --depth_;
      }
    }
    if (out.abort || (in.wgs_other && out.in_try)) {
      depth_ = 0;
      pending_ = false;
      cool_ = 1;
    }
    out_ = out;
    have_out_ = true;
    if (begun_ && out.in_try && cool_ == 0) {
      begun_ = false;
      try_exec_ = out.exec;
      ops_left_ = 2 + static_cast<int>(rng_.Below(10));
    }
  }

 private:
  using LdsOp = htm::LdsOp;

  bool CommitPending() const { return pending_ && op_ == LdsOp::kTxCommit; }

  void Issue(LdsOp op, uint64_t exec = 0) {
    pending_ = true;
    op_ = op;
    op_exec_ = exec & all_;
  }

  // The next instruction, from the state seen last cycle.
  void Choose() {
    if (out_.retry) {
      Issue(LdsOp::kTxBegin);  // TX_Commit jumps back to TX_Begin
      return;
    }
    if (!out_.in_try) {
      if (rng_.Chance(1, 3)) {
        Issue(LdsOp::kExecWrite, rng_.Chance(3, 4) ? all_ : rng_.Bits(p_.wf_size));
      } else if (rng_.Chance(1, 2)) {
        // A new transaction: pick the work-items that will keep conflicting.
        hot_ = rng_.Chance(1, 4) ? 0 : rng_.Bits(p_.wf_size) & rng_.Bits(p_.wf_size);
        Issue(LdsOp::kTxBegin);
      }
      return;
    }
    if (begun_) {
      return;  // wait for the try's EXEC
    }
    if (ops_left_ > 0) {
      --ops_left_;
      if (rng_.Chance(1, 4)) {
        Issue(LdsOp::kExecWrite, try_exec_ & rng_.Bits(p_.wf_size));
      } else if (rng_.Chance(1, 10) && (depth_ < p_.max_depth || rng_.Chance(1, 100))) {
        Issue(LdsOp::kTxBegin);
      } else if (rng_.Chance(1, 10) && depth_ > 0) {
        Issue(LdsOp::kTxCommit);
      }
      return;
    }
    if (out_.exec != try_exec_) {
      Issue(LdsOp::kExecWrite, try_exec_);  // restore EXEC before TX_Commit
    } else {
      Issue(LdsOp::kTxCommit);
    }
  }

  In Violation(In in) {
    switch (rng_.Below(4)) {
      case 0:
        in.conf = ~out_.run & all_ & rng_.Bits(p_.wf_size);  // not a running work-item
        break;
      case 1:
        if (!out_.in_try) {
          in.op_valid = 1;
          in.op = static_cast<uint64_t>(LdsOp::kTxCommit);  // commit outside a try
        }
        break;
      case 2:
        if (!pending_) {
          in.op_valid = 1;
          in.op = 3;  // not an lds_op_e value
        }
        break;
      default:
        if (out_.retry && !pending_) {
          in.op_valid = 1;
          in.op = static_cast<uint64_t>(LdsOp::kExecWrite);  // EXEC write before the retry
          in.op_exec = rng_.Bits(p_.wf_size);
        }
        break;
    }
    cool_ = 1;
    return in;
  }

  golden::LdsWfCtrlParams p_;
  Rng rng_;
  uint64_t all_;
  Out out_{};
  bool have_out_ = false;
  bool pending_ = false, presented_ = false, begun_ = false;
  LdsOp op_ = LdsOp::kExecWrite;
  uint64_t op_exec_ = 0, try_exec_ = 0, hot_ = 0, last_conf_ = 0;
  int cool_ = 1, ops_left_ = 0, depth_ = 0;
  bool grant_ = false, other_ = false;
  int other_left_ = 0, grant_wait_ = 0;
};

/// Stimulus for htm_lds_wgs_arb: each wavefront requests WgS now and then and, once granted,
/// holds its request for a few cycles (its WgS try), then drops it; some requests are dropped
/// before the grant (a wavefront reset), and now and then every wavefront requests at once.
class LdsWgsArbBench {
 public:
  using Ports = golden::LdsWgsArbPorts;
  using Model = golden::LdsWgsArbModel;
  using In = golden::LdsWgsArbIn;
  using Out = golden::LdsWgsArbOut;

  LdsWgsArbBench(const golden::LdsWgsArbParams& p, uint64_t seed) : p_(p), rng_(seed) {}

  void OnReset() {
    req_ = 0;
    hold_left_ = 0;
  }

  In Next() {
    for (int w = 0; w < p_.num_wf; ++w) {
      const uint64_t bit = uint64_t{1} << w;
      if ((granted_ & bit) != 0) {
        continue;  // the holder keeps its request until its try ends (below)
      }
      if ((req_ & bit) == 0 && rng_.Chance(1, 12)) {
        req_ |= bit;
      } else if ((req_ & bit) != 0 && rng_.Chance(1, 60)) {
        req_ &= ~bit;
      }
    }
    if (rng_.Chance(1, 200)) {
      req_ = golden::LowMask(p_.num_wf);
    }
    if (granted_ != 0) {
      if (hold_left_ == 0) {
        hold_left_ = 1 + static_cast<int>(rng_.Below(8));
      } else if (--hold_left_ == 0) {
        req_ &= ~granted_;
      }
    }
    In in;
    in.req = req_;
    return in;
  }

  void Observe(const In&, const Out& out) { granted_ = out.grant; }

 private:
  golden::LdsWgsArbParams p_;
  Rng rng_;
  uint64_t req_ = 0, granted_ = 0;
  int hold_left_ = 0;
};

}  // namespace htm::tb
