// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_sys_run (rtl/sys/htm_sys_run.sv), the FPGA prototype subsystem's run
// control: the phases Idle, Seed, Init, Start, Run, Check and Done, the initialisation engine
// that writes a workload's initial memory through the partitions' maintenance ports, the check
// engine that reads the final memory back and checks ATM-P's and EB-P's sums and HT-P's lists,
// and the counters. It composes the models of the blocks the RTL instantiates, the draw unit
// (SysDrawModel, TagW = AddrW + 1) and the init queue (FifoModel, depth 8), and adds the RTL's
// registers. Eval() depends on the state alone but for ctr_o (a combinational read of the
// counter ctr_sel_i names); Tick() applies a cycle. Behaviour and timing: docs/htm_sys.md,
// "htm_sys_run".
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "htm/golden/ports.h"
#include "htm/golden/prim_models.h"
#include "htm/golden/sys_draw_model.h"

namespace htm::golden {

#define HTM_BLOCK SysRun
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sys_run.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal for the RTL and the harness, else a message naming the
/// bad parameter.
std::string CheckSysRunParams(const SysRunParams& p);

/// The workload's memory in words (docs/htm_sys.md, "Memory size"): ATM-P 2A + 16, HT-P
/// 3A + 2T, EB-P A + C * T (A = 2^objlog2, T = threads), without wrapping; 0 for wl 3.
uint64_t SysRunMemWords(int wl, uint64_t threads, int objlog2, uint64_t cold);

/// The start's refusal code for a configuration (0: accepted; 1..6: docs/htm_sys.md,
/// "Refusals"), the first that applies.
int SysRunRefusal(const SysRunParams& p, const SysRunIn& in);

class SysRunModel {
 public:
  using Ports = SysRunPorts;
  enum class Phase : uint8_t { kIdle, kSeed, kInit, kStart, kRun, kCheck, kDone };
  /// The check engine's states (docs/htm_sys.md, "Check").
  enum class CState : uint8_t {
    kCStart,
    kCRd,
    kCWt,
    kKSum,
    kKEnd,
    kHCnt,
    kHCntEnd,
    kHLen,
    kHPtr,
    kHNode,
    kHKey,
    kHHash
  };
  /// Codes of the check (check_code_o).
  enum Code : uint8_t {
    kPassed = 0,
    kAtmSum = 1,
    kEbSum = 2,
    kHtCounts = 3,
    kHtLength = 4,
    kHtBucket = 5,
    kHtPointer = 6
  };
  static constexpr int kQueueDepth = 8;
  static constexpr int kNumCounters = 8;

  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit SysRunModel(const SysRunParams& p);
  void Reset();
  SysRunOut Eval(const SysRunIn& in) const;
  void Tick(const SysRunIn& in);

  Phase phase() const { return phase_; }
  CState cstate() const { return cs_; }
  /// Init's registers: the next address and the words in the draw unit and the queue.
  uint64_t ia() const { return ia_; }
  int cnt() const { return cnt_; }
  uint32_t init_sum() const { return init_sum_; }
  uint64_t counter(int i) const { return ctr_[i]; }
  const SysRunParams& params() const { return p_; }

 private:
  static const SysRunParams& Checked(const SysRunParams& p);
  int PartOf(uint64_t addr) const;
  uint64_t Accounts() const { return uint64_t{1} << objlog2_; }  // A
  uint64_t Words() const;                                        // S
  // Registers a read of `addr` with continuation `ret` (state CRd next).
  void Read(uint64_t addr, CState ret);
  // Registers a failure of the check and ends it.
  void Fail(Code code, uint64_t idx);

  SysRunParams p_;
  SysDrawModel draw_;
  FifoModel queue_;

  Phase phase_ = Phase::kIdle;
  // The registered configuration (cfg_q) and the seed.
  int wl_ = 0, objlog2_ = 0, reads_ = 0, writes_ = 0, cold_ = 0;
  uint32_t threads_ = 0, seed_ = 0, seed_hash_ = 0;
  bool seed_sent_ = false;
  bool cfg_err_ = false;
  int cfg_err_code_ = 0;
  int check_code_ = 0;
  uint64_t check_idx_ = 0;
  // Init.
  uint64_t ia_ = 0;
  int cnt_ = 0;
  uint32_t init_sum_ = 0;
  // Run.
  bool seen_busy_ = false;
  // Check.
  CState cs_ = CState::kCStart, ret_ = CState::kCStart;
  uint64_t raddr_ = 0, b_ = 0;
  uint32_t w_ = 0, sum_ = 0, cnt_b_ = 0, len_ = 0, n_ = 0;
  std::array<uint64_t, kNumCounters> ctr_{};
};

const char* ToString(SysRunModel::Phase p);
const char* ToString(SysRunModel::CState s);

}  // namespace htm::golden
