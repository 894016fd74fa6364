// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_lds_wf_ctrl (rtl/htm_lds_wf_ctrl.sv), GPU-LocalTM's transaction control
// of one wavefront, cycle-exact with the RTL: EXEC, TCM, TCM_prev, MCM, the execution mode
// (Tx, WfS, WgS) and the four work-item selection policies. See docs/htm_lds_wf_ctrl.md.
#pragma once

#include <cstdint>
#include <string>

#include "htm/enums.h"
#include "htm/golden/ports.h"
#include "htm/golden/prim_models.h"

namespace htm::golden {

#define HTM_BLOCK LdsWfCtrl
#define HTM_BLOCK_DEF "htm/golden/ports/htm_lds_wf_ctrl.def"
#include "htm/golden/port_gen.inc"

#define HTM_BLOCK LdsWgsArb
#define HTM_BLOCK_DEF "htm/golden/ports/htm_lds_wgs_arb.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckLdsWfCtrlParams(const LdsWfCtrlParams& p);

class LdsWfCtrlModel {
 public:
  using Ports = LdsWfCtrlPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit LdsWfCtrlModel(const LdsWfCtrlParams& p);

  void Reset();
  LdsWfCtrlOut Eval(const LdsWfCtrlIn& in) const;
  void Tick(const LdsWfCtrlIn& in);

  const LdsWfCtrlParams& params() const { return p_; }

  /// The TCM a serialized try starts with: the last TCM with the selected work-items cleared
  /// (one for WgS; the MCM subset, or one when it is empty, for WfS with a multiple policy).
  static uint64_t SerializedTcm(LdsSel sel, LdsMode mode, uint64_t tcm, uint64_t mcm);

 private:
  enum class State { kIdle, kTry, kRetry };
  struct Regs {
    State state = State::kIdle;
    LdsMode mode = LdsMode::kNonTx, next = LdsMode::kTx;
    uint64_t exec = 0, tcm = 0, mcm = 0, prev = 0, orig = 0, try_exec = 0, try_tcm = 0;
    uint64_t cmt_mask = 0;
    bool prev_valid = false, replay = false, cmt_valid = false, abort = false, err = false;
    int depth = 0;
  };
  static const LdsWfCtrlParams& Checked(const LdsWfCtrlParams& p);
  bool Aborting(const LdsWfCtrlIn& in) const;
  bool OpReady(const LdsWfCtrlIn& in) const;
  Regs Next(const LdsWfCtrlIn& in) const;

  LdsWfCtrlParams p_;
  uint64_t all_ = 0;  // WfSize ones
  Regs r_;
};

/// Golden model of htm_lds_wgs_arb (rtl/htm_lds_wgs_arb.sv): the work-group serialization
/// arbiter. A requesting wavefront is granted, round robin (htm_rr_arb), in the cycle after the
/// holder, if any, dropped its request; the grant stays while the request does.
class LdsWgsArbModel {
 public:
  using Ports = LdsWgsArbPorts;
  /// Throws std::invalid_argument unless 1 <= NumWf <= 64.
  explicit LdsWgsArbModel(const LdsWgsArbParams& p);

  void Reset();
  LdsWgsArbOut Eval(const LdsWgsArbIn& in) const;
  void Tick(const LdsWgsArbIn& in);

  const LdsWgsArbParams& params() const { return p_; }

 private:
  LdsWgsArbParams p_;
  RrArbModel pick_;
  bool hold_ = false;
  int holder_ = 0;
};

}  // namespace htm::golden
