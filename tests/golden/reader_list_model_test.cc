// SPDX-License-Identifier: Apache-2.0
//
// Tests of the Scalable Reader List's functional model (Chen, Peng & Irving, ISCA 2017, §4.2,
// Figure 10): Figure 10's leaf example (reader 683 = 32 * 21 + 11), the entry-type transitions (one
// sharer, three, bit vectors, back to sharers, unused), all-or-nothing conversion when a leaf's set
// is full, and random inserts and removes against a reference set per address: enumeration returns
// exactly the inserted readers, a full table changes nothing.
#include "htm/golden/reader_list_model.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace htm::golden {
namespace {

std::vector<uint64_t> Sorted(std::vector<uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(ReaderListModel, Figure10LeafOfReader683) {
  ReaderListTable t(ReaderListTableParams{});
  const uint64_t a = 0x2abcdef;
  for (uint64_t id : {5u, 40u, 99u, 683u}) {
    EXPECT_EQ(t.Insert(a, id), RlResult::kInserted);
  }
  EXPECT_EQ(t.TypeOf(a), RlType::kRoot);
  // Readers 5 (leaf 0), 40 (leaf 1), 99 (leaf 3), 683 (leaf 21, bit 11): a root and 4 leaves.
  EXPECT_EQ(t.used(), 5);
  EXPECT_EQ(t.Enumerate(a), (std::vector<uint64_t>{5, 40, 99, 683}));
  EXPECT_EQ(t.Insert(a, 683), RlResult::kAlready);
  EXPECT_EQ(t.Insert(a, 684), RlResult::kInserted);  // leaf 21, bit 12: no new entry
  EXPECT_EQ(t.used(), 5);
}

TEST(ReaderListModel, TypeTransitionsAndBack) {
  ReaderListTable t(ReaderListTableParams{});
  const uint64_t a = 77;
  EXPECT_EQ(t.TypeOf(a), RlType::kUnused);
  EXPECT_EQ(t.Insert(a, 1), RlResult::kInserted);
  EXPECT_EQ(t.TypeOf(a), RlType::kSharers);
  EXPECT_EQ(t.Insert(a, 2), RlResult::kInserted);
  EXPECT_EQ(t.Insert(a, 3), RlResult::kInserted);
  EXPECT_EQ(t.TypeOf(a), RlType::kSharers) << "three plain sharers";
  EXPECT_EQ(t.used(), 1);
  EXPECT_EQ(t.Insert(a, 4), RlResult::kInserted);
  EXPECT_EQ(t.TypeOf(a), RlType::kRoot) << "a fourth reader: bit vectors";
  EXPECT_EQ(t.used(), 2) << "the root and leaf 0";
  EXPECT_EQ(t.Insert(a, 500), RlResult::kInserted);
  EXPECT_EQ(t.used(), 3);
  EXPECT_EQ(t.Remove(a, 500), RlResult::kRemoved);
  EXPECT_EQ(t.TypeOf(a), RlType::kRoot) << "one leaf, four readers";
  EXPECT_EQ(t.Remove(a, 2), RlResult::kRemoved);
  EXPECT_EQ(t.TypeOf(a), RlType::kSharers) << "one leaf, three readers: back to sharers";
  EXPECT_EQ(t.used(), 1);
  EXPECT_EQ(t.Enumerate(a), (std::vector<uint64_t>{1, 3, 4}));
  EXPECT_EQ(t.Remove(a, 2), RlResult::kAbsent);
  for (uint64_t id : {1u, 3u, 4u}) {
    EXPECT_EQ(t.Remove(a, id), RlResult::kRemoved);
  }
  EXPECT_EQ(t.TypeOf(a), RlType::kUnused);
  EXPECT_EQ(t.used(), 0);
}

TEST(ReaderListModel, AConversionIsAllOrNothing) {
  // One way per set: the fourth reader's leaves need sets that other addresses fill.
  ReaderListTableParams p;
  p.addr_w = 6;
  p.num_tx = 64;
  p.leaf_w = 8;
  p.sets = 4;
  p.ways = 1;
  ReaderListTable t(p);
  const uint64_t a = 0;
  const int leaf_set = t.LeafSet(a, 0);
  uint64_t b = 1;
  while (t.PrimarySet(b) != leaf_set) {
    ++b;
  }
  ASSERT_NE(leaf_set, t.PrimarySet(a));
  EXPECT_EQ(t.Insert(b, 9), RlResult::kInserted);  // takes the set leaf 0 of a needs
  for (uint64_t id : {1u, 2u, 3u}) {
    EXPECT_EQ(t.Insert(a, id), RlResult::kInserted);
  }
  EXPECT_EQ(t.Insert(a, 4), RlResult::kFull) << "the reader aborts and waits";
  EXPECT_EQ(t.TypeOf(a), RlType::kSharers) << "nothing changed";
  EXPECT_EQ(t.Enumerate(a), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(t.used(), 2);
  EXPECT_EQ(t.Remove(b, 9), RlResult::kRemoved);
  EXPECT_EQ(t.Insert(a, 4), RlResult::kInserted);
  EXPECT_EQ(t.TypeOf(a), RlType::kRoot);
}

void RandomAgainstReference(const ReaderListTableParams& p, int ops, uint64_t seed) {
  ReaderListTable t(p);
  std::map<uint64_t, std::set<uint64_t>> ref;
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> addrs;
  for (int i = 0; i < 12; ++i) {
    addrs.push_back(rng() & ((uint64_t{1} << p.addr_w) - 1));
  }
  std::map<RlResult, int> seen;
  std::map<RlType, int> types;
  for (int i = 0; i < ops; ++i) {
    const uint64_t a = addrs[rng() % addrs.size()];
    const uint64_t tx = rng() % static_cast<uint64_t>(p.num_tx);
    const bool ins = rng() % 100 < 55;
    const bool present = ref[a].count(tx) != 0;
    const RlResult r = ins ? t.Insert(a, tx) : t.Remove(a, tx);
    ++seen[r];
    if (ins) {
      ASSERT_EQ(r == RlResult::kAlready, present) << i;
      if (r == RlResult::kInserted) {
        ref[a].insert(tx);
      }
    } else {
      ASSERT_EQ(r == RlResult::kRemoved, present) << i;
      ref[a].erase(tx);
    }
    const auto got = Sorted(t.Enumerate(a));
    ASSERT_EQ(got, std::vector<uint64_t>(ref[a].begin(), ref[a].end())) << "op " << i;
    ++types[t.TypeOf(a)];
    if (ref[a].size() <= 3 && ref[a].size() > 0 && t.TypeOf(a) == RlType::kRoot) {
      ++types[RlType::kLeaf];  // bit vectors holding few readers across leaves
    }
  }
  EXPECT_GT(seen[RlResult::kInserted], 0);
  EXPECT_GT(seen[RlResult::kRemoved], 0);
  EXPECT_GT(seen[RlResult::kAlready], 0);
  EXPECT_GT(seen[RlResult::kAbsent], 0);
  EXPECT_GT(types[RlType::kSharers], 0);
  EXPECT_GT(types[RlType::kRoot], 0);
  if (p.sets * p.ways < 40) {
    EXPECT_GT(seen[RlResult::kFull], 0) << "a small table fills";
  }
}

TEST(ReaderListModel, EnumerationIsExactlyTheReaders) {
  ReaderListTableParams small;
  small.addr_w = 6;
  small.num_tx = 64;
  small.leaf_w = 8;
  small.sets = 5;
  small.ways = 3;
  RandomAgainstReference(small, 200000, 1);
  ReaderListTableParams few_tx = small;
  few_tx.num_tx = 8;
  few_tx.leaf_w = 4;
  RandomAgainstReference(few_tx, 100000, 2);
  RandomAgainstReference(ReaderListTableParams{}, 100000, 3);
}

TEST(ReaderListModel, RejectsBadParameters) {
  ReaderListTableParams p;
  p.num_tx = 2000;  // more than 32 x 32
  EXPECT_THROW(ReaderListTable{p}, std::invalid_argument);
  p = ReaderListTableParams{};
  p.ways = 0;
  EXPECT_THROW(ReaderListTable{p}, std::invalid_argument);
  ReaderListTable t(ReaderListTableParams{});
  EXPECT_EQ(t.Insert(1, 1024), RlResult::kBad);
}

}  // namespace
}  // namespace htm::golden
