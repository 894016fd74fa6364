// SPDX-License-Identifier: Apache-2.0
//
// The final memory of a correct execution of a prototype workload (ATM-P, HT-P, EB-P): its
// transactions applied one after another, in thread order, to its initial memory. Any serial
// order ends in a memory that passes the workload's Check(); this one is what htm_sys_run's
// check engine (docs/htm_sys.md, "Check") must accept, so that its model test and its lockstep
// bench write it into memory during a run.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "htm/workloads/gpu/proto.h"
#include "htm/workloads/gpu/workload.h"

namespace htm::tb {

/// The final memory of a serial execution of the workload `w` (its R, W and C ignored but for
/// EB-P, as htm_sys_run ignores them). Throws std::invalid_argument for impossible parameters.
inline std::vector<uint32_t> SysRunFinalMemory(gpu::proto::Params w) {
  namespace proto = gpu::proto;
  if (w.kind != proto::Kind::kEb) {
    w.reads = w.writes = w.cold = 0;
  }
  const std::unique_ptr<gpu::Workload> wl = proto::Make(w);
  std::vector<uint32_t> mem = wl->Init();
  const uint32_t h = proto::SeedHash(w.seed);
  const uint32_t a = 1u << w.objects_log2;
  const auto t_end = static_cast<uint32_t>(w.threads);
  for (uint32_t t = 0; t < t_end; ++t) {
    switch (w.kind) {
      case proto::Kind::kAtm: {
        const uint32_t from = proto::Draw(h, proto::kAtmFrom, t) & (a - 1);
        uint32_t off = proto::Draw(h, proto::kAtmTo, t) & (a - 1);
        off = off == 0 ? 1 : off;
        const uint32_t amount = mem[a + (proto::Draw(h, proto::kAtmAmount, t) & 0xFu)];
        mem[from] -= amount;
        mem[from ^ off] += amount;
        break;
      }
      case proto::Kind::kHt: {
        const uint32_t key = proto::Draw(h, proto::kHtKey, t);
        const uint32_t b = proto::LowBias32(key ^ proto::kHtBucketSalt) & (a - 1);
        const uint32_t node = 2 * a + 2 * t;
        mem[node] = key;
        mem[node + 1] = mem[b];
        mem[b] = node;
        ++mem[a + b];
        break;
      }
      case proto::Kind::kEb:
        for (int k = 0; k < w.writes; ++k) {
          ++mem[(proto::Draw(h, proto::kEbWrite, t) + static_cast<uint32_t>(k)) & (a - 1)];
        }
        for (int k = 0; k < w.cold; ++k) {
          ++mem[a + static_cast<uint32_t>(k) * t_end + t];
        }
        break;
    }
  }
  return mem;
}

}  // namespace htm::tb
