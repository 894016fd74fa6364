// SPDX-License-Identifier: Apache-2.0
//
// The FPGA prototype's subsystem (docs/proto.md, "The subsystem") composed of golden models,
// cycle by cycle: C SIMT cores (SysCoreModel, core index c), a request crossbar from the cores
// to the P memory partitions and a reply crossbar back (XbarModel; a message's source and
// destination are the core and the partition), the partitions (SysPartModel) and the commit-id
// allocator (one CidW-bit counter; each cycle a round-robin arbiter, RrArbModel, grants one
// core's cid_req_o, which gets the counter, which then increments).
//
// The composition is SysBlocks (below), which htm_sys's golden model (SysModel) runs too: each
// cycle every model is evaluated once in an order that resolves the combinational paths, then
// every model is ticked with the inputs it saw. SysFabric adds C++ run control.
//
// Run control, as phases advanced by Step(): Begin() queues a run; init writes the initial
// memory through the partitions' maintenance ports (one word per cycle per partition, in address
// order); start gives every core one cycle of start_i; run lasts until no core is running or
// holds a request, no partition is busy and both crossbars are empty; read-back reads every word
// of the workload's memory through the maintenance ports; then done() and final_memory(). A
// model's err output, or a run past its cycle budget (a deadlock), throws std::runtime_error.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/prim_models.h"
#include "htm/golden/sys_core_model.h"
#include "htm/golden/sys_part_model.h"
#include "htm/golden/xbar_model.h"

namespace htm::golden {

struct SysFabricParams {
  /// The cores' parameters: NumCores and NumParts are the subsystem's; the partitions take
  /// NumParts, AddrW, IlvLog2 and CidW from here (DataW 32, CoreW = idx_width(NumCores),
  /// RouteW = SysCoreRouteW).
  SysCoreParams core;
  /// The partitions' commit units (as htm_sys_part's parameters of the same names).
  int ring_size = 32;
  int buf_words = 256;
  int val_tags = 4;
  int lwh_sets = 64;
  int lwh_ways = 2;
  int lwh_bf_hashes = 2;
  int lwh_bf_slots = 64;
  int lwh_scrub_interval = 3;
  /// Both crossbars' Latency and FifoDepth.
  int xbar_latency = 4;
  int xbar_fifo_depth = 8;
};

/// The partitions' parameters, and the request (C -> P) and reply (P -> C) crossbars'.
SysPartParams SysFabricPartParams(const SysFabricParams& p);
XbarParams SysFabricReqXbarParams(const SysFabricParams& p);
XbarParams SysFabricRepXbarParams(const SysFabricParams& p);
/// Empty when every model accepts its parameters, else a message naming the model and the bad
/// parameter.
std::string CheckSysFabricParams(const SysFabricParams& p);

/// A run's configuration: what the cores' cfg_* inputs carry (the seed as its hash,
/// htm::gpu::proto::SeedHash).
struct SysRunConfig {
  SysWl workload = SysWl::kAtm;
  int threads = 1;  // 1 .. 2^24 - 1
  int objlog2 = 1;  // log2 of accounts (ATM-P), buckets (HT-P), hot words (EB-P): 0..31
  int reads = 0, writes = 0, cold = 0;  // EB-P's R, W, C: 0..16
  uint32_t seed = 1;
  /// Cycles the run phase may take before the run is declared deadlocked (0: 100 000 plus
  /// 4 000 per thread).
  uint64_t max_cycles = 0;
};

/// Read and write log rows a workload needs per lane: ATM-P 3 and 2, HT-P 2 and 4, EB-P
/// R + W + C and W + C.
int SysRunReads(const SysRunConfig& cfg);
int SysRunWrites(const SysRunConfig& cfg);

/// A record of a core's logw stream: a ReadSet (write false) or WriteSet the walker sent.
struct SysLogWord {
  uint64_t cycle = 0;  // the fabric's cycle in which the core's logw_valid_o was high
  uint64_t cid = 0;
  uint32_t thread = 0;
  bool write = false;
  uint64_t addr = 0;
  uint32_t data = 0;
};
/// A record of a core's logd stream: a lane's decision.
struct SysLogDecision {
  uint64_t cycle = 0;
  uint64_t cid = 0;
  uint32_t thread = 0;
  bool commit = false;
};

/// Counters of the current (or last) run, from the cores' and the partitions' event outputs.
struct SysRunCounters {
  uint64_t cycles = 0;       // cycles of the run phase: from the start cycle to the quiet one
  uint64_t commits = 0;      // ev_commit_o
  uint64_t aborts = 0;       // ev_abort_o
  uint64_t alloc_fails = 0;  // ev_alloc_fail_o
  uint64_t loads = 0;        // partitions' ev_load_o
  uint64_t cu_msgs = 0;      // partitions' ev_cu_msg_o
};

/// A maintenance access offered to a partition (htm_sys_part's mt_* inputs).
struct SysMtIn {
  uint64_t valid = 0, we = 0, addr = 0, wdata = 0;
};

/// What every core's run inputs carry in a cycle: start_i and cfg_* (htm_sys_run's core_start_o
/// and run_* outputs, or SysFabric's run control).
struct SysBlocksIn {
  uint64_t start = 0;
  uint64_t cfg_wl = 0, cfg_threads = 0, cfg_objlog2 = 0, cfg_reads = 0, cfg_writes = 0,
           cfg_cold = 0, cfg_seed_hash = 0;
  /// Per partition: its maintenance port's inputs (missing entries: idle).
  std::vector<SysMtIn> mt;
};

/// Every block's inputs and outputs in one cycle, as SysBlocks::Eval resolves them.
struct SysBlocksCycle {
  std::vector<SysCoreIn> core_in;
  std::vector<SysCoreOut> core_out;
  std::vector<SysPartIn> part_in;
  std::vector<SysPartOut> part_out;
  RrArbIn cid_in;
  RrArbOut cid_out;
  XbarIn req_in, rep_in;
  XbarOut req_out, rep_out;
  /// No core running or holding a request, no partition busy, both crossbars empty (their
  /// in-flight counters zero): htm_sys's quiet.
  bool quiet = false;
  /// Some block's err output.
  bool err = false;
};

/// The subsystem's blocks as htm_sys composes them (docs/htm_sys.md, "htm_sys"), without run
/// control: C cores (core index c), the request crossbar (C -> P), the P partitions, the reply
/// crossbar (P -> C, always taken), the commit-id allocator (a CidW-bit counter and a
/// round-robin arbiter over the cores' cid_req_o; the winner gets the counter, which then
/// increments) and the crossbars' in-flight counters (+1 per message taken at an input, -1 per
/// message taken at an output). Eval resolves one cycle's combinational paths in this order:
/// the cores (every output a register), the allocator (from the cores' requests), the request
/// crossbar (its ready from the cores' requests, its outputs from its FIFOs), the partitions
/// (their request ready from the crossbar's outputs; their replies are registers), the reply
/// crossbar (its ready from the partitions' replies); Tick clocks every block with the inputs
/// Eval gave it.
class SysBlocks {
 public:
  /// Throws std::invalid_argument on parameters a model does not accept.
  explicit SysBlocks(const SysFabricParams& p);

  /// Resets every model, the allocator's counter and the in-flight counters (memory keeps its
  /// contents).
  void Reset();
  SysBlocksCycle Eval(const SysBlocksIn& in) const;
  void Tick(const SysBlocksCycle& c);

  const SysFabricParams& params() const { return p_; }
  int num_cores() const { return p_.core.num_cores; }
  int num_parts() const { return p_.core.num_parts; }
  const SysCoreModel& core(int c) const { return cores_[c]; }
  const SysPartModel& part(int p) const { return parts_[p]; }
  const XbarModel& req_xbar() const { return xreq_; }
  const XbarModel& rep_xbar() const { return xrep_; }
  const SysPartParams& part_params() const { return pp_; }
  /// Messages taken at the request (reply) crossbar's inputs and not yet at its outputs.
  uint64_t req_in_flight() const { return req_cnt_; }
  uint64_t rep_in_flight() const { return rep_cnt_; }
  /// The cores' and the partitions' states, for a deadlock's message.
  std::string Describe() const;

 private:
  static const SysFabricParams& Checked(const SysFabricParams& p);

  SysFabricParams p_;
  SysPartParams pp_;
  XbarParams xqp_, xrp_;
  std::vector<SysCoreModel> cores_;
  std::vector<SysPartModel> parts_;
  XbarModel xreq_, xrep_;
  RrArbModel cid_arb_;
  uint64_t cid_ = 0;
  uint64_t req_cnt_ = 0, rep_cnt_ = 0;
};

class SysFabric {
 public:
  enum class Phase : uint8_t { kIdle, kInit, kStart, kRun, kReadBack, kDone };
  static const char* ToString(Phase p);

  /// Throws std::invalid_argument on parameters a model does not accept.
  explicit SysFabric(const SysFabricParams& p);

  /// Resets every model and the allocator's counter (memory keeps its contents); phase idle.
  void Reset();
  /// Queues a run on the idle or done fabric (std::logic_error otherwise): its configuration
  /// and the workload's initial memory (word address i holds init[i]). Throws
  /// std::invalid_argument when the cores cannot run it (a port's range, more log rows than
  /// MaxReads or MaxWrites, a memory larger than 2^AddrW words).
  void Begin(const SysRunConfig& cfg, const std::vector<uint32_t>& init);
  /// One clock cycle of every model; advances the run's phase.
  void Step();
  /// Steps until done() (throws as Step does).
  void Run();

  bool done() const { return phase_ == Phase::kDone; }
  Phase phase() const { return phase_; }
  /// Cycles since construction or Reset().
  uint64_t cycle() const { return cycle_; }
  /// The workload's memory read back after the run (valid when done()).
  const std::vector<uint32_t>& final_memory() const { return final_; }
  const SysRunConfig& config() const { return cfg_; }

  /// The inputs core c saw and the outputs it gave in the last Step.
  const SysCoreIn& core_in(int c) const { return core_in_[c]; }
  const SysCoreOut& core_out(int c) const { return core_out_[c]; }
  const SysRunCounters& counters() const { return ctr_; }
  /// Core c's logw and logd records of the current (or last) run, in cycle order.
  const std::vector<SysLogWord>& log_words(int c) const { return logw_[c]; }
  const std::vector<SysLogDecision>& log_decisions(int c) const { return logd_[c]; }

  const SysFabricParams& params() const { return p_; }
  int num_cores() const { return p_.core.num_cores; }
  int num_parts() const { return p_.core.num_parts; }
  const SysCoreModel& core(int c) const { return blocks_.core(c); }
  const SysPartModel& part(int p) const { return blocks_.part(p); }
  const XbarModel& req_xbar() const { return blocks_.req_xbar(); }
  const XbarModel& rep_xbar() const { return blocks_.rep_xbar(); }
  const SysBlocks& blocks() const { return blocks_; }

 private:
  SysFabricParams p_;
  SysBlocks blocks_;

  Phase phase_ = Phase::kIdle;
  uint64_t cycle_ = 0, start_cycle_ = 0;
  SysRunConfig cfg_;
  uint32_t seed_hash_ = 0;
  std::vector<uint32_t> init_, final_;
  std::vector<std::vector<uint64_t>> addrs_;   // per partition: its words of the memory
  std::vector<size_t> pos_;                    // per partition: the next word to write or read
  std::vector<std::deque<uint64_t>> pending_;  // per partition: reads taken, words to come

  std::vector<SysCoreIn> core_in_;
  std::vector<SysCoreOut> core_out_;
  SysRunCounters ctr_;
  std::vector<std::vector<SysLogWord>> logw_;
  std::vector<std::vector<SysLogDecision>> logd_;
};

}  // namespace htm::golden
