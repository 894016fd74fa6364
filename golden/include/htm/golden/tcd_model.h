// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_tcd (rtl/htm_tcd.sv), WarpTM's temporal conflict detection table,
// cycle-exact with the RTL: a free-running time, the scrub schedule, the last-written-time
// filter (SigRecencyRamModel, driven as the RTL drives its htm_sig_recency_ram) and the
// registered check. See docs/htm_tcd.md.
#pragma once

#include <cstdint>
#include <string>

#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"
#include "htm/golden/sig_model.h"

namespace htm::golden {

#define HTM_BLOCK Tcd
#define HTM_BLOCK_DEF "htm/golden/ports/htm_tcd.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK Tcd
#define HTM_COVER_DEF "htm/golden/cover/htm_tcd.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckTcdParams(const TcdParams& p);
/// A `since` this old or older is always a conflict; stored times are scrubbed from here.
inline uint64_t TcdStaleAge(const TcdParams& p) {
  return uint64_t{1} << (p.ts_w - 2);
}
/// The chunk of a word address (the table's unit).
inline uint64_t TcdChunk(const TcdParams& p, uint64_t addr) {
  return (addr & LowMask(p.addr_w)) >> p.chunk_shift;
}

class TcdModel {
 public:
  using Ports = TcdPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit TcdModel(const TcdParams& p);

  void Reset();
  TcdOut Eval(const TcdIn& in) const;
  void Tick(const TcdIn& in);
  /// The same state as `k` calls of Tick(TcdIn{}) (no update, no check), in time independent of
  /// k once the table is ready: for the system model's idle stretches.
  void Idle(uint64_t k);

  /// A `since` this old or older is always a conflict; stored times are scrubbed from here.
  uint64_t StaleAge() const { return TcdStaleAge(p_); }
  /// Every valid stored time is younger than this (docs/htm_tcd.md).
  uint64_t AgeBound() const;
  uint64_t now() const { return now_; }
  uint64_t Chunk(uint64_t addr) const;
  const TcdParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_tcd.def).
  const TcdCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }
  const SigRecencyRamModel& bloom() const { return bf_; }

 private:
  static const TcdParams& Checked(const TcdParams& p);
  bool ScrubForce() const { return scrub_cnt_ == p_.scrub_interval - 1; }
  bool UpdReady() const { return bf_.ready() && !ScrubForce(); }
  SigRecencyRamIn BloomIn(const TcdIn& in) const;
  void CountResult();  // coverage of the check result shown this cycle

  TcdParams p_;
  SigRecencyRamModel bf_;
  uint64_t now_ = 0;
  int scrub_ptr_ = 0, scrub_cnt_ = 0;
  uint64_t since_q_ = 0, chk_now_q_ = 0;  // the check accepted last cycle
  TcdCover cover_;
};

}  // namespace htm::golden
