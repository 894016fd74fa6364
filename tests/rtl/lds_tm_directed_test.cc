// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_lds_tm (GPU-LocalTM's LDS of a work-group), RTL and golden model in
// lockstep with the expected results asserted on top: the thesis's worked examples run end to
// end through real LDS accesses (Tables 5.1, 5.2 and 5.9: the conflicts come from the banks'
// conflict detection, not from a test bench), the latency and throughput of every kind of
// access, bank-conflict serialization, aborts restoring every bank, work-group serialization
// aborting another wavefront's try, atomics and bad input.
//
// Masks are written as in the tables, work-item 0 first: "0111" has bits 1, 2 and 3 set.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vhtm_lds_tm__default.h"
#include "Vhtm_lds_tm__one.h"
#include "Vhtm_lds_tm__small.h"
#include "Vhtm_lds_tm__smalldcd.h"
#include "Vhtm_lds_tm__smallprw.h"

#include "htm/configs/htm_lds_tm.h"
#include "htm/golden/lds_tm_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using DefaultTop = Vhtm_lds_tm__default;

using golden::LdsTmIn;
using golden::LdsTmModel;
using golden::LdsTmOut;
using golden::LdsTmParams;
using golden::LdsTmPorts;

uint64_t M(const std::string& s) {
  return TableMask(s);
}

struct Rsp {
  LdsTmOut out;
  int latency = 0;  // cycles from the accept cycle to the response cycle
};

template <class Top>
class Lds {
 public:
  using Ls = Lockstep<LdsTmPorts, Top, LdsTmModel>;
  Lds(const LdsTmParams& p, const char* config)
      : ls_(p, DirectedOptions("htm_lds_tm", config)), p_(p) {}

  const LdsTmModel& m() const { return ls_.model(); }
  int words() const { return p_.num_banks * p_.bank_words; }
  uint64_t all() const { return golden::LowMask(p_.wf_size); }

  LdsTmOut Cycle(const LdsTmIn& in) {
    last_ = DirectedCycle(ls_, in);
    return last_;
  }
  LdsTmOut Idle(int n = 1) {
    for (int i = 0; i < n; ++i) {
      Cycle(LdsTmIn{});
    }
    return last_;
  }
  LdsTmOut State() const { return ls_.model().Eval(LdsTmIn{}); }

  // Presents `in` until accepted; returns the cycles it waited.
  int Issue(const LdsTmIn& in) {
    for (int wait = 0;; ++wait) {
      if (Cycle(in).ins_ready) {
        return wait;
      }
      if (wait > 100000) {
        ADD_FAILURE() << "instruction never accepted";
        return wait;
      }
    }
  }
  // A memory instruction: presented until accepted, then the cycles until its response.
  Rsp Mem(int wf, LdsIns op, const std::vector<uint32_t>& addr,
          const std::vector<uint32_t>& data = {}, const std::vector<uint32_t>& cmp = {}) {
    Issue(MemIn(wf, op, addr, data, cmp));
    return Wait();
  }
  LdsTmIn MemIn(int wf, LdsIns op, const std::vector<uint32_t>& addr,
                const std::vector<uint32_t>& data = {}, const std::vector<uint32_t>& cmp = {}) {
    LdsTmIn in;
    in.ins_valid = 1;
    in.ins_op = static_cast<uint64_t>(op);
    in.ins_wf = static_cast<uint64_t>(wf);
    for (size_t l = 0; l < addr.size(); ++l) {
      in.ins_addr[l] = addr[l];
      in.ins_data[l] = l < data.size() ? data[l] : 0;
      in.ins_cmp[l] = l < cmp.size() ? cmp[l] : 0;
    }
    return in;
  }
  Rsp Wait() {
    Rsp r;
    for (r.latency = 1;; ++r.latency) {
      r.out = Cycle(LdsTmIn{});
      if (r.out.rsp_valid) {
        return r;
      }
      if (r.latency > 100000) {
        ADD_FAILURE() << "no response";
        return r;
      }
    }
  }
  void Ctl(int wf, LdsIns op, uint64_t exec = 0) {
    LdsTmIn in;
    in.ins_valid = 1;
    in.ins_op = static_cast<uint64_t>(op);
    in.ins_wf = static_cast<uint64_t>(wf);
    in.ins_exec = exec;
    Issue(in);
    Idle();  // its effect shows in the next cycle
  }
  void Exec(int wf, uint64_t exec) { Ctl(wf, LdsIns::kExecWrite, exec); }
  void Begin(int wf) { Ctl(wf, LdsIns::kTxBegin); }
  void Commit(int wf) { Ctl(wf, LdsIns::kTxCommit); }
  // Waits until the LDS is idle (aborts and commits walked).
  void Drain() {
    for (int i = 0; State().busy; ++i) {
      Idle();
      if (i > 100000) {
        ADD_FAILURE() << "never idle";
        return;
      }
    }
  }

  // Every word non-transactionally (wavefront 0 with all lanes): word a = Initial(a).
  static uint32_t Initial(int a) { return 0xA0000000u + static_cast<uint32_t>(a); }
  void Init() {
    for (int base = 0; base < words(); base += p_.wf_size) {
      std::vector<uint32_t> a, d;
      for (int l = 0; l < p_.wf_size; ++l) {
        const int w = std::min(base + l, words() - 1);
        a.push_back(static_cast<uint32_t>(w));
        d.push_back(Initial(w));
      }
      Mem(0, LdsIns::kStore, a, d);
    }
  }
  // Word a through a non-transactional load of lane 0 of `wf` (EXEC is set to lane 0 and
  // restored).
  uint32_t Peek(int a, int wf = 0) {
    const uint64_t exec = State().wf_exec[wf];
    Exec(wf, 1);
    const Rsp r = Mem(wf, LdsIns::kLoad, {static_cast<uint32_t>(a)});
    Exec(wf, exec);
    return static_cast<uint32_t>(r.out.rsp_data[0]);
  }

  // The masks of wavefront wf now.
  void ExpectMasks(int wf, const std::string& exec, const std::string& tcm, LdsMode mode,
                   const std::string& what) {
    SCOPED_TRACE(what);
    const LdsTmOut o = State();
    EXPECT_EQ(o.wf_exec[wf] & M(std::string(exec.size(), '1')), M(exec));
    EXPECT_EQ(o.wf_tcm[wf] & M(std::string(tcm.size(), '1')), M(tcm));
    EXPECT_EQ(o.wf_mode[wf], static_cast<uint64_t>(mode));
  }

 private:
  Ls ls_;
  LdsTmParams p_;
  LdsTmOut last_;
};

// ---------------------------------------------------------------------------------------------
// Thesis Tables 5.2 and 5.9 end to end: WI0 Read A Write B, WI1 Read B Write A, WI2 Read C
// Write D, WI3 Read D Write C, as two wavefront instructions (a load, a store). A..D are in four
// different banks; each write stores the value read plus 0x10 * (WI + 1), so the final values
// say which committed reads saw which writes.
// ---------------------------------------------------------------------------------------------

constexpr uint32_t kA = 0, kB = 1, kC = 2, kD = 3;

// The body of one try (TX_Begin and TX_Commit are the test's).
template <class L>
void Table52Body(L& lds) {
  const Rsp rd = lds.Mem(0, LdsIns::kLoad, {kA, kB, kC, kD});
  std::vector<uint32_t> wdata;
  for (uint32_t l = 0; l < 4; ++l) {
    wdata.push_back(static_cast<uint32_t>(rd.out.rsp_data[l]) + 0x10 * (l + 1));
  }
  lds.Mem(0, LdsIns::kStore, {kB, kA, kD, kC}, wdata);
  lds.Drain();
}

// Serial order: B = A0 + 0x10; A = B + 0x20; D = C0 + 0x30; C = D + 0x40.
template <class L>
void ExpectTable52Result(L& lds) {
  EXPECT_EQ(lds.Peek(kB), L::Initial(kA) + 0x10);
  EXPECT_EQ(lds.Peek(kA), L::Initial(kA) + 0x30);
  EXPECT_EQ(lds.Peek(kD), L::Initial(kC) + 0x30);
  EXPECT_EQ(lds.Peek(kC), L::Initial(kC) + 0x70);
}

// One row of Table 5.2 or 5.9: the masks and mode at TX_Begin and at TX_Commit of a try.
struct TableRow {
  const char* exec_begin;
  const char* tcm_begin;
  LdsMode mode;
  const char* tcm_end;
  const char* what;
};

// Each row is one try of wavefront 0 running the Table 5.2 body.
template <class L, size_t N>
void RunTableRows(L& lds, const TableRow (&rows)[N]) {
  for (const TableRow& r : rows) {
    lds.Begin(0);
    lds.ExpectMasks(0, r.exec_begin, r.tcm_begin, r.mode, std::string("TX_Begin: ") + r.what);
    Table52Body(lds);
    lds.ExpectMasks(0, r.exec_begin, r.tcm_end, r.mode, std::string("TX_Commit: ") + r.what);
    lds.Commit(0);
  }
}

TEST(LdsTmDirected, ThesisTable5_2_EndToEnd) {
  // DCD + pRWsig, single-ascending (the basic GPU-LocalTM); wavefronts of 8 running 4.
  Lds<Vhtm_lds_tm__smallprw> lds(configs::htm_lds_tm::kSmallprw, "smallprw");
  lds.Init();
  lds.Exec(0, M("1111"));
  const TableRow rows[] = {
      {"1111", "0000", LdsMode::kTx, "1111", "all WIs detect conflicts"},
      {"1111", "0000", LdsMode::kTx, "1111", "again: no progress (livelock)"},
      {"1111", "0111", LdsMode::kWfS, "0111", "WfS: WI 0 alone, commits"},
      {"0111", "0000", LdsMode::kTx, "0011", "WIs 2 and 3 conflict, WI 1 commits"},
      {"0011", "0000", LdsMode::kTx, "0011", "again: livelock"},
      {"0011", "0001", LdsMode::kWfS, "0001", "WfS: WI 2 alone, commits"},
      {"0001", "0000", LdsMode::kTx, "0000", "WI 3 commits"},
  };
  RunTableRows(lds, rows);
  const LdsTmOut o = lds.State();
  EXPECT_EQ((o.wf_in_try | o.wf_retry) & 1, 0u);
  EXPECT_EQ(o.wf_exec[0], M("1111"));  // EXEC as at the first TX_Begin
  EXPECT_EQ(o.err, 0u);
  ExpectTable52Result(lds);
}

TEST(LdsTmDirected, ThesisTable5_9_EndToEnd) {
  // DCD + pRWsig + sWOsig, multiple-ascending: the MCM keeps WIs 0 and 2 (below the work-item
  // whose signature they hit), so WfS runs both at once; three tries instead of seven.
  Lds<Vhtm_lds_tm__small> lds(configs::htm_lds_tm::kSmall, "small");
  lds.Init();
  const TableRow rows[] = {
      {"1111", "0000", LdsMode::kTx, "1111", "all WIs detect conflicts"},
      {"1111", "0000", LdsMode::kTx, "1111", "no progress"},
      {"1111", "0101", LdsMode::kWfS, "0101", "WfS: WIs 0 and 2 commit"},
      {"0101", "0000", LdsMode::kTx, "0000", "WIs 1 and 3 commit"},
  };
  RunTableRows(lds, rows);
  EXPECT_EQ(lds.State().err, 0u);
  ExpectTable52Result(lds);
}

TEST(LdsTmDirected, ThesisTable5_1_EndToEnd) {
  // 64 work-items; WI 1 reads a word that a work-item of another wavefront has written in its
  // live transaction: WI 1 alone conflicts, the others commit, WI 1 retries alone and commits.
  Lds<DefaultTop> lds(configs::htm_lds_tm::kDefault, "default");
  lds.Init();
  constexpr uint32_t kX = 4000;
  lds.Exec(1, 1);
  lds.Begin(1);
  lds.Mem(1, LdsIns::kStore, {kX}, {0x1234});
  std::vector<uint32_t> addr;
  for (uint32_t l = 0; l < 64; ++l) {
    addr.push_back(l == 1 ? kX : 64 + l);
  }
  const uint64_t all = ~uint64_t{0};
  lds.Begin(0);
  lds.ExpectMasks(0, std::string(64, '1'), std::string(64, '0'), LdsMode::kTx, "TX_Begin");
  const Rsp r = lds.Mem(0, LdsIns::kLoad, addr);
  EXPECT_EQ(r.out.rsp_conf, M("01"));
  EXPECT_EQ(r.out.rsp_lanes, all);
  lds.Drain();
  EXPECT_EQ(lds.State().wf_tcm[0], M("01"));  // conflict detected by WI 1
  lds.Commit(1);                              // the writer commits
  lds.Commit(0);                              // WIs 0, 2, 3, ... commit; WI 1 restarts
  lds.ExpectMasks(0, "01" + std::string(62, '0'), "01", LdsMode::kTx, "TCM copied to EXEC");
  lds.Begin(0);
  lds.ExpectMasks(0, "01" + std::string(62, '0'), std::string(64, '0'), LdsMode::kTx,
                  "WI 1 retries alone");
  const Rsp r2 = lds.Mem(0, LdsIns::kLoad, addr);
  EXPECT_EQ(r2.out.rsp_lanes, M("01"));
  EXPECT_EQ(r2.out.rsp_conf, 0u);
  EXPECT_EQ(r2.out.rsp_data[1], 0x1234u);  // the committed value
  lds.Commit(0);
  const LdsTmOut o = lds.State();
  EXPECT_EQ(o.wf_exec[0], all);
  EXPECT_EQ(o.wf_in_try & 1, 0u);
  EXPECT_EQ(o.wf_mode[0], static_cast<uint64_t>(LdsMode::kNonTx));
  EXPECT_EQ(o.err, 0u);
}

// ---------------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------------

TEST(LdsTmDirected, LatencyOfEveryKindOfAccess) {
  Lds<DefaultTop> lds(configs::htm_lds_tm::kDefault, "default");
  lds.Init();
  std::vector<uint32_t> coalesced, one_bank;
  for (uint32_t l = 0; l < 64; ++l) {
    coalesced.push_back(l);
    one_bank.push_back(l * 32 + 5);
  }
  // Non-transactional: accept, issue, bank (1 cycle), buffer complete.
  EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, coalesced).latency, 4);  // two lanes per bank
  EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, one_bank).latency, 66);  // 64 lanes in one bank
  lds.Exec(0, 1);
  EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, {7}).latency, 3);
  EXPECT_EQ(lds.Mem(0, LdsIns::kStore, {7}, {1}).latency, 3);
  // Transactional (DCD + pRWsig + sWOsig): a read leaves no record (1 bank cycle); a first
  // write makes one (owner byte, data, backup: 3); a repeated write is plain again (1).
  lds.Begin(0);
  EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, {7}).latency, 3);
  EXPECT_EQ(lds.Mem(0, LdsIns::kStore, {7}, {2}).latency, 5);
  EXPECT_EQ(lds.Mem(0, LdsIns::kStore, {7}, {3}).latency, 3);
  lds.Commit(0);
  // An atomic: read, new value, write (three bank cycles), then the buffer.
  EXPECT_EQ(lds.Mem(0, LdsIns::kAtomAdd, {7}, {1}).latency, 5);
  EXPECT_EQ(lds.Peek(7), 4u);
}

TEST(LdsTmDirected, OneAccessPerBankPerCycleBackToBack) {
  // Coalesced 64-work-item loads back to back: two lanes per bank per instruction, a new
  // instruction every two cycles, every bank busy every cycle.
  Lds<DefaultTop> lds(configs::htm_lds_tm::kDefault, "default");
  lds.Init();
  constexpr int kN = 50;
  const std::vector<uint64_t> before = lds.m().bank_accesses();
  int cycles = 0, rsps = 0;
  for (int i = 0; i < kN; ++i) {
    std::vector<uint32_t> a;
    for (uint32_t l = 0; l < 64; ++l) {
      a.push_back(static_cast<uint32_t>(i * 64) + l);
    }
    const LdsTmIn in = lds.MemIn(i % 4, i % 2 ? LdsIns::kLoad : LdsIns::kStore, a, a);
    for (;;) {
      ++cycles;
      const LdsTmOut o = lds.Cycle(in);
      rsps += o.rsp_valid ? 1 : 0;
      if (o.ins_ready) {
        break;
      }
    }
  }
  while (rsps < kN) {
    ++cycles;
    rsps += lds.Cycle(LdsTmIn{}).rsp_valid ? 1 : 0;
  }
  uint64_t acc = 0;
  for (size_t b = 0; b < before.size(); ++b) {
    acc += lds.m().bank_accesses()[b] - before[b];
  }
  EXPECT_EQ(acc, uint64_t{kN} * 64);
  // 2 cycles per instruction, plus the pipeline's fill and drain (4 cycles).
  EXPECT_EQ(cycles, 2 * kN + 3);
}

// ---------------------------------------------------------------------------------------------
// Aborts, work-group serialization
// ---------------------------------------------------------------------------------------------

TEST(LdsTmDirected, AbortRestoresTheWorkItemInEveryBank) {
  Lds<DefaultTop> lds(configs::htm_lds_tm::kDefault, "default");
  lds.Init();
  using L = Lds<DefaultTop>;
  // A work-item of wavefront 1 reads word 7 in its try (a pRWsig entry, no record).
  lds.Exec(1, 1);
  lds.Begin(1);
  lds.Mem(1, LdsIns::kLoad, {7});
  // Wavefront 0 writes three words per work-item, in different banks (bank-local addresses 2
  // or 3, 4 or 5, then 0 or 1: no two work-items share a signature bit in a bank); WI 7's third
  // write (word 7) conflicts with that read.
  lds.Begin(0);
  std::vector<uint32_t> a1, a2, a3, d;
  for (uint32_t l = 0; l < 64; ++l) {
    a1.push_back(64 + l);              // bank l % 32
    a2.push_back(128 + (l + 5) % 64);  // bank (l + 5) % 32
    a3.push_back(l);                   // bank l % 32
    d.push_back(0xB0000000u + l);
  }
  EXPECT_EQ(lds.Mem(0, LdsIns::kStore, a1, d).out.rsp_conf, 0u);
  EXPECT_EQ(lds.Mem(0, LdsIns::kStore, a2, d).out.rsp_conf, 0u);
  const Rsp r = lds.Mem(0, LdsIns::kStore, a3, d);
  EXPECT_EQ(r.out.rsp_conf, uint64_t{1} << 7);
  lds.Drain();
  EXPECT_EQ(lds.State().wf_tcm[0], uint64_t{1} << 7);
  // WI 7's words are restored in banks 7, 12 and 7; the others keep their new values.
  EXPECT_EQ(lds.Peek(64 + 7, 2), L::Initial(64 + 7));
  EXPECT_EQ(lds.Peek(128 + 12, 2), L::Initial(128 + 12));
  EXPECT_EQ(lds.Peek(7, 2), L::Initial(7));
  EXPECT_EQ(lds.Peek(64 + 8, 2), 0xB0000008u);
  EXPECT_EQ(lds.Peek(128 + 13, 2), 0xB0000008u);
  EXPECT_EQ(lds.Peek(8, 2), 0xB0000008u);
  for (int b = 0; b < 32; ++b) {
    EXPECT_EQ(lds.m().bank(b).Records(7), 0) << "bank " << b;
  }
  EXPECT_EQ(lds.State().err, 0u);
}

TEST(LdsTmDirected, WorkGroupSerializationAbortsTheOtherWavefrontsTry) {
  // DCD, single-descending, three wavefronts of four. Wavefront 1's WI 4 writes word X and
  // stays in its try; every work-item of wavefront 0 reads X and conflicts, twice (livelock);
  // WfS runs WI 3 alone, which conflicts again: WgS. Wavefront 0 takes WgS, wavefront 1's try
  // is aborted (X restored) and its TX_Begin waits until wavefront 0's WgS try commits.
  Lds<Vhtm_lds_tm__smalldcd> lds(configs::htm_lds_tm::kSmalldcd, "smalldcd");
  using L = Lds<Vhtm_lds_tm__smalldcd>;
  lds.Init();
  constexpr uint32_t kX = 9;
  lds.Exec(1, M("1"));
  lds.Begin(1);
  lds.Mem(1, LdsIns::kStore, {kX}, {0x77});
  const std::vector<uint32_t> all_x = {kX, kX, kX, kX};
  for (int t = 0; t < 2; ++t) {
    lds.Begin(0);
    EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, all_x).out.rsp_conf, M("1111"));
    lds.Drain();
    lds.Commit(0);
  }
  lds.Begin(0);
  lds.ExpectMasks(0, "1111", "1110", LdsMode::kWfS, "WfS: WI 3 (descending)");
  EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, all_x).out.rsp_conf, M("0001"));
  lds.Drain();
  lds.Commit(0);
  // WgS: the grant, then wavefront 1's try is aborted (the broadcast in the cycle after the
  // grant); X is restored.
  LdsTmIn begin;
  begin.ins_valid = 1;
  begin.ins_op = static_cast<uint64_t>(LdsIns::kTxBegin);
  for (int i = 0; i < 20 && !lds.State().wgs_grant; ++i) {
    EXPECT_EQ(lds.Cycle(LdsTmIn{}).abt_valid, 0u);
  }
  EXPECT_EQ(lds.State().wgs_grant, 1u);
  EXPECT_EQ(lds.Issue(begin), 0);  // wavefront 0's TX_Begin in the grant cycle
  const LdsTmOut st = lds.Idle();
  EXPECT_EQ(st.abt_valid, 1u);
  EXPECT_EQ(st.abt_wf, 1u);
  EXPECT_EQ(st.abt_mask, M("1"));
  EXPECT_EQ(st.wf_in_try & 2, 0u);  // wavefront 1 aborted
  EXPECT_EQ(st.wf_retry & 2, 2u);
  lds.ExpectMasks(0, "1111", "1110", LdsMode::kWgS, "WgS: WI 3 alone in the work-group");
  lds.Drain();
  // Wavefront 1's replay waits for the end of the WgS try.
  LdsTmIn begin1 = begin;
  begin1.ins_wf = 1;
  EXPECT_EQ(lds.Cycle(begin1).ins_ready, 0u);
  EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, all_x).out.rsp_conf, 0u);
  lds.Drain();
  EXPECT_EQ(lds.Peek(kX, 2), L::Initial(kX));  // wavefront 1's write was rolled back
  lds.Commit(0);
  EXPECT_EQ(lds.State().wgs_grant, 0u);
  EXPECT_EQ(lds.State().err, 0u);
}

// ---------------------------------------------------------------------------------------------
// Atomics, bad input, the degenerate configuration
// ---------------------------------------------------------------------------------------------

TEST(LdsTmDirected, AtomicsSerializeInTheBank) {
  Lds<DefaultTop> lds(configs::htm_lds_tm::kDefault, "default");
  using L = Lds<DefaultTop>;
  lds.Init();
  const std::vector<uint32_t> same(64, 9);
  const std::vector<uint32_t> ones(64, 1);
  const Rsp add = lds.Mem(0, LdsIns::kAtomAdd, same, ones);
  for (uint32_t l = 0; l < 64; ++l) {
    EXPECT_EQ(add.out.rsp_data[l], L::Initial(9) + l) << "lane " << l;  // lowest lane first
  }
  EXPECT_EQ(add.latency, 2 + 3 * 64);
  EXPECT_EQ(lds.Peek(9), L::Initial(9) + 64);
  // Compare-and-swap: only the first lane finds the expected value.
  std::vector<uint32_t> cmp(64, L::Initial(9) + 64), val;
  for (uint32_t l = 0; l < 64; ++l) {
    val.push_back(100 + l);
  }
  const Rsp cas = lds.Mem(0, LdsIns::kAtomCas, same, val, cmp);
  EXPECT_EQ(cas.out.rsp_data[0], L::Initial(9) + 64);
  EXPECT_EQ(cas.out.rsp_data[1], 100u);
  EXPECT_EQ(cas.out.rsp_data[63], 100u);
  EXPECT_EQ(lds.Peek(9), 100u);
  EXPECT_EQ(lds.State().err, 0u);
}

TEST(LdsTmDirected, BadInputSetsErrAndDoesNotAccess) {
  {
    Lds<Vhtm_lds_tm__smalldcd> lds(configs::htm_lds_tm::kSmalldcd, "smalldcd");
    lds.Init();
    // A lane out of range (24 words): not accessed, the others are.
    const Rsp r = lds.Mem(0, LdsIns::kStore, {1, 30, 2, 3}, {5, 5, 5, 5});
    EXPECT_EQ(r.out.rsp_lanes, M("1011"));
    EXPECT_EQ(lds.State().err, 1u);
    // The boundary: word 23 is the last of the LDS, 24 the first past it (the port carries
    // addresses up to 31).
    const Rsp edge = lds.Mem(0, LdsIns::kStore, {23, 24, 23, 24}, {6, 6, 6, 6});
    EXPECT_EQ(edge.out.rsp_lanes, M("1010"));
    EXPECT_EQ(lds.Peek(23), 6u);
  }
  {
    Lds<Vhtm_lds_tm__smalldcd> lds(configs::htm_lds_tm::kSmalldcd, "smalldcd");
    LdsTmIn in;
    in.ins_valid = 1;
    in.ins_wf = 3;  // three wavefronts
    EXPECT_EQ(lds.Issue(in), 0);
    lds.Idle();
    EXPECT_EQ(lds.State().err, 1u);
    EXPECT_EQ(lds.State().busy, 0u);  // dropped: no response will come
  }
  {
    Lds<Vhtm_lds_tm__smalldcd> lds(configs::htm_lds_tm::kSmalldcd, "smalldcd");
    LdsTmIn in;
    in.ins_valid = 1;
    in.ins_op = 7;
    EXPECT_EQ(lds.Issue(in), 0);
    lds.Idle();
    EXPECT_EQ(lds.State().err, 1u);
  }
  {
    // An atomic in a try: no access, the response has no lanes.
    Lds<Vhtm_lds_tm__smalldcd> lds(configs::htm_lds_tm::kSmalldcd, "smalldcd");
    lds.Init();
    lds.Begin(0);
    const Rsp r = lds.Mem(0, LdsIns::kAtomAdd, {1, 2, 3, 4}, {1, 1, 1, 1});
    EXPECT_EQ(r.out.rsp_lanes, 0u);
    EXPECT_EQ(lds.State().err, 1u);
    // A compare-and-swap whose compare values match: it does not access either.
    using L = Lds<Vhtm_lds_tm__smalldcd>;
    const Rsp cas = lds.Mem(0, LdsIns::kAtomCas, {1, 2, 3, 4}, {9, 9, 9, 9},
                            {L::Initial(1), L::Initial(2), L::Initial(3), L::Initial(4)});
    EXPECT_EQ(cas.out.rsp_lanes, 0u);
    lds.Commit(0);
    EXPECT_EQ(lds.Peek(1), L::Initial(1));
    EXPECT_EQ(lds.Peek(4), L::Initial(4));
  }
  {
    // EXEC widened inside a try: the extra work-item does not access.
    Lds<Vhtm_lds_tm__smalldcd> lds(configs::htm_lds_tm::kSmalldcd, "smalldcd");
    lds.Init();
    lds.Exec(0, M("1100"));
    lds.Begin(0);
    lds.Exec(0, M("1110"));
    const Rsp r = lds.Mem(0, LdsIns::kLoad, {1, 2, 3, 4});
    EXPECT_EQ(r.out.rsp_lanes, M("1100"));
    EXPECT_EQ(lds.State().err, 1u);
  }
}

TEST(LdsTmDirected, DegenerateOneWorkItemOneBank) {
  Lds<Vhtm_lds_tm__one> lds(configs::htm_lds_tm::kOne, "one");
  using L = Lds<Vhtm_lds_tm__one>;
  lds.Init();
  lds.Begin(0);
  lds.Mem(0, LdsIns::kStore, {2}, {0x55});
  EXPECT_EQ(lds.Mem(0, LdsIns::kLoad, {2}).out.rsp_data[0], 0x55u);
  lds.Commit(0);
  EXPECT_EQ(lds.Peek(2), 0x55u);
  EXPECT_EQ(lds.Mem(0, LdsIns::kAtomAdd, {3}, {2}).out.rsp_data[0], L::Initial(3));
  EXPECT_EQ(lds.Peek(3), L::Initial(3) + 2);
  EXPECT_EQ(lds.State().err, 0u);
}

}  // namespace
}  // namespace htm::tb
