// SPDX-License-Identifier: Apache-2.0
//
// Model-only tests of htm_lds_bank: under the random bench, every access kind, conflict and
// walk happens in every configuration (so the lockstep runs cover them); a word restored by an
// abort equals its value before the aborted work-item first wrote it; an owner byte sits at word
// 2N + k/4, byte k%4; bad parameters are refused.
#include "htm/golden/lds_bank_model.h"

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "htm/configs/htm_lds_bank.h"
#include "htm/tb/benches/lds_bank_bench.h"

namespace htm::golden {
namespace {

TEST(LdsBankModel, RandomTrafficCoversEveryCaseAndRestoresExactly) {
  for (const auto& [name, p] : configs::htm_lds_bank::kAll) {
    SCOPED_TRACE(std::string(name));
    LdsBankModel m(p);
    tb::LdsBankBench bench(p, 11);
    bench.OnReset();
    const int n = p.bank_words;
    uint64_t shadow[3] = {}, conflicts = 0, lower = 0, self = 0, walks = 0, errs = 0;
    uint64_t checked = 0, shr_r = 0, shr_w = 0;
    // (work-item, word) -> the word's value before the work-item's first transactional write
    std::map<std::pair<int, int>, std::pair<uint32_t, bool>> first;  // value, known
    std::set<int> aborted;  // aborts whose walks are not finished
    std::set<int> tainted;  // words whose backup or owner byte was written directly
    LdsBankIn req{};        // the request in flight
    bool in_flight = false, committed = false;  // its work-item committed before its response
    bool was_busy = false;
    for (int cycle = 0; cycle < 200000; ++cycle) {
      const LdsBankIn in = bench.Next();
      const LdsBankOut out = m.Eval(in);
      if (out.rsp_valid) {
        const int wi = static_cast<int>(out.rsp_wi);
        const int k = static_cast<int>(req.req_addr);
        if (p.mode == LdsCd::kSmdcd && req.req_tx && k < n && wi < p.wg_size &&
            out.rsp_shadow == 0) {
          // Only a shared-read remnant answers an SMDCD transactional access without the shadow.
          ++(out.rsp_conflict ? shr_w : shr_r);
        }
        if (out.rsp_conflict) {
          ++conflicts;
          lower += out.rsp_lower;
          self += out.rsp_self;
        } else {
          ++shadow[out.rsp_shadow];
          if (req.req_tx && req.req_we && k < n && wi < p.wg_size && !committed) {
            first.try_emplace({wi, k}, static_cast<uint32_t>(out.rsp_data), out.rsp_known != 0);
          }
          if ((!req.req_tx || k >= n) && req.req_we) {
            // A non-transactional write to a word's backup or owner byte voids its checks from
            // then on (another work-item may then write it as the owner).
            if (k >= n && k < 2 * n) {
              tainted.insert(k - n);
            } else if (k >= 2 * n) {
              for (int b = 0; b < 4; ++b) {
                tainted.insert(4 * (k - 2 * n) + b);
              }
            }
          }
        }
      }
      errs += out.err;
      if (out.rsp_valid) {
        in_flight = false;
      }
      if (in.req_valid && out.req_ready) {
        req = in;
        in_flight = true;
        committed = false;
      }
      auto end = [&](uint64_t wf, uint64_t mask, bool abort) {
        for (int l = 0; l < p.wf_size; ++l) {
          const int wi = static_cast<int>(wf) * p.wf_size + l;
          if (((mask >> l) & 1) && wi < p.wg_size) {
            if (abort) {
              aborted.insert(wi);
            } else if (!aborted.count(wi)) {
              committed = committed || (in_flight && wi == static_cast<int>(req.req_wi));
              std::erase_if(first, [wi](const auto& e) { return e.first.first == wi; });
            }
          }
        }
      };
      if (in.abt_valid) {
        end(in.abt_wf, in.abt_mask, true);
      }
      if (in.cmt_valid) {
        end(in.cmt_wf, in.cmt_mask, false);
      }
      if (was_busy && !out.busy && !in.abt_valid && !in.cmt_valid) {
        ++walks;
        for (int wi : aborted) {
          for (auto it = first.begin(); it != first.end();) {
            if (it->first.first == wi) {
              if (it->second.second && !tainted.count(it->first.second)) {
                EXPECT_EQ(m.Word(it->first.second), it->second.first)
                    << "cycle " << cycle << ": word " << it->first.second << " of work-item " << wi
                    << " not restored";
                ++checked;
              }
              it = first.erase(it);
            } else {
              ++it;
            }
          }
          EXPECT_EQ(m.Records(wi), 0);
        }
        aborted.clear();
      }
      was_busy = out.busy || in.abt_valid || in.cmt_valid;
      m.Tick(in);
      bench.Observe(in, out);
    }
    std::printf(
        "%-8s shadow 0/1/2 %llu/%llu/%llu conflicts %llu (lower %llu, self %llu) "
        "walks %llu restored words checked %llu errors %llu\n",
        std::string(name).c_str(), static_cast<unsigned long long>(shadow[0]),
        static_cast<unsigned long long>(shadow[1]), static_cast<unsigned long long>(shadow[2]),
        static_cast<unsigned long long>(conflicts), static_cast<unsigned long long>(lower),
        static_cast<unsigned long long>(self), static_cast<unsigned long long>(walks),
        static_cast<unsigned long long>(checked), static_cast<unsigned long long>(errs));
    const bool prw = p.mode == LdsCd::kDcdPrw || p.mode == LdsCd::kDcdPrwSwo;
    EXPECT_GT(shadow[0], 1000u);
    EXPECT_GT(shadow[2], 1000u);
    if (!prw) {
      EXPECT_GT(shadow[1], 1000u);  // owner checks
    }
    if (p.mode == LdsCd::kDcdPrwSwo) {
      EXPECT_GT(shadow[1], 50u);  // rows 16, 17
    }
    if (p.wg_size > 1) {
      EXPECT_GT(conflicts, 1000u);
      EXPECT_GT(lower, 100u);
    }
    if (p.mode == LdsCd::kSmdcd) {
      EXPECT_GT(self, 10u);
      EXPECT_GT(shr_r, 10u) << "reads of a shared-read remnant";
      EXPECT_GT(shr_w, 10u) << "writes conflicting on a shared-read remnant";
    }
    EXPECT_GT(walks, 500u);
    EXPECT_GT(checked, p.wg_size > 1 ? 500u : 5u);
    EXPECT_GT(errs, 10u);
  }
}

TEST(LdsBankModel, RefusesBadParameters) {
  LdsBankParams p = configs::htm_lds_bank::kDefault;
  p.bank_words = 6;
  EXPECT_THROW(LdsBankModel{p}, std::invalid_argument);
  p = configs::htm_lds_bank::kDefault;
  p.wf_size = 48;
  EXPECT_THROW(LdsBankModel{p}, std::invalid_argument);
  p = configs::htm_lds_bank::kDefault;
  p.wg_size = 320;
  EXPECT_THROW(LdsBankModel{p}, std::invalid_argument);
  p = configs::htm_lds_bank::kDefault;
  p.mode = static_cast<LdsCd>(4);
  EXPECT_THROW(LdsBankModel{p}, std::invalid_argument);
  EXPECT_NE(CheckLdsBankParams(p).find("Mode"), std::string::npos);
}

}  // namespace
}  // namespace htm::golden
