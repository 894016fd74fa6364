// SPDX-License-Identifier: Apache-2.0
//
// WarpTM's temporal conflict detection in the system model (docs/htmsim.md): read-only
// transactions commit at the core when no chunk they read was written since their first read
// and every commit id allocated before their commit has retired; the others go to the commit
// units. The replay checks every committed read-only transaction against the serial order, so
// an audit that saw a torn state fails the run.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/machine/gpu/system.h"

namespace htm::gpu {
namespace {

// Bank accounts spread over both partitions and several chunks of the small machine. Even
// warps transfer between pseudo-random pairs; odd warps audit: a read-only transaction reading
// every account. The money is conserved, and every audit must have seen a consistent state
// (the replay).
class Audit : public Workload {
 public:
  static constexpr uint32_t kAccounts = 12, kStride = 5, kRounds = 6, kAudited = 3;
  explicit Audit(uint32_t seed) : seed_(seed) {}
  int threads() const override { return 256; }
  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(kAccounts * kStride, 0);
    for (uint32_t i = 0; i < kAccounts; ++i) {
      mem[i * kStride] = 100;
    }
    return mem;
  }
  Task Kernel(Lane& l) override {
    const auto me = static_cast<uint32_t>(l.tid());
    for (uint32_t round = 0; round < kRounds; ++round) {
      if ((me / 32) % 2 == 1) {
        const uint32_t first = Hash(me * 17 + round + seed_) % kAccounts;
        co_await l.Transaction([first](Lane& t) -> Task {
          for (uint32_t i = 0; i < kAudited; ++i) {
            co_await t.Load((first + i) % kAccounts * kStride);
          }
        });
      } else {
        const uint32_t h = Hash(me * 131 + round * 7 + seed_);
        const uint32_t from = h % kAccounts;
        const uint32_t to = (from + 1 + (h >> 8) % (kAccounts - 1)) % kAccounts;
        co_await l.Transaction([from, to](Lane& t) -> Task {
          const uint32_t a = co_await t.Load(from * kStride);
          const uint32_t b = co_await t.Load(to * kStride);
          co_await t.Store(from * kStride, a - 1);
          co_await t.Store(to * kStride, b + 1);
        });
      }
      co_await l.Compute(static_cast<int>(Hash(me + round + seed_) % 50));
    }
  }
  std::string Check(const std::vector<uint32_t>& mem) const override {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < kAccounts; ++i) {
      sum += mem[i * kStride];
    }
    return sum == kAccounts * 100 ? "" : "money not conserved: " + std::to_string(sum);
  }
  std::string Describe() const override { return "transfers and read-only audits"; }

 private:
  static uint32_t Hash(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    return x ^ (x >> 16);
  }
  uint32_t seed_;
};

// Every WarpTM configuration, several seeds: the audits commit at the core or, when an account
// they read was written since their first read, through the commit units; the runs replay.
TEST(GpuSystemTcd, ReadOnlyAuditsCommitAtTheCoreOrInTheUnits) {
  for (const TmMode tm :
       {TmMode::kWarpTm, TmMode::kWarpTmEa, TmMode::kWarpTmPg, TmMode::kWarpTmEaPg}) {
    uint64_t commits = 0, conflicts = 0;
    for (uint32_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(std::string(ToString(tm)) + " seed " + std::to_string(seed));
      Audit w(seed);
      const RunResult r = RunSystem(*FindMachine("small"), tm, w);
      ASSERT_TRUE(r.ok) << r.error << r.check;
      // 4 auditing warps x 32 lanes x kRounds audits.
      EXPECT_EQ(r.stats.tcd_lanes, r.stats.tcd_commits + r.stats.tcd_conflicts + r.stats.tcd_stale);
      EXPECT_GE(r.stats.tcd_lanes, 4u * 32u * Audit::kRounds);
      EXPECT_EQ(r.stats.read_only_commits, r.stats.tcd_commits);
      EXPECT_GT(r.stats.tcd_checks, 0u);
      EXPECT_GT(r.stats.tcd_updates, 0u);
      commits += r.stats.tcd_commits;
      conflicts += r.stats.tcd_conflicts;
    }
    EXPECT_GT(commits, 0u) << ToString(tm);
    EXPECT_GT(conflicts, 0u) << ToString(tm);
  }
}

// The paper's machine: the same, with 128-byte chunks and the 4 x 512 filter.
TEST(GpuSystemTcd, AuditsOnThePapersMachine) {
  Audit w(7);
  const RunResult r = RunSystem(*FindMachine("default"), TmMode::kWarpTm, w);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_GT(r.stats.tcd_commits, 0u);
  EXPECT_EQ(r.stats.read_only_commits, r.stats.tcd_commits);
}

// Off, read-only transactions go through the commit units as in KILO TM; KILO TM and SI have
// no temporal conflict detection.
TEST(GpuSystemTcd, OffOrOutsideWarpTmReadOnlyTriesUseTheUnits) {
  MachineConfig m = *FindMachine("small");
  m.tcd_on = false;
  Audit w(1);
  const RunResult r = RunSystem(m, TmMode::kWarpTm, w);
  ASSERT_TRUE(r.ok) << r.error << r.check;
  EXPECT_EQ(r.stats.tcd_lanes, 0u);
  EXPECT_EQ(r.stats.read_only_commits, 0u);
  Audit k(1);
  const RunResult rk = RunSystem(*FindMachine("small"), TmMode::kKiloTm, k);
  ASSERT_TRUE(rk.ok) << rk.error << rk.check;
  EXPECT_EQ(rk.stats.tcd_lanes, 0u);
  EXPECT_EQ(rk.stats.tcd_updates, 0u);
}

// A transfer's writes can land far apart when one commit unit is flooded: its pass waits in the
// flooded unit's input behind other logs. Pairs (X_k in partition 0, Y_k in partition 1) hold
// 100 between them; warps 2 and 3 move money from X_k to Y_k, warps 4 to 7 audit a pair (read
// X_k, then Y_k: read-only), warps 0 and 1 flood partition 1's commit unit with long read logs.
// An audit that read the new X_k and the old Y_k saw a transfer half done; it must not commit
// at the core before that transfer (the wait for the older commit ids), and the replay would
// name it if it did.
class Skewed : public Workload {
 public:
  static constexpr uint32_t kRounds = 4, kFloodReads = 24, kFloodBase = 24, kAudits = 10;
  static constexpr int kAuditGap = 30;
  int threads() const override { return 256; }
  std::vector<uint32_t> Init() override {
    std::vector<uint32_t> mem(FloodWord(63, kFloodReads) + 1, 0);
    for (uint32_t k = 0; k < 8; ++k) {
      mem[k] = 100;
    }
    return mem;
  }
  Task Kernel(Lane& l) override {
    const auto me = static_cast<uint32_t>(l.tid());
    const uint32_t warp = me / 32, k = me % 8;
    for (uint32_t round = 0; round < kRounds; ++round) {
      if (warp < 2) {
        co_await l.Transaction([me](Lane& t) -> Task {
          uint32_t sum = 0;
          for (uint32_t i = 0; i < kFloodReads; ++i) {
            sum += co_await t.Load(FloodWord(me, i));
          }
          co_await t.Store(FloodWord(me, 0), sum + 1);
        });
      } else if (warp < 4) {
        co_await l.Transaction([k](Lane& t) -> Task {
          const uint32_t x = co_await t.Load(k);
          const uint32_t y = co_await t.Load(8 + k);
          co_await t.Store(k, x - 1);
          co_await t.Store(8 + k, y + 1);
        });
      } else {
        for (uint32_t i = 0; i < kAudits; ++i) {  // spread over the run
          co_await l.Transaction([k](Lane& t) -> Task {
            co_await t.Load(k);
            co_await t.Load(8 + k);
          });
          co_await l.Compute(kAuditGap);
        }
      }
    }
  }
  std::string Check(const std::vector<uint32_t>& mem) const override {
    for (uint32_t k = 0; k < 8; ++k) {
      if (mem[k] + mem[8 + k] != 100) {
        return "pair " + std::to_string(k) + " holds " + std::to_string(mem[k] + mem[8 + k]);
      }
    }
    return "";
  }
  std::string Describe() const override { return "transfers, audits and a flooded unit"; }

 private:
  // Word i of flooder `me`'s region, in partition 1 (8-word interleaving, 2 partitions).
  static uint32_t FloodWord(uint32_t me, uint32_t i) {
    const uint32_t n = me * kFloodReads + i;
    return kFloodBase + (n / 8) * 16 + n % 8;
  }
};

TEST(GpuSystemTcd, AnAuditDoesNotOvertakeAHalfDoneTransfer) {
  uint64_t conflicts = 0, commits = 0;
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    MachineConfig m = *FindMachine("small");
    m.icnt_latency = static_cast<int>(seed);
    m.mem_latency = 4;
    m.tx_warps_per_core = 4;
    Skewed w;
    const RunResult r = RunSystem(m, TmMode::kWarpTm, w);
    ASSERT_TRUE(r.ok) << "interconnect latency " << seed << ": " << r.error << r.check;
    conflicts += r.stats.tcd_conflicts;
    commits += r.stats.tcd_commits;
  }
  EXPECT_GT(commits, 0u);
  EXPECT_GT(conflicts, 0u);
}

// A machine whose table the RTL would not accept is refused with the reason.
TEST(GpuSystemTcd, AnImpossibleTableIsRefused) {
  MachineConfig m = *FindMachine("small");
  m.tcd.ts_w = 6;
  const std::string err = CheckMachine(m);
  EXPECT_NE(err.find("temporal conflict detection"), std::string::npos) << err;
}

}  // namespace
}  // namespace htm::gpu
