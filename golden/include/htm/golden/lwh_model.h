// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_lwh (rtl/htm_lwh.sv), the commit unit's Last Writer History, cycle-exact
// with the RTL. It keeps the RTL's stage-1 register (the operation or scrub step accepted last
// cycle) and applies it at the next Tick (with ResPipe, the filter's insert and scrub a cycle
// later, from a stage-2 register); the Bloom filter is the SigRecencyRamModel, driven as the RTL
// drives its htm_sig_recency_ram. See docs/htm_lwh.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"
#include "htm/golden/sig_model.h"

namespace htm::golden {

#define HTM_BLOCK Lwh
#define HTM_BLOCK_DEF "htm/golden/ports/htm_lwh.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK Lwh
#define HTM_COVER_DEF "htm/golden/cover/htm_lwh.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckLwhParams(const LwhParams& p);

class LwhModel {
 public:
  using Ports = LwhPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit LwhModel(const LwhParams& p);

  void Reset();
  LwhOut Eval(const LwhIn& in) const;
  void Tick(const LwhIn& in);

  /// Hash-table set of a word address.
  uint64_t SetIndex(uint64_t addr) const;
  /// Cids reach StaleAge = 2**(CidW-2) before the scrubber removes them.
  uint64_t StaleAge() const { return uint64_t{1} << (p_.cid_w - 2); }
  /// Every valid stored cid is younger than this (docs/htm_lwh.md).
  uint64_t AgeBound() const;
  bool ready() const;
  const SigRecencyRamModel& bloom() const { return bf_; }
  const LwhParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_lwh.def).
  const LwhCover& cover() const { return cover_; }
  Coverage coverage(const std::string& prefix = "") const { return cover_.View(prefix); }

 private:
  struct Way {
    bool valid = false;
    uint64_t addr = 0;
    uint64_t cid = 0;
  };
  // The stage-1 register: what was accepted last cycle.
  struct Stage {
    bool op = false, write = false, scrub = false;
    uint64_t addr = 0, cid = 0, now = 0, set = 0, bf_scrub_idx = 0;
  };
  // With ResPipe, the stage-2 register: stage 1's victim and scrub step, for the filter.
  struct Stage2 {
    bool evict = false, scrub = false;
    uint64_t addr = 0, cid = 0, bf_scrub_idx = 0;
  };
  // Stage-1 results, from the stage register and the table.
  struct Result {
    bool hit = false, any_free = false, evict = false;
    uint64_t hit_cid = 0;
    int ins_way = 0, old_way = 0;
  };
  // A lookup's answer (res_*_o), registered with ResPipe.
  struct Answer {
    bool valid = false, hit = false, found = false;
    uint64_t cid = 0;
  };
  static const LwhParams& Checked(const LwhParams& p);
  Result Compute() const;
  Answer Lookup(const LwhIn& in, const Result& r) const;
  SigRecencyRamIn BloomIn(const LwhIn& in, const Result& r) const;
  uint64_t Age(uint64_t now, uint64_t cid) const { return (now - cid) & LowMask(p_.cid_w); }
  bool ScrubForce() const { return scrub_cnt_ == p_.scrub_interval - 1; }

  LwhParams p_;
  int set_w_;
  std::vector<Way> table_;  // set s, way w at s * ways + w
  SigRecencyRamModel bf_;
  bool init_ = true;
  int init_set_ = 0;
  int scrub_ptr_ = 0, scrub_cnt_ = 0;
  Stage s1_;
  Stage2 s2_;
  Answer res_q_;
  LwhCover cover_;
};

}  // namespace htm::golden
