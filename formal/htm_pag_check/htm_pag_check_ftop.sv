// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_pag_check. The environment is any warp (any lanes, addresses, kind,
// Pause-and-Go on or off) and any CAT (takes requests and answers them at any time, with any
// hits, and sometimes answers with nothing outstanding). Bounded proof (the wrapper cannot see
// the block's registers, which k-induction would need to tie to its view of the instruction):
//   * at least one lane goes on after every decision of an instruction with lanes (the RTL's
//     own assertion), and go and pause split the instruction's lanes;
//   * a lane pauses only if the CAT reported it for this instruction's request; every lane
//     the CAT reported pauses but the forced one, which is the lowest lane and only when every
//     lane hit;
//   * with Pause-and-Go off nothing is looked up and every lane goes on;
//   * the CAT request carries the instruction's lanes, addresses and kind;
//   * the error output is exactly "a CAT answer came with nothing owed since reset": it rises
//     for a stray answer and never otherwise, so with a legal CAT (illegal_i low in every
//     cycle: no stray answer) it stays low. Both cases are covered.
`include "htm_assert.svh"

module htm_pag_check_ftop #(
  parameter int unsigned AddrW    = 2,
  parameter int unsigned WarpSize = 3,
  // 0: the CAT answers at any time. n > 0: it answers within n cycles of taking the request,
  // which bounds the one stretch (waiting for the answer) in which the block's lanes are not
  // visible at its ports, so that k-induction closes (k > n + 2).
  parameter int unsigned MaxWait  = 0
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      req_valid_i,
  input logic [WarpSize-1:0]       req_mask_i,
  input logic [WarpSize*AddrW-1:0] req_addr_i,
  input logic                      req_write_i,
  input logic                      pg_en_i,
  input logic                      cat_req_ready_i,
  input logic                      cat_rsp_valid_i,
  input logic [WarpSize-1:0]       cat_rsp_hit_i,
  // 0: the CAT keeps the protocol in this cycle (no answer without a request owed).
  input logic                      illegal_i
);
  logic                      req_ready, cat_req_valid, cat_req_write, res_valid, err;
  logic [WarpSize-1:0]       cat_req_mask, res_go, res_pause, res_forced;
  logic [WarpSize*AddrW-1:0] cat_req_addr;

  htm_pag_check #(
    .AddrW   (AddrW),
    .WarpSize(WarpSize)
  ) u_dut (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (req_valid_i),
    .req_ready_o    (req_ready),
    .req_mask_i     (req_mask_i),
    .req_addr_i     (req_addr_i),
    .req_write_i    (req_write_i),
    .pg_en_i        (pg_en_i),
    .cat_req_valid_o(cat_req_valid),
    .cat_req_ready_i(cat_req_ready_i),
    .cat_req_mask_o (cat_req_mask),
    .cat_req_addr_o (cat_req_addr),
    .cat_req_write_o(cat_req_write),
    .cat_rsp_valid_i(cat_rsp_valid_i),
    .cat_rsp_hit_i  (cat_rsp_hit_i),
    .res_valid_o    (res_valid),
    .res_go_o       (res_go),
    .res_pause_o    (res_pause),
    .res_forced_o   (res_forced),
    .err_o          (err)
  );

  `HTM_FORMAL_START_IN_RESET

  // The instruction in flight as the environment sees it: its lanes, addresses, kind, whether
  // it is looked up, whether the CAT took the request (an answer is owed) and its answer.
  logic                      f_busy_q, f_pg_q, f_sent_q, f_owed_q, f_ans_q, f_write_q;
  logic [WarpSize-1:0]       f_mask_q, f_hits_q;
  logic [WarpSize*AddrW-1:0] f_addr_q;
  logic                      acc, rsp_ok;

  assign acc    = req_valid_i && req_ready;
  assign rsp_ok = cat_rsp_valid_i && f_owed_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_busy_q  <= 1'b0;
      f_pg_q    <= 1'b0;
      f_sent_q  <= 1'b0;
      f_owed_q  <= 1'b0;
      f_ans_q   <= 1'b0;
      f_write_q <= 1'b0;
      f_mask_q  <= '0;
      f_hits_q  <= '0;
      f_addr_q  <= '0;
    end else begin
      if (res_valid) begin
        f_busy_q <= 1'b0;
      end
      if (cat_req_valid && cat_req_ready_i) begin
        f_sent_q <= 1'b1;
        f_owed_q <= 1'b1;
      end
      if (rsp_ok) begin
        f_owed_q <= 1'b0;
        f_ans_q  <= 1'b1;
        f_hits_q <= cat_rsp_hit_i & f_mask_q;
      end
      if (acc) begin
        f_busy_q  <= 1'b1;
        f_pg_q    <= pg_en_i && req_mask_i != '0;
        f_sent_q  <= 1'b0;
        f_owed_q  <= 1'b0;
        f_ans_q   <= 1'b0;
        f_write_q <= req_write_i;
        f_mask_q  <= req_mask_i;
        f_hits_q  <= '0;
        f_addr_q  <= req_addr_i;
      end
    end
  end

  // A decision only for an instruction in flight, and a looked-up one only after the answer.
  `HTM_ASSERT(ResultInFlight_A, !res_valid || (f_busy_q && (!f_pg_q || f_ans_q)))
  `HTM_ASSERT(GoPauseSplit_A, !res_valid || ((res_go | res_pause) == f_mask_q &&
                                             (res_go & res_pause) == '0))
  // Pausing follows the CAT's answer; the forced lane is the lowest, when every lane hit.
  `HTM_ASSERT(PauseOnlyOnHit_A, !res_valid || (res_pause | res_forced) == f_hits_q)
  `HTM_ASSERT(ForcedLowest_A, !res_valid || res_forced == '0 ||
                              (f_hits_q == f_mask_q &&
                               res_forced == (f_mask_q & (~f_mask_q + WarpSize'(1)))))
  `HTM_ASSERT(OneGoes_A, !res_valid || f_mask_q == '0 || res_go != '0)
  // Pause-and-Go off (or no lanes): nothing looked up.
  `HTM_ASSERT(NoLookupWhenOff_A, !cat_req_valid || (f_busy_q && f_pg_q && !f_sent_q))
  `HTM_ASSERT(RequestIsTheInstruction_A, !cat_req_valid ||
                                         (cat_req_mask == f_mask_q && cat_req_addr == f_addr_q &&
                                          cat_req_write == f_write_q))
  // The bounded-latency CAT (MaxWait > 0).
  logic [7:0] f_wait_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_wait_q <= '0;
    end else begin
      f_wait_q <= (f_owed_q && !rsp_ok && !acc) ? f_wait_q + 8'd1 : 8'd0;
    end
  end
  `HTM_ASSUME(AnswerInTime_M, MaxWait == 0 || !f_owed_q || 32'(f_wait_q) + 1 < MaxWait ||
                              cat_rsp_valid_i)
  // Invariants that tie the wrapper's view to the outputs (k-induction).
  `HTM_ASSERT(OwedIsWait_A, !f_owed_q || (f_busy_q && f_pg_q && f_sent_q && !req_ready &&
                                         !cat_req_valid && !res_valid))
  `HTM_ASSERT(IdleIsReady_A, f_busy_q || (req_ready && !res_valid && !cat_req_valid))
  `HTM_ASSERT(BusyStates_A, !f_busy_q || res_valid || cat_req_valid || f_owed_q)
  `HTM_ASSERT(SentOrAnswered_A, !(f_busy_q && f_pg_q && !cat_req_valid) || f_owed_q || f_ans_q)
  `HTM_ASSERT(AddrIsTheInstruction_A, cat_req_addr == f_addr_q && cat_req_write == f_write_q)

  // A stray answer is flagged.
  `HTM_ASSERT(StrayFlagged_A, !$past(cat_rsp_valid_i && !f_owed_q && rst_ni) || err)

  // The error output: exactly the stray answers seen since reset; never in a legal environment.
  logic f_err_seen, f_stray;
  assign f_stray = cat_rsp_valid_i && !f_owed_q;
  htm_err_check #(.Timing(0)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(f_stray), .set_i(f_stray), .err_i(err),
    .seen_o(f_err_seen)
  );
  `HTM_COVER(StrayAnswer_C, !f_err_seen && cat_rsp_valid_i && !f_owed_q)

  `HTM_COVER(Paused_C, res_valid && res_pause != '0)
  `HTM_COVER(Forced_C, res_valid && res_forced != '0 && res_pause != '0)
  `HTM_COVER(BackToBack_C, res_valid && acc)

endmodule
