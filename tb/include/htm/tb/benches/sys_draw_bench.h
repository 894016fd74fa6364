// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for htm_sys_draw (docs/htm_sys_draw.md): bursts of back-to-back inputs and
// idle stretches; operands as the prototype uses them ({stream, index} against a seed hash, a seed
// against the seed constant) and anything at all.
#pragma once

#include <cstdint>

#include "htm/golden/sys_draw_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class SysDrawBench {
 public:
  using Ports = golden::SysDrawPorts;
  using Model = golden::SysDrawModel;
  SysDrawBench(const golden::SysDrawParams& p, uint64_t seed) : p_(p), rng_(seed) {}
  golden::SysDrawIn Next() {
    if (rng_.Chance(1, 32)) {
      burst_ = !burst_;
    }
    golden::SysDrawIn in;
    in.in_valid = burst_ ? rng_.Chance(15, 16) : rng_.Chance(1, 8);
    switch (rng_.Below(3)) {
      case 0:  // a draw: stream and index against a seed hash
        in.a = rng_.Bits(8) << 24 | rng_.Bits(10);
        in.b = seed_hash_;
        break;
      case 1:  // a seed hash
        in.a = rng_.Bits(32);
        in.b = 0xA5A5A5A5u;
        break;
      default:
        in.a = rng_.Bits(32);
        in.b = rng_.Bits(32);
        break;
    }
    if (rng_.Chance(1, 64)) {
      seed_hash_ = rng_.Bits(32);
    }
    in.in_tag = rng_.Bits(p_.tag_w);
    return in;
  }

 private:
  golden::SysDrawParams p_;
  Rng rng_;
  bool burst_ = true;
  uint64_t seed_hash_ = 0x845ECF59u;
};

}  // namespace htm::tb
