// SPDX-License-Identifier: Apache-2.0
//
// Tests of the Writer Table's golden model on its own, with the random bench, against a
// reference map of word -> writer: a second writer is never admitted, reads and refusals name
// the map's writer, only the writer removes, a write is refused as full only when its set
// really is full, and the bench reaches every case. Also parameter validation.
#include "htm/golden/writer_table_model.h"

#include <map>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_writer_table.h"
#include "htm/enums.h"
#include "htm/tb/benches/writer_table_bench.h"

namespace htm::golden {
namespace {

using In = WriterTableIn;
using Out = WriterTableOut;

TEST(WriterTableModel, SingleWriterAgainstAReferenceMap) {
  for (const auto& [name, p] : configs::htm_writer_table::kAll) {
    SCOPED_TRACE(std::string(name));
    WriterTableModel m(p);
    tb::WriterTableBench bench(p, 3);
    std::map<uint64_t, uint64_t> writer;  // the reference
    std::map<uint64_t, int> per_set;      // entries per set
    std::map<std::string, int> seen;
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const In in = bench.Next();
      const Out o = m.Eval(in);
      bench.Observe(in, o);
      if (o.res_valid && !o.res_err) {
        const auto it = writer.find(o.res_addr);
        const bool known = it != writer.end();
        ASSERT_EQ(o.res_found != 0, known) << "cycle " << cycle;
        if (known) {
          ASSERT_EQ(o.res_writer, it->second) << "cycle " << cycle;
        }
        const uint64_t set = WriterTableSet(p, o.res_addr);
        const auto kind = static_cast<WtOp>(o.res_kind);
        if (kind == WtOp::kWrite) {
          ASSERT_EQ(o.res_inserted != 0, !known && per_set[set] < p.ways) << "cycle " << cycle;
          ASSERT_EQ(o.res_full != 0, !known && per_set[set] == p.ways) << "cycle " << cycle;
          if (o.res_inserted) {
            writer[o.res_addr] = o.res_tx;
            ++per_set[set];
            seen["inserted"] += 1;
          }
          seen[o.res_full ? "full" : known && it->second != o.res_tx ? "second writer" : "w"] += 1;
        }
        if (kind == WtOp::kRemove) {
          ASSERT_EQ(o.res_removed != 0, known && it->second == o.res_tx) << "cycle " << cycle;
          if (o.res_removed) {
            writer.erase(o.res_addr);
            --per_set[set];
            seen["removed"] += 1;
          } else {
            seen["not removed"] += 1;
          }
        }
        if (kind == WtOp::kRead && known) {
          seen["read found"] += 1;
        }
        ASSERT_EQ(o.used, writer.size()) << "cycle " << cycle;
      }
      if (o.res_valid && o.res_err) {
        seen["err"] += 1;
      }
      m.Tick(in);
    }
    for (const char* c :
         {"inserted", "full", "second writer", "removed", "not removed", "read found", "err"}) {
      EXPECT_GT(seen[c], 0) << c;
    }
  }
}

TEST(WriterTableModel, RejectsBadParameters) {
  WriterTableParams p = configs::htm_writer_table::kDefault;
  p.sets = 0;
  EXPECT_THROW(WriterTableModel{p}, std::invalid_argument);
  p = configs::htm_writer_table::kDefault;
  p.tx_w = 17;
  EXPECT_THROW(WriterTableModel{p}, std::invalid_argument);
  p = configs::htm_writer_table::kDefault;
  p.ways = 0;
  EXPECT_THROW(WriterTableModel{p}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
