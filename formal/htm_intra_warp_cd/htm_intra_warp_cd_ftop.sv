// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_intra_warp_cd. The environment is a log walker that keeps the protocol
// (Begin, Marks, Checks, End) in every cycle with illegal_i low (and may send a command out
// of order when it is high: the block ignores it), and a CAT that answers at any time with
// any hits. For an arbitrary fixed word address f_addr the wrapper records the lowest lane
// whose write-log row wrote it (Mark) and every lane whose Check row reads or writes it after
// a lower lane wrote it:
//   * never a missed conflict: such a lane is in res_iw_o at End;
//   * Early-Abort never aborts a lane the CAT did not report, and the table never aborts a lane
//     that is not in the warp;
//   * a warp with lanes keeps at least one (the RTL's own assertion), and the spared lane is the
//     lowest of the warp;
//   * the error output is exactly "a command out of order was taken since reset" (a row or End
//     before Begin, a Mark after a Check); with the protocol kept in every cycle it stays low.
//     Each class is covered.
// Bounded proof (the table is RAM).
`include "htm_assert.svh"

module htm_intra_warp_cd_ftop #(
  parameter int unsigned AddrW    = 3,
  parameter int unsigned WarpSize = 3,
  parameter int unsigned Entries  = 4,
  parameter int unsigned Banks    = 2
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      cmd_valid_i,
  input logic [1:0]                cmd_op_i,
  input logic [WarpSize-1:0]       cmd_mask_i,
  input logic [WarpSize*AddrW-1:0] cmd_addr_i,
  input logic                      cmd_write_i,
  input logic                      ea_en_i,
  input logic                      cat_req_ready_i,
  input logic                      cat_rsp_valid_i,
  input logic [WarpSize-1:0]       cat_rsp_hit_i,
  // 0: the command of this cycle keeps the protocol (assumed).
  input logic                      illegal_i
);
  localparam int unsigned LaneW = htm_pkg::idx_width(WarpSize);

  logic                      cmd_ready, cat_req_valid, cat_req_write, res_valid, busy, err;
  logic [WarpSize-1:0]       cat_req_mask, res_abort, res_iw, res_ea, res_spared;
  logic [WarpSize*AddrW-1:0] cat_req_addr;

  htm_intra_warp_cd #(
    .AddrW   (AddrW),
    .WarpSize(WarpSize),
    .Entries (Entries),
    .Banks   (Banks)
  ) u_dut (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (cmd_valid_i),
    .cmd_ready_o    (cmd_ready),
    .cmd_op_i       (cmd_op_i),
    .cmd_mask_i     (cmd_mask_i),
    .cmd_addr_i     (cmd_addr_i),
    .cmd_write_i    (cmd_write_i),
    .ea_en_i        (ea_en_i),
    .cat_req_valid_o(cat_req_valid),
    .cat_req_ready_i(cat_req_ready_i),
    .cat_req_mask_o (cat_req_mask),
    .cat_req_addr_o (cat_req_addr),
    .cat_req_write_o(cat_req_write),
    .cat_rsp_valid_i(cat_rsp_valid_i),
    .cat_rsp_hit_i  (cat_rsp_hit_i),
    .res_valid_o    (res_valid),
    .res_abort_o    (res_abort),
    .res_iw_o       (res_iw),
    .res_ea_o       (res_ea),
    .res_spared_o   (res_spared),
    .busy_o         (busy),
    .err_o          (err)
  );

  `HTM_FORMAL_START_IN_RESET

  (* anyconst *) logic [AddrW-1:0] f_addr;

  // The walker's view: the phase (0 none, 1 marking, 2 checking), the warp's lanes, a CAT
  // answer outstanding.
  logic [1:0]          f_ph_q;
  logic [WarpSize-1:0] f_lanes_q, f_hits_q, f_must_q;
  logic                f_wr_q, f_cat_q;  // some lane wrote f_addr; a CAT answer is owed
  logic [LaneW-1:0]    f_wr_lane_q;      // the lowest such lane
  logic                acc, acc_begin, acc_mark, acc_check, acc_end, f_bad;
  logic [WarpSize-1:0] at_f;             // lanes of this command at f_addr (in the warp)

  // A command out of order is ignored by the block, and so by the wrapper's view.
  assign f_bad     = cmd_valid_i && cmd_op_i != htm_pkg::IwcdOpBegin &&
                     (f_ph_q == 2'd0 || (cmd_op_i == htm_pkg::IwcdOpMark && f_ph_q == 2'd2));
  assign acc       = cmd_valid_i && cmd_ready && !f_bad;
  assign acc_begin = acc && cmd_op_i == htm_pkg::IwcdOpBegin;
  assign acc_mark  = acc && cmd_op_i == htm_pkg::IwcdOpMark;
  assign acc_check = acc && cmd_op_i == htm_pkg::IwcdOpCheck;
  assign acc_end   = acc && cmd_op_i == htm_pkg::IwcdOpEnd;

  for (genvar l = 0; l < WarpSize; l++) begin : gen_at
    assign at_f[l] = cmd_mask_i[l] && f_lanes_q[l] && cmd_addr_i[l*AddrW +: AddrW] == f_addr;
  end

  // The walker keeps the protocol; the CAT answers only a request it took.
  `HTM_ASSUME(CatAnswers_M, !cat_rsp_valid_i || f_cat_q)

  logic [WarpSize-1:0] must_now;
  always_comb begin
    must_now = '0;
    for (int l = 0; l < WarpSize; l++) begin
      if (acc_check && at_f[l] && f_wr_q && LaneW'(l) > f_wr_lane_q) begin
        must_now[l] = 1'b1;
      end
    end
  end

  // The lowest lane of this Mark that writes f_addr.
  logic             mark_any;
  logic [LaneW-1:0] mark_low;
  always_comb begin
    mark_any = 1'b0;
    mark_low = '0;
    for (int l = WarpSize - 1; l >= 0; l--) begin
      if (acc_mark && at_f[l]) begin
        mark_any = 1'b1;
        mark_low = LaneW'(l);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_ph_q      <= 2'd0;
      f_lanes_q   <= '0;
      f_hits_q    <= '0;
      f_must_q    <= '0;
      f_wr_q      <= 1'b0;
      f_wr_lane_q <= '0;
      f_cat_q     <= 1'b0;
    end else begin
      if (cat_req_valid && cat_req_ready_i) begin
        f_cat_q <= 1'b1;
      end else if (cat_rsp_valid_i) begin
        f_cat_q <= 1'b0;
      end
      if (cat_rsp_valid_i) begin
        f_hits_q <= f_hits_q | cat_rsp_hit_i;
      end
      if (acc_begin) begin
        f_ph_q    <= 2'd1;
        f_lanes_q <= cmd_mask_i;
        f_hits_q  <= '0;
        f_must_q  <= '0;
        f_wr_q    <= 1'b0;
      end else if (acc_end) begin
        f_ph_q <= 2'd0;
      end else begin
        if (acc_check) begin
          f_ph_q <= 2'd2;
        end
        f_must_q <= f_must_q | must_now;
        if (mark_any && (!f_wr_q || mark_low < f_wr_lane_q)) begin
          f_wr_q      <= 1'b1;
          f_wr_lane_q <= mark_low;
        end
      end
    end
  end

  // Never a missed conflict at f_addr.
  `HTM_ASSERT(NoMissedConflict_A, `HTM_IMPLIES(res_valid, (res_iw & f_must_q) == f_must_q))
  // Early aborts only where the CAT hit; no abort outside the warp.
  `HTM_ASSERT(EaFromCat_A, `HTM_IMPLIES(res_valid, (res_ea & ~f_hits_q) == '0))
  `HTM_ASSERT(InWarp_A, `HTM_IMPLIES(res_valid, ((res_iw | res_abort) & ~f_lanes_q) == '0))
  // The spared lane is the lowest of the warp, and only when every lane would abort.
  `HTM_ASSERT(Spared_A, `HTM_IMPLIES(res_valid && res_spared != '0,
                                     res_spared == (f_lanes_q & (~f_lanes_q + WarpSize'(1))) &&
                                     ((res_iw | res_ea) & f_lanes_q) == f_lanes_q))

  `HTM_COVER(MustAbort_C, res_valid && f_must_q != '0)
  `HTM_COVER(Spared_C, res_valid && res_spared != '0 && WarpSize > 1)
  `HTM_COVER(EarlyAbort_C, res_valid && res_ea != '0 && res_iw == '0)

  // The error output (the protocol is assumed while illegal_i is low).
  logic f_err_seen;
  htm_err_check #(.Timing(0)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(f_bad), .set_i(f_bad && cmd_ready), .err_i(err),
    .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrRowFirst_C, !f_err_seen && f_bad && cmd_ready && cmd_op_i == htm_pkg::IwcdOpCheck)
  `HTM_COVER(ErrEndFirst_C, !f_err_seen && f_bad && cmd_ready && cmd_op_i == htm_pkg::IwcdOpEnd)
  `HTM_COVER(ErrMarkLate_C, !f_err_seen && f_bad && cmd_ready && f_ph_q == 2'd2)

  logic unused_sig;
  assign unused_sig = busy ^ cat_req_write ^ (^cat_req_addr) ^ (^cat_req_mask);

endmodule
