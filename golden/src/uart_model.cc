// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/uart_model.h"

#include <sstream>
#include <stdexcept>

namespace htm::golden {
namespace {

std::string CheckClkPerBit(const char* block, int clk_per_bit, int min) {
  std::ostringstream os;
  if (clk_per_bit < min || clk_per_bit > (1 << 20)) {
    os << block << ": ClkPerBit " << clk_per_bit << " is not in " << min << "..2^20";
  }
  return os.str();
}

}  // namespace

std::string CheckUartTxParams(const UartTxParams& p) {
  return CheckClkPerBit("htm_uart_tx", p.clk_per_bit, 2);
}

std::string CheckUartRxParams(const UartRxParams& p) {
  return CheckClkPerBit("htm_uart_rx", p.clk_per_bit, 4);
}

UartTxModel::UartTxModel(const UartTxParams& p) : p_(p) {
  if (const std::string why = CheckUartTxParams(p); !why.empty()) {
    throw std::invalid_argument(why);
  }
}

void UartTxModel::Reset() {
  shift_ = 0x1FF;
  left_ = 0;
  cnt_ = 0;
  tx_ = true;
}

bool UartTxModel::Ready() const {
  return left_ == 0 || (left_ == 1 && cnt_ == p_.clk_per_bit - 1);
}

UartTxOut UartTxModel::Eval(const UartTxIn& in) const {
  (void)in;
  UartTxOut o;
  o.in_ready = Ready();
  o.tx = tx_;
  return o;
}

void UartTxModel::Tick(const UartTxIn& in) {
  if (in.in_valid != 0 && Ready()) {
    shift_ = 0x100 | static_cast<uint32_t>(in.in_data & 0xFF);  // the data, then the stop bit
    left_ = 10;
    cnt_ = 0;
    tx_ = false;  // the start bit
    return;
  }
  if (left_ == 0) {
    return;
  }
  if (cnt_ != p_.clk_per_bit - 1) {
    ++cnt_;
    return;
  }
  cnt_ = 0;
  tx_ = left_ == 1 || (shift_ & 1) != 0;
  shift_ = 0x100 | shift_ >> 1;
  --left_;
}

UartRxModel::UartRxModel(const UartRxParams& p) : p_(p) {
  if (const std::string why = CheckUartRxParams(p); !why.empty()) {
    throw std::invalid_argument(why);
  }
}

void UartRxModel::Reset() {
  sync0_ = line_ = true;
  st_ = St::kIdle;
  cnt_ = nbit_ = 0;
  data_ = 0;
  valid_ = err_ = false;
}

UartRxOut UartRxModel::Eval(const UartRxIn& in) const {
  (void)in;
  UartRxOut o;
  o.out_valid = valid_;
  o.out_data = data_;
  o.frame_err = err_;
  return o;
}

void UartRxModel::Tick(const UartRxIn& in) {
  valid_ = err_ = false;
  switch (st_) {
    case St::kIdle:
      if (!line_) {
        st_ = St::kStart;
        cnt_ = p_.clk_per_bit / 2 - 1;
      }
      break;
    case St::kStart:
      if (cnt_ != 0) {
        --cnt_;
      } else if (line_) {
        st_ = St::kIdle;  // a glitch
      } else {
        st_ = St::kData;
        cnt_ = p_.clk_per_bit - 1;
        nbit_ = 0;
      }
      break;
    case St::kData:
      if (cnt_ != 0) {
        --cnt_;
      } else if (nbit_ != 8) {
        data_ = (line_ ? 0x80u : 0u) | data_ >> 1;
        ++nbit_;
        cnt_ = p_.clk_per_bit - 1;
      } else if (line_) {
        st_ = St::kIdle;
        valid_ = true;
      } else {
        st_ = St::kBreak;
        err_ = true;
      }
      break;
    case St::kBreak:
      if (line_) {
        st_ = St::kIdle;
      }
      break;
  }
  line_ = sync0_;
  sync0_ = in.rx != 0;
}

}  // namespace htm::golden
