// SPDX-License-Identifier: Apache-2.0
//
// VA, vacation (thesis Table 5.7, after STAMP's vacation): three groups (cars, flights, rooms)
// of 1K items each in the LDS; an item word holds its free and total units. Every work-item runs
// 2 operations; 90% of them are client operations, half reserving (per item: read two candidate
// items of the group and take a unit of the freer one) and half cancelling (give back the units
// of an earlier reservation), 10% change the tables, half adding and half removing capacity.
// An operation touches k items (LC 2, HC 4; a reservation reads 2k candidates). Every operation
// records what it did, so Check() verifies that units are conserved item by item. Layout:
// docs/lds_workloads.md.
#include <algorithm>
#include <array>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "common.h"

namespace htm::lds::detail {
namespace {

constexpr int kRounds = 2;  // operations per work-item
constexpr uint32_t kMaxGroupItems = 1024;
constexpr uint32_t kUnits = 2;          // units an add or a remove moves per item
constexpr int kOpOps = 6;               // ALU instructions choosing an operation
constexpr int kItemOps = 4;             // ALU instructions per item read (price, compare)
constexpr uint32_t kLock = 0x80000000;  // FGL: the item's lock bit
constexpr uint32_t kUnset = 0xFFFFFFFF;

enum OpType : uint8_t { kReserve, kCancel, kAdd, kRemove };

uint32_t Free(uint32_t word) {
  return word & 0xFFFF;
}
uint32_t Total(uint32_t word) {
  return word >> 16 & 0x7FFF;
}
uint32_t Item(uint32_t free, uint32_t total) {
  return free | total << 16;
}

struct Operation {
  OpType type = kReserve;
  uint8_t n = 0;                   // items touched (a reservation: 2 candidates per slot)
  std::array<uint32_t, 8> item{};  // reservation: slot s's candidates at 2s, 2s + 1
};

class Vacation final : public BenchBase {
 public:
  Vacation(const Geometry& geo, uint64_t seed, Contention c, Version v)
      : BenchBase("VA", geo, c, v) {
    slots_ = lc() ? 2 : 4;
    const uint32_t ops = static_cast<uint32_t>(wg()) * kRounds;
    group_ = kMaxGroupItems;
    while (group_ > 16 && 3 * group_ + ops + 1 > static_cast<uint32_t>(geo.lds_words)) {
      group_ /= 2;
    }
    records_ = 3 * group_;
    turn_ = records_ + ops;
    RequireFits(turn_ + 1);

    Rng rng(VariantSeed(seed, "VA", c));
    // 10% table changes (half adds, half removes), the rest half reservations, half cancels.
    const uint32_t changes = (ops + 5) / 10, adds = changes / 2;
    const uint32_t clients = ops - changes, reserves = (clients + 1) / 2;
    std::vector<OpType> types(ops, kCancel);
    std::fill(types.begin(), types.begin() + reserves, kReserve);
    std::fill(types.begin() + reserves, types.begin() + reserves + adds, kAdd);
    std::fill(types.begin() + reserves + adds, types.begin() + reserves + changes, kRemove);
    rng.Shuffle(types);
    std::vector<uint32_t> reserved(3 * group_, 0);  // the reservations cancels give back
    ops_.resize(ops);
    for (uint32_t k = 0; k < ops; ++k) {
      Operation& op = ops_[k];
      op.type = types[k];
      const int per_slot = op.type == kReserve ? 2 : 1;
      op.n = static_cast<uint8_t>(per_slot * slots_);
      std::set<uint32_t> used;
      for (uint32_t s = 0; s < slots_; ++s) {
        for (int j = 0; j < per_slot; ++j) {
          uint32_t e;
          do {
            e = (s % 3) * group_ + rng.Below(group_);
          } while (!used.insert(e).second);
          op.item[s * per_slot + j] = e;
          if (op.type == kCancel) {
            ++reserved[e];
          }
        }
      }
    }
    items0_.resize(3 * group_);
    for (uint32_t e = 0; e < 3 * group_; ++e) {
      const uint32_t total = std::max(rng.Range(4, 8), reserved[e]);
      items0_[e] = Item(total - reserved[e], total);
    }
  }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> lds(turn_ + 1, 0);
    std::copy(items0_.begin(), items0_.end(), lds.begin());
    std::fill(lds.begin() + records_, lds.begin() + turn_, kUnset);
    return lds;
  }
  Task Kernel(Lane& l) override;
  std::string Check(const std::vector<uint32_t>& lds) const override;

 private:
  /// The operation on its items' words `in` (in op.item order): the new words and the record
  /// (per slot, 4 bits: a reservation's success (bit 0) and candidate (bit 1); the units a
  /// remove took).
  uint32_t Apply(const Operation& op, const uint32_t* in, uint32_t* out) const;
  Task Operate(Lane& l, uint32_t k, uint32_t* record);

  uint32_t slots_ = 0;  // items an operation changes (LC 2, HC 4)
  uint32_t group_ = 0;  // items per group
  std::vector<uint32_t> items0_;
  std::vector<Operation> ops_;  // work-item w's round r at w * kRounds + r
  // Layout: the items (group g's item i at g * group_ + i) at 0, then the records (one per
  // operation), the turn (serialized).
  uint32_t records_ = 0, turn_ = 0;
};

uint32_t Vacation::Apply(const Operation& op, const uint32_t* in, uint32_t* out) const {
  std::copy(in, in + op.n, out);
  uint32_t rec = 0;
  for (uint32_t s = 0; s < slots_; ++s) {
    uint32_t nib = 0;
    switch (op.type) {
      case kReserve: {
        const uint32_t pick = Free(in[2 * s + 1]) > Free(in[2 * s]) ? 1 : 0;
        const uint32_t w = in[2 * s + pick];
        if (Free(w) > 0) {
          out[2 * s + pick] = Item(Free(w) - 1, Total(w));
          nib = 1 | pick << 1;
        }
        break;
      }
      case kCancel:
        out[s] = Item(Free(in[s]) + 1, Total(in[s]));
        break;
      case kAdd:
        out[s] = Item(Free(in[s]) + kUnits, Total(in[s]) + kUnits);
        break;
      case kRemove: {
        const uint32_t take = std::min(Free(in[s]), kUnits);
        out[s] = Item(Free(in[s]) - take, Total(in[s]) - take);
        nib = take;
        break;
      }
    }
    rec |= nib << (4 * s);
  }
  return rec;
}

// The critical section of the transactional and serialized versions: read the items, write the
// ones that change.
Task Vacation::Operate(Lane& l, uint32_t k, uint32_t* record) {
  const Operation& op = ops_[k];
  std::array<uint32_t, 8> in{}, out{};
  for (int i = 0; i < op.n; ++i) {
    in[i] = co_await l.Load(op.item[i]);
    co_await l.Latch();
  }
  co_await l.Compute(kItemOps * op.n);
  *record = Apply(op, in.data(), out.data());
  for (int i = 0; i < op.n; ++i) {
    if (out[i] != in[i]) {
      co_await l.Store(op.item[i], out[i]);
    }
    co_await l.Latch();
  }
}

Task Vacation::Kernel(Lane& l) {
  const int wi = l.wi();
  for (int r = 0; r < kRounds; ++r) {
    const uint32_t k = static_cast<uint32_t>(wi * kRounds + r);
    co_await l.Compute(kOpOps);
    uint32_t record = 0;
    if (version_ == Version::kTm) {
      co_await l.Transaction([this, k, &record](Lane& t) { return Operate(t, k, &record); });
    } else if (version_ == Version::kSerial) {
      const uint32_t ticket = static_cast<uint32_t>(r * wg() + wi);
      for (bool done = false; !done;) {
        if (co_await l.Load(turn_) == ticket) {
          co_await Operate(l, k, &record);
          co_await l.Store(turn_, ticket + 1);
          done = true;
        }
        co_await l.Latch();
      }
    } else {
      // The items' lock bits in address order (set by a CAS on the word read); a failure
      // releases the ones taken. The critical section then works on the words read.
      const Operation& op = ops_[k];
      std::array<uint32_t, 8> order{}, in{}, out{};
      std::iota(order.begin(), order.begin() + op.n, 0);
      std::sort(order.begin(), order.begin() + op.n,
                [&op](uint32_t a, uint32_t b) { return op.item[a] < op.item[b]; });
      for (bool done = false; !done;) {
        int got = 0;
        for (int i = 0; i < op.n; ++i) {
          if (got == i) {
            const uint32_t addr = op.item[order[i]];
            const uint32_t w = co_await l.Load(addr);
            if ((w & kLock) == 0 && co_await l.Cas(addr, w, w | kLock) == w) {
              in[order[i]] = w;
              ++got;
            }
          }
          co_await l.Latch();
        }
        if (got == op.n) {
          co_await l.Compute(kItemOps * op.n);
          record = Apply(op, in.data(), out.data());
          for (int i = 0; i < op.n; ++i) {
            co_await l.Store(op.item[order[i]], out[order[i]]);  // clears the lock bit
            co_await l.Latch();
          }
          done = true;
        } else {
          for (int i = got - 1; i >= 0; --i) {
            co_await l.Store(op.item[order[i]], in[order[i]]);
            co_await l.Latch();
          }
        }
        co_await l.Latch();
      }
    }
    co_await l.Store(records_ + k, record);
    co_await l.Latch();
  }
}

std::string Vacation::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  if (lds.size() <= turn_) {
    p.Add("the LDS has ", lds.size(), " words, the tables need ", turn_ + 1);
    return p.str();
  }
  // What the records say every item gained and lost.
  std::vector<int64_t> free(3 * group_), total(3 * group_);
  for (uint32_t e = 0; e < 3 * group_; ++e) {
    free[e] = Free(items0_[e]);
    total[e] = Total(items0_[e]);
  }
  for (size_t k = 0; k < ops_.size(); ++k) {
    const Operation& op = ops_[k];
    const uint32_t rec = lds[records_ + k];
    const int wi = static_cast<int>(k) / kRounds;
    for (uint32_t s = 0; s < slots_; ++s) {
      const uint32_t nib = rec >> (4 * s) & 0xF;
      switch (op.type) {
        case kReserve:
          if (nib > 3 || nib == 2) {
            p.Add("work-item ", wi, " reservation record ", rec, " is malformed");
          } else if (nib & 1) {
            --free[op.item[2 * s + (nib >> 1)]];
          }
          break;
        case kCancel:
          ++free[op.item[s]];
          break;
        case kAdd:
          free[op.item[s]] += kUnits;
          total[op.item[s]] += kUnits;
          break;
        case kRemove:
          if (nib > kUnits) {
            p.Add("work-item ", wi, " removal record ", rec, " is malformed");
          } else {
            free[op.item[s]] -= nib;
            total[op.item[s]] -= nib;
          }
          break;
      }
    }
    if (rec >> (4 * slots_) != 0) {
      p.Add("work-item ", wi, " record ", rec, " is malformed");
    }
  }
  for (uint32_t e = 0; e < 3 * group_; ++e) {
    const uint32_t w = lds[e];
    if (w & kLock) {
      p.Add("item ", e, " is still locked");
    }
    if (Free(w) != free[e] || Total(w) != total[e]) {
      p.Add("item ", e, " has ", Free(w), " of ", Total(w), " units free, the operations leave ",
            free[e], " of ", total[e], " (lost or duplicated update)");
    } else if (Free(w) > Total(w)) {
      p.Add("item ", e, " has ", Free(w), " free units of ", Total(w));
    }
  }
  if (version_ == Version::kSerial && lds[turn_] != ops_.size()) {
    p.Add("the turn word is ", lds[turn_], ", expected ", ops_.size());
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeVacation(const Geometry& geo, uint64_t seed, Contention c,
                                       Version v) {
  return std::make_unique<Vacation>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
