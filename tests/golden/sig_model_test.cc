// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of the signature golden models (no RTL): the properties the RTL is then held
// to cycle by cycle, over every named configuration, and parameter validation.
#include "htm/golden/sig_model.h"

#include <map>
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "htm/configs/htm_sig.h"
#include "htm/configs/htm_sig_recency.h"
#include "htm/sig_masks.h"
#include "htm/tb/stimulus.h"

namespace htm::golden {
namespace {

TEST(SigHash, ModIsTheLowBits) {
  EXPECT_EQ(SigHashIndex(htm::SigHash::kMod, 9, 3, 0, 35), 3u);
  EXPECT_EQ(SigHashIndex(htm::SigHash::kMod, 9, 5, 0, 0x1FF), 31u);
  EXPECT_EQ(SigHashIndex(htm::SigHash::kMod, 2, 3, 0, 0xFF), 3u) << "address masked to AddrW";
}

TEST(SigHash, H3IsLinearOverXor) {
  // An H3 hash is linear over GF(2): h(a ^ b) = h(a) ^ h(b), and h(0) = 0.
  tb::Rng rng(11);
  for (int h = 0; h < kSigMaxHashes; ++h) {
    EXPECT_EQ(SigHashIndex(htm::SigHash::kH3, 32, 8, h, 0), 0u);
    for (int i = 0; i < 100; ++i) {
      const uint64_t a = rng.Bits(32), b = rng.Bits(32);
      EXPECT_EQ(SigHashIndex(htm::SigHash::kH3, 32, 8, h, a ^ b),
                SigHashIndex(htm::SigHash::kH3, 32, 8, h, a) ^
                    SigHashIndex(htm::SigHash::kH3, 32, 8, h, b));
    }
  }
}

TEST(SigHash, MaskTableIsSplitmix64FromTheDocumentedSeed) {
  uint64_t state = kSigH3Seed;
  for (int i = 0; i < kSigMaxHashes * kSigMaxIdxBits; ++i) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    EXPECT_EQ(kSigH3Masks[i / kSigMaxIdxBits][i % kSigMaxIdxBits], z) << i;
  }
}

TEST(SigModel, NoFalseNegativesInAnyConfiguration) {
  for (const auto& [name, p] : configs::htm_sig::kAll) {
    SigModel m(p);
    tb::Rng rng(5);
    std::set<uint64_t> exact;
    int false_pos = 0;
    for (int i = 0; i < 2000; ++i) {
      SigIn in;
      in.ins_valid = rng.Chance(1, 2);
      in.ins_addr = rng.Bits(p.addr_w);
      in.clr = rng.Chance(1, 200);
      in.tst_addr = rng.Bits(p.addr_w);
      const SigOut o = m.Eval(in);
      const bool member = exact.count(in.tst_addr) != 0;
      ASSERT_TRUE(!member || o.tst_hit) << name << ": false negative at step " << i;
      false_pos += (!member && o.tst_hit) ? 1 : 0;
      EXPECT_EQ(o.empty, exact.empty() ? 1u : 0u) << name;
      m.Tick(in);
      if (in.clr) {
        exact.clear();
      }
      if (in.ins_valid) {
        exact.insert(in.ins_addr);
      }
    }
    RecordProperty(std::string(name) + "_false_positives", false_pos);
  }
}

TEST(SigRecencyModel, NeverBelowTheTrueMaximumInAnyConfiguration) {
  for (const auto& [name, p] : configs::htm_sig_recency::kAll) {
    SigRecencyModel m(p);
    tb::Rng rng(9);
    std::map<uint64_t, uint64_t> exact;  // address -> max value inserted since the last clear
    for (int i = 0; i < 2000; ++i) {
      SigRecencyIn in;
      in.ins_valid = rng.Chance(1, 2);
      in.ins_addr = rng.Bits(std::min(p.addr_w, 6));
      in.ins_val = rng.Bits(p.val_w);
      in.clr = rng.Chance(1, 300);
      in.lkp_addr = rng.Bits(std::min(p.addr_w, 6));
      const auto it = exact.find(in.lkp_addr);
      const uint64_t truth = it == exact.end() ? 0 : it->second;
      ASSERT_GE(m.Eval(in).lkp_val, truth) << name << " at step " << i;
      m.Tick(in);
      if (in.clr) {
        exact.clear();
      }
      if (in.ins_valid) {
        exact[in.ins_addr] = std::max(exact[in.ins_addr], in.ins_val);
      }
    }
  }
}

TEST(SigModel, RejectsParametersTheRtlRejects) {
  SigParams p = configs::htm_sig::kDefault;
  p.slots_per_hash = 12;
  EXPECT_THROW(SigModel{p}, std::invalid_argument);
  p = configs::htm_sig::kDefault;
  p.num_hashes = 9;
  EXPECT_THROW(SigModel{p}, std::invalid_argument);
  p = configs::htm_sig::kDefault;
  p.hash_kind = htm::SigHash::kMod;
  EXPECT_THROW(SigModel{p}, std::invalid_argument) << "mod hashing with 4 hashes";
  SigRecencyParams r = configs::htm_sig_recency::kDefault;
  r.val_w = 0;
  EXPECT_THROW(SigRecencyModel{r}, std::invalid_argument);
}

}  // namespace
}  // namespace htm::golden
