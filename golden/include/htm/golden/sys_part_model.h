// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_sys_part (rtl/sys/htm_sys_part.sv), one memory partition of the FPGA
// prototype, cycle-exact with the RTL and as finite. It composes the models of the blocks the
// RTL instantiates: the commit unit (CommitUnitModel), the memory (RamSpModel), the two
// round-robin arbiters (RrArbModel) and the three reply queues (FifoModel), and adds the
// partition's own registers (the read pipeline, the acknowledgement, the output register, the
// error). Decide() computes every combinational value of a cycle from the state and the inputs;
// Eval() reports it and Tick() applies it. Timing, queues and the gating rule:
// docs/htm_sys_part.md.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "htm/enums.h"
#include "htm/golden/commit_unit_model.h"
#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"
#include "htm/golden/prim_models.h"

namespace htm::golden {

/// Widths of the partition's messages (docs/proto.md, "Messages").
constexpr int SysPartReqW(int cid_w, int route_w, int addr_w, int data_w) {
  return 4 + cid_w + route_w + addr_w + data_w;
}
constexpr int SysPartRepW(int cid_w, int route_w, int data_w) {
  return 5 + cid_w + route_w + data_w;
}

#define HTM_BLOCK SysPart
#define HTM_BLOCK_DEF "htm/golden/ports/htm_sys_part.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK SysPart
#define HTM_COVER_DEF "htm/golden/cover/htm_sys_part.def"
#include "htm/golden/cover_gen.inc"

/// A request {kind, type, cid, route, addr, data}, unpacked.
struct SysPartReq {
  SysReq kind = SysReq::kLoad;
  uint64_t type = 0;  // a cu_msg_e value (0 for a load)
  uint64_t cid = 0, route = 0, addr = 0, data = 0;
};
/// A reply {kind, type, cid, route, data}, unpacked.
struct SysPartRep {
  SysRep kind = SysRep::kLoad;
  uint64_t type = 0;  // a cu_rep_e value (0 for a load)
  uint64_t cid = 0, route = 0, data = 0;
};
uint64_t PackSysPartReq(const SysPartParams& p, const SysPartReq& r);
SysPartReq UnpackSysPartReq(const SysPartParams& p, uint64_t v);
uint64_t PackSysPartRep(const SysPartParams& p, const SysPartRep& r);
SysPartRep UnpackSysPartRep(const SysPartParams& p, uint64_t v);

/// The partition of global word address `addr`, its local word, and the global address of
/// local word `local` of partition `part` (the inverse).
int SysPartOf(const SysPartParams& p, uint64_t addr);
uint64_t SysPartLocal(const SysPartParams& p, uint64_t addr);
uint64_t SysPartGlobal(const SysPartParams& p, int part, uint64_t local);
/// Words of each partition's memory.
uint64_t SysPartWords(const SysPartParams& p);

/// The commit unit's parameters inside the partition (SrcW = CoreW + RouteW).
CommitUnitParams SysPartCuParams(const SysPartParams& p);

/// Empty when the parameters are legal for the RTL and the harness, else a message naming the
/// bad parameter.
std::string CheckSysPartParams(const SysPartParams& p);

class SysPartModel {
 public:
  using Ports = SysPartPorts;
  /// Reply queues: load values, Alloc replies, and the slack of the Pass/Fail/DoneCommit queue
  /// (RingSize + kCuQSlack entries; a commit-unit message enters only below kCuQSlack).
  static constexpr int kLoadQDepth = 4;
  static constexpr int kAllocQDepth = 3;
  static constexpr int kCuQSlack = 4;
  /// Memory-port requesters, in the arbiter's order.
  enum MemReq { kReqCw = 0, kReqVr = 1, kReqLoad = 2, kReqMt = 3 };

  /// Throws std::invalid_argument on parameters the RTL or the harness does not accept.
  explicit SysPartModel(const SysPartParams& p);

  /// Reset: every register and queue; the memory keeps its contents (block RAM is not reset).
  void Reset();
  SysPartOut Eval(const SysPartIn& in) const;
  /// Throws std::logic_error if a reply reaches a full queue (the gating rules forbid it).
  void Tick(const SysPartIn& in);

  const SysPartParams& params() const { return p_; }
  const CommitUnitModel& commit_unit() const { return cu_; }
  /// Replies held by each queue.
  int load_queue() const { return static_cast<int>(lq_.size()); }
  int alloc_queue() const { return static_cast<int>(aq_.size()); }
  int cu_queue() const { return static_cast<int>(cq_.size()); }
  /// Coverage events since construction (cover/htm_sys_part.def), then the commit unit's under
  /// "cu." (and its LWH's under "cu.lwh.").
  const SysPartCover& cover() const { return cover_; }
  Coverage coverage() const;

 private:
  enum Rd { kRdNone = 0, kRdVr = 1, kRdLoad = 2, kRdMt = 3 };
  // Every combinational value of one cycle.
  struct Comb {
    SysPartReq req;
    bool is_load = false, bad_addr = false, mt_ok = false;
    int lq_reserved = 0;
    bool cu_gate = false, cu_in_valid = false, ld_req = false, mt_req = false;
    CommitUnitIn cu_in;
    CommitUnitOut cu_out;
    RrArbIn mem_arb_in;
    RrArbOut mem_arb;
    RamSpIn mem_in;
    int s1_kind = kRdNone;
    bool lq_push = false, aq_push = false, cq_push = false;
    uint64_t lq_wdata = 0, aq_wdata = 0, cq_wdata = 0;
    RrArbIn rep_arb_in;
    RrArbOut rep_arb;
    bool rep_load = false, lq_pop = false, aq_pop = false, cq_pop = false;
    uint64_t rep_dst = 0, rep_data = 0;
    bool rep_known = false;
    SysPartOut out;
  };

  static const SysPartParams& Checked(const SysPartParams& p);
  Comb Decide(const SysPartIn& in) const;
  bool Mine(uint64_t addr, uint64_t part_idx) const;

  SysPartParams p_;
  CommitUnitModel cu_;
  RamSpModel mem_;
  RrArbModel mem_arb_, rep_arb_;
  FifoModel lq_, aq_, cq_;
  std::deque<bool> lq_known_;  // per load-queue entry: its word was written (rep_known)
  // Read pipeline: stage 1 (the RAM's read register), stage 2 (the output register).
  int s1_kind_ = kRdNone, s2_kind_ = kRdNone;
  uint64_t s1_tag_ = 0, s2_tag_ = 0, s1_meta_ = 0, s2_meta_ = 0, s2_data_ = 0;
  bool s2_known_ = false;
  bool cw_ack_ = false;
  bool rep_valid_ = false, rep_known_ = false;
  uint64_t rep_dst_ = 0, rep_data_ = 0;
  bool bad_ = false;
  SysPartCover cover_;
};

}  // namespace htm::golden
