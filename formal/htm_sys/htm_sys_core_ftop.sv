// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_sys_core. The environment is free: any start, configuration (changing at
// will), commit-id grants, request-port backpressure and replies (of any kind, route and type,
// protocol violations included); the core index is an arbitrary constant below NumCores. The
// draw unit is cut (run_formal.py --cut htm_sys_draw): its valid, tag and value are free every
// cycle, which covers every value the real unit can give (its two 32-bit multipliers would
// dominate the solver). Besides the RTL's own assertions (those of the SIMT stacks and the
// arbiters), proved from the ports:
//   * the request register holds its message while it is not taken;
//   * a load, ReadSet or WriteSet goes to its address's partition; a route names a slot and a
//     lane that exist; a load carries type, cid and data zero; the messages other than ReadSet
//     and WriteSet carry address and data zero; no message type beyond Fail;
//   * a log-word record comes exactly with a newly loaded ReadSet or WriteSet, and names its cid,
//     address, value and kind;
//   * cid_req_o stays high until a grant;
//   * the commit and abort events are exactly the decision records.
// Cover: a load request. Bounded (formal/CMakeLists.txt states the depths): k-induction fails
// on the arrays (logs, choices, registers) and on the SIMT stacks' own invariants, which are
// proved on the stack itself; the walker's messages come later than the depths z3 reaches, so
// the properties on them rest on these bounds for the early cycles and on lockstep.
`include "htm_assert.svh"

module htm_sys_core_ftop #(
  parameter int unsigned NumCores   = 1,
  parameter int unsigned NumWarps   = 1,
  parameter int unsigned WarpSize   = 1,
  parameter int unsigned NumParts   = 1,
  parameter int unsigned AddrW      = 8,
  parameter int unsigned IlvLog2    = 0,
  parameter int unsigned CidW       = 6,
  parameter int unsigned MaxReads   = 3,
  parameter int unsigned MaxWrites  = 4,
  parameter int unsigned AllocRetry = 1,
  localparam int unsigned CoreW     = htm_pkg::idx_width(NumCores),
  localparam int unsigned SlotW     = htm_pkg::idx_width(NumWarps),
  localparam int unsigned LaneW     = htm_pkg::idx_width(WarpSize),
  localparam int unsigned PartW     = htm_pkg::idx_width(NumParts),
  localparam int unsigned RouteW    = SlotW + LaneW,
  localparam int unsigned ReqW      = 4 + CidW + RouteW + AddrW + 32,
  localparam int unsigned RepW      = 5 + CidW + RouteW + 32
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic [CoreW-1:0] core_idx_i,
  input logic             start_i,
  input logic [1:0]       cfg_wl_i,
  input logic [23:0]      cfg_threads_i,
  input logic [4:0]       cfg_objlog2_i,
  input logic [4:0]       cfg_reads_i,
  input logic [4:0]       cfg_writes_i,
  input logic [4:0]       cfg_cold_i,
  input logic [31:0]      cfg_seed_hash_i,
  input logic             cid_gnt_i,
  input logic [CidW-1:0]  cid_i,
  input logic             req_ready_i,
  input logic             rep_valid_i,
  input logic [PartW-1:0] rep_src_i,
  input logic [RepW-1:0]  rep_data_i
);

  logic              running, cid_req, req_valid, logw_valid, logw_write, logd_valid;
  logic              logd_commit, ev_commit, ev_abort, ev_alloc_fail, err;
  logic [PartW-1:0]  req_dst;
  logic [ReqW-1:0]   req_data;
  logic [CidW-1:0]   logw_cid, logd_cid;
  logic [23:0]       logw_thread, logd_thread;
  logic [AddrW-1:0]  logw_addr;
  logic [31:0]       logw_data;

  htm_sys_core #(
    .NumCores  (NumCores),
    .NumWarps  (NumWarps),
    .WarpSize  (WarpSize),
    .NumParts  (NumParts),
    .AddrW     (AddrW),
    .IlvLog2   (IlvLog2),
    .CidW      (CidW),
    .MaxReads  (MaxReads),
    .MaxWrites (MaxWrites),
    .AllocRetry(AllocRetry)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .core_idx_i,
    .start_i,
    .cfg_wl_i,
    .cfg_threads_i,
    .cfg_objlog2_i,
    .cfg_reads_i,
    .cfg_writes_i,
    .cfg_cold_i,
    .cfg_seed_hash_i,
    .running_o      (running),
    .cid_req_o      (cid_req),
    .cid_gnt_i,
    .cid_i,
    .req_valid_o    (req_valid),
    .req_ready_i,
    .req_dst_o      (req_dst),
    .req_data_o     (req_data),
    .rep_valid_i,
    .rep_src_i,
    .rep_data_i,
    .logw_valid_o   (logw_valid),
    .logw_cid_o     (logw_cid),
    .logw_thread_o  (logw_thread),
    .logw_write_o   (logw_write),
    .logw_addr_o    (logw_addr),
    .logw_data_o    (logw_data),
    .logd_valid_o   (logd_valid),
    .logd_cid_o     (logd_cid),
    .logd_thread_o  (logd_thread),
    .logd_commit_o  (logd_commit),
    .ev_commit_o    (ev_commit),
    .ev_abort_o     (ev_abort),
    .ev_alloc_fail_o(ev_alloc_fail),
    .err_o          (err)
  );

  `HTM_FORMAL_START_IN_RESET

  localparam logic       KindLoad    = 1'(htm_pkg::SysReqLoad);
  localparam logic [2:0] MsgReadSet  = 3'(htm_pkg::CuMsgReadSet);
  localparam logic [2:0] MsgWriteSet = 3'(htm_pkg::CuMsgWriteSet);
  localparam logic [2:0] MsgFail     = 3'(htm_pkg::CuMsgFail);

  // The core's index: an arbitrary constant of range.
  (* anyconst *) logic [CoreW-1:0] f_core;
  `HTM_ASSUME(CoreConst_M, core_idx_i == f_core && 32'(f_core) < NumCores)

  // Request fields.
  logic              q_kind;
  logic [2:0]        q_type;
  logic [CidW-1:0]   q_cid;
  logic [SlotW-1:0]  q_slot;
  logic [LaneW-1:0]  q_lane;
  logic [AddrW-1:0]  q_addr;
  logic [31:0]       q_data;
  assign {q_kind, q_type, q_cid, q_slot, q_lane, q_addr, q_data} = req_data;

  logic q_set, q_addressed;
  assign q_set       = q_kind != KindLoad && (q_type == MsgReadSet || q_type == MsgWriteSet);
  assign q_addressed = q_kind == KindLoad || q_set;

  // The previous cycle's port state.
  logic              f_hold_q, f_loadable_q, f_cidwait_q;
  logic [PartW-1:0]  f_dst_q;
  logic [ReqW-1:0]   f_data_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_hold_q     <= 1'b0;
      f_loadable_q <= 1'b0;
      f_cidwait_q  <= 1'b0;
      f_dst_q      <= '0;
      f_data_q     <= '0;
    end else begin
      f_hold_q     <= req_valid && !req_ready_i;
      f_loadable_q <= !req_valid || req_ready_i;
      f_cidwait_q  <= cid_req && !cid_gnt_i;
      f_dst_q      <= req_dst;
      f_data_q     <= req_data;
    end
  end

  // The request register holds a message that was not taken.
  `HTM_ASSERT(ReqHeld_A, `HTM_IMPLIES(f_hold_q,
                                      req_valid && req_dst == f_dst_q && req_data == f_data_q))
  // Addressed messages go to their word's partition.
  `HTM_ASSERT(ReqDst_A, `HTM_IMPLIES(req_valid && q_addressed,
                                     NumParts == 1 ||
                                     req_dst == PartW'(q_addr >> IlvLog2)))
  // Routes name a slot and a lane of this core.
  `HTM_ASSERT(ReqRoute_A, `HTM_IMPLIES(req_valid, 32'(q_slot) < NumWarps &&
                                                  32'(q_lane) < WarpSize))
  // Field discipline.
  `HTM_ASSERT(LoadFields_A, `HTM_IMPLIES(req_valid && q_kind == KindLoad,
                                         q_type == '0 && q_cid == '0 && q_data == '0))
  `HTM_ASSERT(CuFields_A, `HTM_IMPLIES(req_valid && q_kind != KindLoad,
                                       q_type <= MsgFail &&
                                       (q_set || (q_addr == '0 && q_data == '0))))
  // A log-word record exactly with each newly loaded ReadSet or WriteSet, naming it.
  `HTM_ASSERT(LogwIffSet_A, logw_valid == (f_loadable_q && req_valid && q_set))
  `HTM_ASSERT(LogwNamesIt_A, `HTM_IMPLIES(logw_valid,
                                          logw_cid == q_cid && logw_addr == q_addr &&
                                          logw_data == q_data &&
                                          logw_write == (q_type == MsgWriteSet)))
  // The alloc engine waits for its grant.
  `HTM_ASSERT(CidReqHeld_A, `HTM_IMPLIES(f_cidwait_q, cid_req))
  // Events are the decision records.
  `HTM_ASSERT(EvCommit_A, ev_commit == (logd_valid && logd_commit))
  `HTM_ASSERT(EvAbort_A, ev_abort == (logd_valid && !logd_commit))

  // The first load request is reachable (the walker's messages lie deeper than the bounds the
  // solver reaches; lockstep covers them).
  `HTM_COVER(LoadSent_C, req_valid && q_kind == KindLoad)

  logic unused_sig;
  assign unused_sig = ^{running, logw_thread, logd_cid, logd_thread, ev_alloc_fail, err};

endmodule
