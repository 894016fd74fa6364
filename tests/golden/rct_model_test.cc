// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the Reference Count Table golden model (no RTL). Over random event
// streams in every named configuration, spurious decrements included:
//   * a count never exceeds the live words of its address and kind (so it never underflows
//     and never stays behind when the words are gone);
//   * whenever the table is idle, the CAT's view of an address rebuilt from the deltas says
//     exactly "some count is positive", and an address without live words is absent;
//   * the random stimulus reaches every case (deltas, full and flushed messages, cancelled,
//     queue-lost, set-full and saturated increments, ignored decrements).
// Also parameter validation.
#include "htm/golden/rct_model.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_rct.h"
#include "htm/tb/benches/rct_bench.h"

namespace htm::golden {
namespace {

using Key = std::pair<uint64_t, bool>;  // address, write

TEST(RctModel, CountsNeverExceedLiveWordsAndDeltasFollowTheCounts) {
  for (const auto& [name, p] : configs::htm_rct::kAll) {
    SCOPED_TRACE(std::string(name));
    RctModel m(p);
    tb::RctBench bench(p, 17);
    std::map<Key, int> live;  // words stored and not yet freed
    std::map<Key, bool> bit;  // the CAT's view from the deltas
    std::map<std::string, int> seen;
    std::optional<Key> pending_dec;
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const RctIn in = bench.Next();
      const RctOut out = m.Eval(in);
      if (out.dlt_valid) {
        const CatDelta d = CatDelta::Unpack(out.dlt);
        bool& b = bit[{d.addr, d.write}];
        ASSERT_NE(b, d.add) << "delta does not alternate at cycle " << cycle;
        b = d.add;
        ++seen[d.add ? "add" : "remove"];
      }
      if (out.msg_valid) {
        ++seen[out.msg_count == static_cast<uint64_t>(p.batch) ? "full message" : "flushed"];
      }
      seen["cancel"] += static_cast<int>(out.cancel);
      seen["lost_queue"] += static_cast<int>(out.lost_queue);
      seen["lost_full"] += static_cast<int>(out.lost_full);
      seen["lost_sat"] += static_cast<int>(out.lost_sat);
      seen["dec_ignored"] += static_cast<int>(out.dec_ignored);
      // Live words: a decrement frees one only if one is live (else it is spurious). The
      // table applies a decrement in the cycle after it arrives: so does this count.
      if (pending_dec) {
        int& n = live[*pending_dec];
        n = std::max(0, n - 1);
        pending_dec.reset();
      }
      if (out.ready && in.inc_valid) {
        ++live[{in.inc_addr, in.inc_write != 0}];
      }
      if (out.ready && in.dec_valid) {
        pending_dec = Key{in.dec_addr, in.dec_write != 0};
      }
      m.Tick(in);
      for (const Key& k :
           {Key{in.inc_addr, in.inc_write != 0}, Key{in.dec_addr, in.dec_write != 0}}) {
        const RctModel::Counts c = m.Lookup(k.first);
        ASSERT_LE(k.second ? c.writers : c.readers, live[k])
            << "count above live words at cycle " << cycle;
      }
      if (!m.Eval(RctIn{}).busy && !pending_dec && cycle % 64 == 0) {
        for (const auto& [k, b] : bit) {
          const RctModel::Counts c = m.Lookup(k.first);
          ASSERT_EQ(b, (k.second ? c.writers : c.readers) > 0) << "CAT view differs at " << cycle;
          if (live[k] == 0) {
            ASSERT_FALSE(b) << "address left behind at cycle " << cycle;
          }
        }
      }
      if (!out.ready) {
        live.clear();  // after a reset (the bench forgets too)
        bit.clear();
      }
    }
    for (const char* what :
         {"add", "remove", "cancel", "lost_queue", "lost_full", "lost_sat", "dec_ignored"}) {
      EXPECT_GT(seen[what], 0) << what << " never happened";
    }
    // One delta a cycle at most: a message fills only when it may age at least Batch cycles
    // before it is flushed (the `two` configuration flushes after two, with three slots).
    if (p.batch == 1 || p.flush_cycles >= p.batch) {
      EXPECT_GT(seen["full message"], 0) << "full message never happened";
    } else {
      EXPECT_EQ(seen["full message"], 0) << "a message filled faster than one delta a cycle";
    }
    if (p.batch > 1) {
      EXPECT_GT(seen["flushed"], 0) << "no message was flushed before it was full";
    }
  }
}

TEST(RctModel, RejectsBadParameters) {
  RctParams p = configs::htm_rct::kSmall;
  p.sets = 3;
  EXPECT_THROW(RctModel{p}, std::invalid_argument);
  p = configs::htm_rct::kSmall;
  p.count_w = 0;
  EXPECT_THROW(RctModel{p}, std::invalid_argument);
  p = configs::htm_rct::kSmall;
  p.batch = 65;
  EXPECT_THROW(RctModel{p}, std::invalid_argument);
  p = configs::htm_rct::kSmall;
  p.flush_cycles = 0;
  EXPECT_THROW(RctModel{p}, std::invalid_argument);
  EXPECT_NE(CheckRctParams(p).find("FlushCycles"), std::string::npos);
}

}  // namespace
}  // namespace htm::golden
