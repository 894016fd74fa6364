// SPDX-License-Identifier: Apache-2.0
//
// Directed scenarios of htm_sys_run (docs/htm_sys.md, "htm_sys_run"), run by the model's own
// test (tests/golden/sys_run_model_test.cc) on the golden model alone and by the RTL's directed
// test (tests/rtl/sys_run_directed_test.cc) on the RTL in lockstep with the model. Each scenario
// takes the device's parameters and drives a Bench: a memory that answers the maintenance ports
// as htm_sys_part does (mt_ready high, a read's word two cycles after the read is taken) and a
// quiet_i that goes low for a while after core_start_o. The scenarios: the workloads' initial
// memory (htm::gpu::proto::Make(...)->Init()) and a passing check on a correct final memory
// written during Run; the check's code and index for each kind of corruption; the refusals with
// their codes; a refusal then an accepted run; the exact timing of Seed, Init (a word per
// cycle), Start and the check's states; the counters. The expected values are checked with
// Google Test on the model's outputs and state, which equal the RTL's whenever a lockstep step
// passed.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "htm/golden/sys_run_model.h"
#include "htm/tb/sys_config_inputs.h"
#include "htm/tb/sys_run_memory.h"
#include "htm/workloads/gpu/proto.h"
#include "htm/workloads/gpu/workload.h"

namespace htm::tb::sys_run {

namespace proto = ::htm::gpu::proto;
using golden::LowMask;
using golden::SysRunIn;
using golden::SysRunModel;
using golden::SysRunOut;
using golden::SysRunParams;
using Phase = SysRunModel::Phase;
using CState = SysRunModel::CState;

// The parameter sets of the scenarios: kDefault, kSmall and kOne are htm_sys_run's
// configurations of cmake/HtmConfigs.cmake; kWide (four partitions, 64 log rows) is the model's
// alone.
inline constexpr SysRunParams kDefault{
    .num_cores = 4, .num_parts = 2, .addr_w = 13, .ilv_log2 = 6, .max_reads = 8, .max_writes = 4};
inline constexpr SysRunParams kSmall{
    .num_cores = 2, .num_parts = 2, .addr_w = 9, .ilv_log2 = 2, .max_reads = 8, .max_writes = 4};
inline constexpr SysRunParams kOne{
    .num_cores = 1, .num_parts = 1, .addr_w = 8, .ilv_log2 = 0, .max_reads = 3, .max_writes = 4};
inline constexpr SysRunParams kWide{
    .num_cores = 2, .num_parts = 4, .addr_w = 12, .ilv_log2 = 2, .max_reads = 64, .max_writes = 64};
inline constexpr uint32_t kUnwritten = 0xDEAD0000u;

// The golden model as a scenario's device: Cycle() returns the outputs of the cycle and
// applies it; model() is the model (its phase and check state).
class ModelDev {
 public:
  ModelDev(const SysRunParams& p, const char* /*config*/) : m_(p) { m_.Reset(); }
  SysRunOut Cycle(const SysRunIn& in) {
    const SysRunOut o = m_.Eval(in);
    m_.Tick(in);
    return o;
  }
  const SysRunModel& model() const { return m_; }

 private:
  SysRunModel m_;
};

struct Access {
  uint64_t cycle;
  uint64_t addr;
  uint32_t data;
};

// The device (ModelDev, or a lockstep pair with the same interface) with a memory answering its
// maintenance ports as htm_sys_part does.
template <class Dev>
class Bench {
 public:
  Bench(const SysRunParams& p, const char* config)
      : p_(p), dev_(p, config), mem_(size_t{1} << p.addr_w, kUnwritten), pipe_(p.num_parts) {}

  // The inputs the test drives (start, cfg_*, quiet, events, ctr_sel); the mt_* are the bench's.
  SysRunIn in{};

  // One cycle: returns the outputs of this cycle.
  SysRunOut Step() {
    in.mt_ready = LowMask(p_.num_parts);
    in.mt_rvalid = 0;
    for (int q = 0; q < p_.num_parts; ++q) {
      if (pipe_[q][1].valid) {
        in.mt_rvalid |= uint64_t{1} << q;
        in.mt_rdata[q] = pipe_[q][1].data;
      } else {
        in.mt_rdata[q] = 0;
      }
    }
    phases_.push_back(model().phase());
    cstates_.push_back(model().cstate());
    const SysRunOut o = dev_.Cycle(in);
    for (int q = 0; q < p_.num_parts; ++q) {
      pipe_[q][1] = pipe_[q][0];
      pipe_[q][0] = {};
      if (((o.mt_valid >> q) & 1) == 0) {
        continue;
      }
      const uint64_t addr = o.mt_addr[q];
      EXPECT_EQ(static_cast<int>((addr >> p_.ilv_log2) & (p_.num_parts - 1)), q)
          << "maintenance access to " << addr << " offered to partition " << q;
      if (((o.mt_we >> q) & 1) != 0) {
        mem_[addr] = static_cast<uint32_t>(o.mt_wdata[q]);
        writes_.push_back({cycle_, addr, static_cast<uint32_t>(o.mt_wdata[q])});
      } else {
        pipe_[q][0] = {true, mem_[addr]};
        reads_.push_back({cycle_, addr, mem_[addr]});
      }
    }
    ++cycle_;
    return o;
  }

  const SysRunParams& params() const { return p_; }
  std::vector<uint32_t>& mem() { return mem_; }
  const SysRunModel& model() const { return dev_.model(); }
  uint64_t cycle() const { return cycle_; }
  const std::vector<Access>& writes() const { return writes_; }
  const std::vector<Access>& reads() const { return reads_; }
  const std::vector<Phase>& phases() const { return phases_; }
  const std::vector<CState>& cstates() const { return cstates_; }

 private:
  struct Slot {
    bool valid = false;
    uint32_t data = 0;
  };
  SysRunParams p_;
  Dev dev_;
  std::vector<uint32_t> mem_;
  std::vector<std::array<Slot, 2>> pipe_;
  uint64_t cycle_ = 0;
  std::vector<Access> writes_, reads_;
  std::vector<Phase> phases_;
  std::vector<CState> cstates_;
};

// True when a device with parameters `p` accepts the workload `w` (SysRunRefusal 0).
inline bool Accepted(const SysRunParams& p, const proto::Params& w) {
  SysRunIn in{};
  SetConfigInputs(in, w);
  return golden::SysRunRefusal(p, in) == 0;
}

// The final memory of a correct execution (tb::SysRunFinalMemory), checked by the workload.
inline std::vector<uint32_t> FinalMemory(const proto::Params& w) {
  std::vector<uint32_t> mem = SysRunFinalMemory(w);
  EXPECT_EQ(proto::Make(w)->Check(mem), "") << "the test's own final memory is wrong";
  return mem;
}

// A corruption that writes `mem` over the memory's first words.
inline std::function<void(std::vector<uint32_t>&)> WriteMemory(const std::vector<uint32_t>& mem) {
  return [&mem](std::vector<uint32_t>& m) { std::copy(mem.begin(), mem.end(), m.begin()); };
}

struct RunResult {
  SysRunOut done;                 // the outputs in the first Done cycle
  std::vector<uint32_t> init;     // memory when core_start_o was seen
  uint64_t start_cycle = 0;       // the cycle start_i was taken
  uint64_t core_start_cycle = 0;  // the cycle of core_start_o
  uint64_t check_cycle = 0;       // the first cycle of Check
  uint64_t done_cycle = 0;        // the first cycle of Done
};

// A whole run: start, Init, a Run of `busy` cycles with quiet_i low during which `corrupt`
// changes the memory (the final memory of the run), Check, Done.
template <class Dev>
RunResult RunOnce(Bench<Dev>& bench, const proto::Params& w,
                  const std::function<void(std::vector<uint32_t>&)>& corrupt, int busy = 7) {
  RunResult r;
  SetConfigInputs(bench.in, w);
  bench.in.quiet = 1;
  bench.in.start = 1;
  r.start_cycle = bench.cycle();
  bench.Step();
  bench.in.start = 0;
  int quiet_low = -1;
  for (int i = 0; i < 400000; ++i) {
    const uint64_t cyc = bench.cycle();
    if (quiet_low == 0) {
      bench.in.quiet = 1;
    }
    const Phase ph = bench.model().phase();
    const SysRunOut o = bench.Step();
    if (o.core_start) {
      r.core_start_cycle = cyc;
      r.init = bench.mem();
      corrupt(bench.mem());
      bench.in.quiet = 0;
      quiet_low = busy;
    } else if (quiet_low > 0) {
      --quiet_low;
    }
    if (ph == Phase::kCheck && r.check_cycle == 0) {
      r.check_cycle = cyc;
    }
    if (o.done) {
      r.done = o;
      r.done_cycle = cyc;
      return r;
    }
  }
  ADD_FAILURE() << "the run did not end";
  return r;
}

inline proto::Params Wl(proto::Kind k, int threads, int objlog2, uint32_t seed, int reads = 0,
                        int writes = 0, int cold = 0) {
  proto::Params w;
  w.kind = k;
  w.threads = threads;
  w.objects_log2 = objlog2;
  w.seed = seed;
  w.reads = reads;
  w.writes = writes;
  w.cold = cold;
  return w;
}

inline std::string Describe(const proto::Params& w) {
  return std::string(proto::ToString(w.kind)) + " threads " + std::to_string(w.threads) +
         " objlog2 " + std::to_string(w.objects_log2) + " seed " + std::to_string(w.seed);
}

// ---------------------------------------------------------------------------------------------
// Initial memory and a passing check: every workload of the list the device accepts.

template <class Dev>
void InitAndPassingCheck(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  const std::vector<proto::Params> cases = {
      Wl(proto::Kind::kAtm, 64, 5, 1),
      Wl(proto::Kind::kAtm, 300, 9, 77),
      Wl(proto::Kind::kHt, 100, 3, 5),
      Wl(proto::Kind::kHt, 1000, 7, 0xC0FFEE),
      Wl(proto::Kind::kEb, 200, 6, 3, 4, 2, 2),
      Wl(proto::Kind::kEb, 50, 4, 9, 1, 3, 0),
      Wl(proto::Kind::kAtm, 10, 2, 2),
      Wl(proto::Kind::kHt, 20, 3, 4),
      Wl(proto::Kind::kEb, 30, 1, 6, 0, 1, 2),
      Wl(proto::Kind::kHt, 500, 6, 11),
      Wl(proto::Kind::kEb, 100, 5, 12, 16, 16, 16),
  };
  int ran = 0;
  for (const proto::Params& w : cases) {
    if (!Accepted(p, w)) {
      continue;
    }
    ++ran;
    SCOPED_TRACE(Describe(w));
    Bench<Dev> bench(p, config);
    const std::vector<uint32_t> want_init = proto::Make(w)->Init();
    const std::vector<uint32_t> final_mem = FinalMemory(w);
    const RunResult r = RunOnce(bench, w, WriteMemory(final_mem));
    ASSERT_GE(r.init.size(), want_init.size());
    for (size_t i = 0; i < want_init.size(); ++i) {
      ASSERT_EQ(r.init[i], want_init[i]) << "initial word " << i;
    }
    for (size_t i = want_init.size(); i < r.init.size(); ++i) {
      ASSERT_EQ(r.init[i], kUnwritten) << "word " << i << " beyond the workload's memory";
    }
    EXPECT_EQ(bench.writes().size(), want_init.size());
    EXPECT_TRUE(r.done.done);
    EXPECT_FALSE(r.done.busy);
    EXPECT_FALSE(r.done.cfg_err);
    EXPECT_EQ(r.done.check_code, 0u);
    EXPECT_EQ(r.done.check_idx, 0u);
    EXPECT_TRUE(r.done.check_ok);
    EXPECT_EQ(r.done.run_seed_hash, proto::SeedHash(w.seed));
    // The check reads nothing but the workload's memory.
    for (const Access& a : bench.reads()) {
      EXPECT_LT(a.addr, want_init.size());
    }
    // The results hold in Done.
    for (int i = 0; i < 5; ++i) {
      const SysRunOut o = bench.Step();
      EXPECT_TRUE(o.done && o.check_ok);
      EXPECT_EQ(o.mt_valid, 0u);
    }
  }
  EXPECT_GT(ran, 0) << "no workload of the list fits";
}

// ---------------------------------------------------------------------------------------------
// Failures: each corruption of a correct final memory gives its code and index.

struct Corruption {
  const char* what;
  proto::Params w;
  // Changes the correct final memory; returns the expected index.
  std::function<uint64_t(std::vector<uint32_t>&)> apply;
  uint64_t code;
};

// HT-P helpers over a final memory.
inline uint32_t HtBuckets(const proto::Params& w) {
  return 1u << w.objects_log2;
}
// The nodes of bucket b's list, from its head.
inline std::vector<uint32_t> HtList(const std::vector<uint32_t>& mem, uint32_t b) {
  std::vector<uint32_t> nodes;
  for (uint32_t n = mem[b]; n != gpu::kNil && nodes.size() < mem.size(); n = mem[n + 1]) {
    nodes.push_back(n);
  }
  return nodes;
}
// The first bucket whose list has at least `len` nodes.
inline uint32_t HtBucketWith(const std::vector<uint32_t>& mem, uint32_t buckets, size_t len) {
  for (uint32_t b = 0; b < buckets; ++b) {
    if (HtList(mem, b).size() >= len) {
      return b;
    }
  }
  throw std::logic_error("no bucket long enough");
}

// Every corruption whose workload the device accepts.
template <class Dev>
void CheckFailures(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  const proto::Params atm = Wl(proto::Kind::kAtm, 100, 6, 21);
  const proto::Params eb = Wl(proto::Kind::kEb, 80, 5, 22, 2, 2, 2);
  const proto::Params ht = Wl(proto::Kind::kHt, 120, 3, 23);
  const uint32_t a = HtBuckets(ht);
  const std::vector<Corruption> cases = {
      {"a balance changed", atm,
       [](std::vector<uint32_t>& m) {
         m[17] += 3;
         return uint64_t{0};
       },
       1},
      {"a balance moved between two accounts passes", atm,
       [](std::vector<uint32_t>& m) {
         m[3] -= 5;
         m[40] += 5;
         return uint64_t{0};
       },
       0},
      {"an amount changed is not checked", atm,
       [](std::vector<uint32_t>& m) {
         m[64 + 3] += 1;
         return uint64_t{0};
       },
       0},
      {"an EB hot word changed", eb,
       [](std::vector<uint32_t>& m) {
         m[5] ^= 0x100;
         return uint64_t{0};
       },
       2},
      {"an EB private word changed", eb,
       [](std::vector<uint32_t>& m) {
         m[32 + 80 + 7] -= 1;
         return uint64_t{0};
       },
       2},
      {"an EB update lost", eb,
       [](std::vector<uint32_t>& m) {
         m.back() -= 1;
         return uint64_t{0};
       },
       2},
      {"an HT count changed", ht,
       [a](std::vector<uint32_t>& m) {
         m[a + 2] += 1;
         return uint64_t{0};
       },
       3},
      {"two HT counts changed, their sum kept", ht,
       [a](std::vector<uint32_t>& m) {
         const uint32_t b = HtBucketWith(m, a, 1);
         m[a + b] -= 1;
         m[a + (b + 1) % a] += 1;
         return uint64_t{std::min(b, (b + 1) % a)};
       },
       4},
      {"an HT key moved to another bucket", ht,
       [a](std::vector<uint32_t>& m) {
         // Unlink the head node of bucket b and link it in front of bucket b2's list, counts
         // adjusted: the walk reaches it in b2.
         const uint32_t b = HtBucketWith(m, a, 1);
         const uint32_t b2 = (b + 3) % a;
         const uint32_t n = m[b];
         m[b] = m[n + 1];
         --m[a + b];
         m[n + 1] = m[b2];
         m[b2] = n;
         ++m[a + b2];
         return uint64_t{n};
       },
       5},
      {"an HT list cut", ht,
       [a](std::vector<uint32_t>& m) {
         const uint32_t b = HtBucketWith(m, a, 3);
         m[HtList(m, b)[1] + 1] = gpu::kNil;
         return uint64_t{b};
       },
       4},
      {"an HT list looped", ht,
       [a](std::vector<uint32_t>& m) {
         const uint32_t b = HtBucketWith(m, a, 2);
         const std::vector<uint32_t> l = HtList(m, b);
         m[l.back() + 1] = l.front();
         return uint64_t{b};
       },
       4},
      {"an HT pointer past the nodes", ht,
       [a](std::vector<uint32_t>& m) {
         const uint32_t b = HtBucketWith(m, a, 2);
         m[HtList(m, b)[0] + 1] = 2 * a + 2 * 120;
         return uint64_t{b};
       },
       6},
      {"an HT pointer into the counts", ht,
       [a](std::vector<uint32_t>& m) {
         const uint32_t b = HtBucketWith(m, a, 1);
         m[b] = a + 2;
         return uint64_t{b};
       },
       6},
      {"an HT pointer to a node's next word", ht,
       [a](std::vector<uint32_t>& m) {
         const uint32_t b = HtBucketWith(m, a, 1);
         m[b] += 1;
         return uint64_t{b};
       },
       6},
      {"an HT key changed", ht,
       [a](std::vector<uint32_t>& m) {
         const uint32_t b = HtBucketWith(m, a, 1);
         const uint32_t n = m[b];
         // A key whose bucket differs.
         uint32_t k = m[n];
         do {
           ++k;
         } while ((proto::LowBias32(k ^ proto::kHtBucketSalt) & (a - 1)) == b);
         m[n] = k;
         return uint64_t{n};
       },
       5},
  };
  int ran = 0;
  for (const Corruption& c : cases) {
    if (!Accepted(p, c.w)) {
      continue;
    }
    ++ran;
    SCOPED_TRACE(c.what);
    Bench<Dev> bench(p, config);
    std::vector<uint32_t> final_mem = FinalMemory(c.w);
    const uint64_t idx = c.apply(final_mem);
    const RunResult r = RunOnce(bench, c.w, WriteMemory(final_mem));
    EXPECT_TRUE(r.done.done);
    EXPECT_FALSE(r.done.cfg_err);
    EXPECT_EQ(r.done.check_code, c.code);
    EXPECT_EQ(r.done.check_idx, c.code == 0 ? 0 : idx);
    EXPECT_EQ(r.done.check_ok, c.code == 0 ? 1u : 0u);
  }
  EXPECT_GT(ran, 0) << "no corruption's workload fits";
}

// ---------------------------------------------------------------------------------------------
// Refusals: the rows whose parameters are the device's.

template <class Dev>
void Refusals(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  struct Case {
    SysRunParams p;
    int wl, threads, objlog2, r, w, c;
    uint64_t code;
  };
  const std::vector<Case> cases = {
      {kDefault, 3, 10, 4, 0, 0, 0, 1},
      {kDefault, 3, 0, 0, 0, 0, 0, 1},
      {kDefault, 0, 0, 4, 0, 0, 0, 2},
      {kDefault, 1, 0, 0, 0, 0, 0, 2},
      {kDefault, 0, 10, 0, 0, 0, 0, 3},
      {kDefault, 2, 10, 14, 1, 1, 1, 3},
      {kDefault, 0, 10, 13, 0, 0, 0, 4},    // 2 * 8192 + 16 words
      {kDefault, 0, 10, 12, 0, 0, 0, 0},    // 8208 words: fits? no: 2^13 = 8192
      {kDefault, 1, 1000, 11, 0, 0, 0, 4},  // 3 * 2048 + 2000 = 8144 fits? (below)
      {kDefault, 2, 300, 12, 1, 1, 16, 4},  // 4096 + 16 * 300
      {kDefault, 2, 10, 4, 4, 2, 3, 5},     // W + C = 5 > MaxWrites 4
      {kDefault, 2, 10, 4, 6, 1, 2, 5},     // R + W + C = 9 > MaxReads 8
      {kOne, 0, 10, 4, 0, 0, 0, 0},         // ATM-P: 3 reads of MaxReads 3
      {kOne, 2, 10, 4, 2, 1, 1, 5},         // EB-P: 4 reads > 3
      {kOne, 1, 10, 8, 0, 0, 0, 4},         // objlog2 8 = AddrW: 3 * 256 + 20 words
      {kOne, 1, 10, 9, 0, 0, 0, 3},         // objlog2 9 > AddrW 8
      {kOne, 1, 80, 5, 0, 0, 0, 0},         // 3 * 32 + 160 = 256 words
      {kOne, 1, 81, 5, 0, 0, 0, 4},         // 258 words
      {kSmall, 0, 10, 7, 0, 0, 0, 0},       // 2 * 128 + 16 = 272 words
      {kSmall, 0, 10, 8, 0, 0, 0, 4},       // 2 * 256 + 16 = 528 > 512
      {kSmall, 0, 10, 10, 0, 0, 0, 3},      // objlog2 10 > AddrW 9
      {kSmall, 2, 160, 5, 0, 1, 3, 0},      // 32 + 3 * 160 = 512 words
      {kSmall, 2, 161, 5, 0, 1, 3, 4},      // 515 words
      {kSmall, 2, 10, 4, 6, 1, 2, 5},       // R + W + C = 9 > MaxReads 8
      {kSmall, 2, 10, 4, 0, 0, 17, 5},      // W + C = 17 > MaxWrites 4 before C > 16
      {kDefault, 2, 10, 4, 0, 0, 0, 6},     // no word
      {kDefault, 2, 10, 1, 0, 3, 0, 6},     // W > 2^objlog2
      {kWide, 2, 10, 4, 17, 0, 0, 6},       // R > 16
      {kWide, 2, 10, 5, 0, 17, 0, 6},       // W > 16
      {kWide, 2, 10, 4, 0, 0, 20, 6},       // C > 16
      {kWide, 2, 10, 4, 0, 0, 16, 0},
      {kDefault, 0, 10, 4, 31, 31, 31, 0},  // R, W, C ignored but by EB-P
  };
  int ran = 0;
  for (const Case& c : cases) {
    if (!(c.p == p)) {
      continue;
    }
    ++ran;
    // The memory size rows above: 2 * 2^12 + 16 = 8208 > 8192 (4); 3 * 2048 + 2000 = 8144.
    uint64_t code = c.code;
    const uint64_t s = golden::SysRunMemWords(c.wl, static_cast<uint64_t>(c.threads), c.objlog2,
                                              static_cast<uint64_t>(c.c));
    if (c.wl == 0 && c.objlog2 == 12) {
      ASSERT_EQ(s, 8208u);
      code = 4;
    }
    if (c.wl == 1 && c.objlog2 == 11) {
      ASSERT_EQ(s, 8144u);
      code = 0;
    }
    SCOPED_TRACE("wl " + std::to_string(c.wl) + " threads " + std::to_string(c.threads) +
                 " objlog2 " + std::to_string(c.objlog2) + " R W C " + std::to_string(c.r) + " " +
                 std::to_string(c.w) + " " + std::to_string(c.c));
    Bench<Dev> bench(p, config);
    bench.in.cfg_wl = static_cast<uint64_t>(c.wl);
    bench.in.cfg_threads = static_cast<uint64_t>(c.threads);
    bench.in.cfg_objlog2 = static_cast<uint64_t>(c.objlog2);
    bench.in.cfg_reads = static_cast<uint64_t>(c.r);
    bench.in.cfg_writes = static_cast<uint64_t>(c.w);
    bench.in.cfg_cold = static_cast<uint64_t>(c.c);
    bench.in.cfg_seed = 5;
    bench.in.quiet = 1;
    bench.in.start = 1;
    const SysRunOut o0 = bench.Step();
    EXPECT_FALSE(o0.busy || o0.done);
    bench.in.start = 0;
    bench.in.ev_commit = 1;  // events outside Start and Run are not counted
    const SysRunOut o = bench.Step();
    EXPECT_EQ(o.cfg_err, code != 0 ? 1u : 0u);
    EXPECT_EQ(o.cfg_err_code, code);
    EXPECT_EQ(o.done, code != 0 ? 1u : 0u);
    EXPECT_EQ(o.busy, code != 0 ? 0u : 1u);
    EXPECT_EQ(o.run_wl, static_cast<uint64_t>(c.wl));
    if (code != 0) {
      EXPECT_FALSE(o.check_ok);
      EXPECT_EQ(o.check_code, 0u);
      EXPECT_EQ(o.check_idx, 0u);
      for (uint64_t sel = 0; sel < 8; ++sel) {
        bench.in.ctr_sel = sel;
        EXPECT_EQ(bench.Step().ctr, 0u);
      }
      EXPECT_TRUE(bench.writes().empty());
    }
  }
  EXPECT_GT(ran, 0) << "no row for these parameters";
}

template <class Dev>
void RefusedThenAccepted(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  Bench<Dev> bench(p, config);
  bench.in.cfg_wl = 3;
  bench.in.start = 1;
  bench.Step();
  bench.in.start = 0;
  SysRunOut o = bench.Step();
  ASSERT_TRUE(o.done && o.cfg_err);
  EXPECT_EQ(o.cfg_err_code, 1u);
  // A start in Done is taken; it clears the refusal.
  const proto::Params w = Wl(proto::Kind::kAtm, 20, 3, 8);
  const std::vector<uint32_t> final_mem = FinalMemory(w);
  const RunResult r = RunOnce(bench, w, WriteMemory(final_mem));
  EXPECT_TRUE(r.done.check_ok);
  EXPECT_FALSE(r.done.cfg_err);
  EXPECT_EQ(r.done.cfg_err_code, 0u);
  // A start while busy is ignored.
  SetConfigInputs(bench.in, w);
  bench.in.start = 1;
  bench.Step();
  bench.in.start = 0;
  o = bench.Step();
  EXPECT_TRUE(o.busy);
  bench.in.start = 1;
  bench.in.cfg_wl = 3;
  o = bench.Step();
  bench.in.start = 0;
  o = bench.Step();
  EXPECT_TRUE(o.busy);
  EXPECT_FALSE(o.cfg_err);
  EXPECT_EQ(o.run_wl, 0u);
}

// ---------------------------------------------------------------------------------------------
// Timing.

template <class Dev>
void SeedInitStartTiming(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  const proto::Params w = Wl(proto::Kind::kEb, 40, 4, 0x1234, 0, 1, 2);
  const uint64_t s = 16 + 2 * 40;
  Bench<Dev> bench(p, config);
  const std::vector<uint32_t> final_mem = FinalMemory(w);
  SetConfigInputs(bench.in, w);
  bench.in.quiet = 1;
  bench.in.start = 1;
  const uint64_t t0 = bench.cycle();
  bench.Step();
  bench.in.start = 0;
  // Seed: 6 cycles (the draw's input, its result five cycles later); the hash in Init.
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(bench.model().phase(), Phase::kSeed) << i;
    const SysRunOut o = bench.Step();
    EXPECT_TRUE(o.busy);
    EXPECT_FALSE(o.core_start);
    EXPECT_EQ(o.mt_valid, 0u);
  }
  const uint64_t i0 = t0 + 7;
  ASSERT_EQ(bench.cycle(), i0);
  EXPECT_EQ(bench.model().phase(), Phase::kInit);
  uint64_t core_start = 0;
  while (core_start == 0 && bench.cycle() < i0 + 1000) {
    const uint64_t cyc = bench.cycle();
    const SysRunOut o = bench.Step();
    if (o.core_start) {
      core_start = cyc;
      EXPECT_EQ(o.run_seed_hash, proto::SeedHash(w.seed));
    }
  }
  // Init: word k written in cycle i0 + 6 + k; the last pop, one cycle with ia = S and
  // cnt = 0, then Start.
  ASSERT_EQ(bench.writes().size(), s);
  for (uint64_t k = 0; k < s; ++k) {
    EXPECT_EQ(bench.writes()[k].addr, k);
    EXPECT_EQ(bench.writes()[k].cycle, i0 + 6 + k) << "word " << k;
  }
  EXPECT_EQ(core_start, i0 + s + 7);
  EXPECT_EQ(core_start, t0 + s + 14);
  // Start lasts one cycle; Run then waits for quiet_i low and back high.
  std::copy(final_mem.begin(), final_mem.end(), bench.mem().begin());
  for (int i = 0; i < 4; ++i) {  // quiet high before any busy cycle: stays in Run
    const SysRunOut o = bench.Step();
    EXPECT_FALSE(o.core_start);
    EXPECT_EQ(bench.model().phase(), Phase::kRun);
  }
  bench.in.quiet = 0;
  bench.Step();
  bench.in.quiet = 1;
  EXPECT_EQ(bench.model().phase(), Phase::kRun);
  bench.Step();  // the quiet cycle
  EXPECT_EQ(bench.model().phase(), Phase::kCheck);
  EXPECT_EQ(bench.model().cstate(), CState::kCStart);
  // Run: 1 (Start) + 4 + 1 counted cycles.
  bench.in.ctr_sel = 0;
  EXPECT_EQ(bench.Step().ctr, 6u);
}

// The check's states cycle by cycle, from the page's rules: a read is CRd (taken at once),
// CWt twice (the word two cycles after the read), then its continuation.
inline void ExpectRead(std::vector<CState>& want, CState ret) {
  want.push_back(CState::kCRd);
  want.push_back(CState::kCWt);
  want.push_back(CState::kCWt);
  want.push_back(ret);
}

// The states of Check from its first cycle to its last.
template <class Dev>
std::vector<CState> CheckTrace(const Bench<Dev>& bench) {
  std::vector<CState> got;
  for (size_t i = 0; i < bench.phases().size(); ++i) {
    if (bench.phases()[i] == Phase::kCheck) {
      got.push_back(bench.cstates()[i]);
    }
  }
  return got;
}

template <class Dev>
void CheckTimingSums(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  for (const proto::Params& w :
       {Wl(proto::Kind::kAtm, 9, 2, 3), Wl(proto::Kind::kEb, 3, 1, 4, 0, 1, 1)}) {
    SCOPED_TRACE(Describe(w));
    Bench<Dev> bench(p, config);
    const std::vector<uint32_t> final_mem = FinalMemory(w);
    const RunResult r = RunOnce(bench, w, WriteMemory(final_mem));
    EXPECT_TRUE(r.done.check_ok);
    const uint64_t words = w.kind == proto::Kind::kAtm ? 4 : 2 + 3;
    std::vector<CState> want = {CState::kCStart};
    for (uint64_t k = 0; k < words; ++k) {
      ExpectRead(want, CState::kKSum);
    }
    want.push_back(CState::kKEnd);
    EXPECT_EQ(CheckTrace(bench), want);
    EXPECT_EQ(r.done_cycle, r.check_cycle + 4 * words + 2);
    // Word k's read is taken in the check's cycle 1 + 4k.
    const std::vector<Access>& reads = bench.reads();
    ASSERT_EQ(reads.size(), words);
    for (uint64_t k = 0; k < words; ++k) {
      EXPECT_EQ(reads[k].addr, k);
      EXPECT_EQ(reads[k].cycle, r.check_cycle + 1 + 4 * k);
    }
  }
}

template <class Dev>
void CheckTimingHashTable(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  // Two buckets, three threads: the trace from the final memory's lists.
  const proto::Params w = Wl(proto::Kind::kHt, 3, 1, 17);
  Bench<Dev> bench(p, config);
  const std::vector<uint32_t> final_mem = FinalMemory(w);
  const RunResult r = RunOnce(bench, w, WriteMemory(final_mem));
  EXPECT_TRUE(r.done.check_ok);
  std::vector<CState> want = {CState::kCStart};
  ExpectRead(want, CState::kHCnt);
  ExpectRead(want, CState::kHCnt);
  want.push_back(CState::kHCntEnd);
  for (uint32_t b = 0; b < 2; ++b) {
    ExpectRead(want, CState::kHLen);
    ExpectRead(want, CState::kHPtr);
    want.push_back(CState::kHNode);
    for (size_t k = 0; k < HtList(final_mem, b).size(); ++k) {
      ExpectRead(want, CState::kHKey);
      for (int i = 0; i < 5; ++i) {
        want.push_back(CState::kHHash);
      }
      ExpectRead(want, CState::kHPtr);
      want.push_back(CState::kHNode);
    }
  }
  EXPECT_EQ(CheckTrace(bench), want);
  EXPECT_EQ(r.done_cycle, r.check_cycle + want.size());
}

// A looped list fails in the HNode after its count's nodes: the walk reads no key beyond them.
template <class Dev>
void CheckTimingLoopedList(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  const proto::Params w = Wl(proto::Kind::kHt, 40, 2, 31);
  const uint32_t a = HtBuckets(w);
  std::vector<uint32_t> final_mem = FinalMemory(w);
  const uint32_t b = HtBucketWith(final_mem, a, 2);
  const std::vector<uint32_t> l = HtList(final_mem, b);
  size_t keys = 0;
  for (uint32_t i = 0; i <= b; ++i) {
    keys += HtList(final_mem, i).size();
  }
  final_mem[l.back() + 1] = l.front();
  Bench<Dev> bench(p, config);
  const RunResult r = RunOnce(bench, w, WriteMemory(final_mem));
  EXPECT_EQ(r.done.check_code, 4u);
  EXPECT_EQ(r.done.check_idx, b);
  const std::vector<CState> got = CheckTrace(bench);
  EXPECT_EQ(static_cast<size_t>(std::count(got.begin(), got.end(), CState::kHKey)), keys);
  EXPECT_EQ(got.back(), CState::kHNode);
}

// ---------------------------------------------------------------------------------------------
// Counters: the events of every core and partition (as many as the device has; with four
// cores and two partitions, ev_commit i & 0xF, ev_abort 3i & 0xF, ev_alloc_fail 8 in even
// cycles, ev_load i & 3, ev_cu_msg 3).

template <class Dev>
void Counters(const SysRunParams& p, const char* config) {
  SCOPED_TRACE(config);
  const uint64_t cores = LowMask(p.num_cores);
  const uint64_t parts = LowMask(p.num_parts);
  Bench<Dev> bench(p, config);
  const proto::Params w = Wl(proto::Kind::kAtm, 10, 3, 2);
  const std::vector<uint32_t> final_mem = FinalMemory(w);
  SetConfigInputs(bench.in, w);
  bench.in.quiet = 1;
  bench.in.ev_commit = cores;  // outside Start and Run: not counted
  bench.in.start = 1;
  bench.Step();
  bench.in.start = 0;
  while (!bench.model().Eval(bench.in).core_start) {
    bench.Step();
  }
  // Start, 8 Run cycles with quiet low, the quiet cycle: events in all ten, cycles in nine.
  std::array<uint64_t, 8> want{};
  int i = 0;
  for (; bench.model().phase() != Phase::kCheck; ++i) {
    ASSERT_LT(i, 100);
    const bool in_run = bench.model().phase() == Phase::kRun;
    bench.in.quiet = in_run && i <= 8 ? 0 : 1;
    bench.in.ev_commit = static_cast<uint64_t>(i) & 0xF & cores;
    bench.in.ev_abort = (static_cast<uint64_t>(i) * 3) & 0xF & cores;
    bench.in.ev_alloc_fail = i % 2 == 0 ? uint64_t{1} << (p.num_cores - 1) : 0;
    bench.in.ev_load = static_cast<uint64_t>(i) & 3 & parts;
    bench.in.ev_cu_msg = 3 & parts;
    bench.in.cu_busy = i % 3 == 0 ? 1 : 0;
    const bool leaving = in_run && bench.in.quiet != 0;
    want[0] += leaving ? 0 : 1;
    want[1] += static_cast<uint64_t>(std::popcount(bench.in.ev_commit));
    want[2] += static_cast<uint64_t>(std::popcount(bench.in.ev_abort));
    want[3] += static_cast<uint64_t>(std::popcount(bench.in.ev_alloc_fail));
    want[4] += static_cast<uint64_t>(std::popcount(bench.in.ev_load));
    want[5] += static_cast<uint64_t>(std::popcount(bench.in.ev_cu_msg));
    want[6] += static_cast<uint64_t>(std::popcount(bench.in.cu_busy));
    if (i == 0) {
      std::copy(final_mem.begin(), final_mem.end(), bench.mem().begin());
    }
    bench.Step();
  }
  EXPECT_EQ(i, 10);
  EXPECT_EQ(want[0], 9u);
  // Check and Done: nothing counted; the counters hold until the next start.
  for (int k = 0; k < 200 && !bench.model().Eval(bench.in).done; ++k) {
    bench.Step();
  }
  for (int k = 0; k < 3; ++k) {
    for (uint64_t sel = 0; sel < 8; ++sel) {
      bench.in.ctr_sel = sel;
      const SysRunOut o = bench.Step();
      EXPECT_TRUE(o.done);
      EXPECT_EQ(o.ctr, want[sel]) << "counter " << sel;
    }
  }
  // A taken start clears them.
  bench.in.start = 1;
  bench.Step();
  bench.in.start = 0;
  for (uint64_t sel = 0; sel < 8; ++sel) {
    bench.in.ctr_sel = sel;
    EXPECT_EQ(bench.Step().ctr, 0u);
  }
}

}  // namespace htm::tb::sys_run
