// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_cat, one lookup port and a warp of two lanes. For an arbitrary fixed
// address f_addr the wrapper keeps the bits the applied deltas give it (dlt_o: an add sets its
// kind's bit, a remove clears it) and remembers whether an add of f_addr was ever dropped by a
// full set. Messages are arbitrary: spurious, duplicated and reordered deltas included.
//   * The CAT bits follow the deltas: every lane of a lookup at f_addr answers with the hit rule
//     (a read hits the write bit, a write hits either bit) applied to those bits as they were
//     in the cycle the lane was looked up; when an add was dropped, the lane may miss but never
//     hits where the bits say no.
//   * Lanes outside the lookup's mask never hit.
//   * The RTL's own assertions: one match per set, the ways in use within the table.
//   * The error output is exactly "a message with more than Batch deltas was taken since
//     reset"; with at most Batch deltas per message (illegal_i low in every cycle) it stays
//     low. The over-long message is covered.
// Bounded proof (the table is RAM).
`include "htm_assert.svh"

module htm_cat_ftop #(
  parameter int unsigned AddrW    = 2,
  parameter int unsigned Sets     = 2,
  parameter int unsigned Ways     = 1,
  parameter int unsigned NumPorts = 1,
  parameter int unsigned WarpSize = 2,
  parameter int unsigned Batch    = 2
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      msg_valid_i,
  input logic [$clog2(Batch+1)-1:0] msg_count_i,
  input logic [Batch*(AddrW+2)-1:0] msg_dlt_i,
  input logic                      lkp_valid_i,
  input logic [WarpSize-1:0]       lkp_mask_i,
  input logic [WarpSize*AddrW-1:0] lkp_addr_i,
  input logic                      lkp_write_i,
  // 0: a message of this cycle has at most Batch deltas (assumed).
  input logic                      illegal_i
);
  localparam int unsigned DltW  = AddrW + 2;
  localparam int unsigned UsedW = $clog2(Sets * Ways + 1);

  logic                ready, msg_ready, lkp_ready, rsp_valid, dlt_valid, drop_full, err;
  logic [WarpSize-1:0] rsp_hit;
  logic [DltW-1:0]     dlt;
  logic [UsedW-1:0]    used;

  htm_cat #(
    .AddrW   (AddrW),
    .Sets    (Sets),
    .Ways    (Ways),
    .NumPorts(NumPorts),
    .WarpSize(WarpSize),
    .Batch   (Batch)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .ready_o    (ready),
    .msg_valid_i(msg_valid_i),
    .msg_ready_o(msg_ready),
    .msg_count_i(msg_count_i),
    .msg_dlt_i  (msg_dlt_i),
    .lkp_valid_i(lkp_valid_i),
    .lkp_ready_o(lkp_ready),
    .lkp_mask_i (lkp_mask_i),
    .lkp_addr_i (lkp_addr_i),
    .lkp_write_i(lkp_write_i),
    .rsp_valid_o(rsp_valid),
    .rsp_hit_o  (rsp_hit),
    .dlt_valid_o(dlt_valid),
    .dlt_o      (dlt),
    .drop_full_o(drop_full),
    .err_o      (err),
    .used_o     (used)
  );

  `HTM_FORMAL_START_IN_RESET

  (* anyconst *) logic [AddrW-1:0] f_addr;

  // The bits of f_addr from the applied deltas; an add of f_addr lost to a full set.
  logic f_r_q, f_w_q, f_lost_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_r_q    <= 1'b0;
      f_w_q    <= 1'b0;
      f_lost_q <= 1'b0;
    end else if (dlt_valid && dlt[DltW-1:2] == f_addr) begin
      if (dlt[1]) begin
        f_w_q <= dlt[0];
      end else begin
        f_r_q <= dlt[0];
      end
      if (drop_full) begin
        f_lost_q <= 1'b1;
      end
    end
  end

  // The lookup in flight, lane by lane (lowest first, one per cycle from the accept cycle: the
  // wrapper is written for NumPorts 1).
  logic                      acc, w_go, w_at_f, w_exp;
  logic [WarpSize-1:0]       w_pend_q, w_pend, w_mask_q, w_exp_q, w_chk_q, w_pick;
  logic [WarpSize*AddrW-1:0] w_addr_q, w_addr;
  logic                      w_write_q, w_write;
  logic [AddrW-1:0]          w_lane_addr;

  assign acc     = lkp_valid_i && lkp_ready;
  assign w_pend  = acc ? lkp_mask_i : w_pend_q;
  assign w_addr  = acc ? lkp_addr_i : w_addr_q;
  assign w_write = acc ? lkp_write_i : w_write_q;
  assign w_go    = w_pend != '0;
  assign w_pick  = w_pend & (~w_pend + WarpSize'(1));  // the lowest pending lane

  always_comb begin
    w_lane_addr = '0;
    for (int l = 0; l < WarpSize; l++) begin
      if (w_pick[l]) begin
        w_lane_addr = w_addr[l*AddrW +: AddrW];
      end
    end
  end
  assign w_at_f = w_go && w_lane_addr == f_addr;
  assign w_exp  = w_write ? (f_r_q || f_w_q) : f_w_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_pend_q  <= '0;
      w_mask_q  <= '0;
      w_exp_q   <= '0;
      w_chk_q   <= '0;
      w_addr_q  <= '0;
      w_write_q <= 1'b0;
    end else begin
      if (acc) begin
        w_mask_q  <= lkp_mask_i;
        w_addr_q  <= lkp_addr_i;
        w_write_q <= lkp_write_i;
      end
      w_pend_q <= w_pend & ~w_pick;
      w_chk_q  <= (acc ? '0 : w_chk_q) | (w_at_f ? w_pick : '0);
      w_exp_q  <= (acc ? '0 : w_exp_q) | ((w_at_f && w_exp) ? w_pick : '0);
    end
  end

  for (genvar l = 0; l < WarpSize; l++) begin : gen_lane
    // A lane at f_addr hits only where the bits say so; exactly so if no add was dropped.
    `HTM_ASSERT(NoPhantom_A, `HTM_IMPLIES(rsp_valid && w_chk_q[l] && rsp_hit[l], w_exp_q[l]))
    `HTM_ASSERT(Exact_A, `HTM_IMPLIES(rsp_valid && w_chk_q[l] && !f_lost_q,
                                      rsp_hit[l] == w_exp_q[l]))
    // Lanes outside the mask never hit.
    `HTM_ASSERT(MaskOnly_A, `HTM_IMPLIES(rsp_valid && !w_mask_q[l], !rsp_hit[l]))
  end

  `HTM_COVER(HitF_C, rsp_valid && (w_chk_q & rsp_hit) != '0)
  `HTM_COVER(TwoLaneHit_C, rsp_valid && rsp_hit == {WarpSize{1'b1}})
  `HTM_COVER(DropFull_C, drop_full)
  `HTM_COVER(RemoveF_C, dlt_valid && dlt[DltW-1:2] == f_addr && !dlt[0])

  // The error output.
  logic f_long, f_err_seen;
  assign f_long = msg_valid_i && 32'(msg_count_i) > Batch;
  htm_err_check #(.Timing(0)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(f_long), .set_i(f_long && msg_ready), .err_i(err),
    .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrLong_C, f_long && msg_ready && !f_err_seen)

  logic unused_sig;
  assign unused_sig = ready ^ (^used);

endmodule
