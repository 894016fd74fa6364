// SPDX-License-Identifier: Apache-2.0
//
// The Scalable Reader List of snapshot isolation (003_..., 4.2, Figure 10), untimed: the
// functional reference for the RTL block htm_reader_list (not written yet; docs/si.md). Every
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
#include <vector>

namespace htm::golden {

struct ReaderListParams {
  int addr_w = 30;    // block address width
  int num_tx = 1024;  // transactions; ids 0..num_tx-1
  int leaf_w = 32;    // bits of a root or leaf vector (num_tx <= leaf_w * leaf_w)
  int sets = 1024;
  int ways = 4;
};

/// Empty when the parameters are legal, else a message naming the bad parameter.
std::string CheckReaderListParams(const ReaderListParams& p);

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
  explicit ReaderListTable(const ReaderListParams& p);

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

  ReaderListParams p_;
  std::vector<std::vector<RlEntry>> sets_;
  int used_ = 0;
};

}  // namespace htm::golden
