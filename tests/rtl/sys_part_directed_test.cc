// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_sys_part (small configuration: two partitions of 32 4-bit words in
// 2-word stripes, this one partition 1; the commit unit's small parameters), in lockstep with
// the RTL and the expected replies, latencies, memory contents and events asserted on top: a
// load's exact latency and a stream of loads, a transaction that passes and commits, a
// conflict that fails, AllocFail and the retry, the gating rule holding the intake while the
// reply queue is nearly full, the bad-address error, maintenance read after write, and the
// memory across a reset.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_sys_part__small.h"

#include "htm/configs/htm_sys_part.h"
#include "htm/enums.h"
#include "htm/golden/sys_part_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::SysPartIn;
using golden::SysPartModel;
using golden::SysPartOut;
using golden::SysPartPorts;
using golden::SysPartRep;
using golden::SysPartReq;
using Ls = Lockstep<SysPartPorts, Vhtm_sys_part__small, SysPartModel>;

const golden::SysPartParams& P() {
  return configs::htm_sys_part::kSmall;
}

struct Rep {
  uint64_t dst;
  SysPartRep r;
  uint64_t cycle;
};

// Drives the partition as the cores and the maintenance port would: one request at a time,
// held until accepted; every reply and maintenance read recorded with its cycle.
class Driver {
 public:
  explicit Driver(int part = 1) : ls_(P(), DirectedOptions("htm_sys_part", "small")), part_(part) {}

  const SysPartModel& model() const { return ls_.model(); }
  uint64_t cycle() const { return cycle_; }
  bool rep_ready = true;
  std::vector<Rep> replies;
  std::vector<std::pair<uint64_t, uint64_t>> mt_reads;  // (data, cycle)
  uint64_t ev_load = 0, ev_cu_msg = 0, ev_alloc_fail = 0;
  SysPartOut last;

  SysPartOut Step(SysPartIn in = {}) {
    in.part_idx = static_cast<uint64_t>(part_);
    in.rep_ready = rep_ready;
    last = DirectedCycle(ls_, in);
    if (last.rep_valid && in.rep_ready) {
      replies.push_back(Rep{last.rep_dst, golden::UnpackSysPartRep(P(), last.rep_data), cycle_});
    }
    if (last.mt_rvalid) {
      mt_reads.emplace_back(last.mt_rdata, cycle_);
    }
    ev_load += last.ev_load;
    ev_cu_msg += last.ev_cu_msg;
    ev_alloc_fail += last.ev_alloc_fail;
    ++cycle_;
    return last;
  }
  void Idle(int n) {
    for (int i = 0; i < n; ++i) {
      Step();
    }
  }
  void Reset() { ls_.Reset(); }

  // The global address of local word `local` of this partition (or of partition `part`).
  uint64_t G(uint64_t local, int part = -1) const {
    return golden::SysPartGlobal(P(), part < 0 ? part_ : part, local);
  }
  static SysPartIn Req(const SysPartReq& r, uint64_t core) {
    SysPartIn in;
    in.req_valid = 1;
    in.req_src = core;
    in.req_data = golden::PackSysPartReq(P(), r);
    return in;
  }
  // Presents a request until it is accepted; returns the cycle it was accepted in.
  uint64_t Send(const SysPartReq& r, uint64_t core = 0, int max = 300) {
    const SysPartIn in = Req(r, core);
    for (int i = 0; i < max; ++i) {
      const uint64_t c = cycle_;
      if (Step(in).req_ready) {
        return c;
      }
    }
    ADD_FAILURE() << "request not accepted in " << max << " cycles";
    return cycle_;
  }
  uint64_t Load(uint64_t addr, uint64_t core = 2, uint64_t route = 3, uint64_t cid = 0x5a) {
    SysPartReq r;
    r.kind = SysReq::kLoad;
    r.cid = cid;
    r.route = route;
    r.addr = addr;
    return Send(r, core);
  }
  uint64_t Cu(CuMsg type, uint64_t cid, uint64_t addr = 0, uint64_t data = 0, uint64_t core = 1,
              uint64_t route = 2) {
    SysPartReq r;
    r.kind = SysReq::kCu;
    r.type = static_cast<uint64_t>(type);
    r.cid = cid & golden::LowMask(P().cid_w);
    r.route = route;
    r.addr = addr;
    r.data = data;
    return Send(r, core);
  }
  // Maintenance: presented until accepted; returns the cycle of acceptance.
  uint64_t Mt(bool we, uint64_t addr, uint64_t data = 0) {
    SysPartIn in;
    in.mt_valid = 1;
    in.mt_we = we;
    in.mt_addr = addr;
    in.mt_wdata = data;
    for (int i = 0; i < 100; ++i) {
      const uint64_t c = cycle_;
      if (Step(in).mt_ready) {
        return c;
      }
    }
    ADD_FAILURE() << "maintenance access not accepted";
    return cycle_;
  }
  uint64_t MtRead(uint64_t addr) {
    const size_t n = mt_reads.size();
    Mt(false, addr);
    for (int i = 0; i < 10 && mt_reads.size() == n; ++i) {
      Step();
    }
    EXPECT_EQ(mt_reads.size(), n + 1) << "no maintenance read data";
    return mt_reads.empty() ? 0 : mt_reads.back().first;
  }
  // Writes every word of the partition: word w gets (w * 5 + 3) mod 16.
  void Init() {
    for (uint64_t w = 0; w < golden::SysPartWords(P()); ++w) {
      Mt(true, G(w), (w * 5 + 3) & 15);
    }
  }
  static uint64_t InitValue(uint64_t local) { return (local * 5 + 3) & 15; }

  // The first reply from `from` on that matches, within n cycles.
  std::optional<Rep> Await(const std::function<bool(const Rep&)>& match, int n = 300) {
    for (int i = 0; i <= n; ++i) {
      for (size_t k = seen_; k < replies.size(); ++k) {
        if (match(replies[k])) {
          seen_ = k + 1;
          return replies[k];
        }
      }
      if (i < n) {
        Step();
      }
    }
    return std::nullopt;
  }
  std::optional<Rep> AwaitCid(SysRep kind, uint64_t cid, int n = 300) {
    return Await([&](const Rep& x) { return x.r.kind == kind && x.r.cid == cid; }, n);
  }
  // Alloc for cid; returns whether the unit allocated it.
  bool Alloc(uint64_t cid) {
    Cu(CuMsg::kAlloc, cid);
    const auto r = AwaitCid(SysRep::kAlloc, cid);
    EXPECT_TRUE(r.has_value()) << "no Alloc reply for cid " << cid;
    return r && r->r.type == static_cast<uint64_t>(CuRep::kAllocPass);
  }
  // cid's Pass or Fail (or DoneCommit) reply type, or -1.
  int Outcome(uint64_t cid, int n = 300) {
    const auto r = AwaitCid(SysRep::kCu, cid, n);
    return r ? static_cast<int>(r->r.type) : -1;
  }

 private:
  Ls ls_;
  int part_;
  uint64_t cycle_ = 0;
  size_t seen_ = 0;
};

constexpr int kPass = static_cast<int>(CuRep::kPass);
constexpr int kFail = static_cast<int>(CuRep::kFail);
constexpr int kDoneCommit = static_cast<int>(CuRep::kDoneCommit);

TEST(SysPartDirected, ALoadIsAnsweredFourCyclesAfterItIsAccepted) {
  Driver d;
  d.Init();
  d.Idle(4);
  const uint64_t a = d.G(13);
  const uint64_t t = d.Load(a, 2, 3, 0x5a);
  const auto r = d.Await([](const Rep&) { return true; });
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->cycle, t + 4) << "accept, RAM, output register, queue, reply register";
  EXPECT_EQ(r->dst, 2u);
  EXPECT_EQ(r->r.kind, SysRep::kLoad);
  EXPECT_EQ(r->r.type, 0u);
  EXPECT_EQ(r->r.route, 3u);
  EXPECT_EQ(r->r.cid, 0x5au);
  EXPECT_EQ(r->r.data, Driver::InitValue(13));
  EXPECT_EQ(d.ev_load, 1u);
  // A stream of loads flows at one per cycle, each answered four cycles after its acceptance.
  std::vector<uint64_t> acc;
  for (uint64_t w = 0; w < 8; ++w) {
    acc.push_back(d.Load(d.G(w), 1, w & 3, w));
  }
  for (size_t i = 1; i < acc.size(); ++i) {
    EXPECT_EQ(acc[i], acc[i - 1] + 1) << "load " << i << " waited";
  }
  for (uint64_t w = 0; w < 8; ++w) {
    const auto x = d.AwaitCid(SysRep::kLoad, w);
    ASSERT_TRUE(x.has_value());
    EXPECT_EQ(x->cycle, acc[w] + 4);
    EXPECT_EQ(x->r.data, Driver::InitValue(w));
  }
  EXPECT_EQ(d.last.err, 0u);
}

TEST(SysPartDirected, ATransactionPassesCommitsAndChangesTheMemory) {
  Driver d;
  d.Init();
  const uint64_t a = d.G(6), b = d.G(21);
  const uint64_t t = d.Cu(CuMsg::kAlloc, 0);
  const auto ar = d.AwaitCid(SysRep::kAlloc, 0);
  ASSERT_TRUE(ar.has_value());
  EXPECT_EQ(ar->cycle, t + 3) << "the unit's reply one cycle later, the queue, the register";
  EXPECT_EQ(ar->r.type, static_cast<uint64_t>(CuRep::kAllocPass));
  EXPECT_EQ(ar->dst, 1u);
  EXPECT_EQ(ar->r.route, 2u);
  d.Cu(CuMsg::kReadSet, 0, a, Driver::InitValue(6));
  d.Cu(CuMsg::kWriteSet, 0, b, 9);
  d.Cu(CuMsg::kDoneFill, 0);
  ASSERT_EQ(d.Outcome(0), kPass);
  EXPECT_EQ(d.MtRead(b), Driver::InitValue(21)) << "nothing written before the core's Pass";
  d.Cu(CuMsg::kPass, 0);
  ASSERT_EQ(d.Outcome(0), kDoneCommit);
  EXPECT_EQ(d.MtRead(b), 9u);
  d.Load(b);
  const auto l = d.AwaitCid(SysRep::kLoad, 0x5a);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->r.data, 9u);
  EXPECT_EQ(d.ev_cu_msg, 5u);
  d.Idle(20);
  EXPECT_EQ(d.last.busy, 0u);
  EXPECT_EQ(d.last.err, 0u);
}

// cid 0 writes word a and passes here; cid 1 reads a's old value before cid 0 commits. The
// hazard check finds cid 0 unretired: cid 1 waits for it, revalidates after the commit, fails.
TEST(SysPartDirected, AConflictWithAnOlderWriterFails) {
  Driver d;
  d.Init();
  const uint64_t a = d.G(10);
  ASSERT_TRUE(d.Alloc(0));
  d.Cu(CuMsg::kWriteSet, 0, a, 1);
  d.Cu(CuMsg::kDoneFill, 0);
  ASSERT_EQ(d.Outcome(0), kPass);
  ASSERT_TRUE(d.Alloc(1));
  d.Cu(CuMsg::kReadSet, 1, a, Driver::InitValue(10), 0, 1);
  d.Cu(CuMsg::kDoneFill, 1, 0, 0, 0, 1);
  d.Idle(20);
  EXPECT_FALSE(d.AwaitCid(SysRep::kCu, 1, 0).has_value()) << "cid 1 waits for its writer";
  d.Cu(CuMsg::kPass, 0);
  ASSERT_EQ(d.Outcome(0), kDoneCommit);
  const auto r = d.AwaitCid(SysRep::kCu, 1);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(static_cast<int>(r->r.type), kFail);
  EXPECT_EQ(r->dst, 0u);
  EXPECT_EQ(r->r.route, 1u);
  EXPECT_EQ(d.MtRead(a), 1u);
  EXPECT_EQ(d.last.err, 0u);
}

// The ring holds 16 commit ids: cid 16 is refused (AllocFail, an event) until cid 0 retires,
// then the retried Alloc passes.
TEST(SysPartDirected, AllocFailsWhileTheRingIsFullAndTheRetryPasses) {
  Driver d;
  d.Init();
  for (uint64_t cid = 0; cid < 16; ++cid) {
    ASSERT_TRUE(d.Alloc(cid)) << "cid " << cid;
  }
  EXPECT_EQ(d.ev_alloc_fail, 0u);
  EXPECT_FALSE(d.Alloc(16));
  EXPECT_EQ(d.ev_alloc_fail, 1u);
  EXPECT_FALSE(d.Alloc(16)) << "still full: cid 0 has not retired";
  d.Cu(CuMsg::kSkip, 0);
  d.Idle(10);
  EXPECT_TRUE(d.Alloc(16)) << "the retry after cid 0 retired";
  EXPECT_EQ(d.ev_alloc_fail, 2u);
  EXPECT_EQ(d.last.err, 0u);
}

// With rep_ready low the unit's Pass replies pile up; once the Pass/Fail/DoneCommit queue holds
// CuQSlack (4) of them, that is RingSize or fewer free places, a commit-unit message is held
// at the intake (req_ready low) while loads still go in; rep_ready high drains the queue and
// the message is taken.
TEST(SysPartDirected, TheGatingRuleHoldsTheIntakeWhileTheReplyQueueIsNearlyFull) {
  Driver d;
  d.Init();
  for (uint64_t cid = 0; cid < 8; ++cid) {
    ASSERT_TRUE(d.Alloc(cid));
  }
  d.rep_ready = false;
  // cid 0's Pass waits in the output register, cids 1..4 fill the queue to the gate.
  for (uint64_t cid = 0; cid < 5; ++cid) {
    d.Cu(CuMsg::kReadSet, cid, d.G(cid), Driver::InitValue(cid));
    d.Cu(CuMsg::kDoneFill, cid);
  }
  d.Idle(20);
  ASSERT_EQ(d.model().cu_queue(), SysPartModel::kCuQSlack);
  SysPartReq r;
  r.kind = SysReq::kCu;
  r.type = static_cast<uint64_t>(CuMsg::kReadSet);
  r.cid = 5;
  r.route = 2;
  r.addr = d.G(5);
  r.data = Driver::InitValue(5);
  for (int i = 0; i < 50; ++i) {
    ASSERT_EQ(d.Step(Driver::Req(r, 1)).req_ready, 0u) << "cycle " << i << " of the hold";
  }
  EXPECT_EQ(d.ev_cu_msg, 8u + 10u) << "nothing entered the commit unit";
  d.Load(d.G(7));  // a load is not gated by this queue
  d.rep_ready = true;
  const uint64_t before = d.cycle();
  const uint64_t t = d.Send(r, 1);
  EXPECT_LE(t, before + 3) << "taken as soon as the queue drains below the gate";
  for (uint64_t cid = 0; cid < 5; ++cid) {
    EXPECT_EQ(d.Outcome(cid), kPass) << "cid " << cid;
  }
  EXPECT_EQ(d.last.err, 0u);
}

// A load, ReadSet or WriteSet with another partition's address, and a maintenance access to
// one, are taken at once, dropped (no reply, nothing reaches the commit unit or the memory)
// and raise err_o from the next cycle, for good.
TEST(SysPartDirected, AnotherPartitionsAddressIsDroppedAndSetsErr) {
  {
    Driver d;
    d.Init();
    const uint64_t other = d.G(4, 0);
    const uint64_t t = d.Load(other);
    EXPECT_EQ(d.cycle(), t + 1) << "taken in its first cycle";
    EXPECT_EQ(d.last.err, 0u);
    d.Step();
    EXPECT_EQ(d.last.err, 1u);
    d.Idle(10);
    EXPECT_TRUE(d.replies.empty());
    EXPECT_EQ(d.ev_load, 0u);
    EXPECT_EQ(d.last.err, 1u);
  }
  for (CuMsg type : {CuMsg::kReadSet, CuMsg::kWriteSet}) {
    Driver d;
    d.Init();
    ASSERT_TRUE(d.Alloc(0));
    d.Cu(type, 0, d.G(9, 0), 5);
    d.Step();
    EXPECT_EQ(d.last.err, 1u);
    EXPECT_EQ(d.ev_cu_msg, 1u) << "only the Alloc reached the commit unit";
    d.Cu(CuMsg::kDoneFill, 0);
    EXPECT_EQ(d.Outcome(0), kPass) << "a transaction without the dropped word";
  }
  {
    Driver d;
    d.Init();
    d.Mt(true, d.G(3, 0), 7);
    d.Step();
    EXPECT_EQ(d.last.err, 1u);
    d.Mt(false, d.G(3, 0));
    d.Idle(4);
    EXPECT_TRUE(d.mt_reads.empty()) << "a dropped read returns nothing";
    EXPECT_EQ(d.MtRead(d.G(3)), Driver::InitValue(3)) << "this partition's word 3 untouched";
  }
}

// A maintenance read returns the word two cycles after it is taken, also right after a write.
TEST(SysPartDirected, MaintenanceReadsTheWordJustWritten) {
  Driver d;
  d.Init();
  const uint64_t a = d.G(30);
  const uint64_t tw = d.Mt(true, a, 12);
  const uint64_t tr = d.Mt(false, a);
  EXPECT_EQ(tr, tw + 1);
  d.Idle(2);
  ASSERT_EQ(d.mt_reads.size(), 1u);
  EXPECT_EQ(d.mt_reads[0].second, tr + 2);
  EXPECT_EQ(d.mt_reads[0].first, 12u);
  EXPECT_EQ(d.MtRead(d.G(29)), Driver::InitValue(29));
  EXPECT_EQ(d.last.err, 0u);
}

// Block RAM is not reset: after a reset the words written before it are read back.
TEST(SysPartDirected, TheMemoryKeepsItsWordsAcrossAReset) {
  Driver d;
  d.Init();
  d.Mt(true, d.G(17), 4);
  d.Idle(3);
  d.Reset();
  EXPECT_EQ(d.MtRead(d.G(17)), 4u);
  EXPECT_EQ(d.MtRead(d.G(18)), Driver::InitValue(18));
}

}  // namespace
}  // namespace htm::tb
