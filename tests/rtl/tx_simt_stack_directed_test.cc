// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_tx_simt_stack, RTL and golden model in lockstep with the expected
// stacks on top: the paper's Figure 6 states 1-5 (Chen & Peng, HPCA 2016, §4.4; state 5 as the text
// describes it, see docs/htm_tx_simt_stack.md), Figure 7's stack after three pauses, the KILO TM
// slide 24 example (Fung et al., MICRO 2011: a transaction inside a divergent branch, a branch
// diverging inside the transaction, threads 6 and 7 failing validation), aborts, and the errors.
// Masks are written as in the figures, thread 0 first.

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_tx_simt_stack__default.h"
#include "Vhtm_tx_simt_stack__one.h"
#include "Vhtm_tx_simt_stack__small.h"

#include "htm/configs/htm_tx_simt_stack.h"
#include "htm/enums.h"
#include "htm/golden/tx_simt_stack_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::TxSimtStackIn;
using golden::TxSimtStackModel;
using golden::TxSimtStackOut;
using golden::TxSimtStackPorts;
using In = TxSimtStackIn;
using Out = TxSimtStackOut;

constexpr int64_t kAny = -1;  // a field the figure leaves blank ("-----", "---")

// An entry as a figure shows it.
struct Row {
  SimtType type;
  int64_t pc, rpc;
  std::string mask;
  int64_t log = kAny;
};

constexpr SimtType N = SimtType::kNormal, R = SimtType::kRetry, T = SimtType::kTrans;

// Drives the stack one command per cycle and checks it against the figures.
template <class L>
class Warp {
 public:
  explicit Warp(L& ls) : ls_(ls) {}

  Out Cmd(SimtOp op, uint64_t mask = 0, uint64_t pc = 0, uint64_t pc2 = 0, uint64_t rpc = 0,
          uint64_t log = 0) {
    In in;
    in.cmd_valid = 1;
    in.cmd_op = static_cast<uint64_t>(op);
    in.cmd_mask = mask;
    in.cmd_pc = pc;
    in.cmd_pc2 = pc2;
    in.cmd_rpc = rpc;
    in.cmd_log = log;
    DirectedCycle(ls_, in);
    return last_ = DirectedCycle(ls_, In{});  // the outputs show the command's effect
  }
  Out Init(const std::string& mask, uint64_t pc, uint64_t rpc) {
    return Cmd(SimtOp::kInit, TableMask(mask), pc, 0, rpc);
  }
  Out Next(uint64_t pc, uint64_t log = 0) { return Cmd(SimtOp::kNext, 0, pc, 0, 0, log); }
  Out Branch(const std::string& taken, uint64_t target, uint64_t fall, uint64_t rpc) {
    return Cmd(SimtOp::kBranch, TableMask(taken), target, fall, rpc);
  }
  Out TxBegin(uint64_t first, uint64_t exit) { return Cmd(SimtOp::kTxBegin, 0, first, 0, exit); }
  Out Pause(const std::string& lanes, uint64_t log) {
    return Cmd(SimtOp::kPause, TableMask(lanes), 0, 0, 0, log);
  }
  Out Commit(const std::string& failed) { return Cmd(SimtOp::kCommit, TableMask(failed)); }
  Out Abort(const std::string& lanes) { return Cmd(SimtOp::kAbort, TableMask(lanes)); }

  // The stack, bottom first, equals `rows`.
  void Expect(const std::vector<Row>& rows, const char* what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(last_.depth, rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      SCOPED_TRACE("entry " + std::to_string(i));
      EXPECT_EQ(last_.stk_type[i], static_cast<uint64_t>(rows[i].type));
      EXPECT_EQ(last_.stk_pc[i], static_cast<uint64_t>(rows[i].pc));
      if (rows[i].rpc != kAny) {
        EXPECT_EQ(last_.stk_rpc[i], static_cast<uint64_t>(rows[i].rpc));
      }
      EXPECT_EQ(last_.stk_mask[i], TableMask(rows[i].mask));
      if (rows[i].log != kAny) {
        EXPECT_EQ(last_.stk_log[i], static_cast<uint64_t>(rows[i].log));
      }
    }
  }
  const Out& last() const { return last_; }

 private:
  L& ls_;
  Out last_;
};

using Ls = Lockstep<TxSimtStackPorts, Vhtm_tx_simt_stack__small, TxSimtStackModel>;
const golden::TxSimtStackParams& P() {
  return configs::htm_tx_simt_stack::kSmall;
}

// Figure 6: 0x100 __tbegin; 0x108 x = a[i+1]; 0x110 y = a[i-1]; 0x118 z = (x-y)/2;
// 0x120 a[i] = z; 0x128 __tcommit. The log walker's pointer is the index of the last log row
// written: 0 after the load at 0x108, 1 after 0x110, 2 after the store at 0x120.
TEST(TxSimtStackDirected, Figure6) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x130);
  w.TxBegin(0x108, 0x130);
  w.Next(0x110, 0);  // the load at 0x108
  w.Expect(
      {{N, 0x100, 0x130, "11111111"}, {R, 0x108, kAny, "00000000"}, {T, 0x110, kAny, "11111111"}},
      "state 1");
  // Threads 0-3's addresses at 0x110 are in the CAT: they pause.
  EXPECT_EQ(w.Pause("11110000", 0).paused, 1u);
  w.Next(0x118, 1);
  w.Expect({{N, 0x100, 0x130, "11111111"},
            {R, 0x108, kAny, "00000000"},
            {T, 0x110, kAny, "11110000", 0},
            {T, 0x118, kAny, "00001111", 1}},
           "state 2");
  w.Next(0x120, 1);
  w.Next(0x128, 2);
  EXPECT_EQ(w.last().top_log, 2u);
  // Threads 4-7 commit; 5 and 6 fail validation. The paused threads 0-3 resume.
  const Out c1 = w.Commit("00000110");
  w.Expect({{N, 0x100, 0x130, "11111111"},
            {R, 0x108, kAny, "00000110"},
            {T, 0x110, kAny, "11110000", 0}},
           "state 3 (after the committing entry popped)");
  EXPECT_EQ(c1.resumed, 1u);
  EXPECT_EQ(c1.top_log, 0u) << "the walker restores its pointer from L";
  w.Next(0x118, 1);
  w.Next(0x120, 1);
  w.Next(0x128, 2);
  // Threads 0-3 commit; 1 and 2 fail: Retry holds 1, 2, 5, 6, and becomes the top.
  const Out c2 = w.Commit("01100000");
  EXPECT_EQ(c2.restarted, 1u);
  // State 4 of the figure is Retry with 0110 0110 as the Trans entry pops; state 5 is the
  // restart: the Retry entry copied into a new Trans entry (the text), which starts at the
  // Retry PC with the Retry mask cleared.
  w.Expect({{N, 0x100, 0x130, "11111111"},
            {R, 0x108, kAny, "00000000"},
            {T, 0x108, kAny, "01100110", 0}},
           "state 5 (restart)");
  // Threads 1, 2, 5, 6 run to the commit and pass: the transaction ends, 0x130 follows.
  w.Next(0x110, 0);
  w.Next(0x118, 1);
  w.Next(0x120, 1);
  w.Next(0x128, 2);
  const Out c3 = w.Commit("00000000");
  EXPECT_EQ(c3.tx_done, 1u);
  EXPECT_EQ(c3.in_tx, 0u);
  w.Expect({{N, 0x130, 0x130, "11111111"}}, "after the transaction");
  EXPECT_EQ(w.last().err, 0u);
}

// Figure 7: three rounds of pause, three log rows apart.
TEST(TxSimtStackDirected, Figure7) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x200);
  w.TxBegin(0x108, 0x200);
  for (uint64_t pc = 0x110, log = 0; pc <= 0x128; pc += 8, ++log) {
    w.Next(pc, log);  // three loads
  }
  w.Pause("01100110", 3);
  for (uint64_t pc = 0x130, log = 4; pc <= 0x148; pc += 8, ++log) {
    w.Next(pc, log > 6 ? 6 : log);
  }
  w.Pause("10010000", 6);
  for (uint64_t pc = 0x150, log = 7; pc <= 0x168; pc += 8, ++log) {
    w.Next(pc, log > 9 ? 9 : log);
  }
  w.Expect({{N, 0x100, 0x200, "11111111"},
            {R, 0x108, kAny, "00000000"},
            {T, 0x128, kAny, "01100110", 3},
            {T, 0x148, kAny, "10010000", 6},
            {T, 0x168, kAny, "00001001", 9}},
           "Figure 7");
}

// KILO TM slide 24: A: t = tid.x; if (...) { B: tx_begin; C: x[t%10] = y[t] + 1;
// D: if (s[t]) E: y[t] = 0; F: tx_commit; G: z = y[t]; } H: w = y[t+1];
TEST(TxSimtStackDirected, KiloTmSlide24) {
  constexpr uint64_t A = 0x00, B = 0x08, C = 0x10, D = 0x18, E = 0x20, F = 0x28, G = 0x30, H = 0x38,
                     End = 0x40;
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", A, End);
  w.Branch("11110011", B, H, H);  // if (...): threads 4 and 5 skip to H
  w.TxBegin(C, G);
  w.Expect({{N, H, kAny, "11111111"},
            {N, B, H, "11110011"},
            {R, C, kAny, "00000000"},
            {T, C, kAny, "11110011"}},
           "@ tx_begin");
  w.Next(D);
  w.Branch("00010011", E, F, F);  // if (s[t]): threads 3, 6, 7
  w.Expect({{N, H, kAny, "11111111"},
            {N, B, H, "11110011"},
            {R, C, kAny, "00000000"},
            {T, F, kAny, "11110011"},
            {N, E, F, "00010011"}},
           "branch divergence within the transaction");
  w.Next(F);                           // E: y[t] = 0, then the paths reconverge at F
  const Out c = w.Commit("00000011");  // threads 6 and 7 fail validation
  EXPECT_EQ(c.restarted, 1u);
  w.Expect({{N, H, kAny, "11111111"},
            {N, B, H, "11110011"},
            {R, C, kAny, "00000000"},
            {T, C, kAny, "00000011"}},
           "@ tx_commit, restart for threads 6 and 7");
  w.Next(D);
  w.Branch("00000011", E, F, F);  // both take the branch
  w.Next(E);
  w.Next(F);
  EXPECT_EQ(w.Commit("00000000").tx_done, 1u);
  w.Expect({{N, H, kAny, "11111111"}, {N, G, H, "11110011"}},
           "@ tx_commit, every thread committed");
  w.Next(H);  // G: z = y[t], then reconvergence at H
  w.Expect({{N, H, kAny, "11111111"}}, "reconverged");
}

TEST(TxSimtStackDirected, AbortsAndPausesAcrossDivergence) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.TxBegin(0x108, 0x200);
  w.Pause("11000000", 1);
  // Aborting every running lane: the running entry empties and pops, the paused lanes resume.
  const Out a = w.Abort("00111111");
  EXPECT_EQ(a.resumed, 1u);
  w.Expect({{N, 0x100, 0x300, "11111111"},
            {R, 0x108, kAny, "00111111"},
            {T, 0x108, kAny, "11000000", 1}},
           "after the abort");
  // A pause is skipped when the top is not a Trans entry (divergence inside the transaction).
  w.Branch("10000000", 0x110, 0x118, 0x120);
  EXPECT_EQ(w.Pause("10000000", 2).paused, 0u);
  EXPECT_EQ(w.last().depth, 5u);
  // Aborting the rest: everything above Retry empties, the transaction restarts with all.
  const Out b = w.Abort("11000000");
  EXPECT_EQ(b.restarted, 1u);
  w.Expect({{N, 0x100, 0x300, "11111111"},
            {R, 0x108, kAny, "00000000"},
            {T, 0x108, kAny, "11111111", 0}},
           "restart after aborting every lane");
  // A nested begin only moves the PC.
  w.TxBegin(0x110, 0x250);
  EXPECT_EQ(w.last().depth, 3u);
  EXPECT_EQ(w.last().top_pc, 0x110u);
  EXPECT_EQ(w.last().err, 0u);
}

// A loop whose lanes leave at different iterations (a list walk): 0x100 the loop's load,
// 0x108 its exit branch back to 0x100, 0x110 the code after the loop. The first divergent
// iteration makes the entry below wait at 0x110; every later one reuses the top, whose
// reconvergence point is 0x110 already: the leaving lanes drop out of it and the stack stays
// two deep, where a new waiting entry per iteration would overflow the small configuration's
// six entries after five.
TEST(TxSimtStackDirected, LoopExitsReuseTheTop) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.Branch("11111110", 0x100, 0x110, 0x110);  // lane 7 leaves the loop
  w.Expect({{N, 0x110, 0x300, "11111111"}, {N, 0x100, 0x110, "11111110"}}, "first exit");
  const char* const stay[] = {"11111100", "11111000", "11110000",
                              "11100000", "11000000", "10000000"};
  for (const char* m : stay) {
    w.Branch(m, 0x100, 0x110, 0x110);
    ASSERT_EQ(w.last().err, 0u);
    w.Expect({{N, 0x110, 0x300, "11111111"}, {N, 0x100, 0x110, m}}, m);
  }
  // Divergence to two paths inside the loop: the top becomes the fall-through path and only
  // the taken one is pushed.
  w.Init("11111111", 0x100, 0x300);
  w.Branch("11111110", 0x100, 0x110, 0x110);
  w.Branch("11000000", 0x104, 0x108, 0x110);
  w.Expect(
      {{N, 0x110, 0x300, "11111111"}, {N, 0x108, 0x110, "00111110"}, {N, 0x104, 0x110, "11000000"}},
      "two paths under the same reconvergence point");
  // The last lanes reach 0x110: the top pops down to the waiting entry.
  w.Next(0x110);
  w.Next(0x110);
  w.Expect({{N, 0x110, 0x300, "11111111"}}, "reconverged");
  EXPECT_EQ(w.last().err, 0u);
}

// A divergent branch of a Trans top whose reconvergence point is PC 0, the value every Trans
// entry holds in its RPC field: the Trans entry still waits at the reconvergence point with
// both paths pushed above it (only a Normal top's RPC is a reconvergence point to reuse); the
// paths then reconverge at 0 and the transaction commits from there.
TEST(TxSimtStackDirected, TransTopWaitsEvenWhenTheReconvergencePointIsZero) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.TxBegin(0x108, 0x200);
  w.Expect(
      {{N, 0x100, 0x300, "11111111"}, {R, 0x108, 0x200, "00000000"}, {T, 0x108, 0, "11111111"}},
      "the Trans entry's RPC is 0");
  w.Branch("11110000", 0x110, 0x118, 0x000);
  w.Expect({{N, 0x100, 0x300, "11111111"},
            {R, 0x108, 0x200, "00000000"},
            {T, 0x000, 0, "11111111"},
            {N, 0x118, 0x000, "00001111"},
            {N, 0x110, 0x000, "11110000"}},
           "both paths pushed above the waiting Trans entry");
  w.Next(0x000);  // the taken path reconverges
  w.Next(0x000);  // the fall-through path reconverges
  w.Expect(
      {{N, 0x100, 0x300, "11111111"}, {R, 0x108, 0x200, "00000000"}, {T, 0x000, 0, "11111111"}},
      "reconverged at 0");
  EXPECT_EQ(w.Commit("00000000").tx_done, 1u);
  w.Expect({{N, 0x200, 0x300, "11111111"}}, "after the transaction");
  EXPECT_EQ(w.last().err, 0u);
}

TEST(TxSimtStackDirected, ErrorsLeaveTheStackAlone) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  EXPECT_EQ(w.Next(0x10).err, 1u) << "a command before Init";
  w.Init("11111111", 0x100, 0x300);
  w.Commit("00000000");  // outside a transaction
  w.Expect({{N, 0x100, 0x300, "11111111"}}, "commit outside a transaction");
  w.TxBegin(0x108, 0x200);
  w.Pause("11111111", 0);  // every lane: ignored
  w.Expect(
      {{N, 0x100, 0x300, "11111111"}, {R, 0x108, kAny, "00000000"}, {T, 0x108, kAny, "11111111"}},
      "a pause of every lane");
  // Six entries: one more divergence fits (two pushes: 5), a third push overflows.
  w.Branch("11110000", 0x110, 0x118, 0x120);
  EXPECT_EQ(w.last().depth, 5u);
  w.Branch("11000000", 0x130, 0x138, 0x140);
  EXPECT_EQ(w.last().depth, 5u) << "overflow: ignored";
  EXPECT_EQ(w.last().err, 1u);
}

TEST(TxSimtStackDirected, DegenerateConfiguration) {
  using L1 = Lockstep<TxSimtStackPorts, Vhtm_tx_simt_stack__one, TxSimtStackModel>;
  L1 ls(configs::htm_tx_simt_stack::kOne, DirectedOptions("htm_tx_simt_stack", "one"));
  Warp w(ls);
  w.Init("1", 0, 15);
  w.TxBegin(1, 9);
  EXPECT_EQ(w.last().depth, 3u);
  EXPECT_EQ(w.Pause("1", 1).err, 1u) << "the only lane cannot pause";
  EXPECT_EQ(w.Commit("1").restarted, 1u);
  EXPECT_EQ(w.Commit("0").tx_done, 1u);
  EXPECT_EQ(w.last().top_pc, 9u);
}

TEST(TxSimtStackDirected, DefaultConfigurationRunsFigure6Masks) {
  using Ld = Lockstep<TxSimtStackPorts, Vhtm_tx_simt_stack__default, TxSimtStackModel>;
  Ld ls(configs::htm_tx_simt_stack::kDefault, DirectedOptions("htm_tx_simt_stack", "default"));
  Warp w(ls);
  w.Init("11111111111111111111111111111111", 0x100, 0x130);
  w.TxBegin(0x108, 0x130);
  w.Pause("11110000111100001111000011110000", 5);
  const Out c = w.Commit("00000110000001100000011000000110");
  EXPECT_EQ(c.resumed, 1u);
  EXPECT_EQ(c.stk_mask[1], TableMask("00000110000001100000011000000110"));
  EXPECT_EQ(c.top_log, 5u);
}

// ---- Protocol errors (docs/htm_tx_simt_stack.md, "Protocol errors"), one test per class:
// legal commands leave err low, the offending command's cycle still shows err low, the next
// cycle shows it high, and the stack is unchanged.

// Sends `op` for one cycle and checks err rises in the next cycle, with the stack unchanged.
void ExpectErr(Ls& ls, Warp<Ls>& w, SimtOp op, uint64_t mask = 0) {
  ASSERT_EQ(w.last().err, 0u) << "legal commands before the violation";
  const Out before = w.last();
  In in;
  in.cmd_valid = 1;
  in.cmd_op = static_cast<uint64_t>(op);
  in.cmd_mask = mask;
  in.cmd_pc = 0x1f0;  // distinct target, fall-through and reconvergence: a Branch pushes two
  in.cmd_pc2 = 0x1f8;
  in.cmd_rpc = 0x1e0;
  EXPECT_EQ(DirectedCycle(ls, in).err, 0u) << "err is registered";
  const Out after = DirectedCycle(ls, In{});
  EXPECT_EQ(after.err, 1u) << "err in the cycle after the command";
  EXPECT_EQ(after.depth, before.depth) << "the command was refused";
  EXPECT_EQ(after.top_pc, before.top_pc);
  EXPECT_EQ(after.top_mask, before.top_mask);
}

TEST(TxSimtStackDirected, ErrCommandBeforeInit) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  ExpectErr(ls, w, SimtOp::kNext);
}

// Every command but Init needs a warp: each is refused before the first Init.
TEST(TxSimtStackDirected, ErrEveryCommandBeforeInit) {
  for (const SimtOp op : {SimtOp::kNext, SimtOp::kBranch, SimtOp::kTxBegin, SimtOp::kPause,
                          SimtOp::kCommit, SimtOp::kAbort}) {
    SCOPED_TRACE("command " + std::to_string(static_cast<int>(op)));
    Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
    Warp w(ls);
    ExpectErr(ls, w, op, TableMask("11000000"));
    const Out after = DirectedCycle(ls, In{});
    EXPECT_EQ(after.top_valid, 0u) << "still no entry";
    EXPECT_EQ(after.depth, 0u);
    EXPECT_EQ(after.in_tx, 0u);
  }
}

TEST(TxSimtStackDirected, ErrBranchOverflow) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.TxBegin(0x108, 0x200);
  w.Branch("11110000", 0x110, 0x118, 0x120);
  ASSERT_EQ(w.last().depth, 5u);
  ExpectErr(ls, w, SimtOp::kBranch, TableMask("11000000"));  // two more entries: 7 > 6
}

TEST(TxSimtStackDirected, ErrTxBeginOverflow) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.Branch("11110000", 0x110, 0x118, 0x120);
  w.Branch("11000000", 0x130, 0x138, 0x140);
  ASSERT_EQ(w.last().depth, 5u);
  ExpectErr(ls, w, SimtOp::kTxBegin);  // Retry and Trans: 7 > 6
}

TEST(TxSimtStackDirected, ErrPauseOverflow) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.Branch("11110000", 0x110, 0x118, 0x120);
  w.TxBegin(0x128, 0x200);
  w.Pause("11000000", 1);
  ASSERT_EQ(w.last().depth, 6u);
  ExpectErr(ls, w, SimtOp::kPause, TableMask("00100000"));  // a seventh entry
}

TEST(TxSimtStackDirected, ErrPauseOfEveryLane) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.TxBegin(0x108, 0x200);
  ExpectErr(ls, w, SimtOp::kPause, TableMask("11111111"));  // no lane would go on
}

TEST(TxSimtStackDirected, ErrCommitOutsideATransaction) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  ExpectErr(ls, w, SimtOp::kCommit);
}

TEST(TxSimtStackDirected, ErrCommitWithADivergedTop) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  w.TxBegin(0x108, 0x200);
  w.Branch("11110000", 0x110, 0x118, 0x120);  // the top is a Normal entry inside the try
  ExpectErr(ls, w, SimtOp::kCommit);
}

TEST(TxSimtStackDirected, ErrAbortOutsideATransaction) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  ExpectErr(ls, w, SimtOp::kAbort, TableMask("10000000"));
}

TEST(TxSimtStackDirected, ErrUnknownCommand) {
  Ls ls(P(), DirectedOptions("htm_tx_simt_stack", "small"));
  Warp w(ls);
  w.Init("11111111", 0x100, 0x300);
  ExpectErr(ls, w, static_cast<SimtOp>(7));
}

}  // namespace
}  // namespace htm::tb
