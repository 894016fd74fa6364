// SPDX-License-Identifier: Apache-2.0
//
// Random stimulus for the prototype's UART (docs/htm_uart.md). The transmitter gets bytes in
// bursts (back to back) and alone. The receiver's line carries frames at a bit time drawn per
// frame within a few percent of ClkPerBit (a host's clock differs from the board's), idle gaps,
// glitches shorter than half a bit, frames with a low stop bit and long breaks.
#pragma once

#include <algorithm>
#include <cstdint>

#include "htm/golden/uart_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

class UartTxBench {
 public:
  using Ports = golden::UartTxPorts;
  using Model = golden::UartTxModel;
  UartTxBench(const golden::UartTxParams& p, uint64_t seed) : rng_(seed) { (void)p; }
  golden::UartTxIn Next() {
    if (rng_.Chance(1, 200)) {
      burst_ = !burst_;
    }
    golden::UartTxIn in;
    in.in_valid = burst_ ? rng_.Chance(7, 8) : rng_.Chance(1, 64);
    in.in_data = rng_.Bits(8);
    return in;
  }

 private:
  Rng rng_;
  bool burst_ = true;
};

class UartRxBench {
 public:
  using Ports = golden::UartRxPorts;
  using Model = golden::UartRxModel;
  UartRxBench(const golden::UartRxParams& p, uint64_t seed) : p_(p), rng_(seed) {}
  golden::UartRxIn Next() {
    if (left_ == 0) {
      Plan();
    }
    --left_;
    golden::UartRxIn in;
    in.rx = level_;
    return in;
  }

 private:
  // The next stretch of the line: the next bit of a frame, or idle, a glitch or a break.
  void Plan() {
    if (bit_ < 10) {  // inside a frame: start (0), 8 data bits, stop (9)
      level_ = bit_ == 0 ? 0 : bit_ == 9 ? stop_ : (byte_ >> (bit_ - 1)) & 1;
      left_ = bit_time_;
      ++bit_;
      return;
    }
    const uint64_t r = rng_.Below(100);
    if (r < 70) {  // a frame
      bit_ = 0;
      byte_ = rng_.Bits(8);
      stop_ = rng_.Chance(1, 20) ? 0 : 1;
      // Within about 3 % of the nominal bit time (whole cycles).
      const int nominal = p_.clk_per_bit;
      const int spread = std::max(0, nominal * 3 / 100);
      bit_time_ = nominal - spread + static_cast<int>(rng_.Below(2 * spread + 1));
      Plan();
    } else if (r < 90) {  // idle
      level_ = 1;
      left_ = 1 + static_cast<int>(rng_.Below(2 * p_.clk_per_bit));
    } else if (r < 97) {  // a glitch: low for less than half a bit
      level_ = 0;
      left_ = 1 + static_cast<int>(rng_.Below(std::max(1, p_.clk_per_bit / 2 - 2)));
      bit_ = 10;
    } else {  // a break: low for a while
      level_ = 0;
      left_ = p_.clk_per_bit * (5 + static_cast<int>(rng_.Below(20)));
    }
  }

  golden::UartRxParams p_;
  Rng rng_;
  int left_ = 0;
  uint64_t level_ = 1;
  int bit_ = 10;  // 10: no frame in progress
  int bit_time_ = 0;
  uint64_t byte_ = 0, stop_ = 1;
};

}  // namespace htm::tb
