// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_sys_core (rtl/sys/htm_sys_core.sv), one SIMT core of the FPGA prototype
// under KILO TM, cycle-exact with the RTL and as finite. It composes the models of the blocks
// the RTL instantiates: a transactional SIMT stack per warp slot (TxSimtStackModel: Depth 3,
// PcW 4, LogW 1), the draw unit (SysDrawModel) and three round-robin arbiters over the slots
// (RrArbModel: draw unit, log walker, load port), and adds the core's own registers: the slots'
// states, choices, registers and logs, the draw sequencer, the log walker with its alloc, fill
// and outcome engines, the request port's output register, the log streams, events and error.
// Decide() computes every combinational value of a cycle from the state and the inputs; Eval()
// reports its outputs (every output is a register, so they depend on the state alone) and
// Tick() applies it. Workloads as steps, draws, walker, timing: docs/htm_sys_core.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/ports.h"
#include "htm/golden/prim_models.h"
#include "htm/golden/sys_draw_model.h"
#include "htm/golden/sys_part_model.h"
#include "htm/golden/tx_simt_stack_model.h"

namespace htm::golden {

/// Width of a route {slot, lane} inside a core: idx_width(NumWarps) + idx_width(WarpSize).
template <class P>
constexpr int SysCoreRouteW(const P& p) {
  return IdxWidth(p.num_warps) + IdxWidth(p.warp_size);
}

#define HTM_BLOCK SysCore
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sys_core.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal for the RTL and the harness, else a message naming the
/// bad parameter.
std::string CheckSysCoreParams(const SysCoreParams& p);

/// The message formats' parameters (docs/proto.md, "Messages") of a core: a SysPartParams with
/// the core's NumParts, AddrW, IlvLog2 and CidW, DataW 32, CoreW = idx_width(NumCores) and
/// RouteW = SysCoreRouteW; the commit unit's fields are zero. For PackSysPartReq,
/// UnpackSysPartRep and SysPartOf.
SysPartParams SysCoreMsgParams(const SysCoreParams& p);

/// The step a workload's pc is (docs/htm_sys_core.md, "Workloads as steps"), for a run's
/// configuration.
enum class SysStep : uint8_t { kNone, kLoad, kStore, kEmpty, kCommit };

class SysCoreModel {
 public:
  using Ports = SysCorePorts;
  /// Slot states (docs/htm_sys_core.md, "The slots").
  enum SlotState : uint8_t {
    kSIdle,
    kSBatch,
    kSSetupWait,
    kSSetup,
    kSInit,
    kSTxBegin,
    kSExec,
    kSLoad,
    kSStore,
    kSCommitWait,
    kSAfter,
    kSDone,
  };
  /// The fill engine's states.
  enum FillState : uint8_t { kFeWait, kFeRead, kFeWrite, kFeFill, kFeRetryWait, kFeRetry };
  /// Slot state names, for messages.
  static const char* ToString(SlotState s);

  /// Throws std::invalid_argument on parameters the RTL or the harness does not accept.
  explicit SysCoreModel(const SysCoreParams& p);

  /// Reset: every register; the logs, choices and lane registers keep their contents (RAM).
  void Reset();
  SysCoreOut Eval(const SysCoreIn& in) const;
  void Tick(const SysCoreIn& in);

  const SysCoreParams& params() const { return p_; }

  // Introspection for tests and debug views (not ports).
  SlotState slot_state(int s) const { return slots_[s].state; }
  /// The slot's SIMT stack (its top_pc_o is the slot's pc).
  const TxSimtStackModel& stack(int s) const { return stacks_[s]; }
  uint64_t slot_base(int s) const { return slots_[s].base; }
  int slot_k(int s) const { return slots_[s].k; }
  int slot_rrow(int s) const { return slots_[s].rrow; }
  int slot_wrow(int s) const { return slots_[s].wrow; }
  /// Lane l's choices c0..c2 and registers r0..r2 of slot s.
  uint32_t choice(int s, int l, int i) const { return slots_[s].c[i][l]; }
  uint32_t reg(int s, int l, int i) const { return slots_[s].r[i][l]; }
  bool walker_busy() const { return busy_; }
  int walker_slot() const { return wslot_; }
  FillState fill_state() const { return fe_state_; }
  bool draw_busy() const { return ds_busy_; }

 private:
  enum AllocState : uint8_t { kAeCid, kAeAlloc };
  enum Engine : uint8_t { kEngNone, kEngOutcome, kEngFill, kEngAlloc };

  struct Slot {
    SlotState state = kSIdle;
    uint64_t base = 0;  // 25 bits
    uint64_t amask = 0, rem = 0, pend = 0;
    int k = 0, rrow = 0, wrow = 0;
    std::vector<uint32_t> c[3], r[3];        // per lane
    std::vector<uint64_t> rl_addr, wl_addr;  // [row * WarpSize + lane]
    std::vector<uint32_t> rl_val, wl_val;
  };

  // Every combinational value of one cycle.
  struct Comb {
    std::vector<TxSimtStackOut> top;  // per slot (registers)
    std::vector<TxSimtStackIn> stk_in;
    bool running = false, start_taken = false;
    // The draw sequencer.
    RrArbIn draw_arb_in;
    RrArbOut draw_arb;
    bool draw_grant = false;
    SysDrawIn draw_in;
    SysDrawOut draw_out;
    bool issue_last = false;
    // The request port.
    bool load_en = false;
    Engine weng = kEngNone;  // the walker's engine with a message
    int wdst = 0;
    SysPartReq wmsg;
    bool wsent = false;
    RrArbIn load_arb_in;
    RrArbOut load_arb;
    bool lsent = false;
    int ls = 0, ll = 0;
    uint64_t laddr = 0;
    // The reply port.
    bool rep_ok = false, rep_bad = false;
    SysPartRep rep;
    int rs = 0, rl = 0, rp = 0;
    // The walker.
    RrArbIn walk_arb_in;
    RrArbOut walk_arb;
    bool walk_start = false;
    bool decide = false, dec_commit = false;
    int dec_lane = 0;
    bool end = false;
    SysCoreOut out;
  };

  static const SysCoreParams& Checked(const SysCoreParams& p);
  Comb Decide(const SysCoreIn& in) const;
  SysCoreOut Outputs() const;  // the registers behind every output
  SysStep StepOf(const SysCoreIn& in, uint64_t pc) const;
  // (pc', k') of NextPc(pc, k).
  void NextPc(const SysCoreIn& in, uint64_t pc, int k, uint64_t* npc, int* nk) const;
  uint64_t LoadAddr(const SysCoreIn& in, int s, int l, uint64_t pc) const;
  void StoreWord(const SysCoreIn& in, int s, int l, uint64_t pc, uint64_t* addr,
                 uint32_t* val) const;
  uint32_t Tid(int s, int l) const;
  uint64_t Route(int s, int l) const;
  int Draws(const SysCoreIn& in) const;  // K, the draws per lane of a phase
  void DrawResult(const SysCoreIn& in, uint64_t tag, uint32_t v);

  SysCoreParams p_;
  SysPartParams mp_;  // message formats
  int lane_w_ = 1;
  uint64_t lanes_all_ = 1, parts_all_ = 1;
  std::vector<Slot> slots_;
  std::vector<TxSimtStackModel> stacks_;
  SysDrawModel draw_;
  RrArbModel draw_arb_, walk_arb_, load_arb_;

  // The draw sequencer.
  bool ds_busy_ = false, ds_issuing_ = false;
  int ds_slot_ = 0, ds_phase_ = 0, ds_lane_ = 0, ds_k_ = 0;

  // The log walker.
  bool busy_ = false;
  int wslot_ = 0;
  uint64_t lanes_ = 0, filled_ = 0, decided_ = 0, committed_ = 0;           // lane bits
  std::vector<uint64_t> cid_;                                               // per lane
  std::vector<uint64_t> arep_, aok_, touched_, written_, vrep_, vok_, dc_;  // per lane: part bits
  uint64_t ae_rem_ = 0;
  AllocState ae_state_ = kAeCid;
  int ae_p_ = 0;
  uint64_t fe_rem_ = 0;
  FillState fe_state_ = kFeWait;
  int fe_row_ = 0, fe_p_ = 0, fe_timer_ = 0;
  uint64_t fe_retry_ = 0;
  int oe_lane_ = 0;
  uint64_t oe_rem_ = 0;
  bool oe_pass_ = false;

  // Output registers.
  bool req_valid_ = false;
  uint64_t req_dst_ = 0, req_data_ = 0;
  bool logw_valid_ = false, logw_write_ = false;
  uint64_t logw_cid_ = 0, logw_thread_ = 0, logw_addr_ = 0, logw_data_ = 0;
  bool logd_valid_ = false, logd_commit_ = false;
  uint64_t logd_cid_ = 0, logd_thread_ = 0;
  bool ev_commit_ = false, ev_abort_ = false, ev_alloc_fail_ = false;
  bool err_ = false;
};

}  // namespace htm::golden
