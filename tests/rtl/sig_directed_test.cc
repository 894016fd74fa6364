// SPDX-License-Identifier: Apache-2.0
//
// Directed tests of htm_sig and htm_sig_recency, run in lockstep (the RTL and the model must
// agree every cycle) with expected values asserted on top. Also checks that the lockstep harness
// reports a wrong model with the cycle, the field, the history and the reproduce command.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "Vhtm_sig__default.h"
#include "Vhtm_sig__one.h"
#include "Vhtm_sig__prwsig.h"
#include "Vhtm_sig_recency__small.h"
#include "Vhtm_sig_recency__tiny.h"

#include "htm/configs/htm_sig.h"
#include "htm/configs/htm_sig_recency.h"
#include "htm/golden/sig_model.h"
#include "htm/tb/directed.h"
#include "htm/tb/lockstep.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {
namespace {

using golden::SigIn;
using golden::SigModel;
using golden::SigOut;
using golden::SigPorts;
using golden::SigRecencyIn;
using golden::SigRecencyModel;
using golden::SigRecencyOut;
using golden::SigRecencyPorts;

SigIn Insert(uint64_t a, uint64_t test = 0) {
  SigIn in;
  in.ins_valid = 1;
  in.ins_addr = a;
  in.tst_addr = test;
  return in;
}
SigIn Probe(uint64_t a) {
  SigIn in;
  in.tst_addr = a;
  return in;
}

TEST(SigDirected, EmptyAfterResetThenNoFalseNegatives) {
  const auto& p = configs::htm_sig::kDefault;
  Lockstep<SigPorts, Vhtm_sig__default, SigModel> ls(p, DirectedOptions("htm_sig", "default"));
  EXPECT_EQ(DirectedCycle(ls, Probe(0x1234)).empty, 1u);
  EXPECT_EQ(DirectedCycle(ls, Probe(0x1234)).tst_hit, 0u);
  Rng rng(7);
  std::set<uint64_t> inserted;
  for (int i = 0; i < 12; ++i) {
    const uint64_t a = rng.Bits(32);
    inserted.insert(a);
    // Read-before-write: an address tested in the cycle it is inserted is not yet visible
    // (unless it aliases an earlier one).
    DirectedCycle(ls, Insert(a, a));
  }
  for (uint64_t a : inserted) {
    EXPECT_EQ(DirectedCycle(ls, Probe(a)).tst_hit, 1u) << std::hex << a;
  }
  EXPECT_EQ(DirectedCycle(ls, Probe(0)).empty, 0u);
}

TEST(SigDirected, InsertVisibleNextCycle) {
  const auto& p = configs::htm_sig::kDefault;
  Lockstep<SigPorts, Vhtm_sig__default, SigModel> ls(p, DirectedOptions("htm_sig", "default"));
  EXPECT_EQ(DirectedCycle(ls, Insert(0xCAFE, 0xCAFE)).tst_hit, 0u);
  EXPECT_EQ(DirectedCycle(ls, Probe(0xCAFE)).tst_hit, 1u);
  // Exactly one bit per hash table is set.
  const SigOut o = DirectedCycle(ls, Probe(0));
  EXPECT_EQ(__builtin_popcountll(o.bits), p.num_hashes);
}

TEST(SigDirected, ClearAndInsertInOneCycleKeepsTheInsert) {
  const auto& p = configs::htm_sig::kDefault;
  Lockstep<SigPorts, Vhtm_sig__default, SigModel> ls(p, DirectedOptions("htm_sig", "default"));
  DirectedCycle(ls, Insert(0x100));
  SigIn both = Insert(0x200);
  both.clr = 1;
  DirectedCycle(ls, both);
  EXPECT_EQ(DirectedCycle(ls, Probe(0x200)).tst_hit, 1u);
  const SigOut o = DirectedCycle(ls, Probe(0x100));
  // 0x100 is gone unless all its bits alias 0x200's.
  SigModel only(p);
  only.Tick(Insert(0x200));
  EXPECT_EQ(o.tst_hit, only.Test(0x100) ? 1u : 0u);
  SigIn clr;
  clr.clr = 1;
  DirectedCycle(ls, clr);
  EXPECT_EQ(DirectedCycle(ls, Probe(0x200)).empty, 1u);
}

// GPU-LocalTM pRWsig (thesis Figure 5.5, paper section 3): 8 bits, intra-bank address mod 8.
// Work-item 3 accessing word 35 uses bank 35 % 32 = 3, intra-bank address 35 / 32 = 1, bit 1.
TEST(SigDirected, PrwsigModEightExampleAndAliasing) {
  const auto& p = configs::htm_sig::kPrwsig;
  Lockstep<SigPorts, Vhtm_sig__prwsig, SigModel> ls(p, DirectedOptions("htm_sig", "prwsig"));
  const uint64_t word = 35;
  const uint64_t intra_bank = word / 32;
  ASSERT_EQ(word % 32, 3u);
  DirectedCycle(ls, Insert(intra_bank));
  EXPECT_EQ(DirectedCycle(ls, Probe(intra_bank)).bits, 1u << 1);
  EXPECT_EQ(DirectedCycle(ls, Probe(intra_bank + 8)).tst_hit, 1u)
      << "mod-8 alias: a false positive";
  EXPECT_EQ(DirectedCycle(ls, Probe(intra_bank + 1)).tst_hit, 0u)
      << "consecutive address: no alias";
  // Consecutive addresses fill distinct bits: 8 of them saturate the signature.
  for (uint64_t a = 8; a < 16; ++a) {
    DirectedCycle(ls, Insert(a));
  }
  EXPECT_EQ(DirectedCycle(ls, Probe(0)).bits, 0xFFu);
}

TEST(SigDirected, OneSlotSaturatesAtFirstInsert) {
  const auto& p = configs::htm_sig::kOne;
  Lockstep<SigPorts, Vhtm_sig__one, SigModel> ls(p, DirectedOptions("htm_sig", "one"));
  EXPECT_EQ(DirectedCycle(ls, Probe(0)).tst_hit, 0u);
  DirectedCycle(ls, Insert(1));
  EXPECT_EQ(DirectedCycle(ls, Probe(0)).tst_hit, 1u);
  EXPECT_EQ(DirectedCycle(ls, Probe(1)).tst_hit, 1u);
}

SigRecencyIn RInsert(uint64_t a, uint64_t v, uint64_t lkp = 0) {
  SigRecencyIn in;
  in.ins_valid = 1;
  in.ins_addr = a;
  in.ins_val = v;
  in.lkp_addr = lkp;
  return in;
}
SigRecencyIn RLookup(uint64_t a) {
  SigRecencyIn in;
  in.lkp_addr = a;
  return in;
}

TEST(SigRecencyDirected, KeepsMaximumAndNeverUnderestimates) {
  const auto& p = configs::htm_sig_recency::kSmall;
  Lockstep<SigRecencyPorts, Vhtm_sig_recency__small, SigRecencyModel> ls(
      p, DirectedOptions("htm_sig_recency", "small"));
  EXPECT_EQ(DirectedCycle(ls, RLookup(0x42)).lkp_val, 0u);
  DirectedCycle(ls, RInsert(0x42, 5));
  EXPECT_EQ(DirectedCycle(ls, RLookup(0x42)).lkp_val, 5u);
  DirectedCycle(ls, RInsert(0x42, 3));  // an older value does not lower the slot
  EXPECT_EQ(DirectedCycle(ls, RLookup(0x42)).lkp_val, 5u);
  DirectedCycle(ls, RInsert(0x42, 9));
  EXPECT_EQ(DirectedCycle(ls, RLookup(0x42)).lkp_val, 9u);
  // Many other addresses may alias, but the answer never drops below the true value.
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    DirectedCycle(ls, RInsert(rng.Bits(16), rng.Bits(8)));
    EXPECT_GE(DirectedCycle(ls, RLookup(0x42)).lkp_val, 9u);
  }
}

TEST(SigRecencyDirected, ClearThenInsertInOneCycle) {
  const auto& p = configs::htm_sig_recency::kTiny;
  Lockstep<SigRecencyPorts, Vhtm_sig_recency__tiny, SigRecencyModel> ls(
      p, DirectedOptions("htm_sig_recency", "tiny"));
  DirectedCycle(ls, RInsert(3, 7));
  EXPECT_EQ(DirectedCycle(ls, RLookup(3)).lkp_val, 7u);
  SigRecencyIn both = RInsert(5, 2);
  both.clr = 1;
  DirectedCycle(ls, both);
  EXPECT_EQ(DirectedCycle(ls, RLookup(5)).lkp_val, 2u);
  SigRecencyModel only(p);
  only.Tick(RInsert(5, 2));
  EXPECT_EQ(DirectedCycle(ls, RLookup(3)).lkp_val, only.Lookup(3));
}

// The harness must fail on a wrong model and say where, what and how to reproduce.
class WrongSigModel : public SigModel {
 public:
  using SigModel::SigModel;
  SigOut Eval(const SigIn& in) const {
    SigOut o = SigModel::Eval(in);
    if (in.tst_addr == 0x77) {
      o.tst_hit ^= 1;
    }
    return o;
  }
};

TEST(LockstepHarness, ReportsTheFirstMismatch) {
  const auto& p = configs::htm_sig::kDefault;
  RunOptions o = DirectedOptions("htm_sig", "default");
  o.repro = "REPRO-COMMAND";
  Lockstep<SigPorts, Vhtm_sig__default, WrongSigModel> ls(p, o);
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(ls.Step(Insert(i)));
  }
  EXPECT_FALSE(ls.Step(Probe(0x77)));
  const std::string& r = ls.error();
  EXPECT_NE(r.find("cycle 41"), std::string::npos) << r;
  // The wrong model inverts tst_hit: the report names that field (and only it) with both values.
  const std::string field = std::string("tst_hit_o [1 bits]: RTL ") +
                            (ls.model().Test(0x77) ? "0x1, model 0x0" : "0x0, model 0x1");
  EXPECT_NE(r.find(field), std::string::npos) << r;
  EXPECT_EQ(r.find("bits_o ["), std::string::npos) << r;
  EXPECT_NE(r.find("previous cycles"), std::string::npos) << r;
  EXPECT_NE(r.find("cycle 10: "), std::string::npos) << "32 cycles of history: " << r;
  EXPECT_EQ(r.find("cycle 9: "), std::string::npos) << "only 32 cycles of history: " << r;
  EXPECT_NE(r.find("HTM_WAVES=htm_sig_default.fst REPRO-COMMAND"), std::string::npos) << r;
  // Once failed, the engine stays failed.
  EXPECT_FALSE(ls.Step(Probe(0)));
}

TEST(LockstepHarness, RejectsStimulusWiderThanThePort) {
  const auto& p = configs::htm_sig::kPrwsig;  // 9-bit addresses
  Lockstep<SigPorts, Vhtm_sig__prwsig, SigModel> ls(p, DirectedOptions("htm_sig", "prwsig"));
  EXPECT_FALSE(ls.Step(Probe(1u << 9)));
  EXPECT_NE(ls.error().find("does not fit in 9 bits"), std::string::npos) << ls.error();
}

}  // namespace
}  // namespace htm::tb
