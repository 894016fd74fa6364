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
`include "htm_assert.svh"

module htm_lds_tm_ftop #(
  parameter int unsigned Mode      = 3,  // htm_pkg::lds_cd_e
  parameter int unsigned Sel       = 0,  // htm_pkg::lds_sel_e
  parameter int unsigned NumBanks  = 2,
  parameter int unsigned BankWords = 4,
  parameter int unsigned WgSize    = 2,
  parameter int unsigned WfSize    = 1,
  parameter int unsigned NumBuf    = 1,
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
  input logic [WfSize*32-1:0]    ins_cmp_i
);
  localparam logic [1:0] ModeWgS = 2'(htm_pkg::LdsModeWgS);

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
    .MaxDepth (1),
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

  logic unused;
  assign unused = ^{rsp_wf, rsp_lanes, rsp_data, wf_exec, wf_tcm, wf_retry, abt_wf, abt_mask,
                    cmt_mask, busy, err};
endmodule
