// SPDX-License-Identifier: Apache-2.0
//
// Golden models of the signature primitives (rtl/htm_sig_hash.sv, rtl/htm_sig.sv,
// rtl/htm_sig_recency.sv), cycle-exact with the RTL:
//   * outputs are combinational functions of the registered state (zero-latency test/lookup),
//     computed before this cycle's clear/insert (read-before-write);
//   * clear and insert take effect at the rising edge, the clear first.
// See docs/htm_sig.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK Sig
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sig.def"
#include "htm/golden/port_gen.inc"

#define HTM_BLOCK SigRecency
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sig_recency.def"
#include "htm/golden/port_gen.inc"

#define HTM_BLOCK SigRecencyRam
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sig_recency_ram.def"
#include "htm/golden/port_gen.inc"

/// Index bits of a table of `slots` entries: max(1, ceil(log2(slots))), as htm_pkg::idx_width.
int SigIdxWidth(int slots);

/// Hash `h` of `addr` (htm_sig_hash): an index in [0, 2**idx_w).
uint64_t SigHashIndex(htm::SigHash kind, int addr_w, int idx_w, int h, uint64_t addr);

/// The set of `addr` in a table of `sets` sets (any number): the first H3 hash of
/// idx_width(sets) bits, a hash h >= sets folded to h - sets (0 when sets is 1), as
/// htm_writer_table indexes its table.
uint64_t SigFoldedSet(int addr_w, int sets, uint64_t addr);

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckSigParams(const SigParams& p);
std::string CheckSigRecencyParams(const SigRecencyParams& p);
std::string CheckSigRecencyRamParams(const SigRecencyRamParams& p);

/// htm_sig: a partitioned Bloom signature.
class SigModel {
 public:
  using Ports = SigPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit SigModel(const SigParams& p);

  void Reset();
  SigOut Eval(const SigIn& in) const;
  void Tick(const SigIn& in);

  /// Slot index of `addr` in table `h` (what the RTL's htm_sig_hash computes).
  uint64_t Index(int h, uint64_t addr) const;
  bool Test(uint64_t addr) const;
  const SigParams& params() const { return p_; }

 private:
  SigParams p_;
  int idx_w_;
  std::vector<uint8_t> bits_;  // table h, slot s at h * slots_per_hash + s
};

/// htm_sig_recency: a recency (versioning) Bloom filter.
class SigRecencyModel {
 public:
  using Ports = SigRecencyPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit SigRecencyModel(const SigRecencyParams& p);

  void Reset();
  SigRecencyOut Eval(const SigRecencyIn& in) const;
  void Tick(const SigRecencyIn& in);

  uint64_t Index(int h, uint64_t addr) const;
  uint64_t Lookup(uint64_t addr) const;
  const SigRecencyParams& params() const { return p_; }

 private:
  SigRecencyParams p_;
  int idx_w_;
  std::vector<uint64_t> slots_;  // table h, slot s at h * slots_per_hash + s
};

/// htm_sig_recency_ram: a recency Bloom filter in block RAM for wrapping values, with ages
/// against a reference, a lookup latency of one cycle and an initial sweep. Sequential: in a
/// cycle the update (insert or scrub) applies first, then the lookup, whose answer is the next
/// cycle's output.
class SigRecencyRamModel {
 public:
  using Ports = SigRecencyRamPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit SigRecencyRamModel(const SigRecencyRamParams& p);

  void Reset();
  SigRecencyRamOut Eval(const SigRecencyRamIn& in) const;
  void Tick(const SigRecencyRamIn& in);

  uint64_t Index(int h, uint64_t addr) const;
  /// Age of `v` against `now` (modulo 2**ValW).
  uint64_t Age(uint64_t now, uint64_t v) const { return (now - v) & LowMask(p_.val_w); }
  /// The answer a lookup of `addr` against `now` would give now: found, and the oldest value.
  bool Lookup(uint64_t addr, uint64_t now, uint64_t* val) const;
  bool ready() const { return !init_; }
  /// Fast-forward: the state after `k` ready cycles with no insert and no lookup that each
  /// scrub one index, from `idx` at time `now` on (idx + j at now + j, wrapping), computed per
  /// slot from its last visit. Exact while every valid value stays younger than 2**(ValW-1)
  /// until its visit (the scrub schedules that keep modular ages ordered guarantee it).
  void IdleScrub(uint64_t k, uint64_t idx, uint64_t now);
  /// Slot `idx` of table `h`: false when invalid, else true with its value in *val.
  bool SlotValue(int h, uint64_t idx, uint64_t* val) const {
    const Slot& s = slots_[h * p_.slots_per_hash + idx];
    *val = s.val;
    return s.valid;
  }
  const SigRecencyRamParams& params() const { return p_; }

 private:
  struct Slot {
    bool valid = false;
    uint64_t val = 0;
  };
  SigRecencyRamParams p_;
  int idx_w_;
  std::vector<Slot> slots_;  // table h, slot s at h * slots_per_hash + s
  bool init_ = true;
  int init_idx_ = 0;
  bool lkp_valid_ = false, lkp_found_ = false;
  uint64_t lkp_val_ = 0;
};

}  // namespace htm::golden
