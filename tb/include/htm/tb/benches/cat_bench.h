// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for htm_cat. Messages carry deltas on a pool of addresses a little larger
// than the table: mostly as an RCT would send them (an add, later its remove), with faults
// mixed in — duplicated and spurious deltas, removes without adds, counts above Batch now and
// then. Warp lookups (reads or writes, random lane masks, all lanes or none sometimes) use
// the same pool, so that hits are frequent; requests and messages are held until accepted.
// Idle lines and the delta slots past a message's count carry junk.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/golden/cat_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class CatBench {
 public:
  using Ports = golden::CatPorts;
  using Model = golden::CatModel;
  CatBench(const golden::CatParams& p, uint64_t seed) : p_(p), rng_(seed) {
    const int n = p_.sets * p_.ways + p_.ways + 2;
    for (int i = 0; i < n && i < 8192; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
  }
  golden::CatIn Next() {
    golden::CatIn in = held_;
    if (!held_.msg_valid) {
      // Junk on the idle message lines and in the slots past the count: the block may look at
      // them only in a message it takes, and only at the first msg_count deltas.
      in.msg_count = rng_.Bits(golden::CountWidth(p_.batch));
      for (int i = 0; i < p_.batch; ++i) {
        in.msg_dlt[i] = rng_.Bits(p_.addr_w + 2);
      }
      if (rng_.Chance(1, 3)) {
        in.msg_valid = 1;
        const int n = static_cast<int>(rng_.Below(p_.batch + 1));
        in.msg_count = n;
        for (int i = 0; i < n; ++i) {
          in.msg_dlt[i] = Delta();
        }
        if (rng_.Chance(1, 500)) {
          in.msg_count = golden::LowMask(golden::CountWidth(p_.batch));  // maybe above Batch
        }
      }
    }
    if (!held_.lkp_valid) {
      // An idle lookup port carries a plausible warp: it must not be looked up.
      in.lkp_valid = rng_.Chance(1, 2);
      in.lkp_write = rng_.Chance(1, 2);
      const uint64_t all = golden::LowMask(p_.warp_size);
      in.lkp_mask = rng_.Chance(1, 8) ? all : rng_.Chance(1, 16) ? 0 : rng_.Bits(p_.warp_size);
      for (int l = 0; l < p_.warp_size; ++l) {
        in.lkp_addr[l] = Addr();
      }
    }
    return in;
  }
  // Keeps a request that was not accepted for the next cycle.
  void Observe(const golden::CatIn& in, const golden::CatOut& out) {
    held_ = golden::CatIn{};
    if (in.msg_valid && !out.msg_ready) {
      held_.msg_valid = 1;
      held_.msg_count = in.msg_count;
      held_.msg_dlt = in.msg_dlt;
    }
    if (in.lkp_valid && !out.lkp_ready) {
      held_.lkp_valid = 1;
      held_.lkp_write = in.lkp_write;
      held_.lkp_mask = in.lkp_mask;
      held_.lkp_addr = in.lkp_addr;
    }
  }
  void OnReset() {
    held_ = golden::CatIn{};
    live_.clear();
  }

 private:
  uint64_t Addr() { return rng_.Chance(31, 32) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w); }
  uint64_t Delta() {
    golden::CatDelta d;
    if (!live_.empty() && rng_.Chance(1, 2)) {
      // Remove an address the bench added (sometimes leave it there: a duplicate remove later).
      const size_t i = rng_.Below(live_.size());
      d = live_[i];
      d.add = false;
      if (!rng_.Chance(1, 20)) {
        live_.erase(live_.begin() + static_cast<long>(i));
      }
    } else {
      d.addr = Addr();
      d.write = rng_.Chance(1, 3);
      d.add = !rng_.Chance(1, 20);  // now and then a spurious remove
      if (d.add && live_.size() < 4096) {
        live_.push_back(d);
      }
    }
    return d.Pack();
  }
  golden::CatParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_;
  std::vector<golden::CatDelta> live_;
  golden::CatIn held_;
};

}  // namespace htm::tb
