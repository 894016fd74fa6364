// SPDX-License-Identifier: Apache-2.0
//
// The GPU-TM system model (docs/htmsim.md): SIMT cores run a workload's kernel
// (htm/workloads/kernel.h) warp by warp on global memory; memory partitions with commit units,
// an interconnect between them, and the TM configuration's policy decide how transactions run.
// The machine is a composition of parts (machine/src/gpu/machine.h) and its TM configurations
// are policy objects chosen once (machine/src/gpu/tm_policy.h):
//
//   serial       one transaction at a time in the whole GPU (a global token), on memory
//                directly: the baseline every TM configuration must agree with;
//   kilotm       KILO TM: read and write logs per thread, validated by value in the commit
//                units of the memory partitions (htm_commit_unit) in commit-id order;
//   warptm       WarpTM: KILO TM with each core's intra-warp conflict detection
//                (htm_intra_warp_cd) and temporal conflict detection (htm_tcd);
//   warptm-ea    WarpTM with Early-Abort: each commit unit's RCT (htm_rct) feeds every core's
//                CAT (htm_cat), and lanes whose logged words hit it abort before they leave;
//   warptm-pg    WarpTM with Pause-and-Go: the RCTs and CATs, and each core's Pause-and-Go check
//                (htm_pag_check) pauses the lanes whose access hits;
//   warptm-eapg  both;
//   sitm         snapshot isolation with post-dating (SITM_TS): snapshot reads, write-write
//                commit, the Writer Table, the Reader List and the post-dating unit;
//   sitm-oracle  snapshot isolation with exact dependency-loop detection (SITM_Oracle);
//   fgl          not TM: the workload's fine-grained-lock kernel, where it has one.
//
// Every run checks itself: committed transactions are replayed in their serialization order
// against the model's memory (the values each read saw, the final memory), then the workload's
// Check() runs on the final memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "htm/golden/instance.h"
#include "htm/machine/gpu/config.h"
#include "htm/machine/gpu/energy.h"
#include "htm/machine/gpu/stats.h"
#include "htm/workloads/gpu/workload.h"

namespace htm::gpu {

/// One entry of the serialization order: a committed transaction or a non-transactional write
/// (a store or an atomic; `reads` holds an atomic's old value).
struct LogEvent {
  enum class Kind : uint8_t { kTx, kWrite } kind = Kind::kTx;
  uint64_t id = 0;  // position in the serialization order, from 0
  int thread = 0;
  uint64_t cid = 0;    // kilotm: the commit id; serial: the position among transactions
  uint64_t cycle = 0;  // when it was decided (tx) or performed (write)
  struct Read {
    uint32_t addr, value;
    int64_t writer;  // id of the event whose write it saw; -1: the initial memory
  };
  std::vector<Read> reads;
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // address, value
};

/// Receives the serialization order as the run produces it (e.g. the commit-log writer).
class LogSink {
 public:
  virtual ~LogSink() = default;
  virtual void Begin(const std::vector<uint32_t>& initial) = 0;
  virtual void Event(const LogEvent& e) = 0;
  virtual void End(const std::vector<uint32_t>& final_mem) = 0;
  /// The run stopped before its end (instead of End).
  virtual void Stopped(const std::string& why) { (void)why; }
};

/// Which block instances of the machine are not golden models (htmsim run --rtl, --netlist;
/// docs/htmsim.md, "RTL in the loop").
struct RtlSelection {
  /// The blocks implemented by `impl` (RTL tops: "htm_commit_unit", "htm_cat", ...); every
  /// instance of the others is its golden model.
  std::vector<std::string> blocks;
  golden::Impl impl = golden::Impl::kRtlChecked;
  /// Builds those instances (the Verilated models' library); required when `blocks` is not
  /// empty.
  const golden::InstanceFactory* factory = nullptr;
  /// Waves: the FST of `waves_instance`, or with it empty, one FST per non-golden instance named
  /// after this file and the instance (`w.fst` -> `w.core3.cat.fst`).
  std::string waves;
  std::string waves_instance;
  /// The command that reproduces the run, for reports.
  std::string repro;

  bool Selects(const std::string& block) const {
    return std::find(blocks.begin(), blocks.end(), block) != blocks.end();
  }
};

struct RunOptions {
  uint64_t seed = 1;
  uint64_t max_cycles = 0;  // 0: 200 000 000
  /// Jump over cycles in which nothing can change (default). Off, every cycle is simulated: a
  /// check that skipping changes nothing.
  bool skip_idle = true;
  LogSink* log = nullptr;
  /// Called now and then with the cycle and the threads finished.
  std::function<void(uint64_t cycle, uint64_t done, uint64_t threads)> progress;
  /// Block instances implemented by Verilated models.
  RtlSelection rtl;
};

/// One block's coverage events over a run, summed over the machine's instances of it
/// (docs/coverage.md).
struct BlockCoverage {
  std::string block;  // the RTL top, e.g. "htm_cat"
  int instances = 0;
  /// Of them, Verilated models alone (--rtl --unchecked): no golden model, nothing counted.
  int without = 0;
  golden::Coverage events;
};

struct RunResult {
  bool ok = false;    // finished, replay consistent, Check() empty
  std::string error;  // the model's or the replay's error ("" when none)
  /// A block instance departed from its golden model (or an RTL assertion failed): `error` is
  /// the report, and the run stopped there (its statistics and log are incomplete).
  bool mismatch = false;
  std::string check;  // the workload's Check() message ("" when right)
  SystemStats stats;
  /// The run's energy from its statistics (docs/energy.md).
  Energy energy;
  std::vector<uint32_t> mem;  // final memory
  /// Every block's coverage events, in the order the machine built its first instance.
  std::vector<BlockCoverage> coverage;
};

/// Runs `w` to completion. Never throws for a workload's fault; throws std::invalid_argument for
/// an impossible machine or an RTL selection the factory cannot build.
RunResult RunSystem(const MachineConfig& m, TmMode tm, Workload& w, const RunOptions& opt = {});

/// A block of the machine under a TM configuration: its RTL top, how many instances it has, and
/// whether `factory` can build it as `impl` ("" yes, else why not).
struct BlockUse {
  std::string block;
  int instances = 0;
  std::function<std::string(const golden::InstanceFactory& factory, golden::Impl impl)> check;
  /// The instances' parameters: the block's Ports::Params in the MachineConfig given.
  const void* params = nullptr;
};
/// Every block the machine instantiates under `tm`, in a fixed order.
std::vector<BlockUse> MachineBlocks(const MachineConfig& m, TmMode tm);

}  // namespace htm::gpu
