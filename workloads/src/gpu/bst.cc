// SPDX-License-Identifier: Apache-2.0
//
// Binary Tree 1 and 2 (Chen, Peng & Irving, ISCA 2017, Table 3, §6): an unbalanced binary search
// tree built from `initial` random keys, then one operation per thread, each a whole transaction
// from the root: BinaryTree1 removes every key of a 1 000-key tree (1 000 threads), BinaryTree2
// does 50 insertions and 50 removals on a 1 000-key tree (100 threads). Thread counts are whole
// warps; threads beyond the tree's keys remove absent keys (a read-only walk).
//
// Removal is the textbook one: a node with at most one child is replaced by that child; a node
// with two takes the key of its successor (the leftmost node of its right subtree), which is then
// unlinked (§7.2: "replace the parent of a tree node with the next largest element"). So keys
// move between nodes; inserted nodes are the threads' own, their keys and nil children in memory
// from the start. Every operation ends by adding one to its thread's result word, the
// operation's receipt.
//
// Memory: the root sentinel {0xFFFFFFFF, left, right} (every key lies to its left), a result word
// per thread, then the nodes {key, left, right}: the initial ones, then one per inserting thread.
// Check: from the sentinel's left child, every node within its ancestors' bounds and reached
// once; the keys are exactly the initial ones less those removed plus those inserted; every
// receipt is 1 (a lost, torn or repeated operation breaks one of these).
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr uint32_t kRoot = 0, kResults = 3;

class Bst : public Workload {
 public:
  Bst(int initial, int removes, int inserts, uint64_t seed)
      : initial_(initial), removes_(removes), inserts_(inserts) {
    const TreeOps ops = MakeTreeOps(initial, removes, inserts, seed);
    initial_keys_ = ops.initial_keys;
    key_ = ops.key;
    expect_ = ops.Final();
    for (const int i : ops.insert) {
      insert_node_.push_back(i < 0 ? kNil : Node(initial + i));
    }
  }

  int threads() const override { return removes_ + inserts_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(Node(initial_ + inserts_), kNil);
    mem[kRoot] = 0xFFFFFFFFu;
    for (int t = 0; t < threads(); ++t) {
      mem[kResults + t] = 0;
    }
    for (int i = 0; i < initial_ + inserts_; ++i) {
      mem[Node(i)] = i < initial_ ? initial_keys_[i] : 0;
    }
    for (int t = 0; t < threads(); ++t) {
      if (insert_node_[t] != kNil) {
        mem[insert_node_[t]] = key_[t];
      }
    }
    // The initial tree: the keys inserted in their (random) order.
    for (int i = 0; i < initial_; ++i) {
      uint32_t c = kRoot;
      while (true) {
        const uint32_t side = c + (initial_keys_[i] < mem[c] ? 1 : 2);
        if (mem[side] == kNil) {
          mem[side] = Node(i);
          break;
        }
        c = mem[side];
      }
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const int t = l.tid();
    co_await l.Transaction([this, t](Lane& x) -> Task {
      const uint32_t key = key_[t];
      const int limit = initial_ + inserts_ + 2;
      if (insert_node_[t] != kNil) {
        uint32_t c = kRoot;
        for (int steps = 0; steps < limit; ++steps) {
          const uint32_t c_key = co_await x.Load(c);
          const uint32_t side = c + (key < c_key ? 1 : 2);
          const uint32_t child = co_await x.Load(side);
          if (child == kNil) {
            co_await x.Store(side, insert_node_[t]);
            break;
          }
          if (!IsNode(child)) {
            co_return;  // an inconsistent read: the commit's validation fails and the body reruns
          }
          c = child;
          co_await x.Latch();
        }
      } else {
        // The link to the node holding the key, and the node.
        uint32_t link = kRoot + 1;
        uint32_t z = co_await x.Load(link);
        for (int steps = 0; steps < limit && z != kNil; ++steps) {
          if (!IsNode(z)) {
            co_return;
          }
          const uint32_t z_key = co_await x.Load(z);
          if (z_key == key) {
            break;
          }
          link = z + (key < z_key ? 1 : 2);
          z = co_await x.Load(link);
          co_await x.Latch();
        }
        if (z != kNil) {
          const uint32_t left = co_await x.Load(z + 1);
          const uint32_t right = co_await x.Load(z + 2);
          if (left == kNil || right == kNil) {
            co_await x.Store(link, left == kNil ? right : left);
          } else {
            // The successor: the leftmost node of the right subtree, and the link to it.
            uint32_t y_link = z + 2, y = right;
            for (int steps = 0; steps < limit; ++steps) {
              if (!IsNode(y)) {
                co_return;
              }
              const uint32_t y_left = co_await x.Load(y + 1);
              if (y_left == kNil) {
                break;
              }
              y_link = y + 1;
              y = y_left;
              co_await x.Latch();
            }
            const uint32_t y_key = co_await x.Load(y);
            const uint32_t y_right = co_await x.Load(y + 2);
            co_await x.Store(z, y_key);
            co_await x.Store(y_link, y_right);
          }
        }
      }
      const uint32_t receipt = co_await x.Load(kResults + static_cast<uint32_t>(t));
      co_await x.Store(kResults + static_cast<uint32_t>(t), receipt + 1);
    });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    for (int t = 0; t < threads() && p.empty(); ++t) {
      if (mem[kResults + t] != 1) {
        p.Add("thread ", t, "'s operation on key ", key_[t], " completed ", mem[kResults + t],
              " times");
      }
    }
    const std::set<uint32_t>& expect = expect_;
    struct Visit {
      uint32_t node;
      uint64_t lo, hi;  // lo < key < hi
    };
    std::vector<Visit> stack;
    std::vector<int> seen(static_cast<size_t>(initial_ + inserts_), 0);
    std::map<uint32_t, int> found;
    if (mem[kRoot + 2] != kNil) {
      p.Add("the root sentinel has a right child ", mem[kRoot + 2]);
    }
    if (mem[kRoot + 1] != kNil) {
      stack.push_back({mem[kRoot + 1], 0, 0xFFFFFFFFu});
    }
    while (!stack.empty() && p.empty()) {
      const Visit v = stack.back();
      stack.pop_back();
      if (!IsNode(v.node)) {
        p.Add("pointer ", v.node, " is not a node");
        break;
      }
      if (seen[(v.node - First()) / 3]++ > 0) {
        p.Add("node ", v.node, " is reached twice");
        break;
      }
      const uint32_t k = mem[v.node];
      if (k <= v.lo || k >= v.hi) {
        p.Add("key ", k, " lies outside its subtree's range (", v.lo, ", ", v.hi, ")");
      }
      if (++found[k] > 1) {
        p.Add("key ", k, " is in the tree twice");
      } else if (expect.count(k) == 0) {
        p.Add("key ", k, " is in the tree but was removed or never there");
      }
      if (mem[v.node + 1] != kNil) {
        stack.push_back({mem[v.node + 1], v.lo, k});
      }
      if (mem[v.node + 2] != kNil) {
        stack.push_back({mem[v.node + 2], k, v.hi});
      }
    }
    for (const uint32_t k : expect) {
      if (p.empty() && found.count(k) == 0) {
        p.Add("key ", k, " is missing from the tree (", found.size(), " of ", expect.size(),
              " keys there)");
      }
    }
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << "a binary search tree of " << initial_ << " keys; " << removes_
       << " threads remove a key, " << inserts_
       << " insert one; each operation is one transaction from the root";
    return os.str();
  }

 private:
  uint32_t First() const { return kResults + static_cast<uint32_t>(threads()); }
  uint32_t Node(int i) const { return First() + 3 * static_cast<uint32_t>(i); }
  bool IsNode(uint32_t a) const {
    return a >= First() && a < Node(initial_ + inserts_) && (a - First()) % 3 == 0;
  }

  const int initial_, removes_, inserts_;
  std::vector<uint32_t> initial_keys_;
  std::vector<uint32_t> key_;          // per thread: the key it removes or inserts
  std::vector<uint32_t> insert_node_;  // per thread: its node if it inserts, else nil
  std::set<uint32_t> expect_;          // the keys the operations leave
};

}  // namespace

std::unique_ptr<Workload> MakeBst(int initial, int removes, int inserts, uint64_t seed) {
  return std::make_unique<Bst>(initial, removes, inserts, seed);
}

}  // namespace htm::gpu::detail
