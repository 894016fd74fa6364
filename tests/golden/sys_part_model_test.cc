// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the memory partition's golden model (no RTL): the random bench, with its
// scoreboard, runs clean in every named configuration and reaches loads, commits, AllocFail,
// idle phases and the gating rule; the scoreboard catches a wrong, a lost and a stray reply; the
// address map and the message formats round-trip; illegal parameters are rejected.
#include "htm/golden/sys_part_model.h"

#include <cstdio>
#include <stdexcept>

#include <gtest/gtest.h>

#include "htm/configs/htm_sys_part.h"
#include "htm/tb/benches/sys_part_bench.h"

namespace htm::golden {
namespace {

uint64_t Count(const Coverage& c, const std::string& name) {
  for (const CoverEvent& e : c) {
    if (e.name == name) {
      return e.count;
    }
  }
  ADD_FAILURE() << "no event " << name;
  return 0;
}

TEST(SysPartModel, RandomTrafficWithTheScoreboardInEveryConfiguration) {
  for (const auto& [name, p] : configs::htm_sys_part::kAll) {
    SCOPED_TRACE(std::string(name));
    SysPartModel m(p);
    tb::SysPartBench::Knobs k;
    k.bad_per_million = 0;
    tb::SysPartBench bench(p, 3, k);
    for (int cycle = 0; cycle < 100000; ++cycle) {
      const SysPartIn in = bench.Next();
      const SysPartOut out = m.Eval(in);
      ASSERT_EQ(out.err, 0u) << "error flagged at cycle " << cycle;
      m.Tick(in);
      ASSERT_NO_THROW(bench.Observe(in, out)) << "cycle " << cycle;
    }
    std::printf(
        "%s: %llu loads, %llu commit-unit replies, %llu AllocFail, %llu committed, %llu "
        "maintenance reads in %llu idle phases\n",
        std::string(name).c_str(), (unsigned long long)bench.loads_answered(),
        (unsigned long long)bench.cu_replies(), (unsigned long long)bench.alloc_fails(),
        (unsigned long long)bench.committed(), (unsigned long long)bench.mt_checked(),
        (unsigned long long)bench.idle_phases());
    EXPECT_GT(bench.loads_answered(), 1000u);
    EXPECT_GT(bench.committed(), 200u);
    EXPECT_GT(bench.alloc_fails(), 0u);
    EXPECT_GT(bench.mt_checked(), 20u);
    EXPECT_GT(bench.idle_phases(), 3u);
    const Coverage c = m.coverage();
    EXPECT_GT(Count(c, "load_gated"), 0u);
    EXPECT_GT(Count(c, "alloc_gated"), 0u);
    EXPECT_GT(Count(c, "mem_contention"), 0u);
    EXPECT_GT(Count(c, "cu.revalidation") + Count(c, "cu.val_fail"), 0u);
  }
}

// Steps the model and the bench until a reply of `kind` is on the output and taken.
template <class F>
void RunUntil(SysPartModel& m, tb::SysPartBench& bench, SysRep kind, F corrupt) {
  for (int cycle = 0; cycle < 200000; ++cycle) {
    const SysPartIn in = bench.Next();
    SysPartOut out = m.Eval(in);
    m.Tick(in);
    if (out.rep_valid && in.rep_ready && UnpackSysPartRep(m.params(), out.rep_data).kind == kind) {
      corrupt(out);
      bench.Observe(in, out);
      return;
    }
    bench.Observe(in, out);
  }
  FAIL() << "no reply of that kind";
}

TEST(SysPartModel, TheScoreboardCatchesAWrongALostAndAStrayReply) {
  const SysPartParams& p = configs::htm_sys_part::kSmall;
  tb::SysPartBench::Knobs k;
  k.bad_per_million = 0;
  {
    SysPartModel m(p);
    tb::SysPartBench bench(p, 5, k);
    EXPECT_THROW(RunUntil(m, bench, SysRep::kLoad,
                          [&](SysPartOut& o) { o.rep_data ^= 1; }),  // a wrong load value
                 std::runtime_error);
  }
  {
    SysPartModel m(p);
    tb::SysPartBench bench(p, 5, k);
    EXPECT_THROW(RunUntil(m, bench, SysRep::kCu,  // a Pass or Fail for another cid
                          [&](SysPartOut& o) {
                            SysPartRep r = UnpackSysPartRep(p, o.rep_data);
                            r.cid ^= 1;
                            o.rep_data = PackSysPartRep(p, r);
                          }),
                 std::runtime_error);
  }
  {
    SysPartModel m(p);
    tb::SysPartBench bench(p, 5, k);
    // An Alloc reply that never comes: the bench waits for it until its timeout.
    EXPECT_THROW(
        {
          RunUntil(m, bench, SysRep::kAlloc, [&](SysPartOut& o) { o.rep_valid = 0; });
          for (int cycle = 0; cycle < 100000; ++cycle) {
            const SysPartIn in = bench.Next();
            const SysPartOut out = m.Eval(in);
            m.Tick(in);
            bench.Observe(in, out);
          }
        },
        std::runtime_error);
  }
}

TEST(SysPartModel, AddressMapAndMessagesRoundTrip) {
  for (const auto& [name, p] : configs::htm_sys_part::kAll) {
    SCOPED_TRACE(std::string(name));
    const uint64_t words = SysPartWords(p);
    EXPECT_EQ(words * static_cast<uint64_t>(p.num_parts), uint64_t{1} << p.addr_w);
    for (uint64_t a = 0; a < std::min<uint64_t>(uint64_t{1} << p.addr_w, 1024); ++a) {
      const int part = SysPartOf(p, a);
      EXPECT_EQ(part, static_cast<int>((a >> p.ilv_log2) % static_cast<uint64_t>(p.num_parts)));
      EXPECT_LT(SysPartLocal(p, a), words);
      EXPECT_EQ(SysPartGlobal(p, part, SysPartLocal(p, a)), a);
    }
    SysPartReq q;
    q.kind = SysReq::kCu;
    q.type = 5;
    q.cid = LowMask(p.cid_w);
    q.route = 1;
    q.addr = LowMask(p.addr_w) - 1;
    q.data = LowMask(p.data_w);
    const SysPartReq q2 = UnpackSysPartReq(p, PackSysPartReq(p, q));
    EXPECT_EQ(q2.kind, q.kind);
    EXPECT_EQ(q2.type, q.type);
    EXPECT_EQ(q2.cid, q.cid);
    EXPECT_EQ(q2.route, q.route);
    EXPECT_EQ(q2.addr, q.addr);
    EXPECT_EQ(q2.data, q.data);
    EXPECT_EQ(PackSysPartReq(p, q) >> (SysPartReqW(p.cid_w, p.route_w, p.addr_w, p.data_w) - 1), 1u)
        << "kind is the most significant bit";
    SysPartRep r;
    r.kind = SysRep::kCu;
    r.type = 4;
    r.cid = 1;
    r.route = LowMask(p.route_w);
    const SysPartRep r2 = UnpackSysPartRep(p, PackSysPartRep(p, r));
    EXPECT_EQ(r2.kind, r.kind);
    EXPECT_EQ(r2.type, r.type);
    EXPECT_EQ(r2.cid, r.cid);
    EXPECT_EQ(r2.route, r.route);
    EXPECT_EQ(r2.data, 0u);
  }
  // The prototype: word 0x47 (stripe 1 of 64 words) is word 7 of partition 1.
  const SysPartParams& d = configs::htm_sys_part::kDefault;
  EXPECT_EQ(SysPartOf(d, 0x47), 1);
  EXPECT_EQ(SysPartLocal(d, 0x47), 7u);
  EXPECT_EQ(SysPartLocal(d, 0x87), 0x47u);
}

TEST(SysPartModel, RejectsIllegalParameters) {
  SysPartParams p = configs::htm_sys_part::kSmall;
  p.num_parts = 3;
  EXPECT_THROW(SysPartModel{p}, std::invalid_argument);
  p = configs::htm_sys_part::kSmall;
  p.ilv_log2 = 6;  // no room for the partition bits
  EXPECT_THROW(SysPartModel{p}, std::invalid_argument);
  p = configs::htm_sys_part::kDefault;
  p.lwh_scrub_interval = 32;  // the LWH's age bound with 10-bit commit ids
  EXPECT_THROW(SysPartModel{p}, std::invalid_argument);
  p = configs::htm_sys_part::kDefault;
  p.cid_w = 14;  // a 68-bit request
  EXPECT_THROW(SysPartModel{p}, std::invalid_argument);
  p = configs::htm_sys_part::kSmall;
  p.route_w = 0;
  EXPECT_THROW(SysPartModel{p}, std::invalid_argument);
  for (const auto& [name, q] : configs::htm_sys_part::kAll) {
    EXPECT_EQ(CheckSysPartParams(q), "") << name;
  }
}

}  // namespace
}  // namespace htm::golden
