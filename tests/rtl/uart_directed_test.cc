// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of the prototype's UART in lockstep (docs/htm_uart.md): the transmitter's
// frame, cycle by cycle, and bytes back to back; the receiver's byte, a glitch ignored, a low stop
// bit flagged with the wait for the line to go high, a host clock 4 % off (and 7 % failing); and
// the two in a loop.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_uart_rx__default.h"
#include "Vhtm_uart_rx__fast.h"
#include "Vhtm_uart_tx__fast.h"

#include "htm/configs/htm_uart_rx.h"
#include "htm/configs/htm_uart_tx.h"
#include "htm/golden/uart_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {

using golden::UartRxIn;
using golden::UartRxModel;
using golden::UartRxPorts;
using golden::UartTxIn;
using golden::UartTxModel;
using golden::UartTxPorts;

using TxLs = Lockstep<UartTxPorts, Vhtm_uart_tx__fast, UartTxModel>;
using RxLs = Lockstep<UartRxPorts, Vhtm_uart_rx__fast, UartRxModel>;
using RxDefaultLs = Lockstep<UartRxPorts, Vhtm_uart_rx__default, UartRxModel>;
constexpr int kBit = configs::htm_uart_tx::kFast.clk_per_bit;

UartTxIn Byte(uint8_t b) {
  UartTxIn in;
  in.in_valid = 1;
  in.in_data = b;
  return in;
}

// The line levels of a frame of `byte` with `bit` cycles per bit and the given stop bit.
std::vector<int> Frame(uint8_t byte, int bit, int stop = 1) {
  std::vector<int> v;
  const auto put = [&](int level) { v.insert(v.end(), bit, level); };
  put(0);
  for (int i = 0; i < 8; ++i) {
    put((byte >> i) & 1);
  }
  put(stop);
  return v;
}

TEST(UartDirected, TxSendsAFrameThenBytesBackToBack) {
  TxLs ls(configs::htm_uart_tx::kFast, DirectedOptions("htm_uart_tx", "fast"));
  EXPECT_EQ(DirectedCycle(ls, UartTxIn{}).tx, 1u) << "idle high out of reset";
  ASSERT_EQ(DirectedCycle(ls, Byte(0xA5)).in_ready, 1u);
  std::vector<int> line;
  for (int c = 0; c < 10 * kBit; ++c) {
    const auto out = DirectedCycle(ls, c == 10 * kBit - 1 ? Byte(0x3C) : UartTxIn{});
    line.push_back(static_cast<int>(out.tx));
    EXPECT_EQ(out.in_ready, c == 10 * kBit - 1 ? 1u : 0u) << "cycle " << c;
  }
  EXPECT_EQ(line, Frame(0xA5, kBit));
  line.clear();
  for (int c = 0; c < 10 * kBit; ++c) {
    line.push_back(static_cast<int>(DirectedCycle(ls, UartTxIn{}).tx));
  }
  EXPECT_EQ(line, Frame(0x3C, kBit)) << "the second byte follows with no idle bit";
  EXPECT_EQ(DirectedCycle(ls, UartTxIn{}).tx, 1u);
}

// Drives the receiver with `line` and returns (bytes, framing errors) seen.
template <class L>
std::pair<std::vector<int>, int> Receive(L& ls, const std::vector<int>& line) {
  std::vector<int> bytes;
  int errors = 0;
  for (const int level : line) {
    UartRxIn in;
    in.rx = static_cast<uint64_t>(level);
    const auto out = DirectedCycle(ls, in);
    if (out.out_valid != 0) {
      bytes.push_back(static_cast<int>(out.out_data));
    }
    errors += static_cast<int>(out.frame_err);
  }
  return {bytes, errors};
}

TEST(UartDirected, RxBytesGlitchesFramingErrorsAndClockSkew) {
  RxLs ls(configs::htm_uart_rx::kFast, DirectedOptions("htm_uart_rx", "fast"));
  std::vector<int> line(2 * kBit, 1);
  auto add = [&line](const std::vector<int>& v) { line.insert(line.end(), v.begin(), v.end()); };
  add(Frame(0x5A, kBit));
  add(std::vector<int>(kBit / 2 - 1, 0));  // a glitch shorter than half a bit
  add(std::vector<int>(3 * kBit, 1));
  add(Frame(0xFF, kBit, /*stop=*/0));  // a low stop bit...
  add(std::vector<int>(4 * kBit, 0));  // ...then a break: nothing until the line is high
  add(std::vector<int>(kBit, 1));
  add(Frame(0x81, kBit));
  add(std::vector<int>(4 * kBit, 1));
  const auto [bytes, errors] = Receive(ls, line);
  EXPECT_EQ(bytes, (std::vector<int>{0x5A, 0x81}));
  EXPECT_EQ(errors, 1);
}

TEST(UartDirected, RxToleratesAHostClockAFewPercentOff) {
  // At 868 cycles per bit the tenth bit's sample drifts by 9.5 times the difference: a host 4 %
  // off is read correctly, 7 % off is not (docs/htm_uart.md: within 5 %).
  const int nominal = configs::htm_uart_rx::kDefault.clk_per_bit;
  for (const int percent : {-4, 4, -7, 7}) {
    RxDefaultLs ls(configs::htm_uart_rx::kDefault, DirectedOptions("htm_uart_rx", "default"));
    const int bit = nominal + nominal * percent / 100;
    std::vector<int> line(nominal, 1);
    for (const uint8_t b : {0x00, 0xFF, 0x55, 0xAA}) {
      const std::vector<int> f = Frame(b, bit);
      line.insert(line.end(), f.begin(), f.end());
    }
    line.insert(line.end(), 2 * nominal, 1);
    const std::vector<int> want = {0x00, 0xFF, 0x55, 0xAA};
    if (percent == 4 || percent == -4) {
      EXPECT_EQ(Receive(ls, line).first, want) << percent << " %";
    } else {
      EXPECT_NE(Receive(ls, line).first, want) << percent << " %";
    }
  }
}

TEST(UartDirected, TxIntoRxLoop) {
  TxLs tx(configs::htm_uart_tx::kFast, DirectedOptions("htm_uart_tx", "fast"));
  RxLs rx(configs::htm_uart_rx::kFast, DirectedOptions("htm_uart_rx", "fast"));
  const std::vector<int> want = {0x00, 0x7E, 0xFF, 0x13, 0x80};
  std::vector<int> got;
  size_t next = 0;
  for (int c = 0; c < 12 * kBit * static_cast<int>(want.size()); ++c) {
    UartTxIn in;
    if (next < want.size()) {
      in = Byte(static_cast<uint8_t>(want[next]));
    }
    const auto out = DirectedCycle(tx, in);
    if (in.in_valid != 0 && out.in_ready != 0) {
      ++next;
    }
    UartRxIn r;
    r.rx = out.tx;
    const auto ro = DirectedCycle(rx, r);
    if (ro.out_valid != 0) {
      got.push_back(static_cast<int>(ro.out_data));
    }
    EXPECT_EQ(ro.frame_err, 0u);
  }
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace htm::tb
