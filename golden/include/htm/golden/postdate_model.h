// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_postdate (rtl/htm_postdate.sv), the post-dating unit of snapshot
// isolation: the Logical Timestamp Table and Figure 7's procedures (Chen, Peng & Irving, ISCA 2017,
// §4.1). PostdateTable is the untimed table (one operation at a time, an overflow resets it at
// once), used by the cycle-exact PostdateModel and by the loop-detection oracle tests. See
// docs/htm_postdate.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK Postdate
#define HTM_BLOCK_DEF "htm/golden/ports/htm_postdate.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK Postdate
#define HTM_COVER_DEF "htm/golden/cover/htm_postdate.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckPostdateParams(const PostdateParams& p);

/// True for an operation the unit refuses: an unknown kind, a slot >= NumTx, an Edge from a
/// slot to itself.
bool PdBadOp(const PostdateParams& p, uint64_t kind, uint64_t a, uint64_t b);

/// One slot of the Logical Timestamp Table.
struct PdSlot {
  uint64_t cts = 1, pdts = 0, prev = 0;
  bool pdts_set = false, committed = false;
  bool operator==(const PdSlot&) const = default;
};

/// What an operation did: the fields of the RTL's result outputs.
struct PdResult {
  uint64_t kind = 0, a = 0, b = 0;
  bool loop = false, ovf = false, err = false;
  uint64_t ts = 0, cts = 0, pdts = 0;
  bool pdts_set = false;
  uint64_t prev = 0;
  bool committed = false;
};

/// The Logical Timestamp Table, untimed.
class PostdateTable {
 public:
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit PostdateTable(const PostdateParams& p);

  /// Every slot to CTS 1, PDTS unset, PrevTS 0, not committed.
  void Reset();
  /// Applies one operation (kind: a PdOp value). An overflow writes nothing and reports ovf;
  /// the caller resets the table (the RTL does it over NumTx cycles).
  PdResult Apply(uint64_t kind, uint64_t a, uint64_t b);

  const PdSlot& slot(int i) const { return slots_[static_cast<size_t>(i)]; }
  const PostdateParams& params() const { return p_; }

 private:
  PostdateParams p_;
  std::vector<PdSlot> slots_;
};

class PostdateModel {
 public:
  using Ports = PostdatePorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit PostdateModel(const PostdateParams& p);

  void Reset();
  PostdateOut Eval(const PostdateIn& in) const;
  void Tick(const PostdateIn& in);

  const PostdateParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_postdate.def).
  const PostdateCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }
  const PostdateTable& table() const { return table_; }

 private:
  void CountEdge();  // coverage of the edge stage 1 applies

  PostdateParams p_;
  PostdateTable table_;
  bool sweep_ = true;
  int sweep_idx_ = 0;
  // Stage 1: the operation taken in the previous cycle.
  bool s1_ = false, s1_bad_ = false;
  uint64_t s1_kind_ = 0, s1_a_ = 0, s1_b_ = 0;
  bool res_valid_ = false, err_ = false;
  PdResult res_;
  PostdateCover cover_;
};

}  // namespace htm::golden
