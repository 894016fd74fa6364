// SPDX-License-Identifier: Apache-2.0
//
// Red-black trees (the textbook algorithms with parent pointers, RSTM's red-black tree as the
// papers port it):
//
// RBT180 and RBT450 (`000_...` Table 2: 180 and 450 threads, read/write set 33 / 17): every
// thread inserts one distinct key into one initially empty tree, the whole insertion in one
// transaction: the descent from the root, the link, and the recolouring and rotations that
// restore the red-black properties.
// Memory: the root pointer, then a node {key, colour, left, right, parent} per thread, as a new
// node is: its key, red, nil children (each is inserted once, by its thread's transaction).
// Check: the red-black tree below; every thread's node is in the tree exactly once, holding
// its key.
//
// RBTree1 and RBTree2 (`003_...` Table 3: a 1 000-key tree, then 50 insertions and 50 removals,
// or 100 and 100): one operation per thread, each a whole transaction. The initial tree is
// balanced (built from the sorted keys, its last level red when it is not full). Removal
// follows the textbook too: a node with two children takes its successor's key and the
// successor is removed instead; a removed black node's place is repaired by recolouring and
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
#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "htm/gpu/common.h"
#include "workloads.h"

namespace htm::gpu::detail {
namespace {

constexpr uint32_t kRootPtr = 0, kNodeWords = 5;
constexpr uint32_t kKey = 0, kColour = 1, kLeft = 2, kRight = 3, kParent = 4;
constexpr uint32_t kBlack = 0, kRed = 1;

/// A red-black tree of `nodes` nodes from word `first` on, its root pointer at word 0: the
/// transactional insertion and removal, and the check.
class RbBase : public Workload {
 protected:
  RbBase(uint32_t first, int nodes) : first_(first), nodes_(nodes), limit_(2 * nodes + 4) {}

  uint32_t Node(int i) const { return first_ + kNodeWords * static_cast<uint32_t>(i); }
  int Index(uint32_t node) const { return static_cast<int>((node - first_) / kNodeWords); }
  bool IsNode(uint32_t a) const {
    return a >= first_ && a < first_ + kNodeWords * static_cast<uint32_t>(nodes_) &&
           (a - first_) % kNodeWords == 0;
  }
  // A pointer read inside the transaction: a node or nil, else the reads were inconsistent (a
  // zombie try), and the body gives up; the commit's validation then fails and it reruns.
  bool Ok(uint32_t a) const { return a == kNil || IsNode(a); }

  /// The insertion of node z (its key, red, nil children in memory) with `key`. Returns early on
  /// an inconsistent read.
  Task Insert(Lane& t, uint32_t key, uint32_t z) const {
    uint32_t y = kNil, x = co_await t.Load(kRootPtr);
    bool left = false;
    for (int steps = 0; x != kNil; ++steps) {
      if (!IsNode(x) || steps > limit_) {
        co_return;
      }
      y = x;
      left = key < co_await t.Load(x + kKey);
      x = co_await t.Load(x + (left ? kLeft : kRight));
    }
    if (y == kNil) {  // the first node: the root, black
      co_await t.Store(z + kColour, kBlack);
      co_await t.Store(kRootPtr, z);
      co_return;
    }
    co_await t.Store(z + kParent, y);
    co_await t.Store(y + (left ? kLeft : kRight), z);
    // Restore the red-black properties, from z upwards.
    for (int steps = 0; steps <= limit_; ++steps) {
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
    co_await BlackenRoot(t);
  }

  /// The removal of `key` (absent: nothing changes). *ok false on an inconsistent read.
  Task Remove(Lane& t, uint32_t key, bool* ok) const {
    uint32_t p = co_await t.Load(kRootPtr);
    for (int steps = 0; p != kNil; ++steps) {
      if (!IsNode(p) || steps > limit_) {
        co_return;
      }
      const uint32_t k = co_await t.Load(p + kKey);
      if (k == key) {
        break;
      }
      p = co_await t.Load(p + (key < k ? kLeft : kRight));
    }
    if (p == kNil) {
      *ok = true;
      co_return;
    }
    uint32_t pl = co_await t.Load(p + kLeft), pr = co_await t.Load(p + kRight);
    if (!Ok(pl) || !Ok(pr)) {
      co_return;
    }
    if (pl != kNil && pr != kNil) {
      // Two children: the successor's key moves here and the successor goes instead.
      uint32_t s = pr;
      for (int steps = 0;; ++steps) {
        const uint32_t sl = co_await t.Load(s + kLeft);
        if (!Ok(sl) || steps > limit_) {
          co_return;
        }
        if (sl == kNil) {
          break;
        }
        s = sl;
      }
      const uint32_t s_key = co_await t.Load(s + kKey);
      co_await t.Store(p + kKey, s_key);
      p = s;
      pl = kNil;
      pr = co_await t.Load(s + kRight);
      if (!Ok(pr)) {
        co_return;
      }
    }
    const uint32_t repl = pl != kNil ? pl : pr;
    const uint32_t pp = co_await t.Load(p + kParent);
    const uint32_t pc = co_await t.Load(p + kColour);
    if (!Ok(pp)) {
      co_return;
    }
    if (repl != kNil) {
      co_await t.Store(repl + kParent, pp);
      bool linked = false;
      co_await Relink(t, pp, p, repl, &linked);
      if (!linked) {
        co_return;
      }
      if (pc == kBlack) {
        co_await FixAfterRemove(t, repl, ok);
      } else {
        *ok = true;
      }
      co_return;
    }
    if (pp == kNil) {  // the last node
      co_await t.Store(kRootPtr, kNil);
      *ok = true;
      co_return;
    }
    // A leaf: repaired as if still there (a black leaf leaves a path short), then unlinked.
    bool fixed = pc != kBlack;
    if (!fixed) {
      co_await FixAfterRemove(t, p, &fixed);
      if (!fixed) {
        co_return;
      }
    }
    const uint32_t parent = co_await t.Load(p + kParent);
    if (!IsNode(parent)) {
      co_return;
    }
    const bool left = p == co_await t.Load(parent + kLeft);
    co_await t.Store(parent + (left ? kLeft : kRight), kNil);
    *ok = true;
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
    bool linked = false;
    co_await Relink(t, xp, x, y, &linked);
    if (!linked) {
      co_return;
    }
    co_await t.Store(y + down, x);
    co_await t.Store(x + kParent, y);
    *ok = true;
  }

  /// The root pointer or parent's link that points at `from` now points at `to`.
  Task Relink(Lane& t, uint32_t parent, uint32_t from, uint32_t to, bool* ok) const {
    if (parent == kNil) {
      co_await t.Store(kRootPtr, to);
    } else {
      const bool left = from == co_await t.Load(parent + kLeft);
      co_await t.Store(parent + (left ? kLeft : kRight), to);
    }
    *ok = true;
  }

  /// The colour of a node or nil (black).
  Task ColourOf(Lane& t, uint32_t n, uint32_t* c) const {
    *c = kBlack;
    if (n != kNil) {
      *c = co_await t.Load(n + kColour);
    }
  }

  /// After a black node was removed from x's place: recolouring and rotations give every path
  /// through x its black node back.
  Task FixAfterRemove(Lane& t, uint32_t x, bool* ok) const {
    uint32_t c = kBlack;
    for (int steps = 0;; ++steps) {
      if (steps > limit_) {
        co_return;
      }
      if (x == co_await t.Load(kRootPtr)) {
        break;
      }
      co_await ColourOf(t, x, &c);
      if (c != kBlack) {
        break;
      }
      const uint32_t xp = co_await t.Load(x + kParent);
      if (!IsNode(xp)) {
        co_return;
      }
      const bool x_left = x == co_await t.Load(xp + kLeft);
      const uint32_t side = x_left ? kRight : kLeft;  // the sibling's side
      const uint32_t near = x_left ? kLeft : kRight, far = x_left ? kRight : kLeft;
      uint32_t sib = co_await t.Load(xp + side);
      if (!IsNode(sib)) {
        co_return;  // a black node other than the root has a sibling
      }
      co_await ColourOf(t, sib, &c);
      if (c == kRed) {
        co_await t.Store(sib + kColour, kBlack);
        co_await t.Store(xp + kColour, kRed);
        bool rotated = false;
        co_await Rotate(t, xp, x_left, &rotated);
        if (!rotated) {
          co_return;
        }
        sib = co_await t.Load(xp + side);
        if (!IsNode(sib)) {
          co_return;
        }
      }
      uint32_t sn = co_await t.Load(sib + near), sf = co_await t.Load(sib + far);
      if (!Ok(sn) || !Ok(sf)) {
        co_return;
      }
      uint32_t cn = kBlack, cf = kBlack;
      co_await ColourOf(t, sn, &cn);
      co_await ColourOf(t, sf, &cf);
      if (cn == kBlack && cf == kBlack) {
        co_await t.Store(sib + kColour, kRed);
        x = xp;
        continue;
      }
      if (cf == kBlack) {
        co_await t.Store(sn + kColour, kBlack);
        co_await t.Store(sib + kColour, kRed);
        bool rotated = false;
        co_await Rotate(t, sib, !x_left, &rotated);
        if (!rotated) {
          co_return;
        }
        sib = co_await t.Load(xp + side);
        if (!IsNode(sib)) {
          co_return;
        }
        sf = co_await t.Load(sib + far);
        if (!Ok(sf)) {
          co_return;
        }
      }
      uint32_t cp = kBlack;
      co_await ColourOf(t, xp, &cp);
      co_await t.Store(sib + kColour, cp);
      co_await t.Store(xp + kColour, kBlack);
      if (sf != kNil) {
        co_await t.Store(sf + kColour, kBlack);
      }
      bool rotated = false;
      co_await Rotate(t, xp, x_left, &rotated);
      if (!rotated) {
        co_return;
      }
      x = co_await t.Load(kRootPtr);
      break;
    }
    if (!Ok(x)) {
      co_return;
    }
    co_await ColourOf(t, x, &c);
    if (x != kNil && c != kBlack) {
      co_await t.Store(x + kColour, kBlack);
    }
    co_await BlackenRoot(t);
    *ok = true;
  }

  /// The root ends black (only written when it is not: every store changes something, so a lost
  /// one shows).
  Task BlackenRoot(Lane& t) const {
    const uint32_t root = co_await t.Load(kRootPtr);
    if (IsNode(root) && co_await t.Load(root + kColour) != kBlack) {
      co_await t.Store(root + kColour, kBlack);
    }
  }

  /// The red-black tree check (the file's header); `nodes` gets the nodes reached, in order.
  void CheckTree(const std::vector<uint32_t>& mem, Problems& p,
                 std::vector<uint32_t>* nodes) const {
    const uint32_t root = mem[kRootPtr];
    if (root != kNil &&
        (!IsNode(root) || mem[root + kColour] != kBlack || mem[root + kParent] != kNil)) {
      p.Add("the root ", root, " is not a black node without a parent");
      return;
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
    std::vector<int> seen(static_cast<size_t>(nodes_), 0);
    int leaf_blacks = -1;
    while (!stack.empty() && p.empty()) {
      const Visit v = stack.back();
      stack.pop_back();
      if (!IsNode(v.node)) {
        p.Add("pointer ", v.node, " is not a node");
        break;
      }
      if (seen[static_cast<size_t>(Index(v.node))]++ > 0) {
        p.Add("node ", Index(v.node), " is reached twice");
        break;
      }
      nodes->push_back(v.node);
      const uint32_t k = mem[v.node + kKey], colour = mem[v.node + kColour];
      if (k <= v.lo || k >= v.hi) {
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
  }

  const uint32_t first_;
  const int nodes_;
  const int limit_;
};

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
    co_await l.Transaction([this, key, z](Lane& t) -> Task { co_await Insert(t, key, z); });
  }

  std::string Check(const std::vector<uint32_t>& mem) const override {
    Problems p;
    std::vector<uint32_t> nodes;
    CheckTree(mem, p, &nodes);
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
    // The balanced initial tree: node i holds the i-th smallest key; the nodes below the last
    // full level are red.
    int full = 0;
    while ((2 << full) - 1 <= initial_) {
      ++full;
    }
    mem[kRootPtr] = Build(mem, 0, initial_, kNil, 0, full);
    return mem;
  }

  Task Kernel(Lane& l) override {
    const int t = l.tid();
    co_await l.Compute(4);
    co_await l.Transaction([this, t](Lane& x) -> Task {
      if (insert_node_[t] != kNil) {
        co_await Insert(x, key_[t], insert_node_[t]);
      } else {
        bool ok = false;
        co_await Remove(x, key_[t], &ok);
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
    CheckTree(mem, p, &nodes);
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

  /// The subtree of the sorted initial keys [lo, hi): its root.
  uint32_t Build(std::vector<uint32_t>& mem, int lo, int hi, uint32_t parent, int depth,
                 int full) const {
    if (lo >= hi) {
      return kNil;
    }
    const int mid = lo + (hi - lo) / 2;
    const uint32_t n = Node(mid);
    mem[n + kKey] = initial_keys_[static_cast<size_t>(mid)];
    mem[n + kColour] = depth >= full ? kRed : kBlack;
    mem[n + kParent] = parent;
    mem[n + kLeft] = Build(mem, lo, mid, n, depth + 1, full);
    mem[n + kRight] = Build(mem, mid + 1, hi, n, depth + 1, full);
    return n;
  }

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
