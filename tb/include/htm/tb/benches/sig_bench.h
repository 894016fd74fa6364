// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for htm_sig and htm_sig_recency. Addresses come mostly from a small pool so
// that tests hit inserted addresses and aliases; clears are rare so that signatures fill up.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/golden/sig_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class SigBench {
 public:
  using Ports = golden::SigPorts;
  using Model = golden::SigModel;
  SigBench(const golden::SigParams& p, uint64_t seed) : p_(p), rng_(seed) {
    for (int i = 0; i < 12; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
  }
  golden::SigIn Next() {
    golden::SigIn in;
    in.clr = rng_.Chance(1, 48);
    in.ins_valid = rng_.Chance(1, 3);
    in.ins_addr = Addr();
    in.tst_addr = Addr();
    return in;
  }

 private:
  uint64_t Addr() { return rng_.Chance(3, 4) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w); }
  golden::SigParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_;
};

class SigRecencyBench {
 public:
  using Ports = golden::SigRecencyPorts;
  using Model = golden::SigRecencyModel;
  SigRecencyBench(const golden::SigRecencyParams& p, uint64_t seed) : p_(p), rng_(seed) {
    for (int i = 0; i < 12; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
  }
  golden::SigRecencyIn Next() {
    golden::SigRecencyIn in;
    in.clr = rng_.Chance(1, 256);
    in.ins_valid = rng_.Chance(1, 2);
    in.ins_addr = Addr();
    // Mostly increasing values (commit ids, timestamps), sometimes arbitrary ones.
    if (rng_.Chance(7, 8)) {
      next_val_ = (next_val_ + rng_.Below(3)) & golden::LowMask(p_.val_w);
      in.ins_val = next_val_;
    } else {
      in.ins_val = rng_.Bits(p_.val_w);
    }
    in.lkp_addr = Addr();
    return in;
  }

 private:
  uint64_t Addr() { return rng_.Chance(3, 4) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w); }
  golden::SigRecencyParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_;
  uint64_t next_val_ = 0;
};

}  // namespace htm::tb
