// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_sys_draw (rtl/sys/htm_sys_draw.sv), the FPGA prototype's draw unit: a
// five-stage pipeline of LowBias32(a ^ b) (htm/workloads/gpu/proto.h; the directed tests compare
// the two) with a tag. See docs/htm_sys_draw.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK SysDraw
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sys_draw.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal, else a message naming the bad parameter.
std::string CheckSysDrawParams(const SysDrawParams& p);

class SysDrawModel {
 public:
  using Ports = SysDrawPorts;
  static constexpr int kLatency = 5;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit SysDrawModel(const SysDrawParams& p);
  void Reset();
  SysDrawOut Eval(const SysDrawIn& in) const;
  void Tick(const SysDrawIn& in);

 private:
  // The RTL's registers: the input word, each shifted word, each product.
  SysDrawParams p_;
  uint32_t x_ = 0, s1_ = 0, m1_ = 0, s2_ = 0, m2_ = 0;
  std::array<bool, kLatency> valid_{};
  std::array<uint64_t, kLatency> tag_{};
};

}  // namespace htm::golden
