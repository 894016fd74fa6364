// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_lds_bank (one GPU-LocalTM LDS bank), run in lockstep with the golden
// model (every output compared every cycle) and the expected results asserted on top: every row
// of thesis Tables 5.3(a) (DCD), 5.3(b) (SMDCD), 5.4 (DCD + pRWsig) and 5.5 (DCD + pRWsig +
// sWOsig), the shadow-memory layout of 5.2.3, abort (restore) and commit (clear) walks, the
// latency of every case and one plain access per cycle.
//
// Work-items: WI is the accessing one (id 3, wavefront 0); o-WI is another one of the same
// wavefront (id 7) or of another wavefront (id 70, wavefront 1). Word k = 16; k + 8 shares its
// pRWsig bit (hash mod 8) but not its sWOsig bit; k + 32 shares both (hash mod 32).
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "Vhtm_lds_bank__dcd.h"
#include "Vhtm_lds_bank__default.h"
#include "Vhtm_lds_bank__one.h"
#include "Vhtm_lds_bank__prw.h"
#include "Vhtm_lds_bank__smdcd.h"

#include "htm/configs/htm_lds_bank.h"
#include "htm/golden/lds_bank_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"

namespace htm::tb {
namespace {
using golden::LdsBankIn;
using golden::LdsBankModel;
using golden::LdsBankOut;
using golden::LdsBankParams;
using golden::LdsBankPorts;

constexpr int kWi = 3;      // the accessing work-item (wavefront 0)
constexpr int kOwi = 7;     // another work-item of wavefront 0
constexpr int kOwiWf = 70;  // a work-item of wavefront 1
constexpr int kK = 16;      // the word
constexpr int kN = 128;     // user words of the paper-size configurations

// The value a word holds after Init().
uint32_t Initial(int addr) {
  return 0xA0000000u + static_cast<uint32_t>(addr);
}

struct Rsp {
  LdsBankOut out;
  int latency = 0;  // cycles from the accept cycle to the response
};

template <class Top>
class Bank {
 public:
  using Ls = Lockstep<LdsBankPorts, Top, LdsBankModel>;
  Bank(const LdsBankParams& p, const char* config)
      : ls_(p, DirectedOptions("htm_lds_bank", config)), p_(p) {}

  const LdsBankModel& m() const { return ls_.model(); }

  LdsBankOut Cycle(const LdsBankIn& in) {
    LdsBankIn i = in;
    i.shr_clr = shr_clr_ ? 1 : 0;
    return DirectedCycle(ls_, i);
  }
  // shr_clr_i from now on (the LDS top raises it while no try but a WgS one is live).
  void SetShrClr(bool v) { shr_clr_ = v; }
  void Idle(int n = 1) {
    for (int i = 0; i < n; ++i) {
      Cycle(LdsBankIn{});
    }
  }

  // One access, presented until accepted; returns its response.
  Rsp Access(int wi, int addr, bool we, bool tx, uint32_t data = 0) {
    LdsBankIn in;
    in.req_valid = 1;
    in.req_wi = static_cast<uint64_t>(wi);
    in.req_addr = static_cast<uint64_t>(addr);
    in.req_we = we;
    in.req_tx = tx;
    in.req_data = data;
    for (int guard = 0; !Cycle(in).req_ready; ++guard) {
      if (guard > 10000) {
        ADD_FAILURE() << "request never accepted";
        return {};
      }
    }
    Rsp r;
    for (r.latency = 1;; ++r.latency) {
      r.out = Cycle(LdsBankIn{});
      if (r.out.rsp_valid) {
        EXPECT_EQ(r.out.rsp_wi, static_cast<uint64_t>(wi));
        return r;
      }
      if (r.latency > 10) {
        ADD_FAILURE() << "no response";
        return r;
      }
    }
  }
  Rsp Read(int wi, int k) { return Access(wi, k, false, true); }
  Rsp Write(int wi, int k, uint32_t v) { return Access(wi, k, true, true, v); }

  // Every RAM word non-transactionally: word a holds Initial(a).
  void Init() {
    for (int a = 0; a < 2 * p_.bank_words + p_.bank_words / 4; ++a) {
      Access(0, a, true, false, Initial(a));
    }
  }

  // Aborts (or commits) work-item wi; returns the cycles the bank stays busy.
  int End(int wi, bool abort) {
    LdsBankIn in;
    const int wf = wi / p_.wf_size;
    const uint64_t mask = uint64_t{1} << (wi % p_.wf_size);
    if (abort) {
      in.abt_valid = 1;
      in.abt_wf = static_cast<uint64_t>(wf);
      in.abt_mask = mask;
    } else {
      in.cmt_valid = 1;
      in.cmt_wf = static_cast<uint64_t>(wf);
      in.cmt_mask = mask;
    }
    Cycle(in);
    int busy = 0;
    while (Cycle(LdsBankIn{}).busy) {
      ++busy;
      if (busy > 100000) {
        ADD_FAILURE() << "walk never ends";
        break;
      }
    }
    return busy;
  }
  int Abort(int wi) { return End(wi, true); }
  int Commit(int wi) { return End(wi, false); }

  // Word k through a non-transactional read of the RTL (and the model).
  uint32_t Peek(int addr) {
    return static_cast<uint32_t>(Access(0, addr, false, false).out.rsp_data);
  }
  // The owner byte of word k as stored at word 2N + k/4, byte k%4.
  int PeekOwner(int k) {
    return static_cast<int>((Peek(2 * p_.bank_words + k / 4) >> (8 * (k % 4))) & 0xff);
  }

 private:
  Ls ls_;
  LdsBankParams p_;
  bool shr_clr_ = false;
};

using Dcd = Bank<Vhtm_lds_bank__dcd>;
using Smdcd = Bank<Vhtm_lds_bank__smdcd>;
using Prw = Bank<Vhtm_lds_bank__prw>;
using Swo = Bank<Vhtm_lds_bank__default>;

void ExpectOk(const Rsp& r, uint32_t data, int shadow, int latency, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(r.out.rsp_conflict, 0u);
  EXPECT_EQ(r.out.rsp_data, data);
  EXPECT_EQ(r.out.rsp_shadow, static_cast<uint64_t>(shadow));
  EXPECT_EQ(r.latency, latency);
}
void ExpectConflict(const Rsp& r, int latency, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(r.out.rsp_conflict, 1u);
  EXPECT_EQ(r.out.rsp_data, 0u);
  EXPECT_EQ(r.latency, latency);
}

// ---------------------------------------------------------------------------------------------
// Thesis Table 5.3(a): DCD
// ---------------------------------------------------------------------------------------------

TEST(LdsBankDirected, Table5_3a_Row1_NotSetRead) {
  Dcd b(configs::htm_lds_bank::kDcd, "dcd");
  b.Init();
  // Not set, V=0, read -> owner WI, V=1; back up value; read memory.
  ExpectOk(b.Read(kWi, kK), Initial(kK), 2, 3, "first read");
  EXPECT_TRUE(b.m().Owned(kK));
  EXPECT_EQ(b.PeekOwner(kK), kWi);
  EXPECT_EQ(b.Peek(kN + kK), Initial(kK));  // backup at N + k
  EXPECT_EQ(b.m().Records(kWi), 1);
}

TEST(LdsBankDirected, Table5_3a_Row2_NotSetWrite) {
  Dcd b(configs::htm_lds_bank::kDcd, "dcd");
  b.Init();
  ExpectOk(b.Write(kWi, kK, 0x1234), Initial(kK), 2, 3, "first write");
  EXPECT_EQ(b.PeekOwner(kK), kWi);
  EXPECT_EQ(b.Peek(kN + kK), Initial(kK));
  EXPECT_EQ(b.Peek(kK), 0x1234u);
}

TEST(LdsBankDirected, Table5_3a_Rows3_4_RepeatedAccess) {
  Dcd b(configs::htm_lds_bank::kDcd, "dcd");
  b.Init();
  b.Write(kWi, kK, 0x1111);
  // WI, V=1: read memory / write memory, nothing else changes (one owner-word read).
  ExpectOk(b.Read(kWi, kK), 0x1111, 1, 2, "row 3: repeated read");
  ExpectOk(b.Write(kWi, kK, 0x2222), 0x1111, 1, 2, "row 4: repeated write");
  EXPECT_EQ(b.Peek(kN + kK), Initial(kK));  // the first backup is kept
  EXPECT_EQ(b.Peek(kK), 0x2222u);
  EXPECT_EQ(b.m().Records(kWi), 1);
}

TEST(LdsBankDirected, Table5_3a_Rows5_6_ConflictRestoresAccessor) {
  for (bool we : {false, true}) {
    SCOPED_TRACE(we ? "row 6: write" : "row 5: read");
    Dcd b(configs::htm_lds_bank::kDcd, "dcd");
    b.Init();
    b.Read(kOwi, kK);              // o-WI owns k
    b.Write(kWi, kK + 1, 0x5555);  // WI has a record elsewhere
    const Rsp r = b.Access(kWi, kK, we, true, 0x9999);
    ExpectConflict(r, 2, "o-WI owns k");  // owner word read, then the conflict
    EXPECT_EQ(r.out.rsp_lower, 0u);       // owner 7 is above WI 3
    // Abort: WI's backups restored, its records gone; o-WI's record stays.
    EXPECT_EQ(b.Abort(kWi), 2);  // one backed-up record: backup read, data write
    EXPECT_EQ(b.Peek(kK + 1), Initial(kK + 1));
    EXPECT_EQ(b.Peek(kK), Initial(kK));
    EXPECT_EQ(b.m().Records(kWi), 0);
    EXPECT_FALSE(b.m().Owned(kK + 1));
    EXPECT_TRUE(b.m().Owned(kK));
    EXPECT_EQ(b.PeekOwner(kK), kOwi);
    // The owner below WI: lower is reported (for the MCM).
    const Rsp r2 = b.Access(kOwiWf, kK, we, true, 0);
    EXPECT_EQ(r2.out.rsp_conflict, 1u);
    EXPECT_EQ(r2.out.rsp_lower, 1u);
  }
}

// ---------------------------------------------------------------------------------------------
// Thesis Table 5.3(b): SMDCD
// ---------------------------------------------------------------------------------------------

void ExpectSm(const LdsBankModel& m, bool s, bool mm, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(m.S(kK), s);
  EXPECT_EQ(m.M(kK), mm);
}

TEST(LdsBankDirected, Table5_3b_Row1_NotSetRead) {
  Smdcd b(configs::htm_lds_bank::kSmdcd, "smdcd");
  b.Init();
  ExpectSm(b.m(), true, true, "not set");
  // Not set (S=M=1), read -> WI, 0, 0; read memory, no backup (owner byte only).
  ExpectOk(b.Read(kWi, kK), Initial(kK), 1, 2, "first read");
  ExpectSm(b.m(), false, false, "WI 0 0");
  EXPECT_EQ(b.PeekOwner(kK), kWi);
  EXPECT_EQ(b.m().Records(kWi), 1);
}

TEST(LdsBankDirected, Table5_3b_Row2_NotSetWrite) {
  Smdcd b(configs::htm_lds_bank::kSmdcd, "smdcd");
  b.Init();
  ExpectOk(b.Write(kWi, kK, 0x77), Initial(kK), 2, 3, "first write");
  ExpectSm(b.m(), false, true, "WI 0 1");
  EXPECT_EQ(b.Peek(kN + kK), Initial(kK));
  EXPECT_EQ(b.Peek(kK), 0x77u);
}

TEST(LdsBankDirected, Table5_3b_Rows3_4_OwnerNotShared) {
  Smdcd b(configs::htm_lds_bank::kSmdcd, "smdcd");
  b.Init();
  b.Read(kWi, kK);
  // Row 3, M=0: read memory.
  ExpectOk(b.Read(kWi, kK), Initial(kK), 1, 2, "row 3, M=0");
  ExpectSm(b.m(), false, false, "WI 0 0");
  // Row 4, M=0: write memory, M <- 1. The word was not backed up at the first (read) access,
  // so this first write backs it up (the table's "write memory" would lose the old value).
  ExpectOk(b.Write(kWi, kK, 0x42), Initial(kK), 2, 3, "row 4, M=0 (backup)");
  ExpectSm(b.m(), false, true, "WI 0 1");
  EXPECT_EQ(b.Peek(kN + kK), Initial(kK));
  // Rows 3 and 4, M=1.
  ExpectOk(b.Read(kWi, kK), 0x42, 1, 2, "row 3, M=1");
  ExpectOk(b.Write(kWi, kK, 0x43), 0x42, 1, 2, "row 4, M=1");
  ExpectSm(b.m(), false, true, "WI 0 1");
  EXPECT_EQ(b.Peek(kN + kK), Initial(kK));
  // An abort restores the word.
  b.Abort(kWi);
  EXPECT_EQ(b.Peek(kK), Initial(kK));
  ExpectSm(b.m(), true, true, "not set");
}

TEST(LdsBankDirected, Table5_3b_Rows5_6_OwnerShared) {
  Smdcd b(configs::htm_lds_bank::kSmdcd, "smdcd");
  b.Init();
  b.Read(kWi, kK);
  b.Read(kOwi, kK);  // row 7: another reader, S <- 1
  ExpectSm(b.m(), true, false, "WI 1 0");
  ExpectOk(b.Read(kWi, kK), Initial(kK), 1, 2, "row 5: read");
  const Rsp r = b.Write(kWi, kK, 1);
  ExpectConflict(r, 2, "row 6: write, R->W");
  EXPECT_EQ(r.out.rsp_self, 1u);  // the owner itself conflicts
  EXPECT_EQ(r.out.rsp_lower, 0u);
  ExpectSm(b.m(), true, false, "unchanged");
  b.Abort(kWi);
  ExpectSm(b.m(), true, true, "the owner's record is cleared");
}

// Where Table 5.3(b) would lose an update: WI reads k (owner), OWI reads k (S <- 1), WI
// commits. The table clears the record, and a third work-item could write k and commit while
// OWI, still in its try, goes on with the value it read. The bank keeps k as a shared-read
// remnant: reads go on (no record), writes conflict, until shr_clr_i.
TEST(LdsBankDirected, Table5_3b_ReadersOutliveTheOwner) {
  Smdcd b(configs::htm_lds_bank::kSmdcd, "smdcd");
  b.Init();
  constexpr int kThird = kOwiWf;  // a work-item of another wavefront
  b.Read(kWi, kK);
  b.Read(kOwi, kK);
  ExpectSm(b.m(), true, false, "WI 1 0");
  b.Commit(kWi);
  ExpectSm(b.m(), true, true, "the owner's record is cleared");
  ExpectConflict(b.Write(kThird, kK, 0x99), 1, "a writer conflicts with the remaining reader");
  ExpectConflict(b.Write(kOwi, kK, 0x98), 1, "so does the reader itself");
  ExpectOk(b.Read(kThird, kK), Initial(kK), 0, 1, "reads go on");
  ExpectSm(b.m(), true, true, "no record made");
  // A word the owner alone read is free again at its commit.
  b.Read(kWi, kK + 1);
  b.Commit(kWi);
  ExpectOk(b.Write(kThird, kK + 1, 0x97), Initial(kK + 1), 2, 3, "a fresh write");
  // Once no try can be live, the remnant goes: the write makes a record.
  b.SetShrClr(true);
  ExpectOk(b.Write(kThird, kK, 0x96), Initial(kK), 2, 3, "after shr_clr: a fresh write");
  ExpectSm(b.m(), false, true, "the writer owns k");
}

TEST(LdsBankDirected, Table5_3b_Rows7_8_OtherReadOnly) {
  for (bool shared : {false, true}) {
    SCOPED_TRACE(shared ? "S=1" : "S=0");
    Smdcd b(configs::htm_lds_bank::kSmdcd, "smdcd");
    b.Init();
    b.Read(kOwi, kK);
    if (shared) {
      b.Read(kOwiWf, kK);
    }
    ExpectOk(b.Read(kWi, kK), Initial(kK), 1, 2, "row 7: read, S <- 1");
    ExpectSm(b.m(), true, false, "o-WI 1 0");
    EXPECT_EQ(b.PeekOwner(kK), kOwi);
    const Rsp r = b.Write(kWi, kK, 1);
    ExpectConflict(r, 2, "row 8: write, R->W");
    EXPECT_EQ(r.out.rsp_self, 0u);
  }
}

TEST(LdsBankDirected, Table5_3b_Rows9_10_OtherWrote) {
  for (bool we : {false, true}) {
    SCOPED_TRACE(we ? "row 10: write, W->W" : "row 9: read, W->R");
    Smdcd b(configs::htm_lds_bank::kSmdcd, "smdcd");
    b.Init();
    b.Write(kOwi, kK, 5);
    ExpectConflict(b.Access(kWi, kK, we, true, 6), 2, "o-WI 0 1");
    ExpectSm(b.m(), false, true, "unchanged");
  }
}

// ---------------------------------------------------------------------------------------------
// Thesis Table 5.4: DCD + pRWsig
// ---------------------------------------------------------------------------------------------

TEST(LdsBankDirected, Table5_4_Row1_NoHits) {
  for (bool we : {false, true}) {
    Prw b(configs::htm_lds_bank::kPrw, "prw");
    b.Init();
    // No hit: back up value, insert in WI's pRWsig, read/write memory.
    ExpectOk(b.Access(kWi, kK, we, true, 9), Initial(kK), 2, 3, we ? "write" : "read");
    EXPECT_EQ(b.m().Prw(kWi), 1u << (kK % 8));
    EXPECT_EQ(b.Peek(kN + kK), Initial(kK));
    EXPECT_EQ(b.PeekOwner(kK), kWi);
  }
}

TEST(LdsBankDirected, Table5_4_Row2_OwnHit) {
  Prw b(configs::htm_lds_bank::kPrw, "prw");
  b.Init();
  b.Read(kWi, kK);
  // Hit in WI's signature only, owner set (WI): read/write memory, no shadow access at all.
  ExpectOk(b.Read(kWi, kK), Initial(kK), 0, 1, "repeated read");
  ExpectOk(b.Write(kWi, kK, 3), Initial(kK), 0, 1, "repeated write");
  // Hit (k + 8 aliases k), owner not set: back up value, then the access.
  ExpectOk(b.Write(kWi, kK + 8, 4), Initial(kK + 8), 2, 3, "false hit, owner not set");
  EXPECT_EQ(b.Peek(kN + kK + 8), Initial(kK + 8));
  EXPECT_EQ(b.m().Records(kWi), 2);
}

TEST(LdsBankDirected, Table5_4_Rows3_4_OtherHit) {
  // o-WI's signature hits: a conflict whatever WI's own bit says. (WI's and o-WI's bits both
  // set, "1 1", cannot arise here: the second of the two accesses already conflicts.)
  for (bool we : {false, true}) {
    SCOPED_TRACE(we ? "row 4: write" : "row 3: read");
    Prw b(configs::htm_lds_bank::kPrw, "prw");
    b.Init();
    b.Read(kOwiWf, kK);  // o-WI (70) hits; 70 > 3
    Rsp r = b.Access(kWi, kK, we, true, 1);
    ExpectConflict(r, 1, "signature conflict, no shadow access");
    EXPECT_EQ(r.out.rsp_shadow, 0u);
    EXPECT_EQ(r.out.rsp_lower, 0u);
    EXPECT_EQ(b.m().Prw(kWi), 0u);  // nothing inserted
    // The alias k + 8 conflicts too (a false positive); from 70's side 3 is below.
    b.Abort(kOwiWf);
    b.Read(kWi, kK + 8);
    r = b.Access(kOwiWf, kK, we, true, 1);
    ExpectConflict(r, 1, "false positive");
    EXPECT_EQ(r.out.rsp_lower, 1u);
  }
}

// ---------------------------------------------------------------------------------------------
// Thesis Table 5.5: DCD + pRWsig + sWOsig (rows numbered from the top)
// ---------------------------------------------------------------------------------------------

TEST(LdsBankDirected, Table5_5_Rows1_2_NoHits) {
  Swo b(configs::htm_lds_bank::kDefault, "default");
  b.Init();
  // Row 1: read: insert(pRWsig), read memory; no backup, no owner.
  ExpectOk(b.Read(kWi, kK), Initial(kK), 0, 1, "row 1");
  EXPECT_EQ(b.m().Prw(kWi), 1u << (kK % 8));
  EXPECT_EQ(b.m().Swo(0), 0u);
  EXPECT_FALSE(b.m().Owned(kK));
  // Row 2: write: back up, insert both, write.
  ExpectOk(b.Write(kWi, kK + 1, 5), Initial(kK + 1), 2, 3, "row 2");
  EXPECT_EQ(b.m().Swo(0), 1u << ((kK + 1) % 32));
  EXPECT_EQ(b.Peek(kN + kK + 1), Initial(kK + 1));
  EXPECT_EQ(b.PeekOwner(kK + 1), kWi);
}

TEST(LdsBankDirected, Table5_5_Rows3_5_OwnHitOnly) {
  {
    Swo b(configs::htm_lds_bank::kDefault, "default");
    b.Init();
    b.Read(kWi, kK);
    ExpectOk(b.Read(kWi, kK), Initial(kK), 0, 1, "row 3: read memory");
    // Row 4 (1 0 0 0, write): back up, insert(sWOsig), write.
    ExpectOk(b.Write(kWi, kK, 6), Initial(kK), 2, 3, "row 4");
    EXPECT_EQ(b.m().Swo(0), 1u << (kK % 32));
    EXPECT_EQ(b.Peek(kN + kK), Initial(kK));
  }
  // Row 5 (1 0 1 0, write): WI wrote k + 32 (same pRWsig and sWOsig bits); k has no owner:
  // back up value, write memory. (One lockstep pair at a time: the first is gone.)
  Swo c(configs::htm_lds_bank::kDefault, "default");
  c.Init();
  c.Write(kWi, kK + 32, 1);
  ExpectOk(c.Write(kWi, kK, 7), Initial(kK), 2, 3, "row 5");
  EXPECT_EQ(c.Peek(kN + kK), Initial(kK));
  // Row 5 again on a word WI owns: no second backup.
  ExpectOk(c.Write(kWi, kK, 8), 7, 0, 1, "row 5, owner WI");
  EXPECT_EQ(c.Peek(kN + kK), Initial(kK));
}

TEST(LdsBankDirected, Table5_5_Rows6_7_ReadOnlyOther) {
  Swo b(configs::htm_lds_bank::kDefault, "default");
  b.Init();
  b.Read(kOwiWf, kK);
  // Row 6 (0 1 0 0, read): insert(pRWsig), read memory: the read-read conflict is filtered.
  ExpectOk(b.Read(kWi, kK), Initial(kK), 0, 1, "row 6");
  EXPECT_EQ(b.m().Prw(kWi), 1u << (kK % 8));
  // Row 7 (0 1 0 0, write): conflict R->W.
  ExpectConflict(b.Write(kOwi, kK, 1), 1, "row 7");
}

TEST(LdsBankDirected, Table5_5_Rows8_11_OtherWrote) {
  // Rows 8, 9 (0 1 0 1): a work-item of the other wavefront wrote k.
  // Rows 10, 11 (0 1 1 0): a work-item of WI's wavefront wrote k.
  for (int writer : {kOwiWf, kOwi}) {
    for (bool we : {false, true}) {
      SCOPED_TRACE(std::string(writer == kOwiWf ? "o-WF wrote, " : "WF wrote, ") +
                   (we ? "write" : "read"));
      Swo b(configs::htm_lds_bank::kDefault, "default");
      b.Init();
      b.Write(writer, kK, 1);
      ExpectConflict(b.Access(kWi, kK, we, true, 2), 1, "signature conflict");
    }
  }
  // Not in the table (0 1 1 1): both wavefronts' sWOsig have k (the other wavefront's writer
  // aborted, its sWOsig bit stays until that wavefront commits); a conflict, as in rows 8-11.
  Swo b(configs::htm_lds_bank::kDefault, "default");
  b.Init();
  b.Write(kOwiWf, kK, 1);
  b.Abort(kOwiWf);
  b.Write(kOwi, kK, 1);
  ExpectConflict(b.Read(kWi, kK), 1, "0 1 1 1");
}

TEST(LdsBankDirected, Table5_5_Rows12_15_BothHitNoOwnWrite) {
  {
    Swo b(configs::htm_lds_bank::kDefault, "default");
    b.Init();
    b.Read(kWi, kK);
    b.Read(kOwi, kK);
    ExpectOk(b.Read(kWi, kK), Initial(kK), 0, 1, "row 12 (1 1 0 0, read)");
    ExpectConflict(b.Write(kWi, kK, 1), 1, "row 13 (1 1 0 0, write)");
  }
  for (bool we : {false, true}) {
    SCOPED_TRACE(we ? "row 15 (1 1 0 1, write)" : "row 14 (1 1 0 1, read)");
    Swo b(configs::htm_lds_bank::kDefault, "default");
    b.Init();
    b.Write(kOwiWf, kK + 32, 1);  // o-WI: pRWsig bit of k, its wavefront's sWOsig bit of k
    ExpectOk(b.Read(kWi, kK + 8), Initial(kK + 8), 0, 1, "WI's pRWsig bit (0 1 0 0 read)");
    ExpectConflict(b.Access(kWi, kK, we, true, 1), 1, "1 1 0 1");
  }
}

TEST(LdsBankDirected, Table5_5_Rows16_17_OwnerDecides) {
  for (bool we : {false, true}) {
    SCOPED_TRACE(we ? "row 17: write" : "row 16: read");
    {
      // Owner WI: WI wrote k; o-WI reads k + 8 (same pRWsig bit, read-read allowed).
      Swo b(configs::htm_lds_bank::kDefault, "default");
      b.Init();
      b.Write(kWi, kK, 0x10);
      b.Read(kOwi, kK + 8);
      ExpectOk(b.Access(kWi, kK, we, true, 0x11), 0x10, 1, 2, "owner is WI");
    }
    {
      // Owner o-WI of the same wavefront.
      Swo b(configs::htm_lds_bank::kDefault, "default");
      b.Init();
      b.Write(kOwi, kK, 0x10);
      b.Read(kWi, kK + 8);
      const Rsp r = b.Access(kWi, kK, we, true, 0x11);
      ExpectConflict(r, 2, "owner is o-WI");
      EXPECT_EQ(r.out.rsp_shadow, 1u);
    }
    {
      // No owner: WI wrote k + 32 (sWOsig and pRWsig bits of k), o-WI read k + 8: the bits say
      // "written", the directory says "not set": a conflict (a false positive).
      Swo b(configs::htm_lds_bank::kDefault, "default");
      b.Init();
      b.Write(kWi, kK + 32, 0x10);
      b.Read(kOwi, kK + 8);
      ExpectConflict(b.Access(kWi, kK, we, true, 0x11), 1, "owner not set");
    }
  }
}

TEST(LdsBankDirected, Table5_5_StaleOtherWavefrontSignature) {
  // 1 0 0 1 (not in the table): the other wavefront's writer aborted (its pRWsig cleared, the
  // shared sWOsig kept until its wavefront commits); WI's write proceeds as row 4.
  Swo b(configs::htm_lds_bank::kDefault, "default");
  b.Init();
  b.Write(kOwiWf, kK, 1);
  b.Abort(kOwiWf);
  EXPECT_EQ(b.m().Swo(1), 1u << (kK % 32));
  EXPECT_EQ(b.Peek(kK), Initial(kK));
  b.Read(kWi, kK);
  ExpectOk(b.Write(kWi, kK, 2), Initial(kK), 2, 3, "1 0 0 1 write");
  // The wavefront's commit clears its sWOsig.
  b.Commit(kOwiWf);
  EXPECT_EQ(b.m().Swo(1), 0u);
}

// ---------------------------------------------------------------------------------------------
// Walks, timing, non-transactional accesses, bad input
// ---------------------------------------------------------------------------------------------

TEST(LdsBankDirected, AbortRestoresEveryRecordCommitKeepsValues) {
  Dcd b(configs::htm_lds_bank::kDcd, "dcd");
  b.Init();
  for (int i = 0; i < 5; ++i) {
    b.Write(kWi, 40 + i, 0x100 + i);
    b.Write(kOwi, 60 + i, 0x200 + i);
  }
  EXPECT_EQ(b.m().Records(kWi), 5);
  EXPECT_EQ(b.Abort(kWi), 10);   // two cycles per backed-up record
  EXPECT_EQ(b.Commit(kOwi), 5);  // one cycle per record
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(b.Peek(40 + i), Initial(40 + i));
    EXPECT_EQ(b.Peek(60 + i), 0x200u + i);
    EXPECT_FALSE(b.m().Owned(40 + i));
    EXPECT_FALSE(b.m().Owned(60 + i));
  }
  // A work-item with no records costs nothing.
  EXPECT_EQ(b.Commit(kOwiWf), 0);
}

TEST(LdsBankDirected, RequestsWaitForTheWalk) {
  Dcd b(configs::htm_lds_bank::kDcd, "dcd");
  b.Init();
  b.Write(kWi, kK, 1);
  b.Write(kWi, kK + 1, 2);
  LdsBankIn abt;
  abt.abt_valid = 1;
  abt.abt_mask = uint64_t{1} << kWi;
  abt.req_valid = 1;  // a request in the same cycle as the abort waits for the restore
  abt.req_tx = 0;
  abt.req_addr = kK;
  EXPECT_EQ(b.Cycle(abt).req_ready, 0u);
  const Rsp r = b.Access(0, kK, false, false);
  EXPECT_EQ(r.out.rsp_data, Initial(kK));
}

// The abort and commit ports' work-item fields count only with their valid: a mask on
// abt_mask_i (or cmt_mask_i) while abt_valid_i (cmt_valid_i) is low neither restores nor clears
// the work-item's records.
TEST(LdsBankDirected, AbortAndCommitFieldsWithoutValidAreIgnored) {
  Dcd b(configs::htm_lds_bank::kDcd, "dcd");
  b.Init();
  b.Write(kWi, kK, 0x55);
  LdsBankIn idle;
  idle.abt_mask = uint64_t{1} << kWi;
  idle.cmt_mask = uint64_t{1} << kWi;
  EXPECT_EQ(b.Cycle(idle).busy, 0u);
  EXPECT_EQ(b.Cycle(LdsBankIn{}).busy, 0u) << "no walk started";
  EXPECT_EQ(b.m().Records(kWi), 1);
  EXPECT_EQ(b.Peek(kK), 0x55u);
  EXPECT_EQ(b.Commit(kWi), 1);  // the record was still there
  EXPECT_EQ(b.Peek(kK), 0x55u);
}

TEST(LdsBankDirected, OnePlainAccessPerCycle) {
  Prw b(configs::htm_lds_bank::kPrw, "prw");
  b.Init();
  for (int k = 0; k < 8; ++k) {
    b.Read(kWi, k);  // records and signature bits made
  }
  LdsBankIn in;
  in.req_valid = 1;
  in.req_tx = 1;
  in.req_wi = kWi;
  int accepted = 0, responses = 0;
  for (int c = 0; c < 32; ++c) {
    in.req_addr = static_cast<uint64_t>(c % 8);
    const LdsBankOut o = b.Cycle(in);
    accepted += static_cast<int>(o.req_ready);
    responses += static_cast<int>(o.rsp_valid);
    EXPECT_EQ(o.rsp_valid ? o.rsp_shadow : 0u, 0u);
  }
  EXPECT_EQ(accepted, 32);
  EXPECT_EQ(responses, 31);  // the first response comes one cycle after the first accept
}

TEST(LdsBankDirected, NonTransactionalAndBadRequests) {
  Dcd b(configs::htm_lds_bank::kDcd, "dcd");
  b.Init();
  ExpectOk(b.Access(kWi, kK, true, false, 0x99), Initial(kK), 0, 1, "non-tx write");
  EXPECT_FALSE(b.m().Owned(kK));
  // Transactional outside the user data (the shadow area): no detection.
  ExpectOk(b.Access(kWi, kN + 1, false, true), Initial(kN + 1), 0, 1, "tx in shadow area");
  // Address out of range: answered with 0, err_o the next cycle... in the response cycle.
  LdsBankIn in;
  in.req_valid = 1;
  in.req_addr = 2 * kN + kN / 4;  // the first word past the bank
  b.Cycle(in);
  const LdsBankOut o = b.Cycle(LdsBankIn{});
  EXPECT_EQ(o.rsp_valid, 1u);
  EXPECT_EQ(o.err, 1u);
  EXPECT_EQ(o.rsp_data, 0u);
}

TEST(LdsBankDirected, DegenerateOneWorkItem) {
  Bank<Vhtm_lds_bank__one> b(configs::htm_lds_bank::kOne, "one");
  b.Init();
  ExpectOk(b.Write(0, 3, 0x3), Initial(3), 2, 3, "first write");
  EXPECT_EQ(b.PeekOwner(3), 0);
  EXPECT_EQ(b.Peek(4 + 3), Initial(3));  // backup at N + k, N = 4
  ExpectOk(b.Read(0, 3), 0x3, 1, 2, "repeated");
  EXPECT_EQ(b.Abort(0), 2);
  EXPECT_EQ(b.Peek(3), Initial(3));
  // Work-item 1 does not exist (the port is one bit wide); wavefront 1 neither.
  LdsBankIn in;
  in.req_valid = 1;
  in.req_wi = 1;
  in.req_tx = 1;
  b.Cycle(in);
  EXPECT_EQ(b.Cycle(LdsBankIn{}).err, 1u);
  LdsBankIn c;
  c.cmt_valid = 1;
  c.cmt_wf = 1;
  c.cmt_mask = 1;
  b.Cycle(c);
  EXPECT_EQ(b.Cycle(LdsBankIn{}).err, 1u);
}

// An abort for a wavefront the work-group does not have: err in the cycle after, low before,
// and no word restored.
TEST(LdsBankDirected, AbortOfAWavefrontOutOfRangeSetsErr) {
  Bank<Vhtm_lds_bank__one> b(configs::htm_lds_bank::kOne, "one");
  b.Init();
  ExpectOk(b.Write(0, 3, 0x3), Initial(3), 2, 3, "first write");
  LdsBankIn a;
  a.abt_valid = 1;
  a.abt_wf = 1;  // one wavefront: id 0 only
  a.abt_mask = 1;
  EXPECT_EQ(b.Cycle(a).err, 0u) << "legal traffic before; err is registered";
  EXPECT_EQ(b.Cycle(LdsBankIn{}).err, 1u);
  b.Idle();
  EXPECT_EQ(b.Peek(3), 0x3u) << "the write of work-item 0 was not rolled back";
}

}  // namespace
}  // namespace htm::tb
