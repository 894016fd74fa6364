// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_intra_warp_cd (rtl/htm_intra_warp_cd.sv), WarpTM's two-phase intra-warp
// conflict detection with Early-Abort, cycle-exact with the RTL: the command phases, the row
// register, the banked ownership table (one lane per bank per cycle, a two-stage access), the
// CAT request of a Check row and the outcome with the liveness rule. See
// docs/htm_intra_warp_cd.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK IntraWarpCd
#define HTM_BLOCK_DEF "htm/golden/ports/htm_intra_warp_cd.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK IntraWarpCd
#define HTM_COVER_DEF "htm/golden/cover/htm_intra_warp_cd.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckIntraWarpCdParams(const IntraWarpCdParams& p);

class IntraWarpCdModel {
 public:
  using Ports = IntraWarpCdPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit IntraWarpCdModel(const IntraWarpCdParams& p);

  void Reset();
  IntraWarpCdOut Eval(const IntraWarpCdIn& in) const;
  void Tick(const IntraWarpCdIn& in);

  /// The ownership-table entry of a word address: (a mod N + (a div N) * 17) mod N.
  int Index(uint64_t addr) const;
  int BankOf(uint64_t addr) const { return Index(addr) % p_.banks; }
  const IntraWarpCdParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_intra_warp_cd.def).
  const IntraWarpCdCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }

 private:
  enum class Phase { kNone, kMark, kCheck };
  struct Access {  // one bank's access in stage 1
    bool valid = false;
    int lane = 0;
    int idx = 0;
  };
  struct Stage0 {  // what the banks issue this cycle
    uint64_t issue = 0;
    std::vector<Access> acc;
  };
  static const IntraWarpCdParams& Checked(const IntraWarpCdParams& p);
  Stage0 Issue() const;
  uint64_t AbortsNow() const;  // lanes the table aborts in stage 1 this cycle
  bool CatDone(const IntraWarpCdIn& in) const {
    return !cat_pend_ && (!cat_wait_ || in.cat_rsp_valid);
  }
  bool Idle() const;
  bool CmdReady(const IntraWarpCdIn& in, const Stage0& s0) const;
  bool Bad(const IntraWarpCdIn& in, bool acc) const;

  IntraWarpCdParams p_;
  uint64_t all_;
  // Command state.
  Phase phase_ = Phase::kNone;
  uint64_t lanes_ = 0, iw_ = 0, ea_ = 0;
  bool ea_en_ = false, err_ = false;
  // The row.
  bool row_ = false, row_check_ = false, row_write_ = false, cat_pend_ = false, cat_wait_ = false;
  uint64_t row_pend_ = 0, row_lanes_ = 0;
  Vec row_addr_{};
  // Banks.
  std::vector<Access> s1_;
  bool s1_check_ = false, s1_write_ = false;
  std::vector<int> owner_;   // lane of each entry (block RAM)
  std::vector<bool> valid_;  // written since Begin (flip-flops)
  // The outcome register.
  bool res_ = false;
  uint64_t res_abort_ = 0, res_iw_ = 0, res_ea_ = 0, res_spared_ = 0;
  IntraWarpCdCover cover_;
};

}  // namespace htm::golden
