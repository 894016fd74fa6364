// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_lds_tm, GPU-LocalTM's LDS top, at a small size: every instruction input
// free (any op, wavefront, EXEC, address, data, in any cycle). Properties:
//   * the RTL's own assertions: no transactional access reaches a bank for a work-item whose
//     TCM bit is set (a work-item never runs while its TCM bit is set); one commit per cycle; in
//     every bank, no ownership record survives its work-item's abort or commit walk; the
//     wavefront controls' serialized tries run their work-items (WgS: exactly one); one WgS
//     holder;
//   * work-group serialization admits one transactional wavefront: while a wavefront's WgS try
//     runs, no other wavefront is in a try;
//   * a commit reaches the banks only when its wavefront has no memory instruction or abort in
//     flight;
//   * responses come only for accepted memory instructions (at most as many as in flight).
// Covers: a conflict answered, an abort broadcast. (A WgS try needs two failed tries of one
// wavefront first: beyond the depths used here; the directed tests and the random lockstep
// reach it.)
// The error output (ErrCheck 1, htm_err_check): err_o rises, for good, exactly on the block's
// protocol violations, stated from the ports. From the cycle after the instruction is taken
// (ins_valid_i && ins_ready_o): a wavefront out of range or op 7; a memory instruction of a
// wavefront in a try whose running work-items (wf_exec_o & ~wf_tcm_o) leave the try's
// work-items (EXEC & ~TCM in the try's first cycle: TX_Begin changes neither EXEC nor lets a
// conflict in); an atomic with running work-items of the try; a lane that accesses (running,
// and inside a try of the try's work-items, not of an atomic) with an address past the LDS.
// Two cycles after it is taken (the wavefront control's registered error, registered again):
// an EXEC write while the wavefront waits to retry (wf_retry_o), TX_Commit outside a try,
// TX_Begin in a try already MaxDepth deep (the wrapper counts the nesting). The other classes
// of the sub-blocks cannot occur behind the top, and the property shows err_o never rises from
// them: a wavefront control sees conflicts only while it is in a try, only of lanes the top
// issued from the try's work-items (TX_Begin and TX_Commit wait until the wavefront is quiet),
// and never the unknown op (the top maps its ops to the three of the control); a bank gets
// only work-items and addresses in range (lanes past the LDS do not access) and aborts and
// commits of existing wavefronts. illegal_i: the environment may offer such instructions in
// this cycle. ErrCheck = 0 leaves the error model out (the runs of the other properties).
`include "htm_assert.svh"

module htm_lds_tm_ftop #(
  parameter int unsigned Mode      = 3,  // htm_pkg::lds_cd_e
  parameter int unsigned Sel       = 0,  // htm_pkg::lds_sel_e
  parameter int unsigned NumBanks  = 2,
  parameter int unsigned BankWords = 4,
  parameter int unsigned WgSize    = 2,
  parameter int unsigned WfSize    = 1,
  parameter int unsigned NumBuf    = 1,
  parameter bit          ErrCheck  = 1'b0,
  localparam int unsigned NumWf    = WgSize / WfSize,
  localparam int unsigned AddrW    = htm_pkg::idx_width(NumBanks * BankWords),
  localparam int unsigned WfW      = htm_pkg::idx_width(NumWf)
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic                    ins_valid_i,
  input logic [2:0]              ins_op_i,
  input logic [WfW-1:0]          ins_wf_i,
  input logic [WfSize-1:0]       ins_exec_i,
  input logic [WfSize*AddrW-1:0] ins_addr_i,
  input logic [WfSize*32-1:0]    ins_data_i,
  input logic [WfSize*32-1:0]    ins_cmp_i,
  input logic                    illegal_i
);
  localparam logic [1:0] ModeWgS  = 2'(htm_pkg::LdsModeWgS);
  localparam int unsigned MaxDepth = 1;

  logic                    ins_ready, rsp_valid, abt_valid, cmt_valid, busy, err;
  logic [WfW-1:0]          rsp_wf, abt_wf, cmt_wf;
  logic [WfSize-1:0]       rsp_lanes, rsp_conf, abt_mask, cmt_mask;
  logic [WfSize*32-1:0]    rsp_data;
  logic [NumWf*WfSize-1:0] wf_exec, wf_tcm;
  logic [NumWf*2-1:0]      wf_mode;
  logic [NumWf-1:0]        wf_in_try, wf_retry, wf_busy, wgs_grant;

  /* verilator lint_off ENUMVALUE */
  htm_lds_tm #(
    .Mode     (htm_pkg::lds_cd_e'(Mode)),
    .Sel      (htm_pkg::lds_sel_e'(Sel)),
    .NumBanks (NumBanks),
    .BankWords(BankWords),
    .WgSize   (WgSize),
    .WfSize   (WfSize),
    .MaxDepth (MaxDepth),
    .NumBuf   (NumBuf)
  ) u_dut (
  /* verilator lint_on ENUMVALUE */
    .clk_i,
    .rst_ni,
    .ins_valid_i,
    .ins_ready_o(ins_ready),
    .ins_op_i,
    .ins_wf_i,
    .ins_exec_i,
    .ins_addr_i,
    .ins_data_i,
    .ins_cmp_i,
    .rsp_valid_o(rsp_valid),
    .rsp_wf_o   (rsp_wf),
    .rsp_lanes_o(rsp_lanes),
    .rsp_conf_o (rsp_conf),
    .rsp_data_o (rsp_data),
    .wf_exec_o  (wf_exec),
    .wf_tcm_o   (wf_tcm),
    .wf_mode_o  (wf_mode),
    .wf_in_try_o(wf_in_try),
    .wf_retry_o (wf_retry),
    .wf_busy_o  (wf_busy),
    .wgs_grant_o(wgs_grant),
    .abt_valid_o(abt_valid),
    .abt_wf_o   (abt_wf),
    .abt_mask_o (abt_mask),
    .cmt_valid_o(cmt_valid),
    .cmt_wf_o   (cmt_wf),
    .cmt_mask_o (cmt_mask),
    .busy_o     (busy),
    .err_o      (err)
  );

  `HTM_FORMAL_START_IN_RESET

  // Memory instructions in flight: accepted and not yet answered.
  logic       accept_mem, ok;
  logic [3:0] inflight_q;
  assign ok         = 32'(ins_wf_i) < NumWf;
  assign accept_mem = ins_valid_i && ins_ready && ok &&
                      ins_op_i <= 3'(htm_pkg::LdsInsAtomCas);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inflight_q <= '0;
    end else begin
      inflight_q <= inflight_q + 4'(accept_mem) - 4'(rsp_valid);
    end
  end
  `HTM_ASSERT(ResponseOnlyInFlight_A, `HTM_IMPLIES(rsp_valid, inflight_q != '0))
  `HTM_ASSERT(InFlightBounded_A, 32'(inflight_q) <= NumBuf)

  logic [NumWf-1:0] wgs_try;
  always_comb begin
    for (int w = 0; w < NumWf; w++) begin
      wgs_try[w] = wf_in_try[w] && wf_mode[2*w +: 2] == ModeWgS;
    end
  end
  for (genvar w = 0; w < NumWf; w++) begin : g_prop
    `HTM_ASSERT(WgSAlone_A, `HTM_IMPLIES(wgs_try[w], wgs_grant[w] &&
                                         (wf_in_try & ~(NumWf'(1) << w)) == '0))
  end
  `HTM_ASSERT(CommitWhenQuiet_A, `HTM_IMPLIES(cmt_valid, !wf_busy[cmt_wf]))

  `HTM_COVER(Conflict_C, rsp_valid && rsp_conf != '0)
  `HTM_COVER(Abort_C, abt_valid)

  // The error output.
  if (ErrCheck) begin : g_err_on
    localparam int unsigned Words  = NumBanks * BankWords;
    localparam int unsigned DepthW = $clog2(MaxDepth + 1);
    localparam logic [2:0]  InsAtomAdd   = 3'(htm_pkg::LdsInsAtomAdd);
    localparam logic [2:0]  InsAtomCas   = 3'(htm_pkg::LdsInsAtomCas);
    localparam logic [2:0]  InsExecWrite = 3'(htm_pkg::LdsInsExecWrite);
    localparam logic [2:0]  InsTxBegin   = 3'(htm_pkg::LdsInsTxBegin);
    localparam logic [2:0]  InsTxCommit  = 3'(htm_pkg::LdsInsTxCommit);

    // Per wavefront: the try's work-items, in a try in the cycle before, the nesting.
    logic [NumWf*WfSize-1:0] f_part_q, f_part_d;
    logic [NumWf-1:0]        f_in_try_q;
    logic [NumWf*DepthW-1:0] f_depth_q, f_depth_d;
    // The instruction presented, of its wavefront: running, the try's work-items, state.
    logic [WfSize-1:0]       f_run, f_part, f_lanes, f_addr_bad;
    logic                    f_in_try, f_retry, f_take, f_ok, f_mem, f_atom, f_ctl;
    logic                    f_bad_wf, f_bad_op, f_widen, f_atom_try, f_addr;
    logic                    f_exec_retry, f_cmt_out, f_nest;
    logic                    f_top_bad, f_ctl_bad, f_ctl_bad_q, f_bad, f_set, f_seen;
    logic [DepthW-1:0]       f_depth;

    assign f_take = ins_valid_i && ins_ready;
    assign f_ok   = 32'(ins_wf_i) < NumWf && ins_op_i <= InsTxCommit;
    assign f_mem  = f_take && f_ok && ins_op_i <= InsAtomCas;
    assign f_ctl  = f_take && f_ok && ins_op_i >= InsExecWrite;
    assign f_atom = ins_op_i == InsAtomAdd || ins_op_i == InsAtomCas;

    always_comb begin
      f_run    = '0;
      f_part   = '0;
      f_in_try = 1'b0;
      f_retry  = 1'b0;
      f_depth  = '0;
      for (int w = 0; w < NumWf; w++) begin
        f_part_d[w*WfSize +: WfSize] = (wf_in_try[w] && !f_in_try_q[w]) ?
            wf_exec[w*WfSize +: WfSize] & ~wf_tcm[w*WfSize +: WfSize] :
            f_part_q[w*WfSize +: WfSize];
        if (ins_wf_i == WfW'(w)) begin
          f_run    = wf_exec[w*WfSize +: WfSize] & ~wf_tcm[w*WfSize +: WfSize];
          f_part   = f_part_d[w*WfSize +: WfSize];
          f_in_try = wf_in_try[w];
          f_retry  = wf_retry[w];
          f_depth  = f_depth_q[w*DepthW +: DepthW];
        end
      end
      for (int l = 0; l < WfSize; l++) begin
        f_addr_bad[l] = 32'(ins_addr_i[l*AddrW +: AddrW]) >= Words;
      end
    end

    // The lanes that would access: the running work-items, inside a try only the try's, none
    // of an atomic in a try.
    assign f_lanes    = f_in_try ? (f_atom ? '0 : f_run & f_part) : f_run;
    assign f_bad_wf   = f_take && 32'(ins_wf_i) >= NumWf;
    assign f_bad_op   = f_take && ins_op_i > InsTxCommit;
    assign f_widen    = f_mem && f_in_try && (f_run & ~f_part) != '0;
    assign f_atom_try = f_mem && f_in_try && f_atom && (f_run & f_part) != '0;
    assign f_addr     = f_mem && (f_lanes & f_addr_bad) != '0;
    assign f_top_bad  = f_bad_wf || f_bad_op || f_widen || f_atom_try || f_addr;

    assign f_exec_retry = f_ctl && ins_op_i == InsExecWrite && f_retry;
    assign f_cmt_out    = f_ctl && ins_op_i == InsTxCommit && !f_in_try;
    assign f_nest       = f_ctl && ins_op_i == InsTxBegin && f_in_try &&
                          32'(f_depth) == MaxDepth;
    assign f_ctl_bad    = f_exec_retry || f_cmt_out || f_nest;

    // The nesting: 0 outside a try; TX_Begin inside one adds a level (up to MaxDepth), a
    // nested TX_Commit removes one. An abort ends the try (the next cycle is outside it).
    always_comb begin
      for (int w = 0; w < NumWf; w++) begin
        f_depth_d[w*DepthW +: DepthW] = f_depth_q[w*DepthW +: DepthW];
        if (!wf_in_try[w]) begin
          f_depth_d[w*DepthW +: DepthW] = '0;
        end else if (f_ctl && ins_wf_i == WfW'(w)) begin
          if (ins_op_i == InsTxBegin && 32'(f_depth_q[w*DepthW +: DepthW]) != MaxDepth) begin
            f_depth_d[w*DepthW +: DepthW] = f_depth_q[w*DepthW +: DepthW] + DepthW'(1);
          end else if (ins_op_i == InsTxCommit && f_depth_q[w*DepthW +: DepthW] != '0) begin
            f_depth_d[w*DepthW +: DepthW] = f_depth_q[w*DepthW +: DepthW] - DepthW'(1);
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        f_part_q    <= '0;
        f_in_try_q  <= '0;
        f_depth_q   <= '0;
        f_ctl_bad_q <= 1'b0;
      end else begin
        f_part_q    <= f_part_d;
        f_in_try_q  <= wf_in_try;
        f_depth_q   <= f_depth_d;
        f_ctl_bad_q <= f_ctl_bad;
      end
    end

    // A wavefront control's error reaches err_o one cycle later than the top's own.
    assign f_bad = f_top_bad || f_ctl_bad;
    assign f_set = f_top_bad || f_ctl_bad_q;
    htm_err_check #(.Timing(0)) u_err_check (
      .clk_i, .rst_ni, .illegal_i, .bad_i(f_bad), .set_i(f_set), .err_i(err), .seen_o(f_seen)
    );

    // Each class as the first error (a class a configuration's ports cannot carry is left out).
    if ((1 << WfW) > NumWf) begin : g_cov_wf
      `HTM_COVER(ErrBadWf_C, !f_seen && !f_ctl_bad_q && f_bad_wf)
    end
    if ((1 << AddrW) > Words) begin : g_cov_addr
      `HTM_COVER(ErrAddr_C, !f_seen && !f_ctl_bad_q && f_addr && !f_widen)
    end
    `HTM_COVER(ErrBadOp_C, !f_seen && !f_ctl_bad_q && f_bad_op)
    `HTM_COVER(ErrWiden_C, !f_seen && !f_ctl_bad_q && f_widen && !f_addr)
    `HTM_COVER(ErrAtom_C, !f_seen && !f_ctl_bad_q && f_atom_try)
    `HTM_COVER(ErrExecRetry_C, !f_seen && !f_ctl_bad_q && f_exec_retry)
    `HTM_COVER(ErrCommitOut_C, !f_seen && !f_ctl_bad_q && f_cmt_out)
    `HTM_COVER(ErrNested_C, !f_seen && !f_ctl_bad_q && f_nest)
  end else begin : g_err_off
    logic unused_err;
    assign unused_err = illegal_i;
  end

  logic unused;
  assign unused = ^{rsp_wf, rsp_lanes, rsp_data, wf_exec, wf_tcm, wf_retry, abt_wf, abt_mask,
                    cmt_mask, busy, err};
endmodule
