// SPDX-License-Identifier: Apache-2.0
//
// HT, hash table (thesis Table 5.7; paper 004 §5.1.1). Every work-item inserts its keys in a
// table of N buckets (LC 256, HC 4); a key goes to bucket key mod N and takes the first empty
// slot, probing the bucket's slots in order. The critical section is one probe: read a slot
// and, if it is empty, write the key. Layout and checks: docs/lds_workloads.md.
#include <algorithm>
#include <string>
#include <vector>

#include "common.h"

namespace htm::lds::detail {
namespace {

constexpr int kKeysPerWi = 2;
constexpr int kHashOps = 4;                  // ALU instructions of the bucket computation
constexpr uint32_t kNotPlaced = 0xFFFFFFFF;  // result: the bucket was full
constexpr uint32_t kUnset = 0xFFFFFFFE;      // result word before the work-item writes it

class HashTable final : public BenchBase {
 public:
  HashTable(const Geometry& geo, uint64_t seed, Contention c, Version v)
      : BenchBase("HT", geo, c, v) {
    buckets_ = lc() ? 256 : 4;
    Rng rng(VariantSeed(seed, "HT", c));
    const uint32_t keys = static_cast<uint32_t>(wg()) * kKeysPerWi;
    keys_ = rng.Distinct(keys, 0x7FFFFFFF);
    std::vector<uint32_t> load(buckets_, 0);
    for (uint32_t& k : keys_) {
      k += 1;  // 0 marks an empty slot
      ++load[k % buckets_];
    }
    load_ = load;
    cap_ = *std::max_element(load.begin(), load.end());
    results_ = buckets_ * cap_;
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
  Task InsertSerial(Lane& l, uint32_t base, uint32_t key, uint32_t* slot);

  uint32_t buckets_ = 0;
  uint32_t cap_ = 0;            // slots per bucket: the largest number of keys of one bucket
  std::vector<uint32_t> keys_;  // work-item w's keys at w * kKeysPerWi ...
  std::vector<uint32_t> load_;  // keys per bucket
  uint32_t results_ = 0;        // per key: the slot it went to
  uint32_t turn_ = 0;           // serialized version: the ticket allowed into its critical section
};

// The serialized version's critical section: the whole probe sequence of one key.
Task HashTable::InsertSerial(Lane& l, uint32_t base, uint32_t key, uint32_t* slot) {
  uint32_t s = 0;
  while (s < cap_) {
    if (co_await l.Load(base + s) == 0) {
      co_await l.Store(base + s, key);
      break;
    }
    ++s;
    co_await l.Latch();
  }
  *slot = s;
}

Task HashTable::Kernel(Lane& l) {
  const int wi = l.wi();
  for (int e = 0; e < kKeysPerWi; ++e) {
    const uint32_t key = keys_[wi * kKeysPerWi + e];
    const uint32_t base = (key % buckets_) * cap_;
    co_await l.Compute(kHashOps);
    uint32_t slot = 0;
    if (version_ == Version::kSerial) {
      const uint32_t ticket = static_cast<uint32_t>(e * wg() + wi);
      for (bool done = false; !done;) {
        if (co_await l.Load(turn_) == ticket) {
          co_await InsertSerial(l, base, key, &slot);
          co_await l.Store(turn_, ticket + 1);
          done = true;
        }
        co_await l.Latch();
      }
    } else {
      for (bool placed = false; !placed && slot < cap_;) {
        if (version_ == Version::kAtomic) {
          placed = co_await l.Cas(base + slot, 0, key) == 0;
        } else {
          co_await l.Transaction([base, slot, key, &placed](Lane& t) -> Task {
            placed = false;
            if (co_await t.Load(base + slot) == 0) {
              co_await t.Store(base + slot, key);
              placed = true;
            }
          });
        }
        if (!placed) {
          ++slot;
        }
        co_await l.Latch();
      }
    }
    co_await l.Store(results_ + wi * kKeysPerWi + e, slot < cap_ ? slot : kNotPlaced);
  }
}

std::string HashTable::Check(const std::vector<uint32_t>& lds) const {
  Problems p;
  if (lds.size() <= turn_) {
    p.Add("the LDS has ", lds.size(), " words, the table needs ", turn_ + 1);
    return p.str();
  }
  // Every key where its work-item says it put it, and nowhere else.
  for (size_t i = 0; i < keys_.size(); ++i) {
    const uint32_t key = keys_[i];
    const uint32_t b = key % buckets_;
    const uint32_t slot = lds[results_ + i];
    const int wi = static_cast<int>(i) / kKeysPerWi;
    if (slot == kNotPlaced || slot == kUnset || slot >= cap_) {
      p.Add("work-item ", wi, " did not place key ", key, " (result ", slot, ")");
    } else if (lds[b * cap_ + slot] != key) {
      p.Add("slot ", slot, " of bucket ", b, " holds ", lds[b * cap_ + slot], ", work-item ", wi,
            " wrote key ", key, " there (lost update)");
    }
  }
  std::vector<uint32_t> sorted_keys = keys_;
  std::sort(sorted_keys.begin(), sorted_keys.end());
  std::vector<uint32_t> seen;
  for (uint32_t b = 0; b < buckets_; ++b) {
    uint32_t filled = 0;
    for (uint32_t s = 0; s < cap_; ++s) {
      const uint32_t v = lds[b * cap_ + s];
      if (v == 0) {
        continue;
      }
      ++filled;
      if (filled != s + 1) {
        p.Add("bucket ", b, " has an empty slot before slot ", s);
      }
      if (!std::binary_search(sorted_keys.begin(), sorted_keys.end(), v)) {
        p.Add("slot ", s, " of bucket ", b, " holds ", v, ", which is no key");
      } else if (v % buckets_ != b) {
        p.Add("key ", v, " is in bucket ", b, " instead of ", v % buckets_);
      }
      seen.push_back(v);
    }
    if (filled != load_[b]) {
      p.Add("bucket ", b, " holds ", filled, " keys, ", load_[b], " were inserted");
    }
  }
  std::sort(seen.begin(), seen.end());
  for (size_t i = 1; i < seen.size(); ++i) {
    if (seen[i] == seen[i - 1]) {
      p.Add("key ", seen[i], " is in the table more than once (duplicated update)");
    }
  }
  if (version_ == Version::kSerial && lds[turn_] != keys_.size()) {
    p.Add("the turn word is ", lds[turn_], ", expected ", keys_.size());
  }
  return p.str();
}

}  // namespace

std::unique_ptr<Workload> MakeHashTable(const Geometry& geo, uint64_t seed, Contention c,
                                        Version v) {
  return std::make_unique<HashTable>(geo, seed, c, v);
}

}  // namespace htm::lds::detail
