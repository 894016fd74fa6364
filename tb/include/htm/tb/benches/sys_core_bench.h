// SPDX-License-Identifier: Apache-2.0
//
// Stimulus for htm_sys_core: the core under test is core 0 of a whole prototype subsystem built
// from golden models (golden::SysFabric: the other cores, the request and reply crossbars, the
// memory partitions with their commit units, the commit-id allocator). The fabric runs one
// workload after another: ATM-P, HT-P or EB-P drawn at random, with a random size, contention
// (few accounts, buckets or hot words) and seed; each run initialises memory through the
// partitions' maintenance ports, starts every core, runs until the subsystem is quiet and reads
// the memory back. The inputs core 0 saw in each cycle are the stimulus: the RTL core and its
// golden model get them in lockstep, while the fabric's own core 0 (the same model with the same
// inputs) answers for it. Every run's final memory must pass the workload's Check() (the
// engines' final-state check), else the run fails with the workload's message.
//
// The commit units are sized so that Allocs fail now and then (a ring of half the lanes of the
// subsystem), which exercises the walker's retry; the buffer of `small` holds less than a full
// ring's log words (capacity Fails).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/sys_core_model.h"
#include "htm/golden/sys_fabric.h"
#include "htm/tb/stimulus.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::tb {

class SysCoreBench {
 public:
  using Ports = golden::SysCorePorts;
  using Model = golden::SysCoreModel;
  using In = golden::SysCoreIn;
  using Out = golden::SysCoreOut;

  /// The subsystem around a core with parameters p (the commit units by the commit-id width:
  /// the partition's `default`, `small` or `one` sizes).
  static golden::SysFabricParams FabricFor(const golden::SysCoreParams& p) {
    golden::SysFabricParams f;
    f.core = p;
    int ring = 2;
    while (ring * 2 <= std::min(32, p.num_cores * p.warp_size / 2)) {
      ring *= 2;
    }
    f.ring_size = ring;
    if (p.cid_w >= 10) {
      f.buf_words = 256, f.val_tags = 4, f.lwh_sets = 64, f.lwh_ways = 2, f.lwh_bf_hashes = 2;
      f.lwh_bf_slots = 64, f.lwh_scrub_interval = 3, f.xbar_latency = 4, f.xbar_fifo_depth = 8;
    } else if (p.cid_w >= 8) {
      f.buf_words = 32, f.val_tags = 3, f.lwh_sets = 4, f.lwh_ways = 2, f.lwh_bf_hashes = 2;
      f.lwh_bf_slots = 4, f.lwh_scrub_interval = 4, f.xbar_latency = 2, f.xbar_fifo_depth = 2;
    } else {
      f.buf_words = 8, f.val_tags = 1, f.lwh_sets = 1, f.lwh_ways = 1, f.lwh_bf_hashes = 1;
      f.lwh_bf_slots = 1, f.lwh_scrub_interval = 2, f.xbar_latency = 1, f.xbar_fifo_depth = 1;
    }
    return f;
  }

  SysCoreBench(const golden::SysCoreParams& p, uint64_t seed)
      : p_(p), rng_(seed), fabric_(FabricFor(p)) {
    NewRun();
  }

  /// Resets only while a run initialises memory (the cores are idle); the run starts over.
  bool MayReset() const { return fabric_.phase() == golden::SysFabric::Phase::kInit; }
  void OnReset() {
    fabric_.Reset();
    NewRun();
  }

  In Next() {
    if (fabric_.done()) {
      CheckRun();
      NewRun();
    }
    fabric_.Step();
    return fabric_.core_in(0);
  }

  /// Runs whose final memory was checked.
  uint64_t runs_checked() const { return runs_checked_; }
  const golden::SysFabric& fabric() const { return fabric_; }

 private:
  // A random run that fits the memory and the log rows.
  void NewRun() {
    const uint64_t words = uint64_t{1} << p_.addr_w;
    const int lanes = p_.num_cores * p_.num_warps * p_.warp_size;
    for (int attempt = 0;; ++attempt) {
      golden::SysRunConfig c;
      gpu::proto::Params w;
      const int kind = static_cast<int>(rng_.Below(3));
      c.threads = 1 + static_cast<int>(rng_.Below(static_cast<uint64_t>(3 * lanes)));
      c.seed = static_cast<uint32_t>(rng_.Bits(32));
      switch (kind) {
        case 0:
          c.workload = SysWl::kAtm, w.kind = gpu::proto::Kind::kAtm;
          c.objlog2 = 1 + static_cast<int>(rng_.Below(6));
          break;
        case 1:
          c.workload = SysWl::kHt, w.kind = gpu::proto::Kind::kHt;
          c.objlog2 = 1 + static_cast<int>(rng_.Below(4));
          break;
        default:
          c.workload = SysWl::kEb, w.kind = gpu::proto::Kind::kEb;
          c.objlog2 = 1 + static_cast<int>(rng_.Below(6));
          c.reads = static_cast<int>(rng_.Below(static_cast<uint64_t>(p_.max_reads) + 1));
          c.writes = static_cast<int>(rng_.Below(
              static_cast<uint64_t>(std::min(p_.max_writes, p_.max_reads - c.reads) + 1)));
          c.writes = std::min(c.writes, 1 << c.objlog2);
          c.cold = static_cast<int>(rng_.Below(static_cast<uint64_t>(
              std::min(p_.max_writes - c.writes, p_.max_reads - c.reads - c.writes) + 1)));
          if (c.reads + c.writes + c.cold == 0) {
            c.reads = 1;
          }
          break;
      }
      w.threads = c.threads, w.objects_log2 = c.objlog2, w.reads = c.reads;
      w.writes = c.writes, w.cold = c.cold, w.seed = c.seed;
      if (!gpu::proto::CheckParams(w).empty()) {
        continue;
      }
      std::unique_ptr<gpu::Workload> wl = gpu::proto::Make(w);
      std::vector<uint32_t> init = wl->Init();
      if (init.size() > words) {
        if (attempt > 100) {
          throw std::runtime_error("htm_sys_core bench: no workload fits 2^AddrW words");
        }
        continue;
      }
      workload_ = std::move(wl);
      fabric_.Begin(c, init);
      return;
    }
  }

  void CheckRun() {
    const std::string bad = workload_->Check(fabric_.final_memory());
    if (!bad.empty()) {
      throw std::runtime_error("htm_sys_core bench, cycle " + std::to_string(fabric_.cycle()) +
                               ": the final memory of " + workload_->Describe() +
                               " fails the workload's check: " + bad);
    }
    ++runs_checked_;
  }

  golden::SysCoreParams p_;
  Rng rng_;
  golden::SysFabric fabric_;
  std::unique_ptr<gpu::Workload> workload_;
  uint64_t runs_checked_ = 0;
};

}  // namespace htm::tb
