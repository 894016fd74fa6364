// SPDX-License-Identifier: Apache-2.0
//
// Stimulus for htm_sys, the prototype's subsystem (docs/htm_sys.md), driven from its ports as a
// host drives it: a start with a configuration, then cycles until done_o, then the next. The
// runs are ATM-P, HT-P or EB-P drawn at random with a random size, contention (few accounts,
// buckets or hot words) and seed, sized to the configuration's memory and log rows (as
// SysCoreBench draws them); now and then a configuration the run control refuses (cfg_wl 3, no
// threads, objlog2 0 or above AddrW, a memory or log rows too large). ctr_sel_i is random. The
// bench keeps a model of its own (golden::SysModel, fed the same inputs) to read the final
// memory from the partitions: after each run it throws std::runtime_error unless a valid run
// ends with check_ok_o, a memory that passes the workload's Check() and a commit log that passes
// htmsim check's checker, and a refused one with golden::SysRunRefusal's code. The commit log is
// assembled (htm/tb/sys_commit_log.h) from the commit-log port the bench is shown every cycle:
// the model's outputs, which the lockstep has found equal to the RTL's (every valid bit, and every
// record's fields under its valid bit) before the bench sees them, so the RTL's records. With
// HTM_SYS_COMMIT_LOG=FILE in the environment, every valid run's log is written to FILE (the last
// run's remains, for `htmsim check FILE`). Resets come only between runs or while a run
// initialises memory (the run is then started over with a new configuration).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/sys_model.h"
#include "htm/golden/sys_run_model.h"
#include "htm/tb/named_configs.h"
#include "htm/tb/stimulus.h"
#include "htm/tb/sys_commit_log.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::tb {

class SysBench {
 public:
  using Ports = golden::SysPorts;
  using Model = golden::SysModel;
  using In = golden::SysIn;
  using Out = golden::SysOut;

  SysBench(const golden::SysParams& p, uint64_t seed)
      : p_(p), rng_(seed), shadow_(p), log_(p, "htm_sys/" + NamedConfig("htm_sys", &p)) {
    shadow_.Reset();
    if (const char* path = std::getenv("HTM_SYS_COMMIT_LOG"); path != nullptr) {
      log_path_ = path;
    }
  }

  /// Between runs, or while a run seeds and initialises memory.
  bool MayReset() const {
    if (!waiting_) {
      return true;
    }
    const golden::SysRunModel::Phase ph = shadow_.run().phase();
    return ph == golden::SysRunModel::Phase::kSeed || ph == golden::SysRunModel::Phase::kInit;
  }
  void OnReset() {
    shadow_.Reset();
    waiting_ = false;
    gap_ = 0;
  }

  In Next() {
    In in = cfg_;
    in.start = 0;
    if (!waiting_) {
      if (gap_ > 0) {
        --gap_;
      } else {
        NewRun();
        in = cfg_;
        in.start = 1;
      }
    }
    in.ctr_sel = rng_.Bits(3);
    ++cycle_;
    return in;
  }

  void Observe(const In& in, const Out& out) {
    shadow_.Tick(in);
    if (in.start != 0) {
      waiting_ = true;  // taken: the bench starts only in Idle and Done
      run_cycles_ = 0;
      log_.Begin(params_);
      return;
    }
    if (!waiting_) {
      return;
    }
    log_.Record(out);
    if (++run_cycles_ > budget_) {
      Fail("no done_o within " + std::to_string(budget_) + " cycles of the start of " + Describe());
    }
    if (out.done != 0) {
      EndRun(out);
    }
  }

  /// Runs that ended as expected: refused, and checked.
  uint64_t refusals() const { return refusals_; }
  uint64_t runs_checked() const { return runs_checked_; }

 private:
  // The next configuration on the cfg_* inputs: now and then refused, else a random run that
  // fits the memory and the log rows.
  void NewRun() {
    gap_ = static_cast<int>(rng_.Below(4));
    In& c = cfg_;
    if (rng_.Chance(1, 8)) {
      c.cfg_wl = rng_.Below(3);
      c.cfg_threads = 1 + rng_.Below(64);
      c.cfg_objlog2 = 1 + rng_.Below(4);
      c.cfg_reads = c.cfg_writes = c.cfg_cold = 1;
      c.cfg_seed = rng_.Bits(32);
      switch (rng_.Below(5)) {
        case 0:
          c.cfg_wl = 3;
          break;
        case 1:
          c.cfg_threads = 0;
          break;
        case 2:
          c.cfg_objlog2 = rng_.Chance(1, 2) ? 0 : static_cast<uint64_t>(p_.addr_w) + 1;
          break;
        case 3:
          c.cfg_objlog2 = static_cast<uint64_t>(p_.addr_w);  // 2A words or more
          break;
        default:  // EB-P with more log rows than the core has
          c.cfg_wl = static_cast<uint64_t>(SysWl::kEb);
          c.cfg_reads = static_cast<uint64_t>(p_.max_reads);
          c.cfg_writes = 1;
          break;
      }
      Expect(c);
      if (expect_code_ != 0) {
        return;
      }
    }
    const uint64_t words = uint64_t{1} << p_.addr_w;
    const int lanes = p_.num_cores * p_.num_warps * p_.warp_size;
    for (int attempt = 0;; ++attempt) {
      gpu::proto::Params w;
      w.threads = 1 + static_cast<int>(rng_.Below(static_cast<uint64_t>(3 * lanes)));
      w.seed = static_cast<uint32_t>(rng_.Bits(32));
      switch (rng_.Below(3)) {
        case 0:
          w.kind = gpu::proto::Kind::kAtm;
          w.objects_log2 = 1 + static_cast<int>(rng_.Below(6));
          break;
        case 1:
          w.kind = gpu::proto::Kind::kHt;
          w.objects_log2 = 1 + static_cast<int>(rng_.Below(4));
          break;
        default:
          w.kind = gpu::proto::Kind::kEb;
          w.objects_log2 = 1 + static_cast<int>(rng_.Below(6));
          w.reads = static_cast<int>(rng_.Below(static_cast<uint64_t>(p_.max_reads) + 1));
          w.writes = static_cast<int>(rng_.Below(
              static_cast<uint64_t>(std::min(p_.max_writes, p_.max_reads - w.reads) + 1)));
          w.writes = std::min(w.writes, 1 << w.objects_log2);
          w.cold = static_cast<int>(rng_.Below(static_cast<uint64_t>(
              std::min(p_.max_writes - w.writes, p_.max_reads - w.reads - w.writes) + 1)));
          if (w.reads + w.writes + w.cold == 0) {
            w.reads = 1;
          }
          break;
      }
      if (!gpu::proto::CheckParams(w).empty()) {
        continue;
      }
      std::unique_ptr<gpu::Workload> wl = gpu::proto::Make(w);
      const uint64_t size = wl->Init().size();
      if (size > words) {
        if (attempt > 100) {
          throw std::runtime_error("htm_sys bench: no workload fits 2^AddrW words");
        }
        continue;
      }
      c.cfg_wl = static_cast<uint64_t>(w.kind == gpu::proto::Kind::kAtm  ? SysWl::kAtm
                                       : w.kind == gpu::proto::Kind::kHt ? SysWl::kHt
                                                                         : SysWl::kEb);
      c.cfg_threads = static_cast<uint64_t>(w.threads);
      c.cfg_objlog2 = static_cast<uint64_t>(w.objects_log2);
      c.cfg_reads = static_cast<uint64_t>(w.reads);
      c.cfg_writes = static_cast<uint64_t>(w.writes);
      c.cfg_cold = static_cast<uint64_t>(w.cold);
      c.cfg_seed = w.seed;
      Expect(c);
      if (expect_code_ != 0) {
        throw std::runtime_error("htm_sys bench: " + wl->Describe() + " is refused with code " +
                                 std::to_string(expect_code_));
      }
      workload_ = std::move(wl);
      params_ = w;
      size_ = size;
      return;
    }
  }

  // The refusal code the run control must give the configuration `c` (0: accepted), and the
  // cycles a run may take.
  void Expect(const In& c) {
    golden::SysRunIn r{};
    r.cfg_wl = c.cfg_wl, r.cfg_threads = c.cfg_threads, r.cfg_objlog2 = c.cfg_objlog2;
    r.cfg_reads = c.cfg_reads, r.cfg_writes = c.cfg_writes, r.cfg_cold = c.cfg_cold;
    r.cfg_seed = c.cfg_seed;
    expect_code_ = golden::SysRunRefusal(golden::SysRunParamsOf(p_), r);
    workload_.reset();
    budget_ = 400000 + 4000 * c.cfg_threads;
  }

  void EndRun(const Out& out) {
    waiting_ = false;
    const int code = out.cfg_err != 0 ? static_cast<int>(out.cfg_err_code) : 0;
    if (code != expect_code_) {
      Fail("the start of " + Describe() + " ended with refusal code " + std::to_string(code) +
           ", golden::SysRunRefusal says " + std::to_string(expect_code_));
    }
    if (code != 0) {
      ++refusals_;
      return;
    }
    if (out.check_ok == 0) {
      Fail(Describe() + " fails the run control's check with code " +
           std::to_string(out.check_code) + " at index " + std::to_string(out.check_idx));
    }
    const std::vector<uint32_t> mem = shadow_.ReadMemory(size_);
    const std::string bad = workload_->Check(mem);
    if (!bad.empty()) {
      Fail("the final memory of " + Describe() + " fails the workload's check: " + bad);
    }
    const std::string log = log_.Log(mem);
    if (!log_path_.empty()) {
      std::ofstream(log_path_, std::ios::trunc) << log;
    }
    if (const std::string verdict = SysCommitLog::Check(log); !verdict.empty()) {
      Fail("the commit log of run " + std::to_string(runs_checked_ + 1) + ", " +
           gpu::proto::ToString(params_.kind) + " seed " + std::to_string(params_.seed) + " (" +
           Describe() + "), fails htmsim check: " + verdict);
    }
    ++runs_checked_;
  }

  std::string Describe() const {
    if (workload_) {
      return workload_->Describe();
    }
    return "a refused configuration (wl " + std::to_string(cfg_.cfg_wl) + ", threads " +
           std::to_string(cfg_.cfg_threads) + ", objlog2 " + std::to_string(cfg_.cfg_objlog2) + ")";
  }

  [[noreturn]] void Fail(const std::string& why) const {
    throw std::runtime_error("htm_sys bench, cycle " + std::to_string(cycle_) + ": " + why);
  }

  golden::SysParams p_;
  Rng rng_;
  golden::SysModel shadow_;  // the golden model of the run, for its memory
  In cfg_{};                 // the configuration of the next or current start
  std::unique_ptr<gpu::Workload> workload_;
  gpu::proto::Params params_;  // its parameters
  uint64_t size_ = 0;          // the workload's memory in words
  SysCommitLog log_;           // the run's commit log, from the commit-log port
  std::string log_path_;       // HTM_SYS_COMMIT_LOG: where each valid run's log is written
  int expect_code_ = 0;
  bool waiting_ = false;  // a start was taken and done_o has not come
  int gap_ = 0;           // idle cycles before the next start
  uint64_t run_cycles_ = 0, budget_ = 0;
  uint64_t cycle_ = 0;
  uint64_t refusals_ = 0, runs_checked_ = 0;
};

}  // namespace htm::tb
