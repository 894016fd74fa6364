// SPDX-License-Identifier: Apache-2.0
//
// Binary Tree, BinTree (Chen & Peng, HPCA 2016, Table 2: 1 000 threads; §6 and Figure 13): every
// thread inserts one distinct key into one unbalanced binary search tree. Like List, it first finds
// the insertion point without a transaction, then its transaction walks on down from there (other
// threads may have inserted below it meanwhile) to the empty child on its key's side and links
// its node there (Figure 13's kernel).
//
// Memory: the root sentinel {0xFFFFFFFF, left, right} (every key goes to its left), then a node
// {key, left, right} per thread, its key written at the start and never changed, its children
// nil until a transaction links one. Since keys never change and links are only added, a node
// the walk passed on a key's path stays on that path, so the transaction can start from the
// non-transactional walk's last node.
// Check: an in-order walk from the root's left child visits strictly increasing keys, every node
// within its ancestors' bounds, every thread's node exactly once.
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr uint32_t kRoot = 0, kFirstNode = 3;

class BinTree : public Workload {
 public:
  BinTree(int threads, uint64_t seed)
      : threads_(threads), keys_(Rng(seed).Distinct(threads, (1u << 30) - 1)) {
    for (uint32_t& k : keys_) {
      ++k;  // 1 .. 2^30 - 1: below the root sentinel
    }
  }

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(kFirstNode + 3 * threads_, kNil);
    mem[kRoot] = 0xFFFFFFFFu;
    for (int t = 0; t < threads_; ++t) {
      mem[Node(t)] = keys_[t];
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const uint32_t key = keys_[l.tid()];
    const uint32_t node = Node(l.tid());
    const int limit = threads_ + 2;
    // The insertion point, without a transaction: the last node on the key's path.
    uint32_t cur = kRoot;
    for (int steps = 0; steps < limit; ++steps) {
      const uint32_t cur_key = co_await l.Load(cur);
      const uint32_t child = co_await l.Load(cur + (key < cur_key ? 1 : 2));
      if (!IsNode(child)) {
        break;
      }
      cur = child;
      co_await l.Latch();
    }
    co_await l.Transaction([this, key, node, cur, limit](Lane& t) -> Task {
      uint32_t c = cur;
      for (int steps = 0; steps < limit; ++steps) {
        const uint32_t c_key = co_await t.Load(c);
        const uint32_t side = c + (key < c_key ? 1 : 2);
        const uint32_t child = co_await t.Load(side);
        if (child == kNil) {
          co_await t.Store(side, node);
          co_return;
        }
        if (!IsNode(child)) {
          co_return;  // an inconsistent read: the commit's validation fails and the body reruns
        }
        c = child;
        co_await t.Latch();
      }
    });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<int> seen(threads_, 0);
    // Depth-first from the root's left child, each node with the bounds its ancestors set.
    struct Visit {
      uint32_t node;
      uint64_t lo, hi;  // lo < key < hi
    };
    std::vector<Visit> stack;
    if (mem[kRoot + 2] != kNil) {
      p.Add("the root sentinel has a right child ", mem[kRoot + 2]);
    }
    if (mem[kRoot + 1] != kNil) {
      stack.push_back({mem[kRoot + 1], 0, 0xFFFFFFFFu});
    }
    int count = 0;
    while (!stack.empty() && p.empty()) {
      const Visit v = stack.back();
      stack.pop_back();
      if (!IsNode(v.node) || v.node == kRoot) {
        p.Add("pointer ", v.node, " is not a node");
        break;
      }
      const int t = static_cast<int>((v.node - kFirstNode) / 3);
      if (seen[t]++ > 0) {
        p.Add("the node of thread ", t, " is reached twice");
        break;
      }
      const uint32_t k = mem[v.node];
      if (k != keys_[t]) {
        p.Add("the node of thread ", t, " holds key ", k, ", the thread inserts ", keys_[t]);
      } else if (k <= v.lo || k >= v.hi) {
        p.Add("key ", k, " lies outside its subtree's range (", v.lo, ", ", v.hi, ")");
      }
      ++count;
      if (mem[v.node + 1] != kNil) {
        stack.push_back({mem[v.node + 1], v.lo, k});
      }
      if (mem[v.node + 2] != kNil) {
        stack.push_back({mem[v.node + 2], k, v.hi});
      }
    }
    AddMissingKeys(p, "tree", count, seen, keys_);
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << threads_
       << " threads insert one key each into a binary search tree; the insertion point is found "
          "outside the transaction";
    return os.str();
  }

 private:
  bool IsNode(uint32_t a) const {
    return a >= kFirstNode && a < kFirstNode + 3 * static_cast<uint32_t>(threads_) &&
           (a - kFirstNode) % 3 == 0;
  }
  static uint32_t Node(int t) { return kFirstNode + 3 * static_cast<uint32_t>(t); }

  const int threads_;
  std::vector<uint32_t> keys_;
};

}  // namespace

std::unique_ptr<Workload> MakeBinTree(int threads, uint64_t seed) {
  return std::make_unique<BinTree>(threads, seed);
}

}  // namespace htm::gpu::detail
