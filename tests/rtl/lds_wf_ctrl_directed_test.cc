// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_lds_wf_ctrl (GPU-LocalTM wavefront transaction control), run in
// lockstep with the expected masks asserted on top: thesis Tables 5.1, 5.2 and 5.9 and the
// paper's Table 1 row by row, then work-group serialization, an abort by another wavefront's
// WgS, the descending and multiple selections, nesting and protocol violations.
//
// Masks are written as in the tables, work-item 0 first: "0111" has bits 1, 2 and 3 set. The
// four-work-item examples run on the paper-size wavefront (64 work-items) with EXEC holding
// work-items 0..3 only.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "Vhtm_lds_wf_ctrl__default.h"
#include "Vhtm_lds_wf_ctrl__masc.h"
#include "Vhtm_lds_wf_ctrl__mdesc.h"
#include "Vhtm_lds_wf_ctrl__sdesc.h"

#include "htm/configs/htm_lds_wf_ctrl.h"
#include "htm/golden/lds_wf_ctrl_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::LdsWfCtrlIn;
using golden::LdsWfCtrlModel;
using golden::LdsWfCtrlOut;
using golden::LdsWfCtrlParams;
using golden::LdsWfCtrlPorts;

// "0111" -> bits 1..3 (work-item 0 is the first character).
uint64_t M(const std::string& s) {
  return TableMask(s);
}

constexpr uint64_t kAll64 = ~uint64_t{0};

// One wavefront in lockstep, instruction by instruction.
template <class Top>
class Wavefront {
 public:
  using Ls = Lockstep<LdsWfCtrlPorts, Top, LdsWfCtrlModel>;
  Wavefront(const LdsWfCtrlParams& p, const char* config)
      : ls_(p, DirectedOptions("htm_lds_wf_ctrl", config)) {}

  // The state now (outputs of the coming cycle with no instruction).
  LdsWfCtrlOut State() const { return ls_.model().Eval(in_); }

  // Executes one instruction (it must be accepted at once); returns the cycle's outputs.
  LdsWfCtrlOut Op(LdsOp op, uint64_t exec = 0) {
    LdsWfCtrlIn in = in_;
    in.op_valid = 1;
    in.op = static_cast<uint64_t>(op);
    in.op_exec = exec;
    const LdsWfCtrlOut o = DirectedCycle(ls_, in);
    EXPECT_EQ(o.op_ready, 1u) << "instruction " << static_cast<int>(op) << " not accepted";
    return o;
  }
  // Presents an instruction for one cycle whether or not it is accepted.
  LdsWfCtrlOut Present(LdsOp op) {
    LdsWfCtrlIn in = in_;
    in.op_valid = 1;
    in.op = static_cast<uint64_t>(op);
    return DirectedCycle(ls_, in);
  }
  LdsWfCtrlOut Exec(uint64_t exec) { return Op(LdsOp::kExecWrite, exec); }
  LdsWfCtrlOut Begin() { return Op(LdsOp::kTxBegin); }
  LdsWfCtrlOut Commit() { return Op(LdsOp::kTxCommit); }
  // Conflicts reported by the banks in one cycle.
  void Conflict(uint64_t wis, uint64_t owner_lower = 0, uint64_t self = 0) {
    LdsWfCtrlIn in = in_;
    in.conf = wis;
    in.conf_lower = owner_lower;
    in.conf_self = self;
    DirectedCycle(ls_, in);
  }
  void Idle(int n = 1) {
    for (int i = 0; i < n; ++i) {
      DirectedCycle(ls_, in_);
    }
  }
  // The work-group side (held until changed).
  void SetWgs(bool grant, bool other) {
    in_.wgs_grant = grant;
    in_.wgs_other = other;
  }

  // A table row: EXEC, TCM, TCM_prev ("-": none) and mode, on the given state.
  static void Row(const LdsWfCtrlOut& s, uint64_t exec, uint64_t tcm, const char* prev,
                  LdsMode mode, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(s.exec, exec);
    EXPECT_EQ(s.tcm, tcm);
    if (std::string(prev) == "-") {
      EXPECT_EQ(s.prev_valid, 0u);
    } else {
      EXPECT_EQ(s.prev_valid, 1u);
      EXPECT_EQ(s.prev, M(prev));
    }
    EXPECT_EQ(s.mode, static_cast<uint64_t>(mode));
    EXPECT_EQ(s.run, s.exec & ~s.tcm);
  }

 private:
  Ls ls_;
  LdsWfCtrlIn in_{};
};

constexpr LdsMode kNonTx = LdsMode::kNonTx;
constexpr LdsMode kTx = LdsMode::kTx;
constexpr LdsMode kWfS = LdsMode::kWfS;
constexpr LdsMode kWgS = LdsMode::kWgS;

using WfDefault = Wavefront<Vhtm_lds_wf_ctrl__default>;  // single-ascending
using WfSdesc = Wavefront<Vhtm_lds_wf_ctrl__sdesc>;      // single-descending
using WfMasc = Wavefront<Vhtm_lds_wf_ctrl__masc>;        // multiple-ascending
using WfMdesc = Wavefront<Vhtm_lds_wf_ctrl__mdesc>;      // multiple-descending

// Thesis Table 5.1: work-item 1 conflicts, the others commit, work-item 1 retries alone.
TEST(LdsWfCtrlDirected, ThesisTable5_1) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  w.Row(w.State(), kAll64, 0, "-", kNonTx, "... non-transactional");
  w.Begin();
  w.Row(w.State(), kAll64, 0, "-", kTx, "TX_Begin");
  w.Conflict(M("01"));
  w.Row(w.State(), kAll64, M("01"), "-", kTx, "Mem Access: WI 1 conflicts");
  w.Idle(3);
  w.Row(w.State(), kAll64, M("01"), "-", kTx, "... WI 1 is disabled");
  w.Commit();
  LdsWfCtrlOut s = w.State();
  EXPECT_EQ(s.cmt_valid, 1u);
  EXPECT_EQ(s.cmt_mask, kAll64 & ~M("01")) << "WIs 0, 2, 3 ... commit";
  EXPECT_EQ(s.retry, 1u);
  EXPECT_EQ(s.exec, M("01")) << "TCM is copied to EXEC";
  w.Begin();
  w.Row(w.State(), M("01"), 0, "01", kTx, "TX_Begin: only WI 1 retries");
  w.Idle(2);
  w.Commit();
  s = w.State();
  EXPECT_EQ(s.cmt_mask, M("01")) << "WI 1 commits";
  w.Row(s, kAll64, 0, "-", kNonTx, "... non-transactional, EXEC restored");
  EXPECT_EQ(s.in_try, 0u);
  EXPECT_EQ(s.retry, 0u);
}

// Thesis Table 5.2: four work-items, WI0/WI1 and WI2/WI3 conflict pairwise; two livelocks are
// resolved by single-ascending wavefront serialization.
TEST(LdsWfCtrlDirected, ThesisTable5_2) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  w.Exec(M("1111"));
  w.Begin();
  w.Row(w.State(), M("1111"), M("0000"), "-", kTx, "TX_Begin: transaction starts");
  w.Conflict(M("1111"));
  w.Row(w.State(), M("1111"), M("1111"), "-", kTx, "...: all WIs conflict");
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, 0u);
  w.Begin();
  w.Row(w.State(), M("1111"), M("0000"), "1111", kTx, "TX_Begin: retry for all WIs");
  w.Conflict(M("1111"));
  w.Row(w.State(), M("1111"), M("1111"), "1111", kTx, "...: again all conflict");
  w.Commit();  // no progress: livelock
  w.Begin();
  w.Row(w.State(), M("1111"), M("0111"), "1111", kWfS, "TX_Begin: WfS retries WI 0");
  w.Idle();
  w.Row(w.State(), M("1111"), M("0111"), "1111", kWfS, "...: no new conflicts");
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("1")) << "WI 0 commits";
  w.Begin();
  w.Row(w.State(), M("0111"), M("0000"), "0111", kTx, "TX_Begin: retry for WIs 1, 2, 3");
  w.Conflict(M("0011"));
  w.Row(w.State(), M("0111"), M("0011"), "0111", kTx, "...: WIs 2 and 3 conflict");
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("01")) << "WI 1 commits";
  w.Begin();
  w.Row(w.State(), M("0011"), M("0000"), "0011", kTx, "TX_Begin: retry for WIs 2, 3");
  w.Conflict(M("0011"));
  w.Row(w.State(), M("0011"), M("0011"), "0011", kTx, "...: WIs 2 and 3 conflict");
  w.Commit();  // livelock
  w.Begin();
  w.Row(w.State(), M("0011"), M("0001"), "0011", kWfS, "TX_Begin: WfS retries WI 2");
  w.Idle();
  w.Row(w.State(), M("0011"), M("0001"), "0011", kWfS, "...: no new conflicts");
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("001")) << "WI 2 commits";
  w.Begin();
  w.Row(w.State(), M("0001"), M("0000"), "0001", kTx, "TX_Begin: retry for WI 3");
  w.Idle();
  w.Row(w.State(), M("0001"), M("0000"), "0001", kTx, "...: no conflicts");
  w.Commit();
  const LdsWfCtrlOut s = w.State();
  EXPECT_EQ(s.cmt_mask, M("0001")) << "WI 3 commits";
  w.Row(s, M("1111"), 0, "-", kNonTx, "transaction done, EXEC restored");
}

// Thesis Table 5.9: the same code with multiple-ascending WfS: WI0 conflicts with WI1 and WI2
// with WI3; the conflicting work-item below its owner stays in the MCM.
TEST(LdsWfCtrlDirected, ThesisTable5_9) {
  WfMasc w(configs::htm_lds_wf_ctrl::kMasc, "masc");
  const uint64_t low4 = M("1111");
  w.Exec(M("1111"));
  w.Begin();
  w.Row(w.State(), M("1111"), M("0000"), "-", kTx, "TX_Begin");
  EXPECT_EQ(w.State().mcm & low4, M("1111"));
  // WI0 and WI2 find owners above them (WI1, WI3); WI1 and WI3 find owners below.
  w.Conflict(M("1111"), /*owner_lower=*/M("0101"));
  w.Row(w.State(), M("1111"), M("1111"), "-", kTx, "...: all WIs conflict");
  EXPECT_EQ(w.State().mcm & low4, M("1010"));
  w.Commit();
  w.Begin();
  w.Row(w.State(), M("1111"), M("0000"), "1111", kTx, "TX_Begin: retry");
  EXPECT_EQ(w.State().mcm & low4, M("1111"));
  w.Conflict(M("1111"), M("0101"));
  w.Row(w.State(), M("1111"), M("1111"), "1111", kTx, "...: all conflict");
  EXPECT_EQ(w.State().mcm & low4, M("1010"));
  w.Commit();  // livelock
  w.Begin();
  w.Row(w.State(), M("1111"), M("0101"), "1111", kWfS, "TX_Begin: WfS retries WIs 0, 2");
  w.Idle();
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("1010")) << "WIs 0 and 2 commit";
  w.Begin();
  w.Row(w.State(), M("0101"), M("0000"), "0101", kTx, "TX_Begin: retry for WIs 1, 3");
  EXPECT_EQ(w.State().mcm & low4, M("1111"));
  w.Idle();
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("0101")) << "WIs 1 and 3 commit";
  EXPECT_EQ(w.State().mode, static_cast<uint64_t>(kNonTx));
}

// Paper Table 1: an if-then-else inside a transaction (Figure 2). v1 is the work-item id, v2 is
// 2, so VCC = WIs 0, 1; the "else" leg (line 13) conflicts for WIs 2 and 3 until WfS. A row of
// line 16 shows EXEC after TX_Commit has copied TCM into it and TCM_old before the next
// TX_Begin; the last row shows the state at the final TX_Commit (after it EXEC is restored).
TEST(LdsWfCtrlDirected, PaperTable1) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  const uint64_t vcc = M("1100");
  w.Exec(M("1111"));
  w.Row(w.State(), M("1111"), 0, "-", kNonTx, "line 1");
  struct Try {
    uint64_t conflicts;  // line 13
    uint64_t exec2, tcm2;
    const char* old;
    LdsMode mode;
    uint64_t exec16;
  };
  const Try tries[] = {
      {M("0011"), M("1111"), M("0000"), "-", kTx, M("0011")},
      {M("0011"), M("0011"), M("0000"), "0011", kTx, M("0011")},
      {0, M("0011"), M("0001"), "0011", kWfS, M("0001")},
      {0, M("0001"), M("0000"), "0001", kTx, 0},
  };
  int n = 0;
  for (const Try& t : tries) {
    const std::string tr = "try " + std::to_string(++n) + ", line ";
    w.Begin();
    w.Row(w.State(), t.exec2, t.tcm2, t.old, t.mode, tr + "2");
    const uint64_t s0 = w.State().exec;  // line 4: s0 = EXEC
    w.Exec(s0 & vcc);                    // line 5: EXEC = EXEC & VCC
    w.Row(w.State(), s0 & vcc, t.tcm2, t.old, t.mode, tr + "5");
    w.Exec(s0 & ~(s0 & vcc));  // line 10: EXEC = s0 & ~EXEC
    w.Row(w.State(), s0 & ~vcc, t.tcm2, t.old, t.mode, tr + "10");
    if (t.conflicts != 0) {
      w.Conflict(t.conflicts);  // line 13
    }
    const uint64_t tcm13 = t.tcm2 | t.conflicts;
    w.Row(w.State(), s0 & ~vcc, tcm13, t.old, t.mode, tr + "13");
    w.Exec(s0);  // line 15: EXEC = s0
    w.Row(w.State(), s0, tcm13, t.old, t.mode, tr + "15");
    if (t.exec16 == 0) {
      w.Row(w.State(), M("0001"), M("0000"), "0001", kTx, tr + "16 (at TX_Commit)");
    }
    w.Commit();  // line 16
    if (t.exec16 != 0) {
      w.Row(w.State(), t.exec16, tcm13, t.old, t.mode, tr + "16");
    }
  }
  const LdsWfCtrlOut s = w.State();
  EXPECT_EQ(s.cmt_mask, M("0001"));
  w.Row(s, M("1111"), 0, "-", kNonTx, "after the transaction");
}

// The WfS try's selected work-item conflicts again (with another wavefront): work-group
// serialization. TX_Begin waits for the grant; the WgS try runs one work-item; then Tx again.
TEST(LdsWfCtrlDirected, WfsFailureEntersWorkGroupSerialization) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  w.Exec(M("1111"));
  for (int i = 0; i < 2; ++i) {
    w.Begin();
    w.Conflict(M("0110"));
    w.Commit();
  }
  w.Begin();
  w.Row(w.State(), M("0110"), M("0010"), "0110", kWfS, "WfS: WI 1 alone");
  EXPECT_EQ(w.State().run, M("01"));
  w.Conflict(M("01"));  // WI 1 conflicts again
  w.Commit();
  LdsWfCtrlOut s = w.State();
  EXPECT_EQ(s.cmt_mask, 0u);
  EXPECT_EQ(s.wgs_req, 1u) << "WgS requested";
  EXPECT_EQ(w.Present(LdsOp::kTxBegin).op_ready, 0u) << "TX_Begin waits for the grant";
  w.SetWgs(/*grant=*/true, /*other=*/false);
  w.Begin();
  s = w.State();
  w.Row(s, M("0110"), M("0010"), "0110", kWgS, "WgS: WI 1 alone in the work-group");
  EXPECT_EQ(s.wgs_req, 1u) << "held during the WgS try";
  w.Commit();
  s = w.State();
  EXPECT_EQ(s.cmt_mask, M("01"));
  EXPECT_EQ(s.wgs_req, 0u) << "released after the WgS try";
  w.SetWgs(false, false);
  w.Begin();
  w.Row(w.State(), M("001"), M("000"), "001", kTx, "then Tx for WI 2");
  w.Commit();
  EXPECT_EQ(w.State().mode, static_cast<uint64_t>(kNonTx));
  EXPECT_EQ(w.State().err, 0u);
}

// Another wavefront takes work-group serialization: this wavefront's try is aborted (every
// work-item of the try gets its TCM bit, so the banks roll it back), its TX_Begin waits while
// the other holds WgS, and then replays the same try (same TCM, same TCM_prev).
TEST(LdsWfCtrlDirected, OtherWavefrontsWgsAbortsAndStallsTheTry) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  w.Exec(M("1111"));
  for (int i = 0; i < 2; ++i) {
    w.Begin();
    w.Conflict(M("1001"));
    w.Commit();
  }
  w.Begin();
  w.Row(w.State(), M("1001"), M("0001"), "1001", kWfS, "WfS: WI 0 alone");
  w.Exec(M("1000"));  // a conditional inside the try
  w.SetWgs(false, /*other=*/true);
  const LdsWfCtrlOut at = w.Present(LdsOp::kTxCommit);
  EXPECT_EQ(at.op_ready, 0u) << "no instruction is taken in the abort cycle";
  LdsWfCtrlOut s = w.State();
  EXPECT_EQ(s.abort, 1u);
  EXPECT_EQ(s.retry, 1u);
  EXPECT_EQ(s.tcm, M("1001")) << "WI 0 is rolled back too";
  EXPECT_EQ(s.exec, M("1001")) << "EXEC of the try's start";
  EXPECT_EQ(w.Present(LdsOp::kTxBegin).op_ready, 0u) << "stalled at TX_Begin";
  w.Idle(4);
  w.SetWgs(false, false);
  w.Begin();
  w.Row(w.State(), M("1001"), M("0001"), "1001", kWfS, "the same WfS try again");
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("1"));
  EXPECT_EQ(w.State().err, 0u);
}

// Single-descending (thesis Figure 5.13): the livelock is broken by the highest work-item.
TEST(LdsWfCtrlDirected, SingleDescendingSelectsTheHighest) {
  WfSdesc w(configs::htm_lds_wf_ctrl::kSdesc, "sdesc");
  w.Exec(M("1111"));
  for (int i = 0; i < 2; ++i) {
    w.Begin();
    w.Conflict(M("1111"));
    w.Commit();
  }
  w.Begin();
  w.Row(w.State(), M("1111"), M("1110"), "1111", kWfS, "WfS retries WI 3 first");
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("0001"));
  w.Begin();
  w.Commit();  // WIs 0..2 no longer conflict
  EXPECT_EQ(w.State().cmt_mask, M("111"));
  EXPECT_EQ(w.State().mode, static_cast<uint64_t>(kNonTx));
}

// Multiple-descending keeps the work-items above their owners; a work-item that conflicts on
// its own location (SMDCD) leaves the MCM; an empty MCM subset falls back to one work-item.
TEST(LdsWfCtrlDirected, MultipleDescendingAndItsFallback) {
  WfMdesc w(configs::htm_lds_wf_ctrl::kMdesc, "mdesc");
  const uint64_t low4 = M("1111");
  w.Exec(M("1111"));
  for (int i = 0; i < 2; ++i) {
    w.Begin();
    // WIs 1 and 3 find owners below them (kept); WI 0's owner is above; WI 2 owns it itself.
    w.Conflict(M("1111"), /*owner_lower=*/M("0101"), /*self=*/M("0010"));
    EXPECT_EQ(w.State().mcm & low4, M("0101"));
    w.Commit();
  }
  w.Begin();
  w.Row(w.State(), M("1111"), M("1010"), "1111", kWfS, "WfS retries WIs 1 and 3");
  w.Commit();
  EXPECT_EQ(w.State().cmt_mask, M("0101"));
  // WIs 0 and 2 end the next try with the same TCM (livelock); neither stays in the MCM (their
  // owners are above them), so one work-item, the highest, is chosen.
  w.Begin();
  w.Row(w.State(), M("1010"), M("0000"), "1010", kTx, "retry for WIs 0 and 2");
  w.Conflict(M("1010"), /*owner_lower=*/0, /*self=*/0);
  EXPECT_EQ(w.State().mcm & low4, M("0101"));
  w.Commit();
  w.Begin();
  w.Row(w.State(), M("1010"), M("1000"), "1010", kWfS, "empty subset: WI 2 alone");
  w.Commit();
  w.Begin();
  w.Commit();
  EXPECT_EQ(w.State().mode, static_cast<uint64_t>(kNonTx));
}

// Flattened nesting: an inner TX_Commit commits nothing; nesting beyond MaxDepth is an error.
TEST(LdsWfCtrlDirected, NestingIsFlattened) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  w.Exec(M("11"));
  w.Begin();
  w.Begin();
  w.Conflict(M("01"));
  w.Commit();  // inner
  LdsWfCtrlOut s = w.State();
  EXPECT_EQ(s.cmt_valid, 0u);
  EXPECT_EQ(s.in_try, 1u);
  w.Commit();  // outer
  s = w.State();
  EXPECT_EQ(s.cmt_valid, 1u);
  EXPECT_EQ(s.cmt_mask, M("1"));
  w.Begin();
  for (int i = 0; i < configs::htm_lds_wf_ctrl::kDefault.max_depth; ++i) {
    w.Begin();
  }
  EXPECT_EQ(w.State().err, 0u);
  w.Begin();  // one level too many
  EXPECT_EQ(w.State().err, 1u);
}

// Protocol violations are dropped and flagged: TX_Commit outside a transaction, a conflict
// for a work-item outside the try, an EXEC write before the retry's TX_Begin.
TEST(LdsWfCtrlDirected, ProtocolViolationsSetErr) {
  {
    WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
    w.Commit();
    EXPECT_EQ(w.State().err, 1u);
    EXPECT_EQ(w.State().cmt_valid, 0u);
  }
  {
    WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
    w.Exec(M("11"));
    w.Begin();
    w.Conflict(M("001"));
    EXPECT_EQ(w.State().err, 1u);
    EXPECT_EQ(w.State().tcm, 0u) << "ignored";
  }
  {
    WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
    w.Exec(M("11"));
    w.Begin();
    w.Conflict(M("1"));
    w.Commit();
    w.Exec(M("1111"));
    EXPECT_EQ(w.State().err, 1u);
    EXPECT_EQ(w.State().exec, M("1")) << "EXEC still holds the work-item to retry";
  }
}

// An instruction with no lds_op_e meaning, and a conflict with no try under way: err rises in
// the cycle after (low in the offending cycle), and nothing else changes.
TEST(LdsWfCtrlDirected, UnknownInstructionSetsErr) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  w.Exec(M("11"));
  ASSERT_EQ(w.State().err, 0u);
  const LdsWfCtrlOut o = w.Present(static_cast<LdsOp>(3));
  EXPECT_EQ(o.op_ready, 1u);
  EXPECT_EQ(o.err, 0u) << "err is registered";
  EXPECT_EQ(w.State().err, 1u);
  EXPECT_EQ(w.State().exec, M("11"));
  EXPECT_EQ(w.State().in_try, 0u);
}

TEST(LdsWfCtrlDirected, ConflictOutsideATrySetsErr) {
  WfDefault w(configs::htm_lds_wf_ctrl::kDefault, "default");
  w.Exec(M("11"));
  ASSERT_EQ(w.State().err, 0u);
  w.Conflict(M("1"));
  EXPECT_EQ(w.State().err, 1u);
  EXPECT_EQ(w.State().tcm, 0u) << "ignored";
}

}  // namespace
}  // namespace htm::tb
