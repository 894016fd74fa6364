// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_reader_list (Chen, Peng & Irving, ISCA 2017, §4.2, Figure 10), RTL and
// golden model in lockstep with the expected results on top: the type transitions (none -> 1 to 3
// plain sharers -> root and leaf bit vectors -> back to sharers -> none), Figure 10's reader 683
// (leaf 21, bit 11), enumeration order, the latencies the documentation states, an all-or-nothing
// conversion refused by a full leaf set (the reader aborts and waits; full_o until an entry is
// freed), leaf sets that wrap around the end of the table, the clearing after reset, bad operations
// and the degenerate configuration.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_reader_list__default.h"
#include "Vhtm_reader_list__one.h"
#include "Vhtm_reader_list__small.h"

#include "htm/configs/htm_reader_list.h"
#include "htm/enums.h"
#include "htm/golden/reader_list_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::ReaderListIn;
using golden::ReaderListModel;
using golden::ReaderListOut;
using golden::ReaderListPorts;
using In = ReaderListIn;
using Out = ReaderListOut;
using Ids = std::vector<uint64_t>;

struct Op {
  RlOp kind;
  uint64_t addr, tx;
};
Op I(uint64_t addr, uint64_t tx) {
  return {RlOp::kInsert, addr, tx};
}
Op X(uint64_t addr, uint64_t tx) {
  return {RlOp::kRemove, addr, tx};
}
Op E(uint64_t addr) {
  return {RlOp::kEnumerate, addr, 0};
}

// An operation's result, the readers it streamed and its latency (the cycle of the result
// minus the cycle it was taken in).
struct Res {
  Out out;
  Ids ids;
  int latency = 0;
};

// Issues operations one after another, as the list takes them, and collects their results.
template <class L>
std::vector<Res> RunOps(L& ls, const std::vector<Op>& ops, int* init = nullptr) {
  std::vector<Res> res;
  Ids ids;
  size_t next = 0;
  int taken_at = -1;
  for (int i = 0; i < 30000 && res.size() < ops.size(); ++i) {
    In in;
    if (next < ops.size() && taken_at < 0) {
      in.op_valid = 1;
      in.op_kind = static_cast<uint64_t>(ops[next].kind);
      in.op_addr = ops[next].addr;
      in.op_tx = ops[next].tx;
    }
    const Out o = DirectedCycle(ls, in);
    if (o.id_valid) {
      ids.push_back(o.id);
    }
    if (o.res_valid) {
      res.push_back({o, ids, i - taken_at});
      ids.clear();
      taken_at = -1;
    }
    if (in.op_valid && o.op_ready) {
      taken_at = i;
      ++next;
    } else if (next == 0 && init != nullptr) {
      ++*init;
    }
  }
  EXPECT_EQ(res.size(), ops.size()) << "missing results";
  return res;
}

Ids Sorted(Ids v) {
  std::sort(v.begin(), v.end());
  return v;
}

using Ls = Lockstep<ReaderListPorts, Vhtm_reader_list__default, ReaderListModel>;
const golden::ReaderListParams& P() {
  return configs::htm_reader_list::kDefault;
}

// The small configuration (3 sets of 2 ways, 16 transactions in leaves of four) in lockstep, and
// its untimed table, which tells where an address's entries go (PrimarySet, LeafSet).
struct Small {
  const golden::ReaderListParams& p = configs::htm_reader_list::kSmall;
  Lockstep<ReaderListPorts, Vhtm_reader_list__small, ReaderListModel> ls{
      p, DirectedOptions("htm_reader_list", "small")};
  golden::ReaderListTable shadow{
      golden::ReaderListTableParams{p.addr_w, 1 << p.tx_w, p.leaf_w, p.sets, p.ways}};
};

TEST(ReaderListDirected, TypeTransitions) {
  Ls ls(P(), DirectedOptions("htm_reader_list", "default"));
  int init = 0;
  const uint64_t a = 0x2abcdef;
  // One to three plain sharers (type 1), in entry order.
  auto r = RunOps(ls, {I(a, 5), E(a), I(a, 40), I(a, 683), I(a, 40), E(a)}, &init);
  EXPECT_EQ(init, 21964) << "the table is cleared one set per cycle";
  EXPECT_TRUE(r[0].out.res_inserted);
  EXPECT_EQ(r[0].out.res_type, 1u);
  EXPECT_EQ(r[0].latency, 2);
  EXPECT_EQ(r[1].ids, Ids({5}));
  EXPECT_EQ(r[1].out.res_count, 1u);
  EXPECT_TRUE(r[4].out.res_found) << "40 reads it already";
  EXPECT_FALSE(r[4].out.res_inserted);
  EXPECT_EQ(r[5].ids, Ids({5, 40, 683}));
  EXPECT_EQ(r[5].latency, 2 + 3);
  EXPECT_EQ(r[5].out.used, 1u);
  // A fourth reader: a root and one leaf per group of 32 (leaves 0, 1, 3 and 21), all at once.
  r = RunOps(ls, {I(a, 100), E(a)});
  EXPECT_TRUE(r[0].out.res_inserted);
  EXPECT_EQ(r[0].out.res_type, 2u);
  EXPECT_EQ(r[0].latency, 3 + 2 * 4);
  EXPECT_EQ(r[0].out.used, 5u);
  EXPECT_EQ(r[1].ids, Ids({5, 40, 100, 683})) << "bit vectors stream by ascending id";
  EXPECT_EQ(r[1].latency, 2 + 4 * 2);
  // Readers joining existing and new leaves.
  r = RunOps(ls, {I(a, 6), I(a, 1023), I(a, 6), E(a)});
  EXPECT_EQ(r[0].latency, 3) << "a leaf hit";
  EXPECT_EQ(r[1].latency, 4) << "a new leaf and its root bit";
  EXPECT_EQ(r[1].out.used, 6u);
  EXPECT_TRUE(r[2].out.res_found);
  EXPECT_EQ(r[3].ids, Ids({5, 6, 40, 100, 683, 1023}));
  // Leaving: leaves empty out and go; with one leaf of at most three readers left the root
  // becomes a sharers entry again.
  r = RunOps(ls, {X(a, 1023), X(a, 40), X(a, 100), X(a, 7), X(a, 5), E(a), X(a, 6), E(a)});
  EXPECT_TRUE(r[0].out.res_found);
  EXPECT_EQ(r[0].latency, 4) << "a leaf freed, its root bit cleared";
  EXPECT_EQ(r[2].out.res_type, 2u) << "leaves 0 (5, 6) and 21 (683) are left";
  EXPECT_FALSE(r[3].out.res_found) << "7 does not read a";
  EXPECT_EQ(r[3].latency, 3);
  EXPECT_EQ(r[4].out.res_type, 2u) << "leaf 0 still has 6";
  EXPECT_EQ(r[5].ids, Ids({6, 683}));
  EXPECT_EQ(r[6].out.res_type, 1u) << "only leaf 21 is left, with one reader";
  EXPECT_EQ(r[6].latency, 6) << "leaf freed, root cleared, last leaf checked, root rewritten";
  EXPECT_EQ(r[6].out.used, 1u);
  EXPECT_EQ(r[7].ids, Ids({683}));
  r = RunOps(ls, {X(a, 683), E(a), X(a, 683)});
  EXPECT_EQ(r[0].out.res_type, 0u);
  EXPECT_EQ(r[0].out.used, 0u);
  EXPECT_TRUE(r[1].ids.empty());
  EXPECT_EQ(r[1].out.res_count, 0u);
  EXPECT_FALSE(r[2].out.res_found);
}

TEST(ReaderListDirected, Figure10Reader683AndFullLeaves) {
  Ls ls(P(), DirectedOptions("htm_reader_list", "default"));
  const uint64_t a = 0x1000;
  // Leaf 21 holds transactions 672..703: Figure 10's 683 is its bit 11.
  std::vector<Op> ops;
  for (uint64_t t = 703; t >= 672; --t) {
    ops.push_back(I(a, t));
  }
  ops.push_back(E(a));
  auto r = RunOps(ls, ops);
  EXPECT_EQ(r[3].out.res_type, 2u) << "the fourth reader converts";
  EXPECT_EQ(r[3].latency, 3 + 2 * 1) << "one leaf";
  Ids all;
  for (uint64_t t = 672; t <= 703; ++t) {
    all.push_back(t);
  }
  EXPECT_EQ(r.back().ids, all);
  EXPECT_EQ(r.back().latency, 2 + 1 + 32);
  EXPECT_EQ(r.back().out.used, 2u) << "a root and leaf 21";
  // Down to three readers of the one leaf: back to plain sharers, ascending.
  ops.clear();
  for (uint64_t t = 672; t <= 703; ++t) {
    if (t != 683 && t != 690 && t != 700) {
      ops.push_back(X(a, t));
    }
  }
  ops.push_back(E(a));
  r = RunOps(ls, ops);
  EXPECT_EQ(r[27].out.res_type, 2u) << "four readers are left";
  EXPECT_EQ(r[28].out.res_type, 1u);
  EXPECT_EQ(r[28].latency, 4) << "leaf freed and the root rewritten";
  EXPECT_EQ(r.back().ids, Ids({683, 690, 700}));
  EXPECT_EQ(r.back().out.used, 1u);
}

TEST(ReaderListDirected, AFullLeafSetRefusesTheWholeConversion) {
  Small t;
  auto& [p, ls, shadow] = t;
  // Address a in set s; b and c fill set s + 1 (where a's leaf 0 goes).
  const int s = shadow.PrimarySet(0);
  const int s1 = (s + 1) % p.sets;
  std::vector<uint64_t> in_s1;
  for (uint64_t x = 1; x < 32 && in_s1.size() < 2; ++x) {
    if (shadow.PrimarySet(x) == s1) {
      in_s1.push_back(x);
    }
  }
  ASSERT_EQ(in_s1.size(), 2u);
  const uint64_t a = 0, b = in_s1[0], c = in_s1[1];
  // a's readers 0, 1, 2; b and c take both ways of set s + 1.
  auto r = RunOps(ls, {I(a, 0), I(a, 1), I(a, 2), I(b, 9), I(c, 9), I(a, 3), E(a)});
  EXPECT_TRUE(r[4].out.res_inserted);
  // Reader 3 would make a a root with leaf 0 in set s + 1: it has no room, nothing changes.
  EXPECT_TRUE(r[5].out.res_full);
  EXPECT_FALSE(r[5].out.res_inserted);
  EXPECT_EQ(r[5].out.res_type, 1u);
  EXPECT_EQ(r[5].latency, 2 + 1) << "one leaf set checked";
  EXPECT_EQ(r[5].out.full, 1u);
  EXPECT_EQ(r[5].out.used, 3u);
  EXPECT_EQ(r[6].ids, Ids({0, 1, 2}));
  // b's reader leaves (its entry goes): full_o clears and the retry converts.
  r = RunOps(ls, {X(b, 9), I(a, 3), E(a)});
  EXPECT_EQ(r[0].out.full, 0u);
  EXPECT_TRUE(r[1].out.res_inserted);
  EXPECT_EQ(r[1].out.res_type, 2u);
  EXPECT_EQ(r[2].ids, Ids({0, 1, 2, 3}));
}

TEST(ReaderListDirected, LeafSetsWrapAroundTheTable) {
  Small t;
  auto& [p, ls, shadow] = t;
  // Three sets of two ways, leaves of four: leaf p of an address in set 2 is in set
  // (2 + 1 + p) mod 3, that is set 0 for leaf 0, set 1 for leaf 1 and set 2 for leaf 2.
  std::vector<uint64_t> in_set[3];
  for (uint64_t x = 0; x < 32; ++x) {
    in_set[shadow.PrimarySet(x)].push_back(x);
  }
  ASSERT_GE(in_set[0].size(), 2u);
  ASSERT_GE(in_set[1].size(), 1u);
  ASSERT_GE(in_set[2].size(), 1u);
  const uint64_t a = in_set[2][0], b = in_set[0][0], c = in_set[0][1], d = in_set[1][0];
  ASSERT_EQ(shadow.LeafSet(a, 0), 0);
  ASSERT_EQ(shadow.LeafSet(a, 1), 1);
  ASSERT_EQ(shadow.LeafSet(a, 2), 2);
  // b and c fill set 0; a's readers 4..7 all go to leaf 1, in set 1, which has room.
  auto r = RunOps(ls, {I(b, 9), I(c, 9), I(a, 4), I(a, 5), I(a, 6), I(a, 7), E(a)});
  EXPECT_TRUE(r[5].out.res_inserted) << "leaf 1 of set 2's address is in set 1, not set 0";
  EXPECT_FALSE(r[5].out.res_full);
  EXPECT_EQ(r[5].out.res_type, 2u);
  EXPECT_EQ(r[5].out.used, 4u) << "b, c, a's root and leaf 1";
  EXPECT_EQ(r[6].ids, Ids({4, 5, 6, 7}));
  // d fills set 1. Leaf 2 goes to a's own set 2, beside the root; leaf 0 to the full set 0.
  r = RunOps(ls, {I(d, 9), I(a, 8), I(a, 0), E(a)});
  EXPECT_TRUE(r[1].out.res_inserted) << "leaf 2 wraps around to the root's set";
  EXPECT_EQ(r[1].out.used, 6u) << "every entry of the table";
  EXPECT_TRUE(r[2].out.res_full) << "leaf 0 is in set 0, which b and c fill";
  EXPECT_FALSE(r[2].out.res_inserted);
  EXPECT_EQ(r[3].ids, Ids({4, 5, 6, 7, 8}));
}

TEST(ReaderListDirected, BadOperationsChangeNothing) {
  Small t;
  auto& ls = t.ls;
  RunOps(ls, {I(4, 3)});
  In bad;
  bad.op_valid = 1;
  bad.op_kind = 3;
  bad.op_addr = 4;
  bad.op_tx = 5;
  DirectedCycle(ls, bad);
  DirectedCycle(ls, In{});
  const Out o = DirectedCycle(ls, In{});
  EXPECT_EQ(o.res_valid, 1u);
  EXPECT_EQ(o.res_err, 1u);
  EXPECT_EQ(o.err, 1u);
  const auto r = RunOps(ls, {E(4)});
  EXPECT_EQ(r[0].ids, Ids({3}));
  EXPECT_EQ(r[0].out.used, 1u);
}

TEST(ReaderListDirected, DegenerateConfiguration) {
  using L1 = Lockstep<ReaderListPorts, Vhtm_reader_list__one, ReaderListModel>;
  L1 ls(configs::htm_reader_list::kOne, DirectedOptions("htm_reader_list", "one"));
  int init = 0;
  // Four transactions in two leaves of two; one set of three ways holds a root and both leaves.
  const auto r = RunOps(
      ls,
      {I(0, 3), I(0, 1), I(0, 2), I(0, 0), E(0), I(1, 0), X(0, 2), X(0, 3), E(0), I(1, 0), E(1)},
      &init);
  EXPECT_EQ(init, 1);
  EXPECT_EQ(r[3].out.res_type, 2u);
  EXPECT_EQ(r[3].out.used, 3u);
  EXPECT_EQ(r[4].ids, Ids({0, 1, 2, 3}));
  EXPECT_TRUE(r[5].out.res_full) << "no room for address 1";
  EXPECT_EQ(r[7].out.res_type, 1u) << "leaf 1 emptied: leaf 0 (0, 1) becomes sharers";
  EXPECT_EQ(r[8].ids, Ids({0, 1}));
  EXPECT_TRUE(r[9].out.res_inserted);
  EXPECT_EQ(r[10].ids, Ids({0}));
  EXPECT_EQ(Sorted(r[8].ids), r[8].ids);
}

}  // namespace
}  // namespace htm::tb
