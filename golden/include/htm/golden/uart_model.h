// SPDX-License-Identifier: Apache-2.0
//
// Golden models of the FPGA prototype's UART (rtl/proto/htm_uart_tx.sv, htm_uart_rx.sv): 8N1,
// least significant bit first, ClkPerBit cycles per bit, cycle-exact with the RTL (the
// receiver's two synchronizing flip-flops included). See docs/htm_uart.md.
#pragma once

#include <cstdint>
#include <string>

#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK UartTx
#define HTM_BLOCK_DEF "htm/golden/ports/htm_uart_tx.def"
#include "htm/golden/port_gen.inc"

#define HTM_BLOCK UartRx
#define HTM_BLOCK_DEF "htm/golden/ports/htm_uart_rx.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal, else a message naming the bad parameter.
std::string CheckUartTxParams(const UartTxParams& p);
std::string CheckUartRxParams(const UartRxParams& p);

/// htm_uart_tx: a byte is taken while the line is idle or in the stop bit's last cycle.
class UartTxModel {
 public:
  using Ports = UartTxPorts;
  explicit UartTxModel(const UartTxParams& p);  // throws std::invalid_argument
  void Reset();
  UartTxOut Eval(const UartTxIn& in) const;
  void Tick(const UartTxIn& in);

 private:
  bool Ready() const;
  UartTxParams p_;
  uint32_t shift_ = 0x1FF;  // the bits still to send after the one on the line
  int left_ = 0;            // bits on the line or still to send; 0: idle
  int cnt_ = 0;             // cycles of the current bit so far
  bool tx_ = true;
};

/// htm_uart_rx: samples in the middle of each bit; a byte or a framing error per frame.
class UartRxModel {
 public:
  using Ports = UartRxPorts;
  explicit UartRxModel(const UartRxParams& p);  // throws std::invalid_argument
  void Reset();
  UartRxOut Eval(const UartRxIn& in) const;
  void Tick(const UartRxIn& in);

 private:
  enum class St : uint8_t { kIdle, kStart, kData, kBreak };
  UartRxParams p_;
  bool sync0_ = true, line_ = true;  // the synchronizer; line_ is the synchronized line
  St st_ = St::kIdle;
  int cnt_ = 0;   // cycles to the next sample
  int nbit_ = 0;  // samples taken in kData
  uint32_t data_ = 0;
  bool valid_ = false, err_ = false;
};

}  // namespace htm::golden
