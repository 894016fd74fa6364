// SPDX-License-Identifier: Apache-2.0
//
// IT, indexed table (thesis Table 5.7). As HT, but every bucket (LC 256, HC 4) has an index
// pointing to its first empty slot: the critical section increments the index, and the key is
// then stored at the old index outside it. Layout and checks: docs/lds_workloads.md.
#include <algorithm>
#include <string>
#include <vector>

#include "common.h"

namespace htm::lds::detail {
namespace {

constexpr int kKeysPerWi = 2;
constexpr int kHashOps = 4;              // ALU instructions of the bucket computation
constexpr uint32_t kUnset = 0xFFFFFFFE;  // result word before the work-item writes it

class IndexedTable final : public BenchBase {
 public:
  IndexedTable(const Geometry& geo, uint64_t seed, Contention c, Version v)
      : BenchBase("IT", geo, c, v) {
    buckets_ = lc() ? 256 : 4;
    Rng rng(VariantSeed(seed, "IT", c));
    const uint32_t keys = static_cast<uint32_t>(wg()) * kKeysPerWi;
    keys_ = rng.Distinct(keys, 0x7FFFFFFF);
    load_.assign(buckets_, 0);
    for (uint32_t& k : keys_) {
      k += 1;  // 0 marks an empty slot
      ++load_[k % buckets_];
    }
    cap_ = *std::max_element(load_.begin(), load_.end());
    slots_ = buckets_;
    results_ = slots_ + buckets_ * cap_;
    turn_ = results_ + keys;
    RequireFits(turn_ + 1);
  }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> lds(turn_ + 1, 0);
    std::fill(lds.begin() + results_, lds.begin() + turn_, kUnset);
    return lds;
  }
  Task Kernel(Lane& l) override;
  std::string Check(const std::vector<uint32_t>& lds) const override;

 private:
  uint32_t buckets_ = 0;
  uint32_t cap_ = 0;            // slots per bucket: the largest number of keys of one bucket
  std::vector<uint32_t> keys_;  // work-item w's keys at w * kKeysPerWi ...
  std::vector<uint32_t> load_;  // keys per bucket
  // Layout: the indices at 0, then the slots, the results (per key, the index it got), the turn.
  uint32_t slots_ = 0, results_ = 0, turn_ = 0;
};

Task IndexedTable::Kernel(Lane& l) {
  const int wi = l.wi();
  for (int e = 0; e < kKeysPerWi; ++e) {
    const uint32_t key = keys_[wi * kKeysPerWi + e];
    const uint32_t b = key % buckets_;
    co_await l.Compute(kHashOps);
    uint32_t at = 0;
    if (version_ == Version::kAtomic) {
      at = co_await l.AtomAdd(b, 1);
    } else if (version_ == Version::kTm) {
      co_await l.Transaction([b, &at](Lane& t) -> Task {
        at = co_await t.Load(b);
        co_await t.Store(b, at + 1);
      });
    } else {
      const uint32_t ticket = static_cast<uint32_t>(e * wg() + wi);
      for (bool done = false; !done;) {
        if (co_await l.Load(turn_) == ticket) {
          at = co_await l.Load(b);
          co_await l.Store(b, at + 1);
          co_await l.Store(turn_, ticket + 1);
          done = true;
        }
        co_await l.Latch();
      }
    }
    if (at < cap_) {
      co_await l.Store(slots_ + b * cap_ + at, key);
    }
    co_await l.Store(results_ + wi * kKeysPerWi + e, at);
  }
}

std::string IndexedTable::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  if (lds.size() <= turn_) {
    p.Add("the LDS has ", lds.size(), " words, the table needs ", turn_ + 1);
    return p.str();
  }
  for (uint32_t b = 0; b < buckets_; ++b) {
    if (lds[b] != load_[b]) {
      p.Add("the index of bucket ", b, " is ", lds[b], ", ", load_[b], " keys were inserted",
            lds[b] < load_[b] ? " (lost update)" : " (duplicated update)");
    }
  }
  // Every key at the index its work-item got, and every index got once.
  std::vector<std::vector<int>> owner(buckets_, std::vector<int>(cap_, -1));
  for (size_t i = 0; i < keys_.size(); ++i) {
    const uint32_t key = keys_[i];
    const uint32_t b = key % buckets_;
    const uint32_t at = lds[results_ + i];
    const int wi = static_cast<int>(i) / kKeysPerWi;
    if (at >= cap_) {
      p.Add("work-item ", wi, " got index ", at, " of bucket ", b, " (", load_[b], " keys)");
      continue;
    }
    if (owner[b][at] >= 0) {
      p.Add("work-items ", owner[b][at] / kKeysPerWi, " and ", wi, " both got index ", at,
            " of bucket ", b, " (lost update)");
    }
    owner[b][at] = static_cast<int>(i);
    if (lds[slots_ + b * cap_ + at] != key) {
      p.Add("slot ", at, " of bucket ", b, " holds ", lds[slots_ + b * cap_ + at], ", work-item ",
            wi, " stored key ", key, " there");
    }
  }
  for (uint32_t b = 0; b < buckets_; ++b) {
    for (uint32_t s = 0; s < cap_; ++s) {
      if ((s < load_[b]) != (lds[slots_ + b * cap_ + s] != 0)) {
        p.Add("slot ", s, " of bucket ", b, (s < load_[b] ? " is empty" : " is not empty"), " (",
              load_[b], " keys in the bucket)");
      }
    }
  }
  if (version_ == Version::kSerial && lds[turn_] != keys_.size()) {
    p.Add("the turn word is ", lds[turn_], ", expected ", keys_.size());
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeIndexedTable(const Geometry& geo, uint64_t seed, Contention c,
                                           Version v) {
  return std::make_unique<IndexedTable>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
