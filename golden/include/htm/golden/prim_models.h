// SPDX-License-Identifier: Apache-2.0
//
// Golden models of the primitives (rtl/prim/): htm_fifo, htm_rr_arb, htm_ram_1r1w, htm_ram_sp.
// Cycle-exact with the RTL; each header comment of the RTL states the timing these follow.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK Fifo
#define HTM_BLOCK_DEF "htm/golden/ports/htm_fifo.def"
#include "htm/golden/port_gen.inc"

#define HTM_BLOCK RrArb
#define HTM_BLOCK_DEF "htm/golden/ports/htm_rr_arb.def"
#include "htm/golden/port_gen.inc"

#define HTM_BLOCK Ram1r1w
#define HTM_BLOCK_DEF "htm/golden/ports/htm_ram_1r1w.def"
#include "htm/golden/port_gen.inc"

#define HTM_BLOCK RamSp
#define HTM_BLOCK_DEF "htm/golden/ports/htm_ram_sp.def"
#include "htm/golden/port_gen.inc"

/// htm_fifo: registered FIFO, in_ready = not full, clear wins.
class FifoModel {
 public:
  using Ports = FifoPorts;
  explicit FifoModel(const FifoParams& p);  // throws std::invalid_argument
  void Reset() { q_.clear(); }
  FifoOut Eval(const FifoIn& in) const;
  void Tick(const FifoIn& in);
  size_t size() const { return q_.size(); }

 private:
  FifoParams p_;
  std::deque<uint64_t> q_;
};

/// htm_rr_arb: round-robin arbiter; the pointer moves past the winner when the grant is taken.
class RrArbModel {
 public:
  using Ports = RrArbPorts;
  explicit RrArbModel(const RrArbParams& p);  // throws std::invalid_argument
  void Reset() { prio_ = 0; }
  RrArbOut Eval(const RrArbIn& in) const;
  void Tick(const RrArbIn& in);
  int prio() const { return prio_; }

 private:
  RrArbParams p_;
  int prio_ = 0;
};

/// htm_ram_1r1w: simple dual-port RAM, registered read, read-first. Contents survive reset.
class Ram1r1wModel {
 public:
  using Ports = Ram1r1wPorts;
  explicit Ram1r1wModel(const Ram1r1wParams& p);  // throws std::invalid_argument
  void Reset() { rd_valid_ = false; }
  Ram1r1wOut Eval(const Ram1r1wIn& in) const;
  void Tick(const Ram1r1wIn& in);

 private:
  Ram1r1wParams p_;
  std::vector<uint64_t> mem_;
  std::vector<bool> written_;
  uint64_t rd_data_ = 0;
  bool rd_valid_ = false;
  bool rd_seen_ = false;  // rd_data_ holds a word read from a written address
};

/// htm_ram_sp: single-port RAM, registered read, read-first. Contents survive reset.
class RamSpModel {
 public:
  using Ports = RamSpPorts;
  explicit RamSpModel(const RamSpParams& p);  // throws std::invalid_argument
  void Reset() { rvalid_ = false; }
  RamSpOut Eval(const RamSpIn& in) const;
  void Tick(const RamSpIn& in);

 private:
  RamSpParams p_;
  std::vector<uint64_t> mem_;
  std::vector<bool> written_;
  uint64_t rdata_ = 0;
  bool rvalid_ = false;
  bool rd_seen_ = false;
};

}  // namespace htm::golden
