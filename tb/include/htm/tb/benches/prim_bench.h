// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for the primitives. Each bench changes its traffic mix every 256 cycles
// (fill-heavy, drain-heavy, balanced) so that full and empty states are reached often.
#pragma once

#include <cstdint>

#include "htm/golden/prim_models.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

/// Probability (out of 8) of the "in" and "out" side being active in each 256-cycle phase.
struct Phase {
  uint32_t in = 4;
  uint32_t out = 4;
};

inline Phase PhaseOf(uint64_t cycle, uint64_t salt) {
  switch (((cycle >> 8) + salt) % 3) {
    case 0:
      return {7, 2};  // fill
    case 1:
      return {2, 7};  // drain
    default:
      return {4, 4};
  }
}

class FifoBench {
 public:
  using Ports = golden::FifoPorts;
  using Model = golden::FifoModel;
  FifoBench(const golden::FifoParams& p, uint64_t seed) : p_(p), rng_(seed), salt_(seed % 3) {}
  golden::FifoIn Next() {
    const Phase ph = PhaseOf(cycle_++, salt_);
    golden::FifoIn in;
    in.clr = rng_.Chance(1, 1000);
    in.in_valid = rng_.Chance(ph.in, 8);
    in.in_data = rng_.Bits(p_.width);
    in.out_ready = rng_.Chance(ph.out, 8);
    return in;
  }

 private:
  golden::FifoParams p_;
  Rng rng_;
  uint64_t salt_;
  uint64_t cycle_ = 0;
};

class RrArbBench {
 public:
  using Ports = golden::RrArbPorts;
  using Model = golden::RrArbModel;
  RrArbBench(const golden::RrArbParams& p, uint64_t seed) : p_(p), rng_(seed) {}
  golden::RrArbIn Next() {
    golden::RrArbIn in;
    // Requests persist (a requester keeps asking until served) with occasional changes.
    for (int i = 0; i < p_.num_req; ++i) {
      if (rng_.Chance(1, 6)) {
        req_ ^= uint64_t{1} << i;
      }
    }
    if (rng_.Chance(1, 20)) {
      req_ = rng_.Chance(1, 2) ? golden::LowMask(p_.num_req) : 0;  // all or nothing
    }
    in.req = req_;
    in.ack = rng_.Chance(3, 4);
    return in;
  }

 private:
  golden::RrArbParams p_;
  Rng rng_;
  uint64_t req_ = 0;
};

class Ram1r1wBench {
 public:
  using Ports = golden::Ram1r1wPorts;
  using Model = golden::Ram1r1wModel;
  Ram1r1wBench(const golden::Ram1r1wParams& p, uint64_t seed) : p_(p), rng_(seed) {}
  golden::Ram1r1wIn Next() {
    golden::Ram1r1wIn in;
    in.wr_en = rng_.Chance(1, 2);
    in.wr_addr = Addr();
    in.wr_data = rng_.Bits(p_.width);
    in.rd_en = rng_.Chance(1, 2);
    // Often read what was just written, to exercise read-during-write (read-first).
    in.rd_addr = rng_.Chance(1, 4) ? in.wr_addr : Addr();
    return in;
  }

 private:
  uint64_t Addr() {
    // Mostly a small hot region so that reads hit written words; sometimes anywhere.
    const uint64_t hot = p_.depth < 16 ? p_.depth : 16;
    return rng_.Chance(3, 4) ? rng_.Below(hot) : rng_.Below(p_.depth);
  }
  golden::Ram1r1wParams p_;
  Rng rng_;
};

class RamSpBench {
 public:
  using Ports = golden::RamSpPorts;
  using Model = golden::RamSpModel;
  RamSpBench(const golden::RamSpParams& p, uint64_t seed) : p_(p), rng_(seed) {}
  golden::RamSpIn Next() {
    golden::RamSpIn in;
    in.en = rng_.Chance(3, 4);
    in.we = rng_.Chance(1, 2);
    const uint64_t hot = p_.depth < 16 ? p_.depth : 16;
    in.addr = rng_.Chance(3, 4) ? rng_.Below(hot) : rng_.Below(p_.depth);
    in.wdata = rng_.Bits(p_.width);
    return in;
  }

 private:
  golden::RamSpParams p_;
  Rng rng_;
};

}  // namespace htm::tb
