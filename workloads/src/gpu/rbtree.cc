// SPDX-License-Identifier: Apache-2.0
//
// Red-black trees (the textbook algorithms with parent pointers, RSTM's red-black tree as the
// papers port it):
//
// RBT180 and RBT450 (Chen & Peng, HPCA 2016, Table 2: 180 and 450 threads, read/write set 33 / 17):
// every thread inserts one distinct key into one initially empty tree, the whole insertion in one
// transaction: the descent from the root, the link, and the recolouring and rotations that
// restore the red-black properties.
// Memory: the root pointer, then a node {key, colour, left, right, parent} per thread, as a new
// node is: its key, red, nil children (each is inserted once, by its thread's transaction).
// Check: the red-black tree below; every thread's node is in the tree exactly once, holding
// its key.
//
// RBTree1 and RBTree2 (Chen, Peng & Irving, ISCA 2017, Table 3: a 1 000-key tree, then 50
// insertions and 50 removals, or 100 and 100): one operation per thread, each a whole transaction.
// The initial tree is balanced (built from the sorted keys, its last level red when it is not
// full). Removal follows the textbook too: a node with two children takes its successor's key and
// the successor is removed instead; a removed black node's place is repaired by recolouring and
// rotations (java.util.TreeMap's formulation, with nil leaves black). Every operation ends by
// adding one to its thread's result word, the operation's receipt.
// Memory: the root pointer, a result word per thread, then the nodes: the initial ones, then one
// per inserting thread.
// Check: the red-black tree below; its keys are exactly the initial ones less those removed plus
// those inserted; every receipt is 1.
//
// The red-black tree check: the root is black and has no parent; in-order keys lie within
// every ancestor's bounds; every child's parent pointer names its parent; no red node has a
// red child; every path from the root to a leaf has the same number of black nodes; no node is
// reached twice.
#include "rbtree.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr uint32_t kRootPtr = 0;

/// RBT180 and RBT450: insertions into an empty tree.
class RbTree : public RbBase {
 public:
  RbTree(int threads, uint64_t seed)
      : RbBase(1, threads), threads_(threads), keys_(Rng(seed).Distinct(threads, (1u << 30) - 1)) {}

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(Node(threads_), kNil);
    for (int t = 0; t < threads_; ++t) {
      mem[Node(t) + kKey] = keys_[t];
      mem[Node(t) + kColour] = kRed;  // a new node is red; its children are nil
    }
    return mem;
  }

  Task Kernel(Lane& l) override {
    const uint32_t key = keys_[l.tid()];
    const uint32_t z = Node(l.tid());
    co_await l.Compute(4);
    co_await l.Transaction(
        [this, key, z](Lane& t) -> Task { co_await Insert(t, kRootPtr, key, z); });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<uint32_t> nodes;
    CheckTree(mem, kRootPtr, p, &nodes);
    std::vector<int> seen(threads_, 0);
    for (const uint32_t n : nodes) {
      if (!p.empty()) {
        break;
      }
      const int t = Index(n);
      seen[t] = 1;
      if (mem[n + kKey] != keys_[t]) {
        p.Add("the node of thread ", t, " holds key ", mem[n + kKey], ", the thread inserts ",
              keys_[t]);
      }
    }
    AddMissingKeys(p, "tree", static_cast<int>(nodes.size()), seen, keys_);
    return p.str();
  }

  std::string Describe() const override {
    std::ostringstream os;
    os << threads_
       << " threads insert one key each into a red-black tree, each insertion one "
          "transaction";
    return os.str();
  }

 private:
  const int threads_;
  std::vector<uint32_t> keys_;
};

/// RBTree1 and RBTree2: insertions and removals on a tree of `initial` keys.
class RbSet : public RbBase {
 public:
  RbSet(int initial, int removes, int inserts, uint64_t seed)
      : RbBase(1 + static_cast<uint32_t>(removes + inserts), initial + inserts),
        initial_(initial),
        threads_(removes + inserts) {
    const TreeOps ops = MakeTreeOps(initial, removes, inserts, seed);
    initial_keys_ = ops.initial_keys;
    std::sort(initial_keys_.begin(), initial_keys_.end());  // the balanced tree's order
    key_ = ops.key;
    expect_ = ops.Final();
    for (const int i : ops.insert) {
      insert_node_.push_back(i < 0 ? kNil : Node(initial + i));
    }
  }

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(Node(nodes_), kNil);
    for (int t = 0; t < threads_; ++t) {
      mem[Result(t)] = 0;
      if (insert_node_[t] != kNil) {
        mem[insert_node_[t] + kKey] = key_[t];
        mem[insert_node_[t] + kColour] = kRed;
      }
    }
    // The balanced initial tree: node i holds the i-th smallest key.
    mem[kRootPtr] = BuildBalanced(mem, initial_keys_, 0);
    return mem;
  }

  Task Kernel(Lane& l) override {
    const int t = l.tid();
    co_await l.Compute(4);
    co_await l.Transaction([this, t](Lane& x) -> Task {
      if (insert_node_[t] != kNil) {
        co_await Insert(x, kRootPtr, key_[t], insert_node_[t]);
      } else {
        bool ok = false;
        co_await Remove(x, kRootPtr, key_[t], &ok);
        if (!ok) {
          co_return;  // an inconsistent read: the commit's validation fails and it reruns
        }
      }
      const uint32_t receipt = co_await x.Load(Result(t));
      co_await x.Store(Result(t), receipt + 1);
    });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    for (int t = 0; t < threads_ && p.empty(); ++t) {
      if (mem[Result(t)] != 1) {
        p.Add("thread ", t, "'s operation on key ", key_[t], " completed ", mem[Result(t)],
              " times");
      }
    }
    std::vector<uint32_t> nodes;
    CheckTree(mem, kRootPtr, p, &nodes);
    const std::set<uint32_t>& expect = expect_;
    std::set<uint32_t> have;
    for (const uint32_t n : nodes) {
      if (!have.insert(mem[n + kKey]).second && p.empty()) {
        p.Add("key ", mem[n + kKey], " is in the tree twice");
      }
    }
    if (p.empty() && have != expect) {
      std::vector<uint32_t> missing, extra;
      std::set_difference(expect.begin(), expect.end(), have.begin(), have.end(),
                          std::back_inserter(missing));
      std::set_difference(have.begin(), have.end(), expect.begin(), expect.end(),
                          std::back_inserter(extra));
      p.Add("the tree holds ", have.size(), " keys, ", expect.size(), " expected; ", missing.size(),
            " missing (e.g. ", missing.empty() ? 0 : missing[0], "), ", extra.size(),
            " not expected (e.g. ", extra.empty() ? 0 : extra[0], ")");
    }
    return p.str();
  }

  std::string Describe() const override {
    int inserts = 0;
    for (const uint32_t n : insert_node_) {
      inserts += n != kNil ? 1 : 0;
    }
    std::ostringstream os;
    os << "a red-black tree of " << initial_ << " keys; " << inserts << " threads insert a key and "
       << threads_ - inserts << " remove one, each operation one transaction";
    return os.str();
  }

 private:
  static uint32_t Result(int t) { return 1 + static_cast<uint32_t>(t); }

  const int initial_, threads_;
  std::vector<uint32_t> initial_keys_;
  std::vector<uint32_t> key_;
  std::vector<uint32_t> insert_node_;
  std::set<uint32_t> expect_;
};

}  // namespace

std::unique_ptr<Workload> MakeRbTree(int threads, uint64_t seed) {
  return std::make_unique<RbTree>(threads, seed);
}

std::unique_ptr<Workload> MakeRbSet(int initial, int removes, int inserts, uint64_t seed) {
  return std::make_unique<RbSet>(initial, removes, inserts, seed);
}

}  // namespace htm::gpu::detail
