// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/reader_list_model.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "htm/golden/ports.h"
#include "htm/golden/sig_model.h"

namespace htm::golden {

namespace {
constexpr size_t kMaxSharers = 3;  // Figure 10: 1 to 3 plain sharer ids
}  // namespace

std::string CheckReaderListParams(const ReaderListParams& p) {
  if (p.addr_w < 1 || p.addr_w > 62) {
    return "AddrW must be in 1..62, got " + std::to_string(p.addr_w);
  }
  if (p.leaf_w < 2 || p.leaf_w > 64) {
    return "LeafW must be in 2..64, got " + std::to_string(p.leaf_w);
  }
  if (p.num_tx < 4 || p.num_tx > p.leaf_w * p.leaf_w) {
    return "NumTx must be in 4..LeafW^2, got " + std::to_string(p.num_tx);
  }
  if (p.sets < 1 || p.sets > 65536) {
    return "Sets must be in 1..65536, got " + std::to_string(p.sets);
  }
  if (p.ways < 1 || p.ways > 16) {
    return "Ways must be in 1..16, got " + std::to_string(p.ways);
  }
  return "";
}

ReaderListTable::ReaderListTable(const ReaderListParams& p) : p_(p) {
  if (std::string err = CheckReaderListParams(p); !err.empty()) {
    throw std::invalid_argument("htm_reader_list: " + err);
  }
  Reset();
}

void ReaderListTable::Reset() {
  sets_.assign(static_cast<size_t>(p_.sets), std::vector<RlEntry>(static_cast<size_t>(p_.ways)));
  used_ = 0;
}

int ReaderListTable::PrimarySet(uint64_t addr) const {
  return static_cast<int>(SigFoldedSet(p_.addr_w, p_.sets, addr));
}

int ReaderListTable::LeafSet(uint64_t addr, int pos) const {
  return (PrimarySet(addr) + 1 + pos) % p_.sets;
}

const RlEntry* ReaderListTable::Find(int set, uint64_t addr, RlType type, int pos) const {
  for (const RlEntry& e : sets_[static_cast<size_t>(set)]) {
    if (e.type == type && e.addr == addr && (pos < 0 || e.pos == pos)) {
      return &e;
    }
  }
  return nullptr;
}

RlEntry* ReaderListTable::Find(int set, uint64_t addr, RlType type, int pos) {
  return const_cast<RlEntry*>(std::as_const(*this).Find(set, addr, type, pos));
}

const RlEntry* ReaderListTable::Primary(uint64_t addr) const {
  const int set = PrimarySet(addr);
  if (const RlEntry* e = Find(set, addr, RlType::kSharers)) {
    return e;
  }
  return Find(set, addr, RlType::kRoot);
}

RlEntry* ReaderListTable::Primary(uint64_t addr) {
  return const_cast<RlEntry*>(std::as_const(*this).Primary(addr));
}

int ReaderListTable::FreeWays(int set) const {
  int n = 0;
  for (const RlEntry& e : sets_[static_cast<size_t>(set)]) {
    n += e.type == RlType::kUnused;
  }
  return n;
}

RlEntry* ReaderListTable::Alloc(int set) {
  for (RlEntry& e : sets_[static_cast<size_t>(set)]) {
    if (e.type == RlType::kUnused) {
      ++used_;
      return &e;
    }
  }
  return nullptr;
}

void ReaderListTable::Free(RlEntry* e) {
  *e = RlEntry{};
  --used_;
}

RlResult ReaderListTable::Insert(uint64_t addr, uint64_t tx) {
  if (tx >= static_cast<uint64_t>(p_.num_tx)) {
    return RlResult::kBad;
  }
  addr &= LowMask(p_.addr_w);
  const int lw = p_.leaf_w;
  RlEntry* prim = Primary(addr);
  if (prim == nullptr) {
    RlEntry* e = Alloc(PrimarySet(addr));
    if (e == nullptr) {
      return RlResult::kFull;
    }
    e->type = RlType::kSharers;
    e->addr = addr;
    e->ids = {tx};
    return RlResult::kInserted;
  }
  if (prim->type == RlType::kSharers) {
    if (std::find(prim->ids.begin(), prim->ids.end(), tx) != prim->ids.end()) {
      return RlResult::kAlready;
    }
    if (prim->ids.size() < kMaxSharers) {
      prim->ids.push_back(tx);
      return RlResult::kInserted;
    }
    // Four readers: the entry becomes the root, and each reader's leaf is allocated (all or
    // nothing: count the free ways each leaf set needs first).
    std::vector<uint64_t> all = prim->ids;
    all.push_back(tx);
    std::map<int, uint64_t> leaves;  // position -> vector
    for (uint64_t id : all) {
      leaves[static_cast<int>(id) / lw] |= uint64_t{1} << (id % static_cast<uint64_t>(lw));
    }
    std::map<int, int> need;  // set -> leaves to place there
    for (const auto& [pos, vec] : leaves) {
      (void)vec;
      ++need[LeafSet(addr, pos)];
    }
    for (const auto& [set, n] : need) {
      if (FreeWays(set) < n) {
        return RlResult::kFull;
      }
    }
    prim->type = RlType::kRoot;
    prim->ids.clear();
    prim->vec = 0;
    for (const auto& [pos, vec] : leaves) {
      RlEntry* leaf = Alloc(LeafSet(addr, pos));
      leaf->type = RlType::kLeaf;
      leaf->addr = addr;
      leaf->pos = pos;
      leaf->vec = vec;
      prim->vec |= uint64_t{1} << pos;
    }
    return RlResult::kInserted;
  }
  const int pos = static_cast<int>(tx) / lw;
  const uint64_t bit = uint64_t{1} << (tx % static_cast<uint64_t>(lw));
  RlEntry* leaf = Find(LeafSet(addr, pos), addr, RlType::kLeaf, pos);
  if (leaf != nullptr) {
    if ((leaf->vec & bit) != 0) {
      return RlResult::kAlready;
    }
    leaf->vec |= bit;
    return RlResult::kInserted;
  }
  leaf = Alloc(LeafSet(addr, pos));
  if (leaf == nullptr) {
    return RlResult::kFull;
  }
  leaf->type = RlType::kLeaf;
  leaf->addr = addr;
  leaf->pos = pos;
  leaf->vec = bit;
  prim->vec |= uint64_t{1} << pos;
  return RlResult::kInserted;
}

RlResult ReaderListTable::Remove(uint64_t addr, uint64_t tx) {
  if (tx >= static_cast<uint64_t>(p_.num_tx)) {
    return RlResult::kBad;
  }
  addr &= LowMask(p_.addr_w);
  const int lw = p_.leaf_w;
  RlEntry* prim = Primary(addr);
  if (prim == nullptr) {
    return RlResult::kAbsent;
  }
  if (prim->type == RlType::kSharers) {
    auto it = std::find(prim->ids.begin(), prim->ids.end(), tx);
    if (it == prim->ids.end()) {
      return RlResult::kAbsent;
    }
    prim->ids.erase(it);
    if (prim->ids.empty()) {
      Free(prim);
    }
    return RlResult::kRemoved;
  }
  const int pos = static_cast<int>(tx) / lw;
  const uint64_t bit = uint64_t{1} << (tx % static_cast<uint64_t>(lw));
  RlEntry* leaf = Find(LeafSet(addr, pos), addr, RlType::kLeaf, pos);
  if (leaf == nullptr || (leaf->vec & bit) == 0) {
    return RlResult::kAbsent;
  }
  leaf->vec &= ~bit;
  if (leaf->vec == 0) {
    Free(leaf);
    prim->vec &= ~(uint64_t{1} << pos);
  }
  if (prim->vec == 0) {
    Free(prim);
    return RlResult::kRemoved;
  }
  // Back to plain sharers when one leaf with at most three readers is left.
  if ((prim->vec & (prim->vec - 1)) == 0) {
    int last = 0;
    while (((prim->vec >> last) & 1) == 0) {
      ++last;
    }
    RlEntry* only = Find(LeafSet(addr, last), addr, RlType::kLeaf, last);
    if (only == nullptr) {
      throw std::logic_error("htm_reader_list: a root bit without its leaf");
    }
    std::vector<uint64_t> ids;
    for (int b = 0; b < lw; ++b) {
      if (((only->vec >> b) & 1) != 0) {
        ids.push_back(static_cast<uint64_t>(last * lw + b));
      }
    }
    if (ids.size() <= kMaxSharers) {
      Free(only);
      prim->type = RlType::kSharers;
      prim->vec = 0;
      prim->ids = ids;
    }
  }
  return RlResult::kRemoved;
}

std::vector<uint64_t> ReaderListTable::Enumerate(uint64_t addr) const {
  addr &= LowMask(p_.addr_w);
  const RlEntry* prim = Primary(addr);
  if (prim == nullptr) {
    return {};
  }
  if (prim->type == RlType::kSharers) {
    return prim->ids;
  }
  std::vector<uint64_t> out;
  for (int pos = 0; pos < p_.leaf_w; ++pos) {
    if (((prim->vec >> pos) & 1) == 0) {
      continue;
    }
    const RlEntry* leaf = Find(LeafSet(addr, pos), addr, RlType::kLeaf, pos);
    for (int b = 0; leaf != nullptr && b < p_.leaf_w; ++b) {
      if (((leaf->vec >> b) & 1) != 0) {
        out.push_back(static_cast<uint64_t>(pos * p_.leaf_w + b));
      }
    }
  }
  return out;
}

RlType ReaderListTable::TypeOf(uint64_t addr) const {
  const RlEntry* prim = Primary(addr & LowMask(p_.addr_w));
  return prim == nullptr ? RlType::kUnused : prim->type;
}

}  // namespace htm::golden
