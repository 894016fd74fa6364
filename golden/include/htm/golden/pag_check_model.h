// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_pag_check (rtl/htm_pag_check.sv), the Pause-and-Go check of a SIMT core,
// cycle-exact with the RTL: the request register, the CAT request and answer, the decision
// (hitting lanes pause, the lowest lane goes on when every lane hits). See
// docs/htm_pag_check.md.
#pragma once

#include <cstdint>
#include <string>

#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK PagCheck
#define HTM_BLOCK_DEF "htm/golden/ports/htm_pag_check.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK PagCheck
#define HTM_COVER_DEF "htm/golden/cover/htm_pag_check.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckPagCheckParams(const PagCheckParams& p);

/// The decision for a warp's active lanes and their CAT hits: {go, pause, forced}.
struct PagDecision {
  uint64_t go = 0, pause = 0, forced = 0;
};
PagDecision PagDecide(uint64_t lanes, uint64_t hits);

class PagCheckModel {
 public:
  using Ports = PagCheckPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit PagCheckModel(const PagCheckParams& p);

  void Reset();
  PagCheckOut Eval(const PagCheckIn& in) const;
  void Tick(const PagCheckIn& in);

  const PagCheckParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_pag_check.def).
  const PagCheckCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }

 private:
  enum class State { kIdle, kReq, kWait, kDone };
  static const PagCheckParams& Checked(const PagCheckParams& p);

  PagCheckParams p_;
  State state_ = State::kIdle;
  uint64_t mask_ = 0, hits_ = 0;
  Vec addr_{};
  bool write_ = false, err_ = false;
  PagCheckCover cover_;
};

}  // namespace htm::golden
