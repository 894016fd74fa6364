// SPDX-License-Identifier: Apache-2.0
//
// HashTable (KILO TM; Chen & Peng, HPCA 2016, Table 2: HT1K and HT512, 23 040 threads, read/write
// set 2 / 4): every thread inserts one distinct key into a chained hash table. Its transaction
// reads the bucket's head and count, links its node in front and writes the node's key and next,
// the head and the count. The fewer buckets, the more conflicts.
//
// Memory: head[buckets], count[buckets], then a node {key, next} per thread, then a lock per
// bucket (the fine-grained-lock kernel's; 0 free).
// Check: every key is in exactly one list, in the bucket its hash names; every list ends (no
// cycle, no pointer outside the nodes); every count equals its list's length.
#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

class HashTable : public Workload {
 public:
  HashTable(uint32_t buckets, std::vector<uint32_t> keys, BucketHash hash)
      : threads_(static_cast<int>(keys.size())),
        buckets_(buckets),
        keys_(std::move(keys)),
        hash_(std::move(hash)) {}

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(LockBase() + buckets_, 0);
    for (uint32_t b = 0; b < buckets_; ++b) {
      mem[b] = kNil;
    }
    for (int t = 0; t < threads_; ++t) {
      mem[Node(t) + 1] = kNil;
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const uint32_t key = keys_[l.tid()];
    const uint32_t b = Hash(key);
    const uint32_t node = Node(l.tid());
    co_await l.Compute(8);  // the hash
    co_await l.Transaction([this, key, b, node](Lane& t) -> Task {
      const uint32_t head = co_await t.Load(b);
      const uint32_t count = co_await t.Load(buckets_ + b);
      co_await t.Store(node, key);
      co_await t.Store(node + 1, head);
      co_await t.Store(b, node);
      co_await t.Store(buckets_ + b, count + 1);
    });
  }

  // The FGL baseline: a spin lock per bucket around the same accesses.
  bool HasLocks() const override { return true; }
  Task LockKernel(Lane& l) override {
    const uint32_t key = keys_[l.tid()];
    const uint32_t b = Hash(key);
    const uint32_t node = Node(l.tid());
    co_await l.Compute(8);  // the hash
    for (;;) {
      if (co_await l.Cas(LockBase() + b, 0, 1) == 0) {
        const uint32_t head = co_await l.Load(b);
        const uint32_t count = co_await l.Load(buckets_ + b);
        co_await l.Store(node, key);
        co_await l.Store(node + 1, head);
        co_await l.Store(b, node);
        co_await l.Store(buckets_ + b, count + 1);
        co_await l.Fence();
        co_await l.Store(LockBase() + b, 0);
        break;
      }
      co_await l.Latch();
    }
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<int> seen(threads_, 0);
    for (uint32_t b = 0; b < buckets_; ++b) {
      uint32_t n = mem[b];
      uint32_t len = 0;
      while (n != kNil) {
        if (n < NodeBase() || n >= NodeBase() + 2 * threads_ || (n - NodeBase()) % 2 != 0) {
          p.Add("bucket ", b, ": pointer ", n, " is not a node");
          break;
        }
        const int t = static_cast<int>((n - NodeBase()) / 2);
        if (seen[t]++ > 0) {
          p.Add("bucket ", b, ": node of thread ", t, " reached twice (cycle or shared tail)");
          break;
        }
        if (mem[n] != keys_[t]) {
          p.Add("node of thread ", t, " holds key ", mem[n], ", the thread inserts ", keys_[t]);
        } else if (Hash(mem[n]) != b) {
          p.Add("key ", mem[n], " in bucket ", b, ", its hash is ", Hash(mem[n]));
        }
        ++len;
        n = mem[n + 1];
      }
      if (mem[buckets_ + b] != len) {
        p.Add("bucket ", b, ": count ", mem[buckets_ + b], ", list length ", len);
      }
    }
    for (int t = 0; t < threads_; ++t) {
      if (seen[t] == 0) {
        p.Add("key ", keys_[t], " of thread ", t, " is in no bucket");
      }
    }
    for (uint32_t b = 0; b < buckets_; ++b) {
      if (mem[LockBase() + b] != 0) {
        p.Add("the lock of bucket ", b, " is still held");
      }
    }
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << threads_ << " threads insert one key each into " << buckets_
       << " chained buckets; a transaction reads 2 words and writes 4";
    return os.str();
  }

 private:
  uint32_t Hash(uint32_t key) const { return hash_(key) % buckets_; }
  uint32_t NodeBase() const { return 2 * buckets_; }
  uint32_t Node(int t) const { return NodeBase() + 2 * static_cast<uint32_t>(t); }
  uint32_t LockBase() const { return NodeBase() + 2 * static_cast<uint32_t>(threads_); }

  const int threads_;
  const uint32_t buckets_;
  const std::vector<uint32_t> keys_;
  const BucketHash hash_;
};

}  // namespace

std::unique_ptr<Workload> MakeHashTable(int threads, uint32_t buckets, uint64_t seed) {
  return MakeHashTable(buckets, Rng(seed).Distinct(threads, 1u << 30),
                       [](uint32_t key) { return key * 2654435761u >> 7; });
}

std::unique_ptr<Workload> MakeHashTable(uint32_t buckets, std::vector<uint32_t> keys,
                                        BucketHash hash) {
  if (buckets < 1) {
    throw std::invalid_argument("HashTable: at least one bucket");
  }
  std::vector<uint32_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw std::invalid_argument("HashTable: the keys are not distinct");
  }
  return std::make_unique<HashTable>(buckets, std::move(keys), std::move(hash));
}

}  // namespace htm::gpu::detail
