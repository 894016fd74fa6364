// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_tx_simt_stack (rtl/htm_tx_simt_stack.sv), the transaction-aware SIMT
// stack of a warp (KILO TM's Retry and Trans entries, extended for Pause-and-Go with the Log
// Index), cycle-exact with the RTL: a command changes the stack at the clock edge, and every
// output is a register. See docs/htm_tx_simt_stack.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK TxSimtStack
#define HTM_BLOCK_DEF "htm/golden/ports/htm_tx_simt_stack.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK TxSimtStack
#define HTM_COVER_DEF "htm/golden/cover/htm_tx_simt_stack.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckTxSimtStackParams(const TxSimtStackParams& p);

struct SimtEntry {
  SimtType type = SimtType::kNormal;
  uint64_t pc = 0, rpc = 0, mask = 0, log = 0;
  bool operator==(const SimtEntry&) const = default;
};

class TxSimtStackModel {
 public:
  using Ports = TxSimtStackPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit TxSimtStackModel(const TxSimtStackParams& p);

  void Reset();
  TxSimtStackOut Eval(const TxSimtStackIn& in) const;
  void Tick(const TxSimtStackIn& in);

  const std::vector<SimtEntry>& stack() const { return stk_; }  // bottom first
  const TxSimtStackParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_tx_simt_stack.def).
  const TxSimtStackCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }

 private:
  static const TxSimtStackParams& Checked(const TxSimtStackParams& p);
  // Applies one command; false (and no change) when it is an error.
  bool Apply(const TxSimtStackIn& in);
  // Inside a transaction: pops empty entries above Retry, then restarts from Retry or ends the
  // transaction when Retry is the top, or reports a resume when a Trans entry was popped and a
  // (paused) Trans entry is the top.
  void Settle(bool popped_trans);

  TxSimtStackParams p_;
  std::vector<SimtEntry> stk_;
  int ridx_ = -1;  // index of the Retry entry, -1 outside a transaction
  bool resumed_ = false, restarted_ = false, tx_done_ = false, paused_ = false, err_ = false;
  TxSimtStackCover cover_;
};

}  // namespace htm::golden
