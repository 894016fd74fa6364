// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for htm_sig_recency_ram and htm_lwh. The age reference `now` starts at 0 after
// reset and advances by at most one per cycle, as the commit unit's hazard-detection pointer
// does; small configurations wrap it many times per test. Addresses come mostly from a pool a
// little larger than the table, so that hits, evictions and filter answers all occur.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/golden/lwh_model.h"
#include "htm/golden/sig_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class SigRecencyRamBench {
 public:
  using Ports = golden::SigRecencyRamPorts;
  using Model = golden::SigRecencyRamModel;
  SigRecencyRamBench(const golden::SigRecencyRamParams& p, uint64_t seed) : p_(p), rng_(seed) {
    for (int i = 0; i < 16; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
  }
  void OnReset() { now_ = 0; }
  golden::SigRecencyRamIn Next() {
    const uint64_t mask = golden::LowMask(p_.val_w);
    if (rng_.Chance(1, 3)) {
      now_ = (now_ + 1) & mask;
    }
    golden::SigRecencyRamIn in;
    in.now = now_;
    in.lkp_valid = rng_.Chance(3, 4);
    in.lkp_addr = Addr();
    if (rng_.Chance(1, 6)) {
      in.scrub_valid = 1;
      in.scrub_all = rng_.Chance(1, 16);
      in.scrub_idx = rng_.Below(p_.slots_per_hash);
    } else {
      in.ins_valid = rng_.Chance(1, 2);
      in.ins_addr = Addr();
      // Mostly recent values; sometimes any value up to the half window, rarely anything.
      const uint64_t half = uint64_t{1} << (p_.val_w - 1);
      const uint64_t age = rng_.Chance(3, 4)   ? rng_.Below(4)
                           : rng_.Chance(7, 8) ? rng_.Below(half)
                                               : rng_.Bits(p_.val_w);
      in.ins_val = (now_ - age) & mask;
    }
    return in;
  }

 private:
  uint64_t Addr() { return rng_.Chance(7, 8) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w); }
  golden::SigRecencyRamParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_;
  uint64_t now_ = 0;
};

class LwhBench {
 public:
  using Ports = golden::LwhPorts;
  using Model = golden::LwhModel;
  LwhBench(const golden::LwhParams& p, uint64_t seed) : p_(p), rng_(seed) {
    const int n = p_.sets * p_.ways + p_.sets * p_.ways / 2 + 2;
    for (int i = 0; i < n && i < 4096; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
  }
  void OnReset() { now_ = 0; }
  golden::LwhIn Next() {
    const uint64_t mask = golden::LowMask(p_.cid_w);
    // Busy phases (forced scrubs) alternate with idle-ish ones (opportunistic scrubs).
    if (rng_.Chance(1, 200)) {
      busy_ = !busy_;
    }
    if (rng_.Chance(1, 2)) {
      now_ = (now_ + 1) & mask;
    }
    golden::LwhIn in;
    in.now = now_;
    in.op_valid = busy_ ? rng_.Chance(15, 16) : rng_.Chance(1, 3);
    in.op_write = rng_.Chance(1, 2);
    in.op_addr = rng_.Chance(15, 16) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w);
    // An inserted cid is the current one or a little older, never stale (the RTL asserts it).
    const uint64_t max_age = (uint64_t{1} << (p_.cid_w - 2)) - 1;
    const uint64_t age = rng_.Chance(3, 4) ? 0 : rng_.Below(max_age + 1);
    in.op_cid = rng_.Chance(1, 2) || !in.op_write ? (now_ - age) & mask : now_;
    return in;
  }

 private:
  golden::LwhParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_;
  uint64_t now_ = 0;
  bool busy_ = true;
};

}  // namespace htm::tb
