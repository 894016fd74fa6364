// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for htm_tcd. Commit writes and transactional reads go to a pool of chunks a
// little larger than the filter; the first-read time `since` is mostly recent, sometimes close
// to or beyond the stale age, rarely anything. The bench keeps its own copy of the block's time
// (cycles since reset) to choose them.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/golden/tcd_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class TcdBench {
 public:
  using Ports = golden::TcdPorts;
  using Model = golden::TcdModel;
  TcdBench(const golden::TcdParams& p, uint64_t seed) : p_(p), rng_(seed) {
    const int n = p_.num_hashes * p_.slots_per_hash / 2 + 3;
    for (int i = 0; i < n && i < 4096; ++i) {
      pool_.push_back(rng_.Bits(p_.addr_w));
    }
  }
  void OnReset() { now_ = 0; }
  golden::TcdIn Next() {
    const uint64_t mask = golden::LowMask(p_.ts_w);
    if (rng_.Chance(1, 300)) {
      busy_ = !busy_;
    }
    golden::TcdIn in;
    in.upd_valid = busy_ ? rng_.Chance(15, 16) : rng_.Chance(1, 4);
    in.upd_addr = Addr();
    in.chk_valid = rng_.Chance(1, 2);
    in.chk_addr = Addr();
    const uint64_t stale = uint64_t{1} << (p_.ts_w - 2);
    const uint64_t age = rng_.Chance(3, 4)   ? rng_.Below(16)
                         : rng_.Chance(3, 4) ? stale - 2 + rng_.Below(4)
                                             : rng_.Bits(p_.ts_w);
    in.chk_since = (now_ - age) & mask;
    now_ = (now_ + 1) & mask;
    return in;
  }

 private:
  uint64_t Addr() { return rng_.Chance(15, 16) ? rng_.Pick(pool_) : rng_.Bits(p_.addr_w); }
  golden::TcdParams p_;
  Rng rng_;
  std::vector<uint64_t> pool_;
  uint64_t now_ = 0;
  bool busy_ = true;
};

}  // namespace htm::tb
