// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_commit_unit (small configuration: 16-entry ring, 32-word buffer,
// 8-bit commit ids, a 4 x 2 LWH with a 2 x 4 recency filter), run in lockstep with the RTL and
// the expected replies, memory operations and pointers asserted on top. One test per case of
// the issue: a read-only transaction, Skip, a read racing an older writer (revalidation that
// passes and one that fails), CU_PASS followed by TX_FAIL, ring full, word buffer full, LWH
// eviction into the recency filter (the conservative path), commit-id wrap-around and reset in
// the middle of traffic; also the protocol checks.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_commit_unit__pipe.h"
#include "Vhtm_commit_unit__small.h"

#include "htm/configs/htm_commit_unit.h"
#include "htm/enums.h"
#include "htm/golden/commit_unit_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::CommitUnitIn;
using golden::CommitUnitModel;
using golden::CommitUnitOut;
using golden::CommitUnitPorts;
const golden::CommitUnitParams& P() {
  return configs::htm_commit_unit::kSmall;
}

struct Reply {
  CuRep type;
  uint64_t cid, src, cycle;
};

// Drives the unit like a core and a memory: one message at a time, validation reads answered
// after `lat` cycles (or held), commit writes acknowledged in order after `lat` cycles. V and
// the configuration: `small`, or `pipe` (the same with LwhPipe, the same cid width).
template <class V>
class DriverT {
 public:
  using Ls = Lockstep<CommitUnitPorts, V, CommitUnitModel>;
  explicit DriverT(const golden::CommitUnitParams& p = P(), const char* config = "small")
      : ls_(p, DirectedOptions("htm_commit_unit", config)) {}

  Ls& ls() { return ls_; }
  const CommitUnitModel& model() const { return ls_.model(); }
  uint64_t cycle() const { return cycle_; }
  std::map<uint64_t, uint64_t> mem;                   // memory contents
  std::vector<Reply> replies;                         // Pass/Fail/DoneCommit, in order
  std::vector<std::pair<uint64_t, uint64_t>> writes;  // commit writes (addr, data)
  std::vector<uint64_t> validations;                  // addresses of validation reads
  int lat = 3;

  // One cycle with the given intake message (or none); returns the outputs.
  CommitUnitOut Step(const std::optional<CommitUnitIn>& msg = std::nullopt) {
    CommitUnitIn in = msg.value_or(CommitUnitIn{});
    in.vr_req_ready = 1;
    in.cw_req_ready = 1;
    if (!vr_.empty() && vr_.front().due <= cycle_) {
      in.vr_rsp_valid = 1;
      in.vr_rsp_tag = vr_.front().tag;
      in.vr_rsp_data = mem[vr_.front().addr];
      vr_.pop_front();
    }
    if (!cw_.empty() && cw_.front().due <= cycle_) {
      in.cw_ack_valid = 1;
      mem[cw_.front().addr] = cw_.front().data;
      cw_.pop_front();
    }
    const CommitUnitOut out = DirectedCycle(ls_, in);
    if (out.vr_req_valid) {
      vr_.push_back(Op{out.vr_req_addr, 0, out.vr_req_tag, cycle_ + lat});
      validations.push_back(out.vr_req_addr);
    }
    if (out.cw_req_valid) {
      cw_.push_back(Op{out.cw_req_addr, out.cw_req_data, 0, cycle_ + lat});
      writes.emplace_back(out.cw_req_addr, out.cw_req_data);
    }
    if (out.rep_valid) {
      replies.push_back(Reply{static_cast<CuRep>(out.rep_type), out.rep_cid, out.rep_src, cycle_});
    }
    if (out.arep_valid) {
      last_alloc_ = out.arep_pass != 0;
    }
    ++cycle_;
    return out;
  }
  // Resets the unit and the memory's queues (the memory side resets with it).
  void Reset() {
    ls_.Reset();
    vr_.clear();
    cw_.clear();
  }
  void Idle(int n) {
    for (int i = 0; i < n; ++i) {
      Step();
    }
  }
  // Presents a message until it is accepted.
  void Send(CuMsg type, uint64_t cid, uint64_t addr = 0, uint64_t data = 0, uint64_t src = 1) {
    CommitUnitIn in;
    in.in_valid = 1;
    in.in_type = static_cast<uint64_t>(type);
    in.in_cid = cid & golden::LowMask(P().cid_w);
    in.in_src = src;
    in.in_addr = addr;
    in.in_data = data;
    for (int i = 0; i < 100; ++i) {
      if (Step(in).in_ready) {
        return;
      }
    }
    ADD_FAILURE() << "message not accepted in 100 cycles";
  }
  // Alloc; returns whether it passed.
  bool Alloc(uint64_t cid) {
    Send(CuMsg::kAlloc, cid);
    Step();
    return last_alloc_;
  }
  void Read(uint64_t cid, uint64_t a) { Send(CuMsg::kReadSet, cid, a, mem[a]); }
  void ReadValue(uint64_t cid, uint64_t a, uint64_t v) { Send(CuMsg::kReadSet, cid, a, v); }
  void Write(uint64_t cid, uint64_t a, uint64_t v) { Send(CuMsg::kWriteSet, cid, a, v); }
  void Fill(uint64_t cid) { Send(CuMsg::kDoneFill, cid); }
  // Waits up to n cycles for a reply of cid; returns it (or nothing).
  std::optional<Reply> Await(uint64_t cid, int n = 200) {
    cid &= golden::LowMask(P().cid_w);
    for (int i = 0; i <= n; ++i) {
      for (size_t k = seen_; k < replies.size(); ++k) {
        if (replies[k].cid == cid) {
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
  // Steps until the retire pointer reaches cid (mod 2**CidW).
  bool RetireTo(uint64_t cid, int n = 300) {
    for (int i = 0; i < n; ++i) {
      if (model().Eval(CommitUnitIn{}).ptr_retire == (cid & golden::LowMask(P().cid_w))) {
        return true;
      }
      Step();
    }
    return false;
  }
  // A whole transaction that commits: reads (value from memory) and writes.
  void Commit(uint64_t cid, const std::vector<uint64_t>& reads,
              const std::vector<std::pair<uint64_t, uint64_t>>& wr) {
    ASSERT_TRUE(Alloc(cid));
    for (uint64_t a : reads) {
      Read(cid, a);
    }
    for (const auto& [a, v] : wr) {
      Write(cid, a, v);
    }
    Fill(cid);
    const auto r = Await(cid);
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->type, CuRep::kPass);
    Send(CuMsg::kPass, cid);
    if (!wr.empty()) {
      const auto d = Await(cid);
      ASSERT_TRUE(d.has_value());
      ASSERT_EQ(d->type, CuRep::kDoneCommit);
    }
  }

 private:
  struct Op {
    uint64_t addr, data, tag, due;
  };
  Ls ls_;
  std::deque<Op> vr_, cw_;
  uint64_t cycle_ = 0;
  size_t seen_ = 0;
  bool last_alloc_ = false;
};
using Driver = DriverT<Vhtm_commit_unit__small>;
using PipeDriver = DriverT<Vhtm_commit_unit__pipe>;

// The LWH's initial sweep: nothing is hazard-checked before it ends.
constexpr int kSweep = 8;

// Waits for cid's Pass or Fail reply and checks its type.
template <class D>
void AwaitReply(D& d, uint64_t cid, CuRep type) {
  const auto r = d.Await(cid);
  ASSERT_TRUE(r.has_value()) << "no reply for cid " << cid;
  ASSERT_EQ(r->type, type) << "cid " << cid;
}

// cid 0 writes address a (value 11) and passes here; cid 1 then reads a's old value 4 before
// cid 0 has committed (its speculative validation matches).
template <class D>
void StaleReadBehindAPassedWriter(D& d, uint64_t a) {
  d.Idle(kSweep);
  d.mem[a] = 4;
  ASSERT_TRUE(d.Alloc(0));
  d.Write(0, a, 11);
  d.Fill(0);
  ASSERT_NO_FATAL_FAILURE(AwaitReply(d, 0, CuRep::kPass));
  ASSERT_TRUE(d.Alloc(1));
  d.Read(1, a);
}

// cid 0 (allocated) reads address a from memory and fills: this unit replies Pass on route 1,
// after one validation read, of a.
void ReadOnlyPasses(Driver& d, uint64_t a) {
  d.Read(0, a);
  d.Fill(0);
  const auto r = d.Await(0);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->type, CuRep::kPass);
  EXPECT_EQ(r->src, 1u);
  EXPECT_EQ(d.validations, (std::vector<uint64_t>{a}));
}

TEST(CommitUnitDirected, ReadOnlyTransactionPassesAndRetiresWithoutDoneCommit) {
  Driver d;
  d.mem[5] = 9;
  ASSERT_TRUE(d.Alloc(0));
  ASSERT_NO_FATAL_FAILURE(ReadOnlyPasses(d, 5));
  d.Send(CuMsg::kPass, 0);
  EXPECT_TRUE(d.RetireTo(1));
  d.Idle(10);
  EXPECT_EQ(d.replies.size(), 1u) << "a read-only entry retires without DoneCommit";
  EXPECT_TRUE(d.writes.empty());
  EXPECT_EQ(d.model().Eval({}).busy, 0u);
}

TEST(CommitUnitDirected, SkipRetiresAtOnceAndKeepsTheSequenceDense) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  d.Send(CuMsg::kSkip, 0);
  EXPECT_TRUE(d.RetireTo(1, 10));
  EXPECT_TRUE(d.replies.empty()) << "Skip gets no reply";
  d.Commit(1, {}, {{7, 3}});
  EXPECT_EQ(d.writes, (std::vector<std::pair<uint64_t, uint64_t>>{{7, 3}}));
  EXPECT_TRUE(d.RetireTo(2));
  EXPECT_EQ(d.mem[7], 3u);
  EXPECT_EQ(d.model().Eval({}).err, 0u);
}

// cid 0 writes address a and passes here; cid 1 read a's old value before cid 0 committed and
// is validated speculatively (it matches). Hazard detection finds cid 0 as a's last writer,
// not retired when cid 1 arrived: cid 1 waits for cid 0 to retire, then revalidates.
template <class D>
void RaceOlderWriterWith(D& d, bool writer_commits) {
  const uint64_t a = 0x21;
  ASSERT_NO_FATAL_FAILURE(StaleReadBehindAPassedWriter(d, a));
  d.Fill(1);
  d.Idle(30);
  EXPECT_EQ(d.model().stats().conflicts, 1u);
  EXPECT_EQ(d.replies.size(), 1u) << "cid 1 must wait for its conflicting writer";
  EXPECT_EQ(d.validations.size(), 1u);
  // The core's final outcome of cid 0 (for a Fail: another unit failed it).
  d.Send(writer_commits ? CuMsg::kPass : CuMsg::kFail, 0);
  const auto r1 = d.Await(1);
  ASSERT_TRUE(r1.has_value());
  EXPECT_EQ(d.model().stats().revalidations, 1u);
  EXPECT_EQ(d.validations, (std::vector<uint64_t>{a, a})) << "speculative, then revalidation";
  if (writer_commits) {
    ASSERT_EQ(d.replies.size(), 3u);
    EXPECT_EQ(d.replies[1].type, CuRep::kDoneCommit);
    EXPECT_EQ(d.replies[1].cid, 0u);
    EXPECT_EQ(r1->type, CuRep::kFail) << "a now holds 11, cid 1 read 4";
    EXPECT_EQ(d.mem[a], 11u);
  } else {
    EXPECT_EQ(r1->type, CuRep::kPass) << "cid 0 never wrote: cid 1's read still holds";
    EXPECT_TRUE(d.writes.empty());
    EXPECT_EQ(d.mem[a], 4u);
    d.Send(CuMsg::kPass, 1);
  }
  EXPECT_TRUE(d.RetireTo(2));
  EXPECT_EQ(d.model().Eval({}).err, 0u);
}

void RaceOlderWriter(bool writer_commits) {
  Driver d;
  RaceOlderWriterWith(d, writer_commits);
}

TEST(CommitUnitDirected, ReadRacingAnOlderWriterRevalidatesAndFails) {
  RaceOlderWriter(true);
}

// LwhPipe: the LWH's result a cycle later; the conflict is found all the same.
TEST(CommitUnitDirected, PipeReadRacingAnOlderWriterRevalidatesAndFails) {
  PipeDriver d(configs::htm_commit_unit::kPipe, "pipe");
  RaceOlderWriterWith(d, true);
}

TEST(CommitUnitDirected, PipePassThenTxFailFromAnotherUnitRevalidatesAndPasses) {
  PipeDriver d(configs::htm_commit_unit::kPipe, "pipe");
  RaceOlderWriterWith(d, false);
}

// The cycle of cid 0's Pass after a read of a, DoneFill and `idle` cycles (validation answered
// at once), and the cycle its DoneFill was accepted.
template <class D>
std::pair<uint64_t, uint64_t> ReadOnlyPassCycle(D& d, uint64_t a) {
  d.lat = 0;
  d.Idle(kSweep);
  d.mem[a] = 2;
  EXPECT_TRUE(d.Alloc(0));
  d.Read(0, a);
  d.Fill(0);
  const uint64_t filled = d.cycle() - 1;
  const auto r = d.Await(0);
  EXPECT_TRUE(r.has_value());
  EXPECT_EQ(r->type, CuRep::kPass);
  return {r.value_or(Reply{}).cycle, filled};
}

// The pass pointer waits for the entry's last lookup result: one cycle more with LwhPipe (the
// validation is done before). Small: DoneFill in cycle t, the read's lookup in t+2 (the walk
// starts in t+1 and reads the word), its result and the conflict write in t+3, Pass in t+4.
TEST(CommitUnitDirected, PipePassesOneCycleLaterThanWithoutIt) {
  Driver d;
  const auto [small, small_fill] = ReadOnlyPassCycle(d, 5);
  PipeDriver q(configs::htm_commit_unit::kPipe, "pipe");
  const auto [pipe, pipe_fill] = ReadOnlyPassCycle(q, 5);
  EXPECT_EQ(small_fill, pipe_fill);
  EXPECT_EQ(small - small_fill, 4u);
  EXPECT_EQ(pipe - pipe_fill, 5u);
}

TEST(CommitUnitDirected, PassThenTxFailFromAnotherUnitRevalidatesAndPasses) {
  RaceOlderWriter(false);
}

TEST(CommitUnitDirected, ValueChangedBeforeValidationFails) {
  Driver d;
  d.mem[3] = 1;
  ASSERT_TRUE(d.Alloc(0));
  d.ReadValue(0, 3, 2);  // the core saw 2, memory holds 1
  d.Fill(0);
  const auto r = d.Await(0);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->type, CuRep::kFail);
  EXPECT_TRUE(d.RetireTo(1)) << "a failed entry retires at once, no outcome message";
}

TEST(CommitUnitDirected, RingFullRefusesAllocUntilTheOldestRetires) {
  Driver d;
  d.Idle(kSweep);
  const int n = P().ring_size;
  for (int c = 0; c < n; ++c) {
    EXPECT_TRUE(d.Alloc(c)) << "cid " << c;
  }
  EXPECT_FALSE(d.Alloc(n)) << "cid RingSize is outside the window";
  EXPECT_FALSE(d.Alloc(n + 5));
  d.Send(CuMsg::kSkip, 0);
  EXPECT_TRUE(d.RetireTo(1, 10));
  EXPECT_TRUE(d.Alloc(n));
  EXPECT_FALSE(d.Alloc(n + 1));
  // A message (not Alloc) for a cid outside the window is a protocol violation.
  EXPECT_EQ(d.model().Eval({}).err, 0u);
  d.Send(CuMsg::kWriteSet, n + 1, 2, 2);
  d.Step();
  EXPECT_EQ(d.model().Eval({}).err, 1u);
}

TEST(CommitUnitDirected, WordBufferFullFailsTheTransactionNotTheIntake) {
  Driver d;
  d.Idle(kSweep);
  const int n = P().buf_words;
  ASSERT_TRUE(d.Alloc(0));
  for (int i = 0; i <= n; ++i) {  // one word more than the buffer
    d.Write(0, static_cast<uint64_t>(i), 1);
  }
  EXPECT_EQ(d.model().stats().cap_fails, 1u);
  EXPECT_EQ(d.model().FreeWords(), 0);
  d.Fill(0);
  const auto r = d.Await(0);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->type, CuRep::kFail);
  EXPECT_TRUE(d.RetireTo(1, 100));
  d.Idle(4);
  EXPECT_EQ(d.model().FreeWords(), n) << "every word comes back";
  EXPECT_TRUE(d.writes.empty());
  // The freed slots (now from the free-list FIFO) serve the next transaction.
  d.Commit(1, {40}, {{41, 6}, {42, 7}});
  EXPECT_TRUE(d.RetireTo(2));
  EXPECT_EQ(d.mem[41], 6u);
  EXPECT_EQ(d.mem[42], 7u);
}

TEST(CommitUnitDirected, LwhEvictionsMakeTheFilterConservative) {
  Driver d;
  d.Idle(kSweep);
  // cid 0 writes 30 addresses (not y): the 4 x 2 table keeps 8, the others are evicted into
  // the 2 x 4 recency filter with cid 0, which then covers every slot.
  const uint64_t y = 63;
  ASSERT_TRUE(d.Alloc(0));
  for (uint64_t a = 0; a < 30; ++a) {
    d.Write(0, a, 1);
  }
  d.Fill(0);
  const auto r0 = d.Await(0);
  ASSERT_TRUE(r0.has_value());
  EXPECT_EQ(r0->type, CuRep::kPass);
  // cid 1 reads y, which nobody wrote: the filter still names cid 0 (a false conflict).
  ASSERT_TRUE(d.Alloc(1));
  d.Read(1, y);
  d.Fill(1);
  d.Idle(20);
  EXPECT_EQ(d.model().stats().conflicts, 1u);
  EXPECT_EQ(d.replies.size(), 1u) << "cid 1 waits for cid 0";
  d.Send(CuMsg::kPass, 0);
  const auto r1 = d.Await(1);
  ASSERT_TRUE(r1.has_value());
  EXPECT_EQ(r1->type, CuRep::kPass) << "revalidation: y is unchanged";
  EXPECT_EQ(d.model().stats().revalidations, 1u);
  // The DoneCommit of cid 0 came first.
  EXPECT_EQ(d.replies[1].type, CuRep::kDoneCommit);
  EXPECT_LT(d.replies[1].cycle, r1->cycle);
}

TEST(CommitUnitDirected, CommitIdsWrapAround) {
  Driver d;
  d.Idle(kSweep);
  // 600 transactions: the 8-bit ids wrap twice. Each increments a counter at address 9.
  for (uint64_t c = 0; c < 600; ++c) {
    const uint64_t v = d.mem[9];
    d.Commit(c, {9}, {{9, (v + 1) & golden::LowMask(P().data_w)}});
    if (HasFatalFailure()) {
      return;
    }
  }
  EXPECT_TRUE(d.RetireTo(600));
  EXPECT_EQ(d.mem[9], 600u % 16u);
  EXPECT_EQ(d.model().stats().conflicts, 0u) << "no stale id may look like a live writer";
  EXPECT_EQ(d.model().Eval({}).err, 0u);
}

TEST(CommitUnitDirected, ResetInTheMiddleOfTraffic) {
  Driver d;
  d.Idle(kSweep);
  d.Commit(0, {1}, {{2, 5}});
  ASSERT_TRUE(d.Alloc(1));
  d.Write(1, 3, 7);
  d.Read(1, 4);
  ASSERT_TRUE(d.Alloc(2));
  d.Read(2, 3);
  d.Reset();  // words, validations and an unfinished fill are dropped
  CommitUnitOut o = d.model().Eval({});
  EXPECT_EQ(o.ptr_retire, 0u);
  EXPECT_EQ(o.ptr_fcd, 0u);
  EXPECT_EQ(o.busy, 0u);
  EXPECT_EQ(o.err, 0u);
  EXPECT_EQ(d.model().FreeWords(), P().buf_words);
  d.Idle(kSweep);
  d.Commit(0, {3}, {{4, 8}});
  EXPECT_TRUE(d.RetireTo(1));
  EXPECT_EQ(d.mem[4], 8u);
}

TEST(CommitUnitDirected, ProtocolViolationsAreFlaggedAndDropped) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  d.Write(0, 1, 1);
  d.Fill(0);
  d.Write(0, 2, 2);  // a word after DoneFill
  d.Step();
  EXPECT_EQ(d.model().Eval({}).err, 1u);
  const auto r = d.Await(0);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->type, CuRep::kPass);
  d.Send(CuMsg::kPass, 0);
  ASSERT_TRUE(d.Await(0).has_value());
  EXPECT_EQ(d.writes, (std::vector<std::pair<uint64_t, uint64_t>>{{1, 1}}))
      << "the dropped word is not written";
}

// ---- Protocol errors (docs/htm_commit_unit.md, "Protocol errors"): each class is driven after
// legal traffic that left err low, and err rises in the cycle after the offending cycle.

// Presents `in` for one cycle with err still low, then checks err is high in the next cycle.
void ExpectErrAfter(Driver& d, const CommitUnitIn& in) {
  ASSERT_EQ(d.model().Eval({}).err, 0u) << "legal traffic before the violation";
  const CommitUnitOut o = d.Step(in);
  EXPECT_EQ(o.err, 0u) << "err is registered: low in the offending cycle";
  EXPECT_EQ(d.Step().err, 1u) << "err in the cycle after the violation";
}
CommitUnitIn Msg(CuMsg type, uint64_t cid, uint64_t addr = 0, uint64_t data = 0) {
  CommitUnitIn in;
  in.in_valid = 1;
  in.in_type = static_cast<uint64_t>(type);
  in.in_cid = cid & golden::LowMask(P().cid_w);
  in.in_src = 1;
  in.in_addr = addr;
  in.in_data = data;
  return in;
}

// cid 0 writes (4, 5) and passes here; it waits for its outcome, so it holds the commit and
// retire pointers and every later cid stays in the window.
void HoldTheWindowWithAPassedWriter(Driver& d) {
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  d.Write(0, 4, 5);
  d.Fill(0);
  ASSERT_NO_FATAL_FAILURE(AwaitReply(d, 0, CuRep::kPass));
}

// The core's Pass for cid 0 after a dropped message for a later cid: cid 0 alone commits, and
// the later cid retires without a commit write.
void ExpectOnlyTheWriterCommits(Driver& d) {
  d.Send(CuMsg::kPass, 0);
  EXPECT_TRUE(d.RetireTo(2));
  EXPECT_EQ(d.writes, (std::vector<std::pair<uint64_t, uint64_t>>{{4, 5}}));
}

// cid 1, behind a passed writer, read a stale value: this unit fails it, and it stays in the
// window behind cid 0.
void FailBehindAPassedEntry(Driver& d) {
  ASSERT_NO_FATAL_FAILURE(HoldTheWindowWithAPassedWriter(d));
  d.mem[3] = 1;
  ASSERT_TRUE(d.Alloc(1));
  d.ReadValue(1, 3, 2);  // stale: memory holds 1
  d.Fill(1);
  ASSERT_NO_FATAL_FAILURE(AwaitReply(d, 1, CuRep::kFail));
  ASSERT_EQ(d.model().Eval({}).ptr_retire, 0u) << "cid 1 is still in the window";
}

TEST(CommitUnitDirected, ErrTxPassForAnEntryThisUnitFailed) {
  Driver d;
  FailBehindAPassedEntry(d);
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kPass, 1)));
  ExpectOnlyTheWriterCommits(d);
}

TEST(CommitUnitDirected, ErrTxFailForAnEntryThisUnitFailed) {
  Driver d;
  FailBehindAPassedEntry(d);
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kFail, 1)));
  d.Send(CuMsg::kFail, 0);
  EXPECT_TRUE(d.RetireTo(2));
  EXPECT_TRUE(d.writes.empty());
}

TEST(CommitUnitDirected, ErrTxPassBeforeThisUnitsReply) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  d.Write(0, 4, 5);  // not filled: no reply yet
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kPass, 0)));
}

TEST(CommitUnitDirected, ErrSecondOutcomeForOneEntry) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  d.Write(0, 4, 5);
  d.Fill(0);
  const auto r = d.Await(0);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->type, CuRep::kPass);
  d.lat = 50;  // the first outcome's commit write stays outstanding: the entry stays
  d.Send(CuMsg::kPass, 0);
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kFail, 0)));
  const auto done = d.Await(0);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->type, CuRep::kDoneCommit) << "the second outcome is dropped";
}

// cid 1, behind a passed writer, also passed here and its core answered Fail: a second outcome
// for cid 1 is an error, and the commit pointer still skips the entry.
TEST(CommitUnitDirected, ErrSecondOutcomeAfterTxFail) {
  Driver d;
  ASSERT_NO_FATAL_FAILURE(HoldTheWindowWithAPassedWriter(d));
  ASSERT_TRUE(d.Alloc(1));
  d.Write(1, 6, 7);
  d.Fill(1);
  ASSERT_NO_FATAL_FAILURE(AwaitReply(d, 1, CuRep::kPass));
  d.Send(CuMsg::kFail, 1);
  d.Step();
  ASSERT_EQ(d.model().Eval({}).ptr_retire, 0u) << "cid 1 is still in the window";
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kPass, 1)));
  ExpectOnlyTheWriterCommits(d);
}

// cid 1, behind a passed writer, is skipped: the pass pointer moves past it while the retire
// pointer keeps it in the window, and an outcome for it is an error.
TEST(CommitUnitDirected, ErrOutcomeForASkippedEntry) {
  Driver d;
  ASSERT_NO_FATAL_FAILURE(HoldTheWindowWithAPassedWriter(d));
  ASSERT_TRUE(d.Alloc(1));
  d.Send(CuMsg::kSkip, 1);
  d.Idle(4);
  ASSERT_EQ(d.model().Eval({}).ptr_pass, 2u) << "the pass pointer is past the skipped cid";
  ASSERT_EQ(d.model().Eval({}).ptr_retire, 0u);
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kPass, 1)));
  ExpectOnlyTheWriterCommits(d);
}

TEST(CommitUnitDirected, ErrOutcomeForACidOutsideTheWindow) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kFail, 5 + P().ring_size)));
}

TEST(CommitUnitDirected, ErrSkipForAStartedEntry) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  d.Write(0, 4, 5);
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kSkip, 0)));
  d.Fill(0);
  const auto r = d.Await(0);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->type, CuRep::kPass) << "the Skip was dropped";
}

TEST(CommitUnitDirected, ErrWordForASkippedEntry) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  ASSERT_TRUE(d.Alloc(1));
  d.Send(CuMsg::kSkip, 1);  // cid 0 holds the retire pointer: cid 1 stays skipped in the window
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(CuMsg::kWriteSet, 1, 4, 5)));
}

TEST(CommitUnitDirected, ErrDoneFillAfterDoneFill) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  ASSERT_TRUE(d.Alloc(1));
  d.Write(1, 4, 5);
  d.Fill(1);
  // The second DoneFill comes from another route: dropped, it must not redirect the reply.
  CommitUnitIn again = Msg(CuMsg::kDoneFill, 1);
  again.in_src = 2;
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, again));
  d.Fill(0);
  const auto r0 = d.Await(0);
  ASSERT_TRUE(r0.has_value());
  const auto r1 = d.Await(1);
  ASSERT_TRUE(r1.has_value());
  EXPECT_EQ(r1->type, CuRep::kPass);
  EXPECT_EQ(r1->src, 1u) << "the reply goes to the route of the accepted DoneFill";
}

TEST(CommitUnitDirected, ErrUnknownMessageType) {
  Driver d;
  d.Idle(kSweep);
  ASSERT_TRUE(d.Alloc(0));
  CommitUnitIn in = Msg(CuMsg::kAlloc, 0);
  in.in_type = 7;  // no CuMsg has this encoding
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, in));
}

TEST(CommitUnitDirected, ErrAcknowledgementWithNoWriteOutstanding) {
  Driver d;
  d.Commit(0, {}, {{4, 5}});  // its acknowledgement came: nothing outstanding now
  d.Idle(4);
  CommitUnitIn in;
  in.cw_ack_valid = 1;
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, in));
}

TEST(CommitUnitDirected, ErrValidationResponseForATagNotInFlight) {
  Driver d;
  d.Idle(kSweep);
  d.lat = 40;  // tag 0 is in flight while tag 1 is answered
  ASSERT_TRUE(d.Alloc(0));
  d.Read(0, 3);
  CommitUnitIn in;
  in.vr_rsp_valid = 1;
  in.vr_rsp_tag = 1;
  ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, in));
  d.Fill(0);
  const auto r = d.Await(0);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->type, CuRep::kPass) << "the stray response changed nothing";
}

// While in_valid is low the other intake fields are don't-care: a payload that would be a legal
// read-set word, write-set word, DoneFill or Skip of an open entry changes nothing (no
// validation read, no stored word, no flag), and the transaction then runs as usual.
TEST(CommitUnitDirected, IntakePayloadIsIgnoredWhileValidIsLow) {
  Driver d;
  d.Idle(kSweep);
  d.mem[3] = 2;
  ASSERT_TRUE(d.Alloc(0));
  for (const CuMsg type : {CuMsg::kReadSet, CuMsg::kWriteSet, CuMsg::kDoneFill, CuMsg::kSkip}) {
    CommitUnitIn in = Msg(type, 0, 3, 2);
    in.in_valid = 0;
    in.in_src = 2;
    for (int i = 0; i < 3; ++i) {
      const CommitUnitOut o = d.Step(in);
      EXPECT_EQ(o.vr_req_valid, 0u);
      EXPECT_EQ(o.rct_inc_valid, 0u);
    }
  }
  d.Idle(4);
  EXPECT_TRUE(d.validations.empty());
  EXPECT_EQ(d.model().Eval({}).ptr_fcd, 0u) << "cid 0 was neither filled nor skipped";
  ASSERT_NO_FATAL_FAILURE(ReadOnlyPasses(d, 3));
  EXPECT_EQ(d.model().Eval({}).err, 0u);
}

// cid 1 reads a's old value behind a passed writer, cid 0 (its first message: the retire pointer
// is still at cid 0); cid 0 then commits and retires before cid 1 is filled. Meanwhile a message
// for cid 1 + RingSize (the same ring entry, one lap ahead, outside the window) arrives. Hazard
// detection must still judge cid 1 against the retire pointer at its own first message: cid 0
// is a conflicting writer (already retired), so cid 1 revalidates at once and fails.
void OlderWriterRetiredBeforeFill(CuMsg lap_ahead_type) {
  Driver d;
  const uint64_t a = 0x21;
  ASSERT_NO_FATAL_FAILURE(StaleReadBehindAPassedWriter(d, a));
  d.Send(CuMsg::kPass, 0);
  const auto done = d.Await(0);
  ASSERT_TRUE(done.has_value());
  ASSERT_EQ(done->type, CuRep::kDoneCommit);
  ASSERT_TRUE(d.RetireTo(1));
  const uint64_t ahead = 1 + P().ring_size;
  if (lap_ahead_type == CuMsg::kAlloc) {
    EXPECT_FALSE(d.Alloc(ahead)) << "one lap ahead is outside the window";
    EXPECT_EQ(d.model().Eval({}).err, 0u);
  } else {
    ASSERT_NO_FATAL_FAILURE(ExpectErrAfter(d, Msg(lap_ahead_type, ahead, 5, 1)));
  }
  d.Fill(1);
  const auto r1 = d.Await(1);
  ASSERT_TRUE(r1.has_value());
  EXPECT_EQ(d.model().stats().conflicts, 1u) << "cid 0 wrote a after cid 1's first message";
  EXPECT_EQ(d.model().stats().revalidations, 1u);
  EXPECT_EQ(d.validations, (std::vector<uint64_t>{a, a})) << "speculative, then revalidation";
  EXPECT_EQ(r1->type, CuRep::kFail) << "a now holds 11, cid 1 read 4";
  EXPECT_TRUE(d.RetireTo(2));
}

TEST(CommitUnitDirected, RefusedAllocOneLapAheadKeepsTheOlderWritersConflict) {
  OlderWriterRetiredBeforeFill(CuMsg::kAlloc);
}

TEST(CommitUnitDirected, ErrWordOneLapAheadKeepsTheOlderWritersConflict) {
  OlderWriterRetiredBeforeFill(CuMsg::kWriteSet);
}

}  // namespace
}  // namespace htm::tb
