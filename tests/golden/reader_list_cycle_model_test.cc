// SPDX-License-Identifier: Apache-2.0
//
// Tests of htm_reader_list's cycle-exact golden model on its own, with the random bench, against
// a reference map of word -> readers: Insert and Remove report membership, every enumeration
// streams exactly the word's readers (sharers in entry order, bit vectors ascending) with its
// count, the stream comes only with an Enumerate, and the bench reaches every case the RTL has
// (conversions, refused conversions, leaves allocated and freed, the way back to sharers).
// Also parameter validation.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/configs/htm_reader_list.h"
#include "htm/enums.h"
#include "htm/golden/reader_list_model.h"
#include "htm/tb/benches/reader_list_bench.h"

namespace htm::golden {
namespace {

using In = ReaderListIn;
using Out = ReaderListOut;

TEST(ReaderListCycleModel, EnumerationsAgainstAReferenceMap) {
  for (const auto& [name, p] : configs::htm_reader_list::kAll) {
    SCOPED_TRACE(std::string(name));
    ReaderListModel m(p);
    tb::ReaderListBench bench(p, 5);
    std::map<uint64_t, std::set<uint64_t>> ref;
    std::map<uint64_t, int> type;  // the primary entry's type as the results report it
    std::map<std::string, int> seen;
    std::vector<uint64_t> stream;
    for (int cycle = 0; cycle < 300000; ++cycle) {
      const In in = bench.Next();
      const Out o = m.Eval(in);
      bench.Observe(in, o);
      m.Tick(in);
      if (o.id_valid) {
        stream.push_back(o.id);
      }
      if (!o.res_valid) {
        continue;
      }
      if (o.res_err) {
        ASSERT_TRUE(stream.empty()) << "cycle " << cycle;
        seen["bad"] += 1;
        continue;
      }
      std::set<uint64_t>& r = ref[o.res_addr];
      const auto kind = static_cast<RlOp>(o.res_kind);
      const int before = type[o.res_addr];
      if (kind != RlOp::kEnumerate) {
        ASSERT_TRUE(stream.empty()) << "cycle " << cycle;
        ASSERT_EQ(o.res_found != 0, r.count(o.res_tx) != 0) << "cycle " << cycle;
      }
      if (kind == RlOp::kInsert && o.res_inserted) {
        r.insert(o.res_tx);
        seen[before == 1 && o.res_type == 2 ? "converted" : "inserted"] += 1;
        if (before == 2 && o.used > 0) {
          seen["under a root"] += 1;
        }
      }
      if (kind == RlOp::kInsert && o.res_full) {
        ASSERT_EQ(o.full, 1u) << "cycle " << cycle;
        seen[before == 1 && r.size() == 3 ? "conversion refused" : "full"] += 1;
      }
      if (kind == RlOp::kRemove && o.res_found) {
        r.erase(o.res_tx);
        seen[before == 2 && o.res_type == 1 ? "back to sharers" : "removed"] += 1;
      }
      if (kind == RlOp::kEnumerate) {
        std::vector<uint64_t> want(r.begin(), r.end());
        std::vector<uint64_t> got = stream;
        if (o.res_type == 2) {
          ASSERT_EQ(got, want) << "cycle " << cycle << ": bit vectors stream ascending";
          seen["enumerated a root"] += 1;
        }
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, want) << "cycle " << cycle;
        ASSERT_EQ(o.res_count, want.size()) << "cycle " << cycle;
      }
      ASSERT_EQ(o.res_type == 0, r.empty()) << "cycle " << cycle;
      ASSERT_TRUE(o.res_type != 1 || r.size() <= 3) << "cycle " << cycle;
      type[o.res_addr] = static_cast<int>(o.res_type);
      stream.clear();
    }
    for (const char* c : {"inserted", "converted", "removed", "back to sharers",
                          "enumerated a root", "under a root", "bad"}) {
      EXPECT_GT(seen[c], 0) << c;
    }
    if (p.sets * p.ways < 16) {
      EXPECT_GT(seen["full"] + seen["conversion refused"], 0);
    }
    if (name == std::string("small")) {
      EXPECT_GT(seen["conversion refused"], 0);
    }
  }
}

TEST(ReaderListCycleModel, RejectsBadParameters) {
  ReaderListParams p = configs::htm_reader_list::kDefault;
  p.leaf_w = 24;  // not a power of two
  EXPECT_THROW(ReaderListModel{p}, std::invalid_argument);
  p = configs::htm_reader_list::kDefault;
  p.tx_w = 11;  // 2048 transactions > 32 x 32
  EXPECT_THROW(ReaderListModel{p}, std::invalid_argument);
  p.tx_w = 5;  // 32 transactions: a single leaf, no root needed
  EXPECT_THROW(ReaderListModel{p}, std::invalid_argument);
  p = configs::htm_reader_list::kDefault;
  p.sets = 0;
  EXPECT_THROW(ReaderListModel{p}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
