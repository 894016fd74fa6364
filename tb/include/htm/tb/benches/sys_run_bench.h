// SPDX-License-Identifier: Apache-2.0
//
// Stimulus for htm_sys_run, the prototype subsystem's run control (docs/htm_sys.md): the bench is
// its environment. It stands in for the partitions' maintenance ports (a memory of 2^AddrW
// words; mt_ready random, high seven cycles in ten per partition; a read's word returned in
// order 2 to 4 cycles after the read is taken, random data on mt_rdata_i otherwise) and for the
// run: quiet_i low for 1 to 30 cycles after core_start_o, then random until the run ends, and
// the memory becomes, at core_start_o, the final memory of a correct serial execution of the
// workload (SysRunFinalMemory) or a corrupted one (a word changed, or in HT-P a list turned into
// a loop). Events and ctr_sel_i are random every cycle. The configurations are random: mostly
// legal ATM-P, HT-P and EB-P runs of random size and seed, now and then wild values or
// cfg_wl = 3 (refused), and stray starts (ignored while busy, restarting the same configuration
// in Done). After each run the bench throws std::runtime_error when a start was refused with
// a code other than golden::SysRunRefusal's or accepted against it, or when a correct memory
// fails the check.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "htm/golden/sys_run_model.h"
#include "htm/tb/stimulus.h"
#include "htm/tb/sys_run_memory.h"
#include "htm/workloads/gpu/proto.h"

namespace htm::tb {

class SysRunBench {
 public:
  using Ports = golden::SysRunPorts;
  using Model = golden::SysRunModel;
  using In = golden::SysRunIn;
  using Out = golden::SysRunOut;

  SysRunBench(const golden::SysRunParams& p, uint64_t seed)
      : p_(p), rng_(seed), mem_(size_t{1} << p.addr_w, 0), pend_(p.num_parts) {}

  /// The design is back in Idle; the partitions forget their reads.
  void OnReset() {
    for (auto& q : pend_) {
      q.clear();
    }
    in_run_ = false;
    run_pending_ = false;
    ended_ = true;
    quiet_low_ = 0;
  }

  In Next() {
    In& in = in_;
    in.start = 0;
    if (ended_ && rng_.Chance(1, 4)) {
      NewConfig();
      in.start = 1;
      ended_ = false;
    } else if (rng_.Chance(1, 200)) {
      in.start = 1;  // stray: ignored while busy, the same configuration again in Done
    }
    if (in_run_) {
      in.quiet = quiet_low_ > 0 ? 0 : (rng_.Chance(2, 3) ? 1 : 0);
    } else {
      in.quiet = 1;
    }
    if (quiet_low_ > 0) {
      --quiet_low_;
    }
    in.mt_ready = 0;
    in.mt_rvalid = 0;
    for (int q = 0; q < p_.num_parts; ++q) {
      if (rng_.Chance(7, 10)) {
        in.mt_ready |= uint64_t{1} << q;
      }
      in.mt_rdata[q] = rng_.Bits(32);
      if (!pend_[q].empty() && pend_[q].front().left <= 0) {
        in.mt_rvalid |= uint64_t{1} << q;
        in.mt_rdata[q] = pend_[q].front().data;
      }
    }
    in.ev_commit = rng_.Bits(p_.num_cores);
    in.ev_abort = rng_.Bits(p_.num_cores);
    in.ev_alloc_fail = rng_.Bits(p_.num_cores);
    in.ev_load = rng_.Bits(p_.num_parts);
    in.ev_cu_msg = rng_.Bits(p_.num_parts);
    in.cu_busy = rng_.Bits(p_.num_parts);
    in.ctr_sel = rng_.Bits(3);
    ++cycle_;
    return in;
  }

  void Observe(const In& in, const Out& out) {
    // The partitions: replies leave, reads age, the access on offer is taken with mt_ready_i.
    for (int q = 0; q < p_.num_parts; ++q) {
      if (((in.mt_rvalid >> q) & 1) != 0) {
        pend_[q].pop_front();
      }
      for (Pending& r : pend_[q]) {
        --r.left;
      }
      if (((out.mt_valid & in.mt_ready) >> q & 1) != 0) {
        const uint64_t addr = out.mt_addr[q];
        if (((out.mt_we >> q) & 1) != 0) {
          mem_[addr] = static_cast<uint32_t>(out.mt_wdata[q]);
        } else {
          pend_[q].push_back({1 + static_cast<int>(rng_.Below(3)), mem_[addr]});
        }
      }
    }
    // The end of the run under way: the first cycle in Done.
    if (run_pending_ && out.done != 0) {
      EndRun(out);
    }
    if (in.start != 0 && out.busy == 0) {  // taken (Idle or Done)
      TakeStart(in);
    }
    if (out.core_start != 0) {
      BeginRun();
    }
    if (out.done != 0 || out.busy == 0) {
      in_run_ = false;
    }
  }

  /// Runs whose end was checked: refusals, checks of correct memories, checks of corrupted ones.
  uint64_t refusals() const { return refusals_; }
  uint64_t passes() const { return passes_; }
  uint64_t corrupted() const { return corrupted_; }

 private:
  struct Pending {
    int left;
    uint32_t data;
  };

  // A new configuration on the cfg_* inputs: mostly legal, sometimes refused.
  void NewConfig() {
    const bool big = p_.addr_w >= 9;
    const int kind = static_cast<int>(rng_.Below(3));
    gpu::proto::Params w;
    w.seed = static_cast<uint32_t>(rng_.Bits(32));
    w.objects_log2 = 1 + static_cast<int>(rng_.Below(big ? 6 : 3));
    w.threads = 1 + static_cast<int>(rng_.Below(big ? 200 : 20));
    w.reads = w.writes = w.cold = 0;
    if (kind == 2) {
      w.reads = static_cast<int>(rng_.Below(3));
      w.writes = static_cast<int>(rng_.Below(3));
      w.cold = static_cast<int>(rng_.Below(2));
    }
    if (rng_.Chance(1, 8)) {  // wild values: most are refused
      w.threads = static_cast<int>(rng_.Below(4));
      w.objects_log2 = static_cast<int>(rng_.Below(32));
      w.reads = static_cast<int>(rng_.Below(32));
      w.writes = static_cast<int>(rng_.Below(32));
      w.cold = static_cast<int>(rng_.Below(32));
    }
    in_.cfg_wl = rng_.Chance(1, 16) ? 3 : static_cast<uint64_t>(kind);
    in_.cfg_threads = static_cast<uint64_t>(w.threads);
    in_.cfg_objlog2 = static_cast<uint64_t>(w.objects_log2);
    in_.cfg_reads = static_cast<uint64_t>(w.reads);
    in_.cfg_writes = static_cast<uint64_t>(w.writes);
    in_.cfg_cold = static_cast<uint64_t>(w.cold);
    in_.cfg_seed = w.seed;
  }

  // A start taken with the inputs `in`: the refusal it must meet and the workload it runs.
  void TakeStart(const In& in) {
    run_pending_ = true;
    ended_ = false;
    expect_code_ = golden::SysRunRefusal(p_, in);
    cur_.kind = static_cast<gpu::proto::Kind>(std::min<uint64_t>(in.cfg_wl, 2));
    cur_.threads = static_cast<int>(in.cfg_threads);
    cur_.objects_log2 = static_cast<int>(in.cfg_objlog2);
    cur_.reads = static_cast<int>(in.cfg_reads);
    cur_.writes = static_cast<int>(in.cfg_writes);
    cur_.cold = static_cast<int>(in.cfg_cold);
    cur_.seed = static_cast<uint32_t>(in.cfg_seed);
  }

  // core_start_o: the run's final memory replaces memory, correct or corrupted.
  void BeginRun() {
    in_run_ = true;
    quiet_low_ = 1 + static_cast<int>(rng_.Below(30));
    std::vector<uint32_t> fin = SysRunFinalMemory(cur_);
    clean_ = true;
    if (cur_.kind == gpu::proto::Kind::kHt && rng_.Chance(1, 3)) {  // a list into a loop
      const uint32_t a = 1u << cur_.objects_log2;
      const auto threads = static_cast<uint64_t>(cur_.threads);
      const auto t = static_cast<uint32_t>(rng_.Below(threads));
      fin[2 * a + 2 * t + 1] = 2 * a + 2 * static_cast<uint32_t>(rng_.Below(threads));
      clean_ = false;
    } else if (rng_.Chance(1, 2)) {  // a word changed
      const size_t i = rng_.Below(fin.size());
      fin[i] += rng_.Chance(1, 2) ? 1u : static_cast<uint32_t>(rng_.Bits(32));
      clean_ = false;
    }
    std::copy(fin.begin(), fin.end(), mem_.begin());
  }

  void EndRun(const Out& out) {
    run_pending_ = false;
    ended_ = true;
    const int code = out.cfg_err != 0 ? static_cast<int>(out.cfg_err_code) : 0;
    if (code != expect_code_) {
      Fail("a start refused with code " + std::to_string(code) + ", golden::SysRunRefusal says " +
           std::to_string(expect_code_));
    }
    if (code != 0) {
      ++refusals_;
    } else if (clean_) {
      if (out.check_ok == 0) {
        Fail("the correct final memory of " + std::string(gpu::proto::ToString(cur_.kind)) +
             " (threads " + std::to_string(cur_.threads) + ", objlog2 " +
             std::to_string(cur_.objects_log2) + ") fails the check with code " +
             std::to_string(out.check_code) + " at index " + std::to_string(out.check_idx));
      }
      ++passes_;
    } else {
      ++corrupted_;
    }
  }

  [[noreturn]] void Fail(const std::string& why) const {
    throw std::runtime_error("htm_sys_run bench, cycle " + std::to_string(cycle_) + ": " + why);
  }

  golden::SysRunParams p_;
  Rng rng_;
  In in_{};
  std::vector<uint32_t> mem_;
  std::vector<std::deque<Pending>> pend_;
  gpu::proto::Params cur_;
  int expect_code_ = 0;
  bool ended_ = true;         // no run under way: a new configuration may start
  bool run_pending_ = false;  // a taken start whose Done is still to come
  bool in_run_ = false;       // from core_start_o to the end of Run (quiet_i random)
  bool clean_ = true;         // the run's final memory is correct
  int quiet_low_ = 0;
  uint64_t cycle_ = 0;
  uint64_t refusals_ = 0, passes_ = 0, corrupted_ = 0;
};

}  // namespace htm::tb
