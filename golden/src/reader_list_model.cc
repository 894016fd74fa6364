// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/reader_list_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "htm/golden/ports.h"
#include "htm/golden/sig_model.h"

namespace htm::golden {

namespace {
constexpr size_t kMaxSharers = 3;  // Figure 10: 1 to 3 plain sharer ids
}  // namespace

std::string CheckReaderListTableParams(const ReaderListTableParams& p) {
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

ReaderListTable::ReaderListTable(const ReaderListTableParams& p) : p_(p) {
  if (std::string err = CheckReaderListTableParams(p); !err.empty()) {
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

// ---------------------------------------------------------------------------------------------
// The cycle-exact model
// ---------------------------------------------------------------------------------------------

std::string CheckReaderListParams(const ReaderListParams& p) {
  if (p.addr_w < 1 || p.addr_w > 62) {
    return "AddrW must be in 1..62, got " + std::to_string(p.addr_w);
  }
  if (p.leaf_w < 2 || p.leaf_w > 64 || (p.leaf_w & (p.leaf_w - 1)) != 0) {
    return "LeafW must be a power of two in 2..64, got " + std::to_string(p.leaf_w);
  }
  if (p.tx_w < 2 || p.tx_w > 12 || (1 << p.tx_w) <= p.leaf_w ||
      (1 << p.tx_w) > p.leaf_w * p.leaf_w) {
    return "TxW must be in 2..12 with LeafW < 2^TxW <= LeafW^2, got " + std::to_string(p.tx_w);
  }
  if (p.sets < 1 || p.sets > 65536) {
    return "Sets must be in 1..65536, got " + std::to_string(p.sets);
  }
  if (p.ways < 1 || p.ways > 16) {
    return "Ways must be in 1..16, got " + std::to_string(p.ways);
  }
  return "";
}

namespace {
ReaderListTableParams TableParams(const ReaderListParams& p) {
  if (std::string err = CheckReaderListParams(p); !err.empty()) {
    throw std::invalid_argument("htm_reader_list: " + err);
  }
  ReaderListTableParams t;
  t.addr_w = p.addr_w;
  t.num_tx = 1 << p.tx_w;
  t.leaf_w = p.leaf_w;
  t.sets = p.sets;
  t.ways = p.ways;
  return t;
}
}  // namespace

ReaderListModel::ReaderListModel(const ReaderListParams& p) : p_(p), table_(TableParams(p)) {
  Reset();
}

void ReaderListModel::Reset() {
  table_.Reset();
  init_left_ = p_.sets;
  active_ = false;
  t_ = latency_ = 0;
  ids_.clear();
  res_ = ReaderListOut{};
  used_after_ = used_ = 0;
  full_after_ = full_ = err_after_ = err_ = false;
}

bool ReaderListModel::Ready() const {
  return init_left_ == 0 && (!active_ || t_ >= latency_);
}

ReaderListOut ReaderListModel::Eval(const ReaderListIn& in) const {
  (void)in;
  ReaderListOut o;
  o.op_ready = Ready();
  if (active_ && t_ == latency_) {
    o = res_;
    o.op_ready = 1;
    o.res_valid = 1;
  }
  for (const auto& [at, id] : ids_) {
    if (active_ && at == t_) {
      o.id_valid = 1;
      o.id = id;
    }
  }
  o.full = full_;
  o.used = used_;
  o.err = err_;
  return o;
}

void ReaderListModel::Tick(const ReaderListIn& in) {
  const bool acc = in.op_valid != 0 && Ready();
  cover_.op_stall += in.op_valid != 0 && !acc ? 1 : 0;
  if (init_left_ > 0) {
    --init_left_;
  }
  if (active_) {
    ++t_;
    if (t_ == latency_) {
      used_ = used_after_;
      full_ = full_after_;
      err_ = err_after_;
    } else if (t_ > latency_) {
      active_ = false;
    }
  }
  if (acc) {
    Start(in);
  }
}

// Applies the operation to the table and works out what the FSM shows, and when.
void ReaderListModel::Start(const ReaderListIn& in) {
  const uint64_t kind = in.op_kind & 3;
  const uint64_t addr = in.op_addr & LowMask(p_.addr_w);
  const uint64_t tx = in.op_tx & LowMask(p_.tx_w);
  const uint64_t lw = static_cast<uint64_t>(p_.leaf_w);
  active_ = true;
  t_ = 1;  // the cycle after the one it was taken in
  ids_.clear();
  res_ = ReaderListOut{};
  res_.res_kind = kind;
  res_.res_addr = addr;
  res_.res_tx = tx;
  used_after_ = used_;
  full_after_ = full_;
  err_after_ = err_;
  latency_ = 2;
  if (kind == 3) {  // not an operation
    res_.res_err = 1;
    err_after_ = true;
    ++cover_.bad_op;
    return;
  }
  const RlType before = table_.TypeOf(addr);
  const std::vector<uint64_t> readers = table_.Enumerate(addr);
  const bool present = std::find(readers.begin(), readers.end(), tx) != readers.end();
  std::map<uint64_t, int> per_leaf;  // position -> readers (under a root)
  for (uint64_t id : readers) {
    ++per_leaf[id / lw];
  }
  const uint64_t pos = tx / lw;
  const int before_used = table_.used();
  switch (static_cast<RlOp>(kind)) {
    case RlOp::kInsert: {
      const RlResult r = table_.Insert(addr, tx);
      res_.res_found = r == RlResult::kAlready;
      res_.res_inserted = r == RlResult::kInserted;
      res_.res_full = r == RlResult::kFull;
      if (before == RlType::kSharers && !present && readers.size() == 3) {
        std::set<uint64_t> leaves{pos};
        for (uint64_t id : readers) {
          leaves.insert(id / lw);
        }
        const int n = static_cast<int>(leaves.size());
        latency_ = r == RlResult::kFull ? 2 + n : 3 + 2 * n;
      } else if (before == RlType::kRoot) {
        const bool leaf = per_leaf.count(pos) != 0;
        latency_ = (leaf || r == RlResult::kFull) ? 3 : 4;
      }
      if (r == RlResult::kFull) {
        full_after_ = true;
      }
      // Coverage.
      const bool convert = before == RlType::kSharers && !present && readers.size() == 3;
      cover_.insert_already += r == RlResult::kAlready ? 1 : 0;
      cover_.insert_full += r == RlResult::kFull ? 1 : 0;
      cover_.to_bitvec += convert && r == RlResult::kInserted ? 1 : 0;
      cover_.to_bitvec_full += convert && r == RlResult::kFull ? 1 : 0;
      cover_.leaf_alloc +=
          before == RlType::kRoot && per_leaf.count(pos) == 0 && r == RlResult::kInserted ? 1 : 0;
      break;
    }
    case RlOp::kRemove: {
      const RlResult r = table_.Remove(addr, tx);
      res_.res_found = r == RlResult::kRemoved;
      if (before == RlType::kRoot) {
        if (!present) {
          latency_ = 3;
        } else if (per_leaf[pos] > 1) {  // the leaf stays
          latency_ = (per_leaf.size() == 1 && per_leaf[pos] - 1 <= 3) ? 4 : 3;
        } else {  // the leaf goes
          per_leaf.erase(pos);
          if (per_leaf.size() != 1) {
            latency_ = 4;
          } else {
            latency_ = per_leaf.begin()->second <= 3 ? 6 : 5;
          }
        }
      }
      if (table_.used() < before_used) {
        full_after_ = false;
      }
      // Coverage.
      const RlType after = table_.TypeOf(addr);
      cover_.remove_absent += r == RlResult::kAbsent ? 1 : 0;
      cover_.remove_last += r == RlResult::kRemoved && after == RlType::kUnused ? 1 : 0;
      cover_.to_sharers += before == RlType::kRoot && after == RlType::kSharers ? 1 : 0;
      break;
    }
    default: {  // Enumerate
      res_.res_count = readers.size();
      cover_.enum_root += before == RlType::kRoot ? 1 : 0;
      cover_.enum_empty += readers.empty() ? 1 : 0;
      if (before == RlType::kSharers) {
        for (size_t k = 0; k < readers.size(); ++k) {
          ids_.emplace_back(3 + static_cast<int>(k), readers[k]);
        }
        latency_ = 2 + static_cast<int>(readers.size());
      } else if (before == RlType::kRoot) {
        // Per leaf: a cycle to take its vector, then a reader per cycle.
        int s = 2;
        size_t k = 0;
        for (const auto& [leaf, n] : per_leaf) {
          (void)leaf;
          for (int i = 0; i < n; ++i, ++k) {
            ids_.emplace_back(s + 2 + i, readers[k]);
          }
          s += 1 + n;
        }
        latency_ = s;
      }
      break;
    }
  }
  res_.res_type = static_cast<uint64_t>(table_.TypeOf(addr));
  used_after_ = static_cast<uint64_t>(table_.used());
}

}  // namespace htm::golden
