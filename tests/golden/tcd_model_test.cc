// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the temporal-conflict-detection golden model (no RTL): over random
// streams in every named configuration, with absolute time kept alongside the wrapping one, a
// check never misses a real conflict (the chunk was written after `since`, or `since` is stale)
// and never reports a last-written time from the future. Also parameter validation.
#include "htm/golden/tcd_model.h"

#include <map>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "htm/configs/htm_tcd.h"
#include "htm/tb/benches/tcd_bench.h"

namespace htm::golden {
namespace {

TEST(TcdModel, NeverMissesAConflictInAnyConfiguration) {
  for (const auto& [name, p] : configs::htm_tcd::kAll) {
    SCOPED_TRACE(std::string(name));
    TcdModel m(p);
    tb::TcdBench bench(p, 9);
    const uint64_t mask = LowMask(p.ts_w);
    std::map<uint64_t, uint64_t> last;  // chunk -> absolute time of its last accepted update
    uint64_t abs_now = 0;               // absolute time of the current cycle
    bool pending = false;
    uint64_t pending_chunk = 0, pending_since_age = 0, pending_now = 0;
    uint64_t real = 0, reported = 0, false_pos = 0;
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const TcdIn in = bench.Next();
      const TcdOut out = m.Eval(in);
      ASSERT_EQ(out.now, abs_now & mask);
      ASSERT_EQ(out.res_valid, pending ? 1u : 0u);
      if (pending) {
        auto it = last.find(pending_chunk);
        // Written strictly after `since` (absolute): a real conflict.
        const bool written_after = it != last.end() && it->second + pending_since_age > pending_now;
        const bool must = written_after || pending_since_age >= m.StaleAge();
        real += must;
        reported += out.res_conflict;
        if (must) {
          ASSERT_EQ(out.res_conflict, 1u) << "missed conflict at cycle " << cycle;
        } else {
          false_pos += out.res_conflict;
        }
        if (out.res_found) {
          ASSERT_LT((pending_now - out.res_time) & mask, m.AgeBound()) << "time from the future";
          if (it != last.end() && pending_now - it->second < m.StaleAge()) {
            ASSERT_LE((pending_now - out.res_time) & mask, pending_now - it->second)
                << "earlier than the true last write";
          }
        }
      }
      pending = in.chk_valid && out.chk_ready;
      pending_chunk = m.Chunk(in.chk_addr);
      pending_since_age = (out.now - in.chk_since) & mask;
      pending_now = abs_now;
      if (in.upd_valid && out.upd_ready) {
        last[m.Chunk(in.upd_addr)] = abs_now;
      }
      m.Tick(in);
      ++abs_now;
    }
    // The stream must exercise both answers.
    EXPECT_GT(real, 1000u);
    EXPECT_GT(reported - false_pos, 1000u);
    EXPECT_LT(false_pos, reported);
  }
}

// Idle(k) (the system model's fast-forward) leaves the state k idle Ticks would: same outputs
// then and for the checks and updates that follow, same filter slots, in every configuration,
// for stretches shorter and longer than the scrub sweep and beyond the time's wrap.
TEST(TcdModel, IdleIsTheSameAsIdleTicks) {
  for (const auto& [name, p] : configs::htm_tcd::kAll) {
    SCOPED_TRACE(std::string(name));
    TcdModel fast(p), slow(p);
    tb::TcdBench bench(p, 3);
    std::mt19937_64 rng(5);
    const uint64_t span = uint64_t{1} << p.ts_w;
    for (int round = 0; round < 300; ++round) {
      const int busy = static_cast<int>(rng() % 40);
      for (int i = 0; i < busy; ++i) {
        const TcdIn in = bench.Next();
        ASSERT_EQ(fast.Eval(in), slow.Eval(in)) << "round " << round;
        fast.Tick(in);
        slow.Tick(in);
      }
      const uint64_t k = rng() % 4 == 0 ? rng() % (2 * span) : rng() % (3 * p.slots_per_hash);
      fast.Idle(k);
      for (uint64_t i = 0; i < k; ++i) {
        slow.Tick(TcdIn{});
      }
      ASSERT_EQ(fast.Eval(TcdIn{}), slow.Eval(TcdIn{})) << "round " << round << ", k " << k;
      for (int h = 0; h < p.num_hashes; ++h) {
        for (int s = 0; s < p.slots_per_hash; ++s) {
          uint64_t a = 0, b = 0;
          ASSERT_EQ(fast.bloom().SlotValue(h, static_cast<uint64_t>(s), &a),
                    slow.bloom().SlotValue(h, static_cast<uint64_t>(s), &b))
              << "round " << round << ", k " << k << ", slot " << h << "/" << s;
          ASSERT_EQ(a, b);
        }
      }
    }
  }
}

TEST(TcdModel, RejectsIllegalParameters) {
  auto p = configs::htm_tcd::kSmall;
  p.ts_w = 3;
  EXPECT_THROW(TcdModel{p}, std::invalid_argument);
  p = configs::htm_tcd::kSmall;
  p.chunk_shift = p.addr_w;
  EXPECT_THROW(TcdModel{p}, std::invalid_argument);
  p = configs::htm_tcd::kSmall;
  p.slots_per_hash = 6;
  EXPECT_THROW(TcdModel{p}, std::invalid_argument);
  p = configs::htm_tcd::kSmall;
  p.scrub_interval = 1;
  EXPECT_THROW(TcdModel{p}, std::invalid_argument);
  p = configs::htm_tcd::kSmall;
  p.scrub_interval = 64;  // 64 + 8 * 64 + 2 >= 128: the age bound fails
  try {
    TcdModel m(p);
    FAIL() << "accepted an age bound of " << m.AgeBound();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("age bound"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace htm::golden
