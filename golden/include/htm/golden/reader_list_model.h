// SPDX-License-Identifier: Apache-2.0
//
// The Scalable Reader List of snapshot isolation (Chen, Peng & Irving, ISCA 2017, §4.2, Figure 10).
// ReaderListTable is untimed, the functional reference; ReaderListModel is the golden model of the
// RTL block htm_reader_list, cycle-exact, built on the table (docs/htm_reader_list.md). Every
// read address's readers are kept exactly, in entries of four types:
//   0 unused;
//   1 plain sharers: 1 to 3 transaction ids;
//   2 root: bit p set when leaf p exists;
//   3 leaf p: bit b set when transaction LeafW * p + b reads the address.
// Entries live in a Sets x Ways table. An address's primary entry (type 1 or its root) is in
// set h(address) (the H3 hash folded into 0..Sets-1, as the Writer Table's), its leaf p in set
// (h + 1 + p) mod Sets. See docs/si.md for the decisions.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

struct ReaderListTableParams {
  int addr_w = 30;    // block address width
  int num_tx = 1024;  // transactions; ids 0..num_tx-1
  int leaf_w = 32;    // bits of a root or leaf vector (num_tx <= leaf_w * leaf_w)
  int sets = 1024;
  int ways = 4;
};

/// Empty when the parameters are legal, else a message naming the bad parameter.
std::string CheckReaderListTableParams(const ReaderListTableParams& p);

enum class RlType : uint8_t { kUnused = 0, kSharers = 1, kRoot = 2, kLeaf = 3 };

struct RlEntry {
  RlType type = RlType::kUnused;
  uint64_t addr = 0;
  std::vector<uint64_t> ids;  // type 1: 1..3 ids, in insertion order
  uint64_t vec = 0;           // type 2 and 3: the bit vector
  int pos = 0;                // type 3: the leaf's position
};

/// What an insert or remove did.
enum class RlResult { kInserted, kAlready, kFull, kRemoved, kAbsent, kBad };

class ReaderListTable {
 public:
  /// Throws std::invalid_argument on bad parameters.
  explicit ReaderListTable(const ReaderListTableParams& p);

  void Reset();
  /// Adds `tx` to the address's readers. kFull (nothing changed) when an entry it needs cannot
  /// be allocated: the reader aborts and waits (4.3).
  RlResult Insert(uint64_t addr, uint64_t tx);
  /// Removes `tx` from the address's readers; bit vectors go back to plain sharers when a
  /// single leaf with at most three readers remains.
  RlResult Remove(uint64_t addr, uint64_t tx);
  /// The address's readers: plain sharers in entry order, bit vectors by ascending id.
  std::vector<uint64_t> Enumerate(uint64_t addr) const;
  /// The type of the address's primary entry (kUnused when it has no readers).
  RlType TypeOf(uint64_t addr) const;
  /// Entries in use.
  int used() const { return used_; }

  int PrimarySet(uint64_t addr) const;
  int LeafSet(uint64_t addr, int pos) const;

 private:
  RlEntry* Find(int set, uint64_t addr, RlType type, int pos = -1);
  const RlEntry* Find(int set, uint64_t addr, RlType type, int pos = -1) const;
  RlEntry* Primary(uint64_t addr);
  const RlEntry* Primary(uint64_t addr) const;
  int FreeWays(int set) const;
  RlEntry* Alloc(int set);
  void Free(RlEntry* e);

  ReaderListTableParams p_;
  std::vector<std::vector<RlEntry>> sets_;
  int used_ = 0;
};

#define HTM_BLOCK ReaderList
#define HTM_BLOCK_DEF "htm/golden/ports/htm_reader_list.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK ReaderList
#define HTM_COVER_DEF "htm/golden/cover/htm_reader_list.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckReaderListParams(const ReaderListParams& p);

/// The golden model of htm_reader_list: the table's semantics with the RTL's timing. An
/// operation is applied to the table when it is taken; its readers and result come out after the
/// FSM's latency, which depends on the entries it visits (rtl/htm_reader_list.sv, header).
class ReaderListModel {
 public:
  using Ports = ReaderListPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit ReaderListModel(const ReaderListParams& p);

  void Reset();
  ReaderListOut Eval(const ReaderListIn& in) const;
  void Tick(const ReaderListIn& in);

  const ReaderListParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_reader_list.def).
  const ReaderListCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }
  const ReaderListTable& table() const { return table_; }

 private:
  bool Ready() const;
  void Start(const ReaderListIn& in);

  ReaderListParams p_;
  ReaderListTable table_;
  int init_left_ = 0;  // sets still to clear after reset
  // The operation in flight: cycles since it was taken, its latency, the readers it streams
  // (cycle, id) and its result.
  bool active_ = false;
  int t_ = 0, latency_ = 0;
  std::vector<std::pair<int, uint64_t>> ids_;
  ReaderListOut res_;
  uint64_t used_after_ = 0;
  bool full_after_ = false, err_after_ = false;
  // Status as the outputs show it.
  uint64_t used_ = 0;
  bool full_ = false, err_ = false;
  ReaderListCover cover_;
};

}  // namespace htm::golden
