// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_rct (rtl/htm_rct.sv), the Reference Count Table of a commit unit,
// cycle-exact with the RTL: the clearing sweep after reset, the increment queue with
// cancellation, the two-stage read-modify-write of a Sets x Ways table, the deltas and their
// messages. See docs/htm_rct.md.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK Rct
#define HTM_BLOCK_DEF "htm/golden/ports/htm_rct.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK Rct
#define HTM_COVER_DEF "htm/golden/cover/htm_rct.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckRctParams(const RctParams& p);

/// A CAT delta {address, write, add} as the RCT emits it (and htm_cat takes it).
struct CatDelta {
  uint64_t addr = 0;
  bool write = false;
  bool add = false;
  uint64_t Pack() const { return (addr << 2) | (uint64_t{write} << 1) | uint64_t{add}; }
  static CatDelta Unpack(uint64_t d) { return CatDelta{d >> 2, ((d >> 1) & 1) != 0, (d & 1) != 0}; }
};

class RctModel {
 public:
  using Ports = RctPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit RctModel(const RctParams& p);

  void Reset();
  RctOut Eval(const RctIn& in) const;
  void Tick(const RctIn& in);

  /// The table's counts of an address (0, 0 when absent): for tests.
  struct Counts {
    int readers = 0;
    int writers = 0;
  };
  Counts Lookup(uint64_t addr) const;
  /// The set of an address (H3 hash), as the RTL indexes it.
  int SetOf(uint64_t addr) const;
  const RctParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_rct.def).
  const RctCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }

 private:
  struct Way {
    uint64_t addr = 0;
    int rd = 0;
    int wr = 0;
    bool used() const { return rd != 0 || wr != 0; }
  };
  using Set = std::vector<Way>;
  struct Key {
    uint64_t addr = 0;
    bool write = false;
    bool operator==(const Key&) const = default;
  };
  // Stage 0 of a cycle: what the queue and the pipeline do with this cycle's events.
  struct Stage0 {
    bool op = false, dec = false;
    Key key;
    bool cancel = false;
    int cancel_at = -1;  // queue index cancelled, -1: none or the arriving increment
    bool pop = false, push = false, lost_queue = false;
  };
  // Stage 1 of a cycle: the operation accepted last cycle applied to its set.
  struct Stage1 {
    bool wr_en = false;
    int wr_set = 0;
    Set wr_data;
    bool dlt_valid = false;
    uint64_t dlt = 0;
    bool lost_full = false, lost_sat = false, dec_ignored = false;
    bool alloc = false, freed = false;
  };
  static const RctParams& Checked(const RctParams& p);
  Stage0 Plan(const RctIn& in) const;
  Stage1 Apply() const;
  bool Send() const;

  RctParams p_;
  int count_max_ = 0;
  // Table (block RAM, write-first).
  std::vector<Set> table_;
  bool init_ = true;
  int init_set_ = 0;
  Set rd_data_;  // the RAM's registered read
  // Queue and stage 1.
  std::deque<Key> queue_;
  bool op_q_ = false, dec_q_ = false;
  Key key_q_;
  int set_q_ = 0;
  int used_ = 0;
  // Message buffer.
  std::vector<uint64_t> buf_;
  int cnt_ = 0, age_ = 0;
  RctCover cover_;
};

}  // namespace htm::golden
