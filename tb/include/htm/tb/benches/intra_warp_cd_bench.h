// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_intra_warp_cd: a log walker and the core's CAT.
//
// The walker commits one warp after another: Begin (a random set of lanes, Early-Abort on or
// off), the warp's write-log rows as Mark, then its read and write rows as Check in a random
// order, then End; sometimes it pauses between commands, and now and then it sends a command
// out of order (a Mark after a Check; a Mark, Check or End before Begin). Lanes share a small pool
// of addresses so that they conflict, and the pool is larger than the table so that entries alias.
// The CAT takes a request when it feels like it and answers after 1 to 9 cycles with random hits
// among the requested lanes.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/intra_warp_cd_model.h"
#include "htm/tb/benches/cat_responder.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class IntraWarpCdBench {
 public:
  using Ports = golden::IntraWarpCdPorts;
  using Model = golden::IntraWarpCdModel;
  using In = golden::IntraWarpCdIn;
  using Out = golden::IntraWarpCdOut;

  IntraWarpCdBench(const golden::IntraWarpCdParams& p, uint64_t seed)
      : p_(p), rng_(seed), all_(golden::LowMask(p.warp_size)), cat_({p.warp_size, 9, 0, 0}) {
    const int n = p_.entries + 4 < 64 ? p_.entries + 4 : 64;
    for (int i = 0; i < n; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
    OnReset();
  }

  void OnReset() {
    cmds_.clear();
    cur_ = In{};
    cat_.Reset();
  }

  In Next() {
    In in = cur_;
    if (!in.cmd_valid && !rng_.Chance(1, 6)) {
      if (cmds_.empty()) {
        NewWarp();
      }
      in = cmds_.front();
      cmds_.erase(cmds_.begin());
      in.cmd_valid = 1;
    }
    cur_ = in;
    cat_.Drive(rng_, in);
    return in;
  }

  void Observe(const In& in, const Out& out) {
    if (in.cmd_valid && out.cmd_ready) {
      cur_ = In{};
    }
    cat_.Observe(rng_, in, out);
  }

 private:
  In Row(IwcdOp op, bool write) {
    In r;
    r.cmd_op = static_cast<uint64_t>(op);
    r.cmd_write = write;
    r.cmd_mask = rng_.Chance(1, 10) ? all_ : rng_.Bits(p_.warp_size);
    for (int l = 0; l < p_.warp_size; ++l) {
      r.cmd_addr[l] = rng_.Chance(15, 16) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w);
    }
    return r;
  }
  void NewWarp() {
    In begin;
    begin.cmd_op = static_cast<uint64_t>(IwcdOp::kBegin);
    begin.cmd_mask = rng_.Chance(1, 4) ? all_ : rng_.Bits(p_.warp_size);
    begin.ea_en = rng_.Chance(2, 3);
    if (rng_.Chance(1, 40)) {
      // Out of order: a row or an End before Begin.
      const uint64_t k = rng_.Below(3);
      if (k == 2) {
        In end;
        end.cmd_op = static_cast<uint64_t>(IwcdOp::kEnd);
        cmds_.push_back(end);
      } else {
        cmds_.push_back(Row(k == 0 ? IwcdOp::kCheck : IwcdOp::kMark, k != 0));
      }
    }
    cmds_.push_back(begin);
    const int writes = static_cast<int>(rng_.Below(4));
    const int reads = static_cast<int>(rng_.Below(4));
    std::vector<In> wr;
    for (int i = 0; i < writes; ++i) {
      wr.push_back(Row(IwcdOp::kMark, true));
      cmds_.push_back(wr.back());
    }
    std::vector<In> checks;
    for (In w : wr) {
      w.cmd_op = static_cast<uint64_t>(IwcdOp::kCheck);
      checks.push_back(w);
    }
    for (int i = 0; i < reads; ++i) {
      checks.push_back(Row(IwcdOp::kCheck, false));
    }
    for (size_t i = checks.size(); i > 1; --i) {
      std::swap(checks[i - 1], checks[rng_.Below(i)]);
    }
    for (const In& c : checks) {
      cmds_.push_back(c);
    }
    if (rng_.Chance(1, 40)) {
      cmds_.push_back(Row(IwcdOp::kMark, true));  // out of order: a Mark after a Check
    }
    In end;
    end.cmd_op = static_cast<uint64_t>(IwcdOp::kEnd);
    cmds_.push_back(end);
  }

  golden::IntraWarpCdParams p_;
  Rng rng_;
  uint64_t all_;
  std::vector<uint64_t> pool_;
  std::vector<In> cmds_;
  In cur_;
  CatResponder cat_;
};

}  // namespace htm::tb
