// SPDX-License-Identifier: Apache-2.0
//
// A prototype workload's parameters as the run control's configuration inputs (cfg_wl, cfg_threads,
// cfg_objlog2, cfg_reads, cfg_writes, cfg_cold, cfg_seed), the same for every port struct that has
// them: htm_sys's (golden::SysIn) and htm_sys_run's (golden::SysRunIn).
#pragma once

#include <cstdint>

#include "htm/enums.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::tb {

/// The workload kind as htm_pkg::sys_wl_e.
inline uint64_t SysWlOf(gpu::proto::Kind k) {
  return static_cast<uint64_t>(k == gpu::proto::Kind::kAtm  ? SysWl::kAtm
                               : k == gpu::proto::Kind::kHt ? SysWl::kHt
                                                            : SysWl::kEb);
}

/// Writes `w` into the configuration inputs of `in`.
template <class In>
void SetConfigInputs(In& in, const gpu::proto::Params& w) {
  in.cfg_wl = SysWlOf(w.kind);
  in.cfg_threads = static_cast<uint64_t>(w.threads);
  in.cfg_objlog2 = static_cast<uint64_t>(w.objects_log2);
  in.cfg_reads = static_cast<uint64_t>(w.reads);
  in.cfg_writes = static_cast<uint64_t>(w.writes);
  in.cfg_cold = static_cast<uint64_t>(w.cold);
  in.cfg_seed = w.seed;
}

}  // namespace htm::tb
