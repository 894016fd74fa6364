// SPDX-License-Identifier: Apache-2.0
//
// Red-black tree, RBT180 and RBT450 (`000_...` Table 2: 180 and 450 threads, read/write set
// 33 / 17; §6: a port of RSTM's red-black tree): every thread inserts one distinct key into one
// red-black tree, the whole insertion in one transaction: the descent from the root, the link,
// and the recolouring and rotations that restore the red-black properties (the textbook
// insertion with parent pointers).
//
// Memory: the root pointer, then a node {key, colour, left, right, parent} per thread, as a new
// node is: its key, red, nil children (each is inserted once, by its thread's transaction).
// Check: the root is black and has no parent; in-order keys lie within every ancestor's bounds;
// every child's parent pointer names its parent; no red node has a red child; every path from
// the root to a leaf has the same number of black nodes; every thread's node is in the tree
// exactly once.
#include <sstream>
#include <string>
#include <vector>

#include "htm/gpu/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr uint32_t kRootPtr = 0, kFirstNode = 1, kNodeWords = 5;
constexpr uint32_t kKey = 0, kColour = 1, kLeft = 2, kRight = 3, kParent = 4;
constexpr uint32_t kBlack = 0, kRed = 1;

class RbTree : public Workload {
 public:
  RbTree(int threads, uint64_t seed)
      : threads_(threads), keys_(Rng(seed).Distinct(threads, (1u << 30) - 1)) {}

  int threads() const override { return threads_; }

  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(kFirstNode + kNodeWords * threads_, kNil);
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
    co_await l.Transaction([this, key, z](Lane& t) -> Task { co_await Insert(t, key, z); });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<int> seen(threads_, 0);
    const uint32_t root = mem[kRootPtr];
    if (root != kNil &&
        (!IsNode(root) || mem[root + kColour] != kBlack || mem[root + kParent] != kNil)) {
      p.Add("the root ", root, " is not a black node without a parent");
      return p.str();
    }
    struct Visit {
      uint32_t node, parent;
      uint64_t lo, hi;  // lo < key < hi
      int blacks;       // black nodes above it
    };
    std::vector<Visit> stack;
    if (root != kNil) {
      stack.push_back({root, kNil, 0, uint64_t{1} << 32, 0});
    }
    int count = 0, leaf_blacks = -1;
    while (!stack.empty() && p.empty()) {
      const Visit v = stack.back();
      stack.pop_back();
      if (!IsNode(v.node)) {
        p.Add("pointer ", v.node, " is not a node");
        break;
      }
      const int t = static_cast<int>((v.node - kFirstNode) / kNodeWords);
      if (seen[t]++ > 0) {
        p.Add("the node of thread ", t, " is reached twice");
        break;
      }
      ++count;
      const uint32_t k = mem[v.node + kKey], colour = mem[v.node + kColour];
      if (k != keys_[t]) {
        p.Add("the node of thread ", t, " holds key ", k, ", the thread inserts ", keys_[t]);
      } else if (k <= v.lo || k >= v.hi) {
        p.Add("key ", k, " lies outside its subtree's range (", v.lo, ", ", v.hi, ")");
      }
      if (mem[v.node + kParent] != v.parent) {
        p.Add("key ", k, "'s parent pointer is ", mem[v.node + kParent], ", not ", v.parent);
      }
      if (colour != kBlack && colour != kRed) {
        p.Add("key ", k, " has colour ", colour);
      }
      if (colour == kRed && v.parent != kNil && mem[v.parent + kColour] == kRed) {
        p.Add("red key ", k, " has a red parent");
      }
      const int blacks = v.blacks + (colour == kBlack ? 1 : 0);
      for (const uint32_t side : {kLeft, kRight}) {
        const uint32_t child = mem[v.node + side];
        if (child != kNil) {
          stack.push_back(
              {child, v.node, side == kLeft ? v.lo : k, side == kLeft ? k : v.hi, blacks});
        } else if (leaf_blacks < 0) {
          leaf_blacks = blacks;
        } else if (blacks != leaf_blacks) {
          p.Add("a path through key ", k, " has ", blacks, " black nodes, another ", leaf_blacks);
        }
      }
    }
    AddMissingKeys(p, "tree", count, seen, keys_);
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
  bool IsNode(uint32_t a) const {
    return a >= kFirstNode && a < kFirstNode + kNodeWords * static_cast<uint32_t>(threads_) &&
           (a - kFirstNode) % kNodeWords == 0;
  }
  static uint32_t Node(int t) { return kFirstNode + kNodeWords * static_cast<uint32_t>(t); }

  // A pointer read inside the transaction: a node or nil, else the reads were inconsistent (a
  // zombie try), and the body gives up; the commit's validation then fails and it reruns.
  bool Ok(uint32_t a) const { return a == kNil || IsNode(a); }

  /// The insertion of node z with `key`. Returns early on an inconsistent read.
  Task Insert(Lane& t, uint32_t key, uint32_t z) const {
    const int limit = 2 * threads_ + 4;
    uint32_t y = kNil, x = co_await t.Load(kRootPtr);
    bool left = false;
    for (int steps = 0; x != kNil; ++steps) {
      if (!IsNode(x) || steps > limit) {
        co_return;
      }
      y = x;
      left = key < co_await t.Load(x + kKey);
      x = co_await t.Load(x + (left ? kLeft : kRight));
    }
    // z is red with nil children from the start (each node is inserted once).
    if (y == kNil) {  // the first node: the root, black
      co_await t.Store(z + kColour, kBlack);
      co_await t.Store(kRootPtr, z);
      co_return;
    }
    co_await t.Store(z + kParent, y);
    co_await t.Store(y + (left ? kLeft : kRight), z);
    // Restore the red-black properties, from z upwards.
    for (int steps = 0; steps <= limit; ++steps) {
      const uint32_t zp = co_await t.Load(z + kParent);
      if (!Ok(zp)) {
        co_return;
      }
      if (zp == kNil || co_await t.Load(zp + kColour) != kRed) {
        break;
      }
      const uint32_t zpp = co_await t.Load(zp + kParent);
      if (!IsNode(zpp)) {
        co_return;  // a red node is never the root
      }
      const bool zp_left = zp == co_await t.Load(zpp + kLeft);
      const uint32_t uncle = co_await t.Load(zpp + (zp_left ? kRight : kLeft));
      if (!Ok(uncle)) {
        co_return;
      }
      if (uncle != kNil && co_await t.Load(uncle + kColour) == kRed) {
        co_await t.Store(zp + kColour, kBlack);
        co_await t.Store(uncle + kColour, kBlack);
        co_await t.Store(zpp + kColour, kRed);
        z = zpp;
        continue;
      }
      uint32_t top = zp;  // the red parent that ends up above z's grandparent's place
      if (z == co_await t.Load(zp + (zp_left ? kRight : kLeft))) {
        bool ok = false;
        co_await Rotate(t, zp, zp_left, &ok);
        if (!ok) {
          co_return;
        }
        top = z;
      }
      co_await t.Store(top + kColour, kBlack);
      co_await t.Store(zpp + kColour, kRed);
      bool ok = false;
      co_await Rotate(t, zpp, !zp_left, &ok);
      if (!ok) {
        co_return;
      }
      break;
    }
    // The root ends black (only written when it is not: every store of the insertion changes
    // something, so a lost one shows).
    const uint32_t root = co_await t.Load(kRootPtr);
    if (IsNode(root) && co_await t.Load(root + kColour) != kBlack) {
      co_await t.Store(root + kColour, kBlack);
    }
  }

  /// Rotates the subtree at x to the left (its right child rises) or to the right; *ok false on
  /// an inconsistent read.
  Task Rotate(Lane& t, uint32_t x, bool to_left, bool* ok) const {
    const uint32_t up = to_left ? kRight : kLeft, down = to_left ? kLeft : kRight;
    const uint32_t y = co_await t.Load(x + up);
    if (!IsNode(y)) {
      co_return;
    }
    const uint32_t inner = co_await t.Load(y + down);
    const uint32_t xp = co_await t.Load(x + kParent);
    if (!Ok(inner) || !Ok(xp)) {
      co_return;
    }
    co_await t.Store(x + up, inner);
    if (inner != kNil) {
      co_await t.Store(inner + kParent, x);
    }
    co_await t.Store(y + kParent, xp);
    if (xp == kNil) {
      co_await t.Store(kRootPtr, y);
    } else {
      const bool x_left = x == co_await t.Load(xp + kLeft);
      co_await t.Store(xp + (x_left ? kLeft : kRight), y);
    }
    co_await t.Store(y + down, x);
    co_await t.Store(x + kParent, y);
    *ok = true;
  }

  const int threads_;
  std::vector<uint32_t> keys_;
};

}  // namespace

std::unique_ptr<Workload> MakeRbTree(int threads, uint64_t seed) {
  return std::make_unique<RbTree>(threads, seed);
}

}  // namespace htm::gpu::detail
