// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_writer_table (Chen, Peng & Irving, ISCA 2017, §4.2, §4.3, §5), RTL and
// golden model in lockstep with the expected results on top: the single-writer rule (a second
// writer is refused and told who writes the word, the writer itself may write again), reads finding
// the writer, removal only by the writer, a full set (the writer must abort and wait; full_o until
// an entry is freed), back-to-back operations on one set, the clearing after reset, bad
// operations, the small and degenerate configurations.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_writer_table__default.h"
#include "Vhtm_writer_table__one.h"
#include "Vhtm_writer_table__small.h"

#include "htm/configs/htm_writer_table.h"
#include "htm/enums.h"
#include "htm/golden/writer_table_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::WriterTableIn;
using golden::WriterTableModel;
using golden::WriterTableOut;
using golden::WriterTablePorts;
using In = WriterTableIn;
using Out = WriterTableOut;

struct Op {
  WtOp kind;
  uint64_t addr, tx;
};
Op W(uint64_t addr, uint64_t tx) {
  return {WtOp::kWrite, addr, tx};
}
Op R(uint64_t addr, uint64_t tx) {
  return {WtOp::kRead, addr, tx};
}
Op X(uint64_t addr, uint64_t tx) {
  return {WtOp::kRemove, addr, tx};
}

// Issues operations back to back (as the table takes them) and returns their results.
template <class L>
std::vector<Out> RunOps(L& ls, const std::vector<Op>& ops, int* init = nullptr) {
  std::vector<Out> res;
  size_t next = 0;
  bool started = false;
  for (int i = 0; i < 5000 && res.size() < ops.size(); ++i) {
    In in;
    if (next < ops.size()) {
      in.op_valid = 1;
      in.op_kind = static_cast<uint64_t>(ops[next].kind);
      in.op_addr = ops[next].addr;
      in.op_tx = ops[next].tx;
    }
    const Out o = DirectedCycle(ls, in);
    if (o.res_valid) {
      res.push_back(o);
    }
    if (in.op_valid && o.op_ready) {
      started = true;
      ++next;
    } else if (!started && init != nullptr) {
      ++*init;
    }
  }
  EXPECT_EQ(res.size(), ops.size()) << "missing results";
  return res;
}

using Ls = Lockstep<WriterTablePorts, Vhtm_writer_table__default, WriterTableModel>;
const golden::WriterTableParams& P() {
  return configs::htm_writer_table::kDefault;
}

TEST(WriterTableDirected, ASecondWriterIsRefused) {
  Ls ls(P(), DirectedOptions("htm_writer_table", "default"));
  int init = 0;
  const uint64_t x = 0x1234567, y = 0x2000000;
  const auto r = RunOps(ls, {W(x, 7), W(x, 9), W(x, 7), R(x, 9), R(y, 9), W(y, 9)}, &init);
  EXPECT_EQ(init, 1000) << "the table is cleared one set per cycle";
  EXPECT_TRUE(r[0].res_inserted);
  EXPECT_FALSE(r[0].res_found);
  // T9 writes x: T7 writes it; T9 must abort (5: "the new writer is aborted").
  EXPECT_TRUE(r[1].res_found);
  EXPECT_EQ(r[1].res_writer, 7u);
  EXPECT_FALSE(r[1].res_inserted);
  EXPECT_FALSE(r[1].res_full);
  // T7 writes x again: it is the writer already.
  EXPECT_TRUE(r[2].res_found);
  EXPECT_EQ(r[2].res_writer, 7u);
  EXPECT_FALSE(r[2].res_inserted);
  // T9 reads x: the writer is T7 (the post-dating edge T7 -> T9 or its reverse follows).
  EXPECT_TRUE(r[3].res_found);
  EXPECT_EQ(r[3].res_writer, 7u);
  EXPECT_FALSE(r[4].res_found);
  EXPECT_TRUE(r[5].res_inserted);
  EXPECT_EQ(r.back().used, 2u);
}

TEST(WriterTableDirected, OnlyTheWriterRemovesItsEntry) {
  Ls ls(P(), DirectedOptions("htm_writer_table", "default"));
  const uint64_t x = 0x3ff0001;
  const auto r = RunOps(ls, {W(x, 1), X(x, 2), R(x, 3), X(x, 1), R(x, 3), W(x, 2), X(0x55, 2)});
  EXPECT_FALSE(r[1].res_removed);
  EXPECT_EQ(r[1].res_writer, 1u) << "the writer is reported";
  EXPECT_EQ(r[2].res_writer, 1u);
  EXPECT_TRUE(r[3].res_removed);
  EXPECT_FALSE(r[4].res_found);
  EXPECT_TRUE(r[5].res_inserted) << "after the commit or abort another may write";
  EXPECT_FALSE(r[6].res_removed);
  EXPECT_FALSE(r[6].res_found);
}

TEST(WriterTableDirected, AFullSetRefusesAndWaits) {
  using Lsm = Lockstep<WriterTablePorts, Vhtm_writer_table__small, WriterTableModel>;
  const auto& p = configs::htm_writer_table::kSmall;
  Lsm ls(p, DirectedOptions("htm_writer_table", "small"));
  // Three addresses of one set (2 ways).
  std::vector<uint64_t> same;
  const uint64_t set0 = golden::WriterTableSet(p, 0);
  for (uint64_t a = 0; a < 64 && same.size() < 3; ++a) {
    if (golden::WriterTableSet(p, a) == set0) {
      same.push_back(a);
    }
  }
  ASSERT_EQ(same.size(), 3u);
  const auto r = RunOps(ls, {W(same[0], 1), W(same[1], 2), W(same[2], 3), R(same[2], 4)});
  EXPECT_TRUE(r[0].res_inserted);
  EXPECT_TRUE(r[1].res_inserted);
  // The set is full: T3 aborts and waits (4.3); full_o tells the system to hold back.
  EXPECT_TRUE(r[2].res_full);
  EXPECT_FALSE(r[2].res_inserted);
  EXPECT_FALSE(r[3].res_found);
  EXPECT_EQ(r[3].full, 1u);
  // T1 commits: its entry goes, full_o clears, T3's retry gets in.
  const auto s = RunOps(ls, {X(same[0], 1), W(same[2], 3)});
  EXPECT_TRUE(s[0].res_removed);
  EXPECT_EQ(s[1].full, 0u);
  EXPECT_TRUE(s[1].res_inserted);
  EXPECT_EQ(s[1].used, 2u);
}

TEST(WriterTableDirected, BackToBackOperationsSeeEachOther) {
  Ls ls(P(), DirectedOptions("htm_writer_table", "default"));
  // Each operation reads the set the one before it writes back (write-first RAM).
  std::vector<Op> ops;
  for (uint64_t t = 0; t < 40; ++t) {
    ops.push_back(W(0x100, t));  // only the first gets in
  }
  ops.push_back(X(0x100, 0));
  ops.push_back(W(0x100, 5));
  ops.push_back(X(0x100, 5));
  ops.push_back(R(0x100, 1));
  const auto r = RunOps(ls, ops);
  EXPECT_TRUE(r[0].res_inserted);
  for (int i = 1; i < 40; ++i) {
    EXPECT_FALSE(r[i].res_inserted) << i;
    EXPECT_EQ(r[i].res_writer, 0u) << i;
  }
  EXPECT_TRUE(r[40].res_removed);
  EXPECT_TRUE(r[41].res_inserted);
  EXPECT_TRUE(r[42].res_removed);
  EXPECT_FALSE(r[43].res_found);
  EXPECT_EQ(r[43].used, 0u);
}

TEST(WriterTableDirected, BadOperationsChangeNothing) {
  Ls ls(P(), DirectedOptions("htm_writer_table", "default"));
  RunOps(ls, {W(0x42, 3)});
  In bad;
  bad.op_valid = 1;
  bad.op_kind = 3;
  bad.op_addr = 0x42;
  bad.op_tx = 4;
  DirectedCycle(ls, bad);
  DirectedCycle(ls, In{});
  const Out o = DirectedCycle(ls, In{});
  EXPECT_EQ(o.res_valid, 1u);
  EXPECT_EQ(o.res_err, 1u);
  EXPECT_EQ(o.err, 1u);
  const auto r = RunOps(ls, {R(0x42, 4)});
  EXPECT_EQ(r[0].res_writer, 3u);
  EXPECT_EQ(r[0].used, 1u);
}

TEST(WriterTableDirected, DegenerateConfiguration) {
  using L1 = Lockstep<WriterTablePorts, Vhtm_writer_table__one, WriterTableModel>;
  L1 ls(configs::htm_writer_table::kOne, DirectedOptions("htm_writer_table", "one"));
  int init = 0;
  const auto r = RunOps(ls, {W(0, 0), W(1, 1), W(0, 1), X(0, 0), W(1, 1)}, &init);
  EXPECT_EQ(init, 1);
  EXPECT_TRUE(r[0].res_inserted);
  EXPECT_TRUE(r[1].res_full);
  EXPECT_EQ(r[2].res_writer, 0u);
  EXPECT_TRUE(r[3].res_removed);
  EXPECT_TRUE(r[4].res_inserted);
}

}  // namespace
}  // namespace htm::tb
