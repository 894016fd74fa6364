// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_cat (rtl/htm_cat.sv), the Conflict Address Table of a SIMT core,
// cycle-exact with the RTL: the clearing sweep, the message register applying one delta per
// cycle through a write-first update copy, and the warp lookups, NumPorts lanes per cycle, on
// read-first lookup copies. See docs/htm_cat.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"
#include "htm/golden/rct_model.h"

namespace htm::golden {

#define HTM_BLOCK Cat
#define HTM_BLOCK_DEF "htm/golden/ports/htm_cat.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK Cat
#define HTM_COVER_DEF "htm/golden/cover/htm_cat.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckCatParams(const CatParams& p);

class CatModel {
 public:
  using Ports = CatPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit CatModel(const CatParams& p);

  void Reset();
  CatOut Eval(const CatIn& in) const;
  void Tick(const CatIn& in);

  /// The table's bits of an address (both false when absent): for tests and the system model.
  struct Bits {
    bool read = false;
    bool written = false;
  };
  Bits Lookup(uint64_t addr) const;
  /// The hit rule: a read hits a written address, a write hits any address in the table.
  static bool Hit(const Bits& b, bool write) { return write ? (b.read || b.written) : b.written; }
  int SetOf(uint64_t addr) const;
  /// Cycles from accepting a lookup of n lanes to its response.
  int LookupLatency(int lanes) const;
  const CatParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_cat.def).
  const CatCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }

 private:
  struct Way {
    uint64_t addr = 0;
    bool r = false;
    bool w = false;
    bool used() const { return r || w; }
  };
  using Set = std::vector<Way>;
  struct Update {  // stage 1 of an update: what the write-back does
    bool wr_en = false;
    int wr_set = 0;
    Set wr_data;
    bool alloc = false, drop = false, freed = false;
  };
  struct Group {  // the lanes looked up in one cycle
    std::vector<int> lanes;
    uint64_t rest = 0;
  };
  static const CatParams& Checked(const CatParams& p);
  Update ApplyUpdate() const;
  Group Select(uint64_t mask) const;
  uint64_t HitsNow() const;
  bool MsgReady() const { return !init_ && (m_rem_ == 0 || m_rem_ == 1); }
  bool LkpReady() const { return !init_ && !req_; }

  CatParams p_;
  std::vector<Set> table_;  // every copy holds the same contents
  bool init_ = true;
  int init_set_ = 0;
  // Updates.
  std::vector<uint64_t> m_dlt_;
  int m_rem_ = 0, m_idx_ = 0;
  bool err_ = false;
  bool u1_valid_ = false;
  CatDelta u1_;
  int u1_set_ = 0;
  Set u_rd_;  // the update copy's registered read
  int used_ = 0;
  // Lookups.
  bool req_ = false, req_write_ = false;
  uint64_t req_pend_ = 0;
  Vec req_addr_{};
  bool l1_valid_ = false, l1_first_ = false, l1_last_ = false, l1_write_ = false;
  std::vector<int> l1_lane_;       // lane of each port's lookup (-1: none)
  std::vector<uint64_t> l1_addr_;  // its address
  std::vector<Set> l1_rd_;         // each lookup copy's registered read
  uint64_t acc_ = 0;
  CatCover cover_;
};

}  // namespace htm::golden
