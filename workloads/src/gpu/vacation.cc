// SPDX-License-Identifier: Apache-2.0
//
// Vacation 1 and 2 (Chen, Peng & Irving, ISCA 2017, Table 3, §6: STAMP's travel reservation system
// adapted to CUDA, "similar to having 4 red-black trees and 1 linked list running simultaneously"):
// four tables, each a red-black tree keyed by id (rbtree.h) — flights, rooms, cars and customers.
//
// Vacation1 (the paper's 150 threads: 160 in whole warps; tables of 500 entries): only
// table-modifying operations. Each thread adds an entry to one of the four tables or deletes one
// from it, one transaction each.
// Vacation2 (the paper's 140 threads: 160; tables of 1 000 entries, 5 customers): every thread
// makes one reservation for one of the 5 customers, one transaction: for each item type it
// looks up two random ids, takes a unit of the dearer one that has a unit free, and links a
// reservation record into the customer's reservation list, kept sorted by (type, id).
// Every operation ends by adding to its thread's result word: 1, plus 16 per reservation made.
//
// Memory: the four root pointers; a result word per thread; the tree nodes (rbtree.h); a
// 3-word payload per node (an item: units in all, units free, price; a customer: the head of
// its reservation list); three reservation records {key = type << 30 | id, item node, next} per
// thread.
// Check: every table a red-black tree holding exactly its expected ids; every result word 1 plus
// 16 times the thread's records found in the lists; every reservation list sorted, each record
// in it once and naming the item its key names; for every item, units in all less units free
// equals the records naming it.
#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "htm/workloads/common.h"
#include "rbtree.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr int kTables = 4, kItemTypes = 3;  // tables 0..2 hold items (flights, rooms, cars)
constexpr uint32_t kCustomerTable = 3;
constexpr uint32_t kTotal = 0, kFree = 1, kPrice = 2, kPayloadWords = 3;
constexpr uint32_t kRecKey = 0, kRecItem = 1, kRecNext = 2, kRecWords = 3;
constexpr int kQueries = 2;  // ids looked up per item type (Vacation2)

class Vacation : public RbBase {
 public:
  /// reservations false: Vacation1 (`entries` per table, each thread adds or deletes one);
  /// true: Vacation2 (`entries` per item table, `customers` customers, a reservation each).
  Vacation(int threads, int entries, bool reservations, int customers, uint64_t seed)
      : RbBase(kTables + static_cast<uint32_t>(threads),
               reservations ? 3 * entries + customers : kTables * entries + threads),
        threads_(threads),
        entries_(entries),
        reservations_(reservations),
        customers_(customers) {
    Rng rng(seed);
    const int sizes[kTables] = {entries, entries, entries, reservations ? customers : entries};
    std::vector<uint32_t> ids = rng.Distinct(kTables * entries + threads, (1u << 30) - 1);
    for (uint32_t& id : ids) {
      ++id;
    }
    size_t next = 0;
    for (int k = 0; k < kTables; ++k) {
      table_ids_[k].assign(ids.begin() + static_cast<std::ptrdiff_t>(next),
                           ids.begin() + static_cast<std::ptrdiff_t>(next + sizes[k]));
      std::sort(table_ids_[k].begin(), table_ids_[k].end());
      table_first_[k] = static_cast<int>(next);  // node index of its first entry
      next += static_cast<size_t>(sizes[k]);
    }
    op_.resize(static_cast<size_t>(threads));
    if (!reservations) {
      std::vector<uint32_t> left[kTables];
      for (int k = 0; k < kTables; ++k) {
        left[k] = table_ids_[k];
        rng.Shuffle(left[k]);
      }
      for (int t = 0; t < threads; ++t) {
        Op& o = op_[static_cast<size_t>(t)];
        o.table = static_cast<int>(rng.Below(kTables));
        o.add = rng.Below(2) == 0 || left[o.table].empty();
        if (o.add) {
          o.id = ids[static_cast<size_t>(kTables * entries + t)];
        } else {
          o.id = left[o.table].back();
          left[o.table].pop_back();
        }
      }
    } else {
      for (int t = 0; t < threads; ++t) {
        Op& o = op_[static_cast<size_t>(t)];
        o.customer = table_ids_[kCustomerTable][rng.Below(static_cast<uint64_t>(customers))];
        for (int type = 0; type < kItemTypes; ++type) {
          for (int q = 0; q < kQueries; ++q) {
            o.query[type][q] =
                table_ids_[type][rng.Below(static_cast<uint64_t>(table_ids_[type].size()))];
          }
        }
      }
      units_.resize(static_cast<size_t>(3 * entries));
      price_.resize(units_.size());
      for (size_t i = 0; i < units_.size(); ++i) {
        units_[i] = 1 + rng.Below(3);
        price_[i] = 50 + rng.Below(450);
      }
    }
  }

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(Record(threads_, 0), kNil);
    for (int t = 0; t < threads_; ++t) {
      mem[Result(t)] = 0;
    }
    for (int k = 0; k < kTables; ++k) {
      mem[static_cast<uint32_t>(k)] = BuildBalanced(mem, table_ids_[k], table_first_[k]);
    }
    if (reservations_) {
      for (int i = 0; i < 3 * entries_; ++i) {
        mem[Payload(Node(i)) + kTotal] = units_[static_cast<size_t>(i)];
        mem[Payload(Node(i)) + kFree] = units_[static_cast<size_t>(i)];
        mem[Payload(Node(i)) + kPrice] = price_[static_cast<size_t>(i)];
      }
    } else {
      for (int t = 0; t < threads_; ++t) {  // the nodes of the added entries: key, red
        mem[AddNode(t) + kKey] = op_[static_cast<size_t>(t)].id;
        mem[AddNode(t) + kColour] = kRed;
      }
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const int t = l.tid();
    co_await l.Compute(4);
    co_await l.Transaction([this, t](Lane& x) -> Task {
      const Op& o = op_[static_cast<size_t>(t)];
      uint32_t made = 0;
      if (!reservations_) {
        const auto root = static_cast<uint32_t>(o.table);
        if (o.add) {
          co_await Insert(x, root, o.id, AddNode(t));
        } else {
          bool ok = false;
          co_await Remove(x, root, o.id, &ok);
          if (!ok) {
            co_return;  // an inconsistent read: the commit's validation fails and it reruns
          }
        }
      } else {
        uint32_t customer = kNil;
        co_await Find(x, kCustomerTable, o.customer, &customer);
        if (!IsNode(customer)) {
          co_return;  // every customer exists: an inconsistent read
        }
        for (int type = 0; type < kItemTypes; ++type) {
          uint32_t best = kNil, best_price = 0, best_free = 0, best_id = 0;
          for (int q = 0; q < kQueries; ++q) {
            uint32_t n = kNil;
            co_await Find(x, static_cast<uint32_t>(type), o.query[type][q], &n);
            if (!IsNode(n)) {
              co_return;
            }
            const uint32_t free = co_await x.Load(Payload(n) + kFree);
            const uint32_t price = co_await x.Load(Payload(n) + kPrice);
            if (free > 0 && price > best_price) {
              best = n;
              best_price = price;
              best_free = free;
              best_id = o.query[type][q];
            }
          }
          if (best == kNil) {
            continue;
          }
          co_await x.Store(Payload(best) + kFree, best_free - 1);
          const uint32_t rec = Record(t, type);
          const uint32_t key = static_cast<uint32_t>(type) << 30 | best_id;
          co_await x.Store(rec + kRecKey, key);
          co_await x.Store(rec + kRecItem, best);
          // The customer's list, sorted by key: the link to follow, and the record after it.
          uint32_t link = Payload(customer), after = co_await x.Load(link);
          for (int steps = 0; after != kNil; ++steps) {
            if (!IsRecord(after) || steps > 3 * threads_) {
              co_return;
            }
            if (co_await x.Load(after + kRecKey) >= key) {
              break;
            }
            link = after + kRecNext;
            after = co_await x.Load(link);
          }
          co_await x.Store(rec + kRecNext, after);
          co_await x.Store(link, rec);
          ++made;
        }
      }
      const uint32_t result = co_await x.Load(Result(t));
      co_await x.Store(Result(t), result + 1 + 16 * made);
    });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    for (int k = 0; k < kTables && p.empty(); ++k) {
      std::vector<uint32_t> nodes;
      CheckTree(mem, static_cast<uint32_t>(k), p, &nodes);
      std::set<uint32_t> have, want = Expected(k);
      for (const uint32_t n : nodes) {
        have.insert(mem[n + kKey]);
      }
      if (p.empty() && (have != want || have.size() != nodes.size())) {
        p.Add("table ", k, " holds ", nodes.size(), " entries, ", want.size(),
              " expected (or a wrong id)");
      }
    }
    std::vector<uint32_t> made(static_cast<size_t>(threads_), 0);
    if (reservations_ && p.empty()) {
      std::vector<uint32_t> taken(static_cast<size_t>(3 * entries_), 0);
      std::vector<int> seen(static_cast<size_t>(3 * threads_), 0);
      for (int c = 0; c < customers_ && p.empty(); ++c) {
        uint32_t r = mem[Payload(Node(table_first_[kCustomerTable] + c))], last = 0;
        for (int steps = 0; r != kNil && p.empty(); ++steps) {
          if (!IsRecord(r) || steps > 3 * threads_) {
            p.Add("customer ", c, "'s list reaches ", r, ", not a record");
            break;
          }
          const auto slot = static_cast<size_t>((r - Record(0, 0)) / kRecWords);
          if (seen[slot]++ > 0) {
            p.Add("reservation record ", slot, " is reached twice");
            break;
          }
          const uint32_t key = mem[r + kRecKey], item = mem[r + kRecItem];
          const int type = static_cast<int>(key >> 30);
          if (key < last) {
            p.Add("customer ", c, "'s list is not sorted at key ", key);
          }
          if (type >= kItemTypes || !IsNode(item) || Index(item) / entries_ != type ||
              mem[item + kKey] != (key & ((1u << 30) - 1))) {
            p.Add("record ", slot, " names item ", item, " for key ", key);
            break;
          }
          ++taken[static_cast<size_t>(Index(item))];
          ++made[slot / 3];
          last = key;
          r = mem[r + kRecNext];
        }
      }
      for (int i = 0; i < 3 * entries_ && p.empty(); ++i) {
        const uint32_t pay = Payload(Node(i));
        if (mem[pay + kTotal] - mem[pay + kFree] != taken[static_cast<size_t>(i)]) {
          p.Add("item ", i, " has ", mem[pay + kFree], " of ", mem[pay + kTotal],
                " units free, but ", taken[static_cast<size_t>(i)], " reservations");
        }
      }
    }
    for (int t = 0; t < threads_ && p.empty(); ++t) {
      const uint32_t want = 1 + 16 * made[static_cast<size_t>(t)];
      if (mem[Result(t)] != want) {
        p.Add("thread ", t, "'s result word is ", mem[Result(t)], ", not ", want,
              " (1 per operation, 16 per reservation in the lists)");
      }
    }
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    if (reservations_) {
      os << threads_ << " threads each reserve a flight, a room and a car (the dearer of "
         << kQueries << " random ones with a unit free) for one of " << customers_
         << " customers; tables of " << entries_ << " items";
    } else {
      os << threads_ << " threads each add an entry to or delete one from one of four tables of "
         << entries_ << " entries";
    }
    return os.str();
  }

 private:
  struct Op {
    int table = 0;  // Vacation1
    bool add = false;
    uint32_t id = 0;
    uint32_t customer = 0;  // Vacation2
    uint32_t query[kItemTypes][kQueries] = {};
  };

  static uint32_t Result(int t) { return kTables + static_cast<uint32_t>(t); }
  uint32_t Payload(uint32_t node) const {
    return Node(nodes_) + kPayloadWords * static_cast<uint32_t>(Index(node));
  }
  uint32_t Record(int t, int type) const {
    return Node(nodes_) + kPayloadWords * static_cast<uint32_t>(nodes_) +
           kRecWords * static_cast<uint32_t>(3 * t + type);
  }
  bool IsRecord(uint32_t a) const {
    return a >= Record(0, 0) && a < Record(threads_, 0) && (a - Record(0, 0)) % kRecWords == 0;
  }
  uint32_t AddNode(int t) const { return Node(kTables * entries_ + t); }

  /// The ids table k holds when every operation has been applied once.
  std::set<uint32_t> Expected(int k) const {
    std::set<uint32_t> ids(table_ids_[k].begin(), table_ids_[k].end());
    for (const Op& o : op_) {
      if (!reservations_ && o.table == k) {
        if (o.add) {
          ids.insert(o.id);
        } else {
          ids.erase(o.id);
        }
      }
    }
    return ids;
  }

  /// The node of table k holding `id`, or nil; on an inconsistent read, a non-node.
  Task Find(Lane& x, uint32_t table, uint32_t id, uint32_t* out) const {
    uint32_t n = co_await x.Load(table);
    for (int steps = 0; n != kNil; ++steps) {
      if (!IsNode(n) || steps > limit_) {
        *out = 0;
        co_return;
      }
      const uint32_t k = co_await x.Load(n + kKey);
      if (k == id) {
        break;
      }
      n = co_await x.Load(n + (id < k ? kLeft : kRight));
    }
    *out = n;
  }

  const int threads_, entries_;
  const bool reservations_;
  const int customers_;
  std::vector<uint32_t> table_ids_[kTables];
  int table_first_[kTables] = {};
  std::vector<Op> op_;
  std::vector<uint32_t> units_, price_;  // Vacation2: per item
};

}  // namespace

std::unique_ptr<Workload> MakeVacation(int threads, int entries, bool reservations, int customers,
                                       uint64_t seed) {
  return std::make_unique<Vacation>(threads, entries, reservations, customers, seed);
}

}  // namespace htm::gpu::detail
