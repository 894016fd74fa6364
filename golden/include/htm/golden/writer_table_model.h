// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_writer_table (rtl/htm_writer_table.sv), the Writer Table of snapshot
// isolation (Chen, Peng & Irving, ISCA 2017, §4.2): the single writer of every word written by a
// running transaction, in Sets x Ways entries, cycle-exact with the RTL (the operation is taken,
// its set read and written back in the next cycle, the result registered). See
// docs/htm_writer_table.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK WriterTable
#define HTM_BLOCK_DEF "htm/golden/ports/htm_writer_table.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK WriterTable
#define HTM_COVER_DEF "htm/golden/cover/htm_writer_table.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckWriterTableParams(const WriterTableParams& p);

/// The set of an address: SigFoldedSet (the H3 hash folded into 0..Sets-1).
uint64_t WriterTableSet(const WriterTableParams& p, uint64_t addr);

struct WtWay {
  bool valid = false;
  uint64_t tx = 0, addr = 0;
};

class WriterTableModel {
 public:
  using Ports = WriterTablePorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit WriterTableModel(const WriterTableParams& p);

  void Reset();
  WriterTableOut Eval(const WriterTableIn& in) const;
  void Tick(const WriterTableIn& in);

  const WriterTableParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_writer_table.def).
  const WriterTableCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }
  /// The writer of an address, or -1.
  int64_t WriterOf(uint64_t addr) const;

 private:
  WriterTableParams p_;
  std::vector<std::vector<WtWay>> sets_;
  int init_left_ = 0;  // sets still to clear after reset
  bool s1_ = false;
  WriterTableIn s1_in_;
  WriterTableOut res_;
  bool full_ = false, err_ = false;
  uint64_t used_ = 0;
  WriterTableCover cover_;
};

}  // namespace htm::golden
