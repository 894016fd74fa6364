// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_sys (rtl/sys/htm_sys.sv), the FPGA prototype's subsystem: the blocks as
// golden::SysBlocks composes them (the cores, the request and reply crossbars, the partitions,
// the commit-id allocator and the crossbars' in-flight counters; the composition SysFabric also
// runs) under the model of htm_sys_run (SysRunModel) in place of SysFabric's C++ run control.
// The run control drives every core's start_i and cfg_* (its core_start_o and run_* outputs)
// and the partitions' maintenance ports, and takes quiet (no core running or holding a request,
// no partition busy, both in-flight counters zero), the maintenance replies and the cores' and
// partitions' events. Each cycle: the run control's outputs (registers, but ctr_o), then the
// blocks (SysBlocks::Eval), then the run control's inputs; Tick clocks all of them.
// Behaviour and timing: docs/htm_sys.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/ports.h"
#include "htm/golden/sys_fabric.h"
#include "htm/golden/sys_run_model.h"

namespace htm::golden {

#define HTM_BLOCK Sys
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sys.def"
#include "htm/golden/port_gen.inc"

/// The composition's parameters (SysFabricParams) and the run control's (SysRunParams) of an
/// htm_sys.
SysFabricParams SysFabricParamsOf(const SysParams& p);
SysRunParams SysRunParamsOf(const SysParams& p);
/// Empty when every block accepts its parameters, else a message naming the block and the bad
/// parameter.
std::string CheckSysParams(const SysParams& p);

class SysModel {
 public:
  using Ports = SysPorts;

  /// Throws std::invalid_argument on parameters a block does not accept.
  explicit SysModel(const SysParams& p);

  /// Resets every block (memory keeps its contents).
  void Reset();
  SysOut Eval(const SysIn& in) const;
  /// Throws std::logic_error where a block's model does (a full queue the RTL's rules forbid).
  void Tick(const SysIn& in);

  const SysParams& params() const { return p_; }
  const SysBlocks& blocks() const { return blocks_; }
  const SysRunModel& run() const { return run_; }
  /// Words [0, words) of global memory, read through the partitions' maintenance ports on a
  /// copy of the blocks (this model is unchanged).
  std::vector<uint32_t> ReadMemory(uint64_t words) const;

 private:
  // Every block's inputs and outputs of one cycle.
  struct Cycle {
    SysRunIn run_in;
    SysRunOut run_out;
    SysBlocksCycle blocks;
  };
  Cycle Resolve(const SysIn& in) const;

  SysParams p_;
  SysBlocks blocks_;
  SysRunModel run_;
};

}  // namespace htm::golden
