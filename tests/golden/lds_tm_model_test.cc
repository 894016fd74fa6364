// SPDX-License-Identifier: Apache-2.0
//
// The golden model of htm_lds_tm on its random bench: the bench reaches every case the lockstep
// test is meant to cover (conflicts, aborts, commits, WfS and WgS tries, a try aborted by WgS,
// atomics, broadcasts, bank conflicts, two instructions in flight, a refused instruction, a
// protocol violation), in every configuration.
#include "htm/golden/lds_tm_model.h"

#include <bit>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "htm/configs/htm_lds_tm.h"
#include "htm/tb/benches/lds_tm_bench.h"

namespace htm::tb {
namespace {
using golden::LdsTmIn;
using golden::LdsTmModel;
using golden::LdsTmOut;

struct Counts {
  uint64_t conflicts = 0, aborts = 0, commits = 0, tries[4] = {0, 0, 0, 0}, wgs_aborted = 0;
  uint64_t atomics = 0, broadcasts = 0, bank_conflicts = 0, two_in_flight = 0, refused = 0;
  uint64_t errors = 0, responses = 0;
};

Counts RunTraffic(const golden::LdsTmParams& p, uint64_t seed, uint64_t cycles) {
  LdsTmModel m(p);
  LdsTmBench bench(p, seed);
  Counts c;
  const int num_wf = p.wg_size / p.wf_size;
  uint64_t in_try_prev = 0;
  int inflight = 0;
  for (uint64_t i = 0; i < cycles; ++i) {
    const LdsTmIn in = bench.Next();
    const LdsTmOut o = m.Eval(in);
    m.Tick(in);
    bench.Observe(in, o);
    const bool accepted = in.ins_valid && o.ins_ready;
    const bool mem = in.ins_op <= static_cast<uint64_t>(LdsIns::kAtomCas) &&
                     in.ins_wf < static_cast<uint64_t>(num_wf);
    c.refused += in.ins_valid && !o.ins_ready;
    if (accepted && mem) {
      ++inflight;
      if (in.ins_op >= static_cast<uint64_t>(LdsIns::kAtomAdd)) {
        ++c.atomics;
      }
      // Lanes sharing a bank (different words), and lanes sharing a word.
      for (int a = 0; a < p.wf_size; ++a) {
        for (int b = a + 1; b < p.wf_size; ++b) {
          if (in.ins_addr[a] == in.ins_addr[b]) {
            c.broadcasts += in.ins_op == static_cast<uint64_t>(LdsIns::kLoad);
          } else if (in.ins_addr[a] % p.num_banks == in.ins_addr[b] % p.num_banks) {
            ++c.bank_conflicts;
          }
        }
      }
    }
    if (o.rsp_valid) {
      --inflight;
      ++c.responses;
      c.conflicts += std::popcount(o.rsp_conf);
    }
    c.two_in_flight += inflight >= 2;
    c.aborts += o.abt_valid;
    c.commits += o.cmt_valid;
    c.errors += o.err;
    for (int v = 0; v < num_wf; ++v) {
      const bool now = (o.wf_in_try >> v) & 1, before = (in_try_prev >> v) & 1;
      if (now && !before) {
        ++c.tries[o.wf_mode[v] & 3];
      }
      if (!now && before && !(o.cmt_valid && o.cmt_wf == static_cast<uint64_t>(v))) {
        ++c.wgs_aborted;  // left the try without a commit: aborted by another's WgS
      }
    }
    in_try_prev = o.wf_in_try;
  }
  return c;
}

TEST(LdsTmModel, RandomTrafficReachesEveryCaseInEveryConfiguration) {
  for (const auto& [name, p] : configs::htm_lds_tm::kAll) {
    SCOPED_TRACE(std::string(name));
    const uint64_t cycles = name == "default" ? 20000 : 50000;
    const Counts c = RunTraffic(p, 7, cycles);
    EXPECT_GT(c.responses, cycles / 10);
    EXPECT_GT(c.commits, 50u);
    EXPECT_GT(c.tries[1], 50u);
    EXPECT_GT(c.atomics, 20u);
    EXPECT_GT(c.refused, 100u);
    EXPECT_GT(c.errors, 0u);
    if (p.wf_size > 1) {
      EXPECT_GT(c.broadcasts, 100u);
      EXPECT_GT(c.bank_conflicts, 100u);
    }
    if (p.num_buf > 1) {
      EXPECT_GT(c.two_in_flight, 100u);
    }
    if (p.wg_size > 1) {
      EXPECT_GT(c.conflicts, 100u);
      EXPECT_GT(c.aborts, 50u);
      EXPECT_GT(c.tries[2], 2u);  // WfS
    }
    if (p.wg_size > p.wf_size) {
      EXPECT_GT(c.tries[3], 0u);  // WgS
      EXPECT_GT(c.wgs_aborted, 0u);
    }
  }
}

}  // namespace
}  // namespace htm::tb
