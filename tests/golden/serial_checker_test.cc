// SPDX-License-Identifier: Apache-2.0
//
// The oracle of the commit-unit correctness harness must accept every serial history and
// reject inconsistent reads, lost and spurious updates, and bookkeeping errors.
#include "htm/golden/serial_checker.h"

#include <algorithm>
#include <random>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

namespace htm::golden {
namespace {

using Tx = SerialChecker::Transaction;

Tx Committed(std::vector<SerialChecker::Access> r, std::vector<SerialChecker::Access> w) {
  return Tx{true, std::move(r), std::move(w)};
}
Tx Aborted(std::vector<SerialChecker::Access> r) {
  return Tx{false, std::move(r), {}};
}

TEST(SerialChecker, AcceptsASerialHistoryRecordedOutOfOrder) {
  SerialChecker c;
  c.SetInitial(0x10, 7);
  // cid 1: A(0x10) 7 -> 8; cid 2 aborted (read a stale value); cid 3 reads A = 8, writes B.
  EXPECT_TRUE(c.Record(3, Committed({{0x10, 8}}, {{0x20, 1}})));
  EXPECT_EQ(c.replayed(), 0u);
  EXPECT_TRUE(c.Record(2, Aborted({{0x10, 7}})));
  EXPECT_TRUE(c.Record(1, Committed({{0x10, 7}}, {{0x10, 8}})));
  EXPECT_EQ(c.replayed(), 3u);
  EXPECT_EQ(c.committed(), 2u);
  EXPECT_EQ(c.next_cid(), 4u);
  EXPECT_TRUE(c.CheckFinal({{0x10, 8}, {0x20, 1}})) << c.error();
}

TEST(SerialChecker, RejectsAnInconsistentRead) {
  SerialChecker c;
  EXPECT_TRUE(c.Record(1, Committed({}, {{0x40, 5}})));
  EXPECT_FALSE(c.Record(2, Committed({{0x40, 0}}, {})));  // missed cid 1's write
  EXPECT_NE(c.error().find("inconsistent read: commit id 2"), std::string::npos) << c.error();
  EXPECT_NE(c.error().find("0x40"), std::string::npos) << c.error();
  EXPECT_FALSE(c.Record(3, Committed({}, {})));  // the first error sticks
}

TEST(SerialChecker, RejectsLostAndSpuriousUpdates) {
  SerialChecker lost;
  EXPECT_TRUE(lost.Record(1, Committed({}, {{0x8, 3}})));
  EXPECT_FALSE(lost.CheckFinal({}));
  EXPECT_NE(lost.error().find("final memory differs at address 0x8"), std::string::npos);

  SerialChecker spurious;
  EXPECT_TRUE(spurious.Record(1, Aborted({})));
  EXPECT_FALSE(spurious.CheckFinal({{0xc, 9}}));
  EXPECT_NE(spurious.error().find("0xc"), std::string::npos) << spurious.error();
}

TEST(SerialChecker, RejectsBookkeepingErrors) {
  SerialChecker twice;
  EXPECT_TRUE(twice.Record(1, Aborted({})));
  EXPECT_FALSE(twice.Record(1, Aborted({})));
  EXPECT_NE(twice.error().find("decided twice"), std::string::npos);

  SerialChecker gap;
  EXPECT_TRUE(gap.Record(2, Aborted({})));
  EXPECT_EQ(gap.pending(), 1u);
  EXPECT_FALSE(gap.CheckFinal({}));
  EXPECT_NE(gap.error().find("commit id 1 never was"), std::string::npos) << gap.error();
}

// Random serial executions (each transaction reads the current memory, then writes), recorded
// in a random order, are accepted; the same history with one committed read altered is not.
TEST(SerialChecker, RandomSerialHistories) {
  std::mt19937_64 rng(7);
  for (int run = 0; run < 50; ++run) {
    std::unordered_map<uint64_t, uint64_t> mem;
    std::vector<std::pair<uint64_t, Tx>> history;
    for (uint64_t cid = 1; cid <= 200; ++cid) {
      Tx tx;
      tx.committed = rng() % 4 != 0;
      for (int i = rng() % 4; i > 0; --i) {
        const uint64_t a = rng() % 16;
        tx.reads.push_back({a, tx.committed ? mem[a] : rng() % 3});
      }
      if (tx.committed) {
        for (int i = rng() % 3; i > 0; --i) {
          const uint64_t a = rng() % 16;
          tx.writes.push_back({a, rng() % 5});
        }
        for (const auto& w : tx.writes)
          mem[w.addr] = w.value;
      }
      history.emplace_back(cid, tx);
    }
    std::vector<size_t> order(history.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);

    SerialChecker good;
    for (size_t i : order)
      ASSERT_TRUE(good.Record(history[i].first, history[i].second));
    ASSERT_TRUE(good.CheckFinal(mem)) << good.error();

    // Alter one committed read whose value the replay decides.
    auto it = std::find_if(history.begin(), history.end(), [](const auto& h) {
      return h.second.committed && !h.second.reads.empty();
    });
    ASSERT_NE(it, history.end());
    it->second.reads[0].value += 1;
    SerialChecker bad;
    bool ok = true;
    for (size_t i : order)
      ok = bad.Record(history[i].first, history[i].second) && ok;
    EXPECT_FALSE(ok && bad.CheckFinal(mem)) << "run " << run;
  }
}

}  // namespace
}  // namespace htm::golden
