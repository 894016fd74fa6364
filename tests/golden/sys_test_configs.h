// SPDX-License-Identifier: Apache-2.0
//
// The prototype subsystem's configurations shared by the golden tests of the SIMT core's fabric
// (sys_core_model_test.cc) and of the subsystem's twin (sys_model_test.cc): the core's named
// configurations, the fabric around each, the same as htm_sys's parameters, and a workload's
// parameters in one call.
#pragma once

#include <cstdint>

#include "htm/configs/htm_sys_part.h"
#include "htm/golden/sys_core_model.h"
#include "htm/golden/sys_fabric.h"
#include "htm/golden/sys_model.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::golden::systest {

// The page's named configurations (docs/htm_sys_core.md, "Parameters").
inline constexpr SysCoreParams kCoreDefault{.num_cores = 4,
                                            .num_warps = 4,
                                            .warp_size = 8,
                                            .num_parts = 2,
                                            .addr_w = 13,
                                            .ilv_log2 = 6,
                                            .cid_w = 10,
                                            .max_reads = 8,
                                            .max_writes = 4,
                                            .alloc_retry = 8};
inline constexpr SysCoreParams kCoreSmall{.num_cores = 2,
                                          .num_warps = 2,
                                          .warp_size = 4,
                                          .num_parts = 2,
                                          .addr_w = 9,
                                          .ilv_log2 = 2,
                                          .cid_w = 8,
                                          .max_reads = 8,
                                          .max_writes = 4,
                                          .alloc_retry = 3};
inline constexpr SysCoreParams kCoreOne{.num_cores = 1,
                                        .num_warps = 1,
                                        .warp_size = 1,
                                        .num_parts = 1,
                                        .addr_w = 8,
                                        .ilv_log2 = 0,
                                        .cid_w = 6,
                                        .max_reads = 3,
                                        .max_writes = 4,
                                        .alloc_retry = 1};

// The fabric around each: `default` with the partition's `default` commit unit and the
// crossbar's `default` link; `small` with a 4-entry ring (AllocFail and retries happen) and the
// crossbar's `small` link (two credits: back-pressure); `one` with a 2-entry ring and the
// crossbar's `one` link.
inline SysFabricParams FabricDefault() {
  const SysPartParams& cu = configs::htm_sys_part::kDefault;
  SysFabricParams f;
  f.core = kCoreDefault;
  f.ring_size = cu.ring_size;
  f.buf_words = cu.buf_words;
  f.val_tags = cu.val_tags;
  f.lwh_sets = cu.lwh_sets;
  f.lwh_ways = cu.lwh_ways;
  f.lwh_bf_hashes = cu.lwh_bf_hashes;
  f.lwh_bf_slots = cu.lwh_bf_slots;
  f.lwh_scrub_interval = cu.lwh_scrub_interval;
  f.xbar_latency = 4;
  f.xbar_fifo_depth = 8;
  return f;
}

inline SysFabricParams FabricSmall() {
  SysFabricParams f;
  f.core = kCoreSmall;
  f.ring_size = 4;
  f.buf_words = 32;
  f.val_tags = 3;
  f.lwh_sets = 4;
  f.lwh_ways = 2;
  f.lwh_bf_hashes = 2;
  f.lwh_bf_slots = 4;
  f.lwh_scrub_interval = 4;
  f.xbar_latency = 2;
  f.xbar_fifo_depth = 2;
  return f;
}

inline SysFabricParams FabricOne() {
  SysFabricParams f;
  f.core = kCoreOne;
  f.ring_size = 2;
  f.buf_words = 8;
  f.val_tags = 1;
  f.lwh_sets = 1;
  f.lwh_ways = 1;
  f.lwh_bf_hashes = 1;
  f.lwh_bf_slots = 1;
  f.lwh_scrub_interval = 2;
  f.xbar_latency = 1;
  f.xbar_fifo_depth = 1;
  return f;
}

// The same subsystem as htm_sys's parameters.
inline SysParams SysParamsOf(const SysFabricParams& f) {
  const SysCoreParams& c = f.core;
  return SysParams{.num_cores = c.num_cores,
                   .num_warps = c.num_warps,
                   .warp_size = c.warp_size,
                   .num_parts = c.num_parts,
                   .addr_w = c.addr_w,
                   .ilv_log2 = c.ilv_log2,
                   .cid_w = c.cid_w,
                   .max_reads = c.max_reads,
                   .max_writes = c.max_writes,
                   .alloc_retry = c.alloc_retry,
                   .ring_size = f.ring_size,
                   .buf_words = f.buf_words,
                   .val_tags = f.val_tags,
                   .lwh_sets = f.lwh_sets,
                   .lwh_ways = f.lwh_ways,
                   .lwh_bf_hashes = f.lwh_bf_hashes,
                   .lwh_bf_slots = f.lwh_bf_slots,
                   .lwh_scrub_interval = f.lwh_scrub_interval,
                   .xbar_latency = f.xbar_latency,
                   .xbar_fifo_depth = f.xbar_fifo_depth};
}

inline gpu::proto::Params Wl(gpu::proto::Kind k, int threads, int objlog2, uint32_t seed, int r = 0,
                             int w = 0, int c = 0) {
  return gpu::proto::Params{.kind = k,
                            .threads = threads,
                            .objects_log2 = objlog2,
                            .reads = r,
                            .writes = w,
                            .cold = c,
                            .seed = seed};
}

}  // namespace htm::golden::systest
