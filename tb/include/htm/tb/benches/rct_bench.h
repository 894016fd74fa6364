// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for htm_rct: the event stream of a commit unit. Log words are stored
// (increments) on a pool of addresses a little larger than the table, so that sets fill, and
// freed (decrements) mostly in some order after they were stored; bursts of an increment and a
// decrement in every cycle fill the increment queue; a few decrements are spurious (no such
// word), as faults would make them. The bench keeps the live words it has stored.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/golden/rct_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class RctBench {
 public:
  using Ports = golden::RctPorts;
  using Model = golden::RctModel;
  RctBench(const golden::RctParams& p, uint64_t seed) : p_(p), rng_(seed) {
    const int n = p_.sets * p_.ways + p_.ways + 2;
    for (int i = 0; i < n && i < 8192; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
  }
  void OnReset() { live_.clear(); }
  golden::RctIn Next() {
    if (rng_.Chance(1, 200)) {
      mode_ = static_cast<int>(rng_.Below(3));
    }
    // Modes: 0 mixed, 1 bursts of both events every cycle, 2 mostly stores (the table fills).
    const uint32_t inc_pct = mode_ == 1 ? 95 : mode_ == 2 ? 70 : 45;
    const uint32_t dec_pct = mode_ == 1 ? 95 : mode_ == 2 ? 25 : 45;
    golden::RctIn in;
    if (rng_.Chance(inc_pct, 100) && live_.size() < 4096) {
      in.inc_valid = 1;
      in.inc_addr = Addr();
      in.inc_write = rng_.Chance(1, 3);
      live_.push_back(Word{in.inc_addr, in.inc_write != 0});
    }
    if (rng_.Chance(dec_pct, 100)) {
      if (!live_.empty() && !rng_.Chance(1, 50)) {
        // Mostly old words first, as a commit unit retires in order; sometimes any.
        const size_t n = live_.size();
        const size_t i = rng_.Chance(3, 4) ? rng_.Below(n < 4 ? n : 4) : rng_.Below(n);
        in.dec_valid = 1;
        in.dec_addr = live_[i].addr;
        in.dec_write = live_[i].write;
        live_.erase(live_.begin() + static_cast<long>(i));
      } else {
        in.dec_valid = 1;  // spurious: a word that was never stored
        in.dec_addr = Addr();
        in.dec_write = rng_.Chance(1, 2);
      }
    }
    return in;
  }

 private:
  struct Word {
    uint64_t addr;
    bool write;
  };
  uint64_t Addr() {
    // A hot address now and then, so that counts saturate.
    if (rng_.Chance(1, 8)) {
      return pool_[0];
    }
    return rng_.Chance(31, 32) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w);
  }
  golden::RctParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_;
  std::vector<Word> live_;
  int mode_ = 0;
};

}  // namespace htm::tb
