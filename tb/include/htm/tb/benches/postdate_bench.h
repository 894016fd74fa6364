// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_postdate: the dependency edges, begins, commits and aborts of the
// transactions in a few slots, and queries.
//
// Most operations are edges among a small pool of slots (so that chains and loops form and
// predecessors get post-dated, lowered and broken), some between any two slots; transactions
// commit, abort and begin again; a few operations are bad (an edge from a slot to itself, a
// slot beyond NumTx when NumTx is not a power of two, an unknown kind). An operation is held
// until it is taken, and sometimes there is none. Small timestamp widths overflow, so the
// table's reset sweep and the dropped operation behind an overflow are exercised.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/postdate_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class PostdateBench {
 public:
  using Ports = golden::PostdatePorts;
  using Model = golden::PostdateModel;
  using In = golden::PostdateIn;
  using Out = golden::PostdateOut;

  PostdateBench(const golden::PostdateParams& p, uint64_t seed)
      : p_(p), rng_(seed), txw_(golden::IdxWidth(p.num_tx)) {
    const int pool = p.num_tx < 6 ? p.num_tx : 6;
    for (int i = 0; i < pool; ++i) {
      pool_.push_back(rng_.Below(static_cast<uint64_t>(p.num_tx)));
    }
    OnReset();
  }

  void OnReset() { cur_ = In{}; }

  In Next() {
    if (!cur_.op_valid && !rng_.Chance(1, 6)) {
      cur_ = NewOp();
    }
    return cur_;
  }

  void Observe(const In& in, const Out& out) {
    if (in.op_valid && out.op_ready) {
      cur_ = In{};
    }
  }

 private:
  uint64_t Slot() { return rng_.Chance(7, 8) ? rng_.Pick(pool_) : rng_.Bits(txw_); }

  In NewOp() {
    In r;
    r.op_valid = 1;
    const uint32_t k = static_cast<uint32_t>(rng_.Below(100));
    PdOp kind = PdOp::kEdge;
    if (k < 6) {
      kind = PdOp::kCommit;
    } else if (k < 10) {
      kind = PdOp::kAbort;
    } else if (k < 18) {
      kind = PdOp::kBegin;
    } else if (k < 26) {
      kind = PdOp::kQuery;
    }
    r.op_kind = static_cast<uint64_t>(kind);
    r.op_a = Slot();
    r.op_b = Slot();
    if (kind == PdOp::kEdge && r.op_a == r.op_b && !rng_.Chance(1, 10)) {
      r.op_b = (r.op_b + 1) % static_cast<uint64_t>(p_.num_tx);
    }
    if (rng_.Chance(1, 100)) {
      r.op_kind = 5 + rng_.Below(3);  // not an operation
    }
    return r;
  }

  golden::PostdateParams p_;
  Rng rng_;
  int txw_;
  std::vector<uint64_t> pool_;
  In cur_;
};

}  // namespace htm::tb
