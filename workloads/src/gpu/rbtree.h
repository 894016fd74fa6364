// SPDX-License-Identifier: Apache-2.0
//
// Red-black trees in global memory for the workloads (internal to golden/src/gpu/workloads/):
// the textbook insertion and removal with parent pointers as transactional code, and the check.
// See rbtree.cc's header for the algorithms and the check.
#pragma once

#include <cstdint>
#include <vector>

#include "htm/workloads/common.h"
#include "workloads.h"

namespace htm::gpu::detail {

inline constexpr uint32_t kRbNodeWords = 5;
// A node's words, and its colours (nil leaves are black).
inline constexpr uint32_t kKey = 0, kColour = 1, kLeft = 2, kRight = 3, kParent = 4;
inline constexpr uint32_t kBlack = 0, kRed = 1;

/// Red-black trees whose nodes come from one pool of `nodes` nodes from word `first` on, each tree
/// named by the address of its root pointer: the transactional insertion and removal, and the
/// check.
class RbBase : public Workload {
 protected:
  RbBase(uint32_t first, int nodes) : first_(first), nodes_(nodes), limit_(2 * nodes + 4) {}

  uint32_t Node(int i) const { return first_ + kRbNodeWords * static_cast<uint32_t>(i); }
  int Index(uint32_t node) const { return static_cast<int>((node - first_) / kRbNodeWords); }
  bool IsNode(uint32_t a) const {
    return a >= first_ && a < first_ + kRbNodeWords * static_cast<uint32_t>(nodes_) &&
           (a - first_) % kRbNodeWords == 0;
  }
  // A pointer read inside the transaction: a node or nil, else the reads were inconsistent (a
  // zombie try), and the body gives up; the commit's validation then fails and it reruns.
  bool Ok(uint32_t a) const { return a == kNil || IsNode(a); }

  /// The insertion of node z (its key, red, nil children in memory) with `key`. Returns early on
  /// an inconsistent read.
  Task Insert(Lane& t, uint32_t root, uint32_t key, uint32_t z) const {
    uint32_t y = kNil, x = co_await t.Load(root);
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
      co_await t.Store(root, z);
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
        co_await Rotate(t, root, zp, zp_left, &ok);
        if (!ok) {
          co_return;
        }
        top = z;
      }
      co_await t.Store(top + kColour, kBlack);
      co_await t.Store(zpp + kColour, kRed);
      bool ok = false;
      co_await Rotate(t, root, zpp, !zp_left, &ok);
      if (!ok) {
        co_return;
      }
      break;
    }
    co_await BlackenRoot(t, root);
  }

  /// The removal of `key` (absent: nothing changes). *ok false on an inconsistent read.
  Task Remove(Lane& t, uint32_t root, uint32_t key, bool* ok) const {
    uint32_t p = co_await t.Load(root);
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
      co_await Relink(t, root, pp, p, repl, &linked);
      if (!linked) {
        co_return;
      }
      if (pc == kBlack) {
        co_await FixAfterRemove(t, root, repl, ok);
      } else {
        *ok = true;
      }
      co_return;
    }
    if (pp == kNil) {  // the last node
      co_await t.Store(root, kNil);
      *ok = true;
      co_return;
    }
    // A leaf: repaired as if still there (a black leaf leaves a path short), then unlinked.
    bool fixed = pc != kBlack;
    if (!fixed) {
      co_await FixAfterRemove(t, root, p, &fixed);
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
  Task Rotate(Lane& t, uint32_t root, uint32_t x, bool to_left, bool* ok) const {
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
    co_await Relink(t, root, xp, x, y, &linked);
    if (!linked) {
      co_return;
    }
    co_await t.Store(y + down, x);
    co_await t.Store(x + kParent, y);
    *ok = true;
  }

  /// The root pointer or parent's link that points at `from` now points at `to`.
  Task Relink(Lane& t, uint32_t root, uint32_t parent, uint32_t from, uint32_t to, bool* ok) const {
    if (parent == kNil) {
      co_await t.Store(root, to);
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
  Task FixAfterRemove(Lane& t, uint32_t root, uint32_t x, bool* ok) const {
    uint32_t c = kBlack;
    for (int steps = 0;; ++steps) {
      if (steps > limit_) {
        co_return;
      }
      if (x == co_await t.Load(root)) {
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
        co_await Rotate(t, root, xp, x_left, &rotated);
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
        co_await Rotate(t, root, sib, !x_left, &rotated);
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
      co_await Rotate(t, root, xp, x_left, &rotated);
      if (!rotated) {
        co_return;
      }
      x = co_await t.Load(root);
      break;
    }
    if (!Ok(x)) {
      co_return;
    }
    co_await ColourOf(t, x, &c);
    if (x != kNil && c != kBlack) {
      co_await t.Store(x + kColour, kBlack);
    }
    co_await BlackenRoot(t, root);
    *ok = true;
  }

  /// The root ends black (only written when it is not: every store changes something, so a lost
  /// one shows).
  Task BlackenRoot(Lane& t, uint32_t root) const {
    const uint32_t top = co_await t.Load(root);
    if (IsNode(top) && co_await t.Load(top + kColour) != kBlack) {
      co_await t.Store(top + kColour, kBlack);
    }
  }

  /// Builds a balanced red-black tree of `keys` (sorted, distinct) in nodes `first`.. (node
  /// first + i holds keys[i]); the nodes below the last full level are red. Returns its root.
  uint32_t BuildBalanced(std::vector<uint32_t>& mem, const std::vector<uint32_t>& keys,
                         int first) const {
    int full = 0;
    while ((2 << full) - 1 <= static_cast<int>(keys.size())) {
      ++full;
    }
    return Build(mem, keys, first, 0, static_cast<int>(keys.size()), kNil, 0, full);
  }

  /// The red-black tree check (rbtree.cc's header); `nodes` gets the nodes reached, in order.
  void CheckTree(const std::vector<uint32_t>& mem, uint32_t root, Problems& p,
                 std::vector<uint32_t>* nodes) const {
    const uint32_t top = mem[root];
    if (top != kNil &&
        (!IsNode(top) || mem[top + kColour] != kBlack || mem[top + kParent] != kNil)) {
      p.Add("the root ", top, " is not a black node without a parent");
      return;
    }
    struct Visit {
      uint32_t node, parent;
      uint64_t lo, hi;  // lo < key < hi
      int blacks;       // black nodes above it
    };
    std::vector<Visit> stack;
    if (top != kNil) {
      stack.push_back({top, kNil, 0, uint64_t{1} << 32, 0});
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

  uint32_t Build(std::vector<uint32_t>& mem, const std::vector<uint32_t>& keys, int first, int lo,
                 int hi, uint32_t parent, int depth, int full) const {
    if (lo >= hi) {
      return kNil;
    }
    const int mid = lo + (hi - lo) / 2;
    const uint32_t n = Node(first + mid);
    mem[n + kKey] = keys[static_cast<size_t>(mid)];
    mem[n + kColour] = depth >= full ? kRed : kBlack;
    mem[n + kParent] = parent;
    mem[n + kLeft] = Build(mem, keys, first, lo, mid, n, depth + 1, full);
    mem[n + kRight] = Build(mem, keys, first, mid + 1, hi, n, depth + 1, full);
    return n;
  }

  const uint32_t first_;
  const int nodes_;
  const int limit_;
};

}  // namespace htm::gpu::detail
