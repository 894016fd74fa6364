// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_xbar. The environment is any sequence of requests (any sources, any
// destinations, in range or not, any data, withdrawn or changed at will: the properties need no
// source protocol) and any out_ready. Proved, from the ports:
//   * nothing is lost, duplicated, corrupted or reordered: for an arbitrary pair (f_src_i,
//     f_dst_i, held constant), every delivery of the pair has a message of the pair owed (so
//     none is duplicated or invented), and a message the wrapper tags at its acceptance
//     (f_pick_i) comes out with its data after exactly the pair's messages accepted before it;
//   * per destination, messages owed (accepted, not delivered) never exceed FifoDepth, plus
//     NumSrc * InDepth with input FIFOs (the FIFO cannot overflow; the RTL's own PushFits_A and
//     CreditBalance_A are checked too), and out_valid_o is high only with a message owed;
//   * without input FIFOs, no source is granted without a valid, in-range request (with them
//     req_ready_o is the input FIFO's not-full flag, and the RTL's GrantOnlyIfValid_A and
//     BadNeverGranted_A check the grants of the FIFO heads);
//   * err_o is exactly "a request for no destination was seen" (htm_err_check, from the cycle
//     after) and stays low while every request is in range.
// Covers: a tagged message delivered after earlier ones of its pair, a destination out of
// credits with a request waiting, a message delivered while another of its pair is accepted,
// and the error.
`include "htm_assert.svh"

module htm_xbar_ftop #(
  parameter int unsigned NumSrc    = 3,
  parameter int unsigned NumDst    = 3,
  parameter int unsigned DataW     = 2,
  parameter int unsigned Latency   = 2,
  parameter int unsigned FifoDepth = 2,
  parameter int unsigned InDepth   = 0,
  localparam int unsigned SrcW     = htm_pkg::idx_width(NumSrc),
  localparam int unsigned DstW     = htm_pkg::idx_width(NumDst)
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic [NumSrc-1:0]       req_valid_i,
  input logic [NumSrc*DstW-1:0]  req_dst_i,
  input logic [NumSrc*DataW-1:0] req_data_i,
  input logic [NumDst-1:0]       out_ready_i,
  // The watched pair (constant over a run) and the choice of the message to tag.
  input logic [SrcW-1:0]         f_src_i,
  input logic [DstW-1:0]         f_dst_i,
  input logic                    f_pick_i,
  // 0: every request of this cycle is for an existing destination.
  input logic                    illegal_i
);
  localparam int unsigned MaxOwed = FifoDepth + NumSrc * InDepth;  // past the arbiter and before
  localparam int unsigned CntW    = $clog2(MaxOwed + 2) + 1;

  logic [NumSrc-1:0]       req_ready;
  logic [NumDst-1:0]       out_valid;
  logic [NumDst*SrcW-1:0]  out_src;
  logic [NumDst*DataW-1:0] out_data;
  logic                    err;

  htm_xbar #(
    .NumSrc   (NumSrc),
    .NumDst   (NumDst),
    .DataW    (DataW),
    .Latency  (Latency),
    .FifoDepth(FifoDepth),
    .InDepth  (InDepth)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .req_valid_i,
    .req_ready_o(req_ready),
    .req_dst_i,
    .req_data_i,
    .out_valid_o(out_valid),
    .out_ready_i,
    .out_src_o  (out_src),
    .out_data_o (out_data),
    .err_o      (err)
  );

  `HTM_FORMAL_START_IN_RESET

  // The watched pair stays the same; it names an existing source and destination.
  logic [SrcW-1:0] f_src_q;
  logic [DstW-1:0] f_dst_q;
  always_ff @(posedge clk_i) begin
    f_src_q <= f_src_i;
    f_dst_q <= f_dst_i;
  end
  `HTM_ASSUME(PairInRange_M, 32'(f_src_i) < NumSrc && 32'(f_dst_i) < NumDst)
  `HTM_ASSUME(PairConstant_M, !f_past_valid_q || (f_src_i == f_src_q && f_dst_i == f_dst_q))

  // Handshakes of this cycle.
  logic [NumSrc-1:0] acc, bad;
  logic [NumDst-1:0] dlv;
  // Acceptances per destination this cycle: one at most without input FIFOs (the grant), up to
  // NumSrc with them.
  logic [NumDst*CntW-1:0] acc_dst;
  logic              pair_acc, pair_dlv;
  logic [DataW-1:0]  pair_acc_data, pair_dlv_data;
  assign acc = req_valid_i & req_ready;
  assign dlv = out_valid & out_ready_i;

  always_comb begin
    bad           = '0;
    pair_acc      = 1'b0;
    pair_dlv      = 1'b0;
    pair_acc_data = '0;
    pair_dlv_data = '0;
    acc_dst       = '0;
    for (int s = 0; s < NumSrc; s++) begin
      for (int d = 0; d < NumDst; d++) begin
        if (acc[s] && req_dst_i[s*DstW +: DstW] == DstW'(d)) begin
          acc_dst[d*CntW +: CntW] = acc_dst[d*CntW +: CntW] + 1'b1;
        end
      end
      bad[s] = req_valid_i[s] && 32'(req_dst_i[s*DstW +: DstW]) >= NumDst;
      if (acc[s] && SrcW'(s) == f_src_i && req_dst_i[s*DstW +: DstW] == f_dst_i) begin
        pair_acc      = 1'b1;
        pair_acc_data = req_data_i[s*DataW +: DataW];
      end
    end
    for (int d = 0; d < NumDst; d++) begin
      if (dlv[d] && DstW'(d) == f_dst_i && out_src[d*SrcW +: SrcW] == f_src_i) begin
        pair_dlv      = 1'b1;
        pair_dlv_data = out_data[d*DataW +: DataW];
      end
    end
  end

  // Messages owed per destination and for the pair.
  logic [NumDst*CntW-1:0] owed_q;
  logic [CntW-1:0]        pair_owed_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      owed_q      <= '0;
      pair_owed_q <= '0;
    end else begin
      for (int d = 0; d < NumDst; d++) begin
        owed_q[d*CntW +: CntW] <= owed_q[d*CntW +: CntW] + acc_dst[d*CntW +: CntW]
                                  - CntW'(dlv[d]);
      end
      pair_owed_q <= pair_owed_q + CntW'(pair_acc) - CntW'(pair_dlv);
    end
  end

  // The tagged message: its data and how many of its pair must leave before it.
  logic             tag_q;
  logic [DataW-1:0] tag_data_q;
  logic [CntW-1:0]  tag_ahead_q;
  logic             tag_out, tag_late_q;
  assign tag_out = tag_q && pair_dlv && tag_ahead_q == '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tag_q       <= 1'b0;
      tag_data_q  <= '0;
      tag_ahead_q <= '0;
      tag_late_q    <= 1'b0;
    end else if (tag_q) begin
      if (tag_out) begin
        tag_q <= 1'b0;
      end else if (pair_dlv) begin
        tag_ahead_q <= tag_ahead_q - 1'b1;
      end
    end else if (pair_acc && f_pick_i) begin
      tag_q       <= 1'b1;
      tag_data_q  <= pair_acc_data;
      tag_ahead_q <= pair_owed_q - CntW'(pair_dlv);
      tag_late_q    <= pair_owed_q - CntW'(pair_dlv) != '0;
    end
  end

  // No duplicate or invented message; order and data of the tagged one.
  `HTM_ASSERT(PairDeliveryOwed_A, !pair_dlv || pair_owed_q != '0)
  `HTM_ASSERT(TaggedInOrder_A, !tag_out || pair_dlv_data == tag_data_q)
  `HTM_ASSERT(TaggedStillOwed_A, !tag_q || tag_ahead_q < pair_owed_q)
  // Capacity: never more owed than the FIFOs hold; a delivery only of an owed message.
  for (genvar d = 0; d < NumDst; d++) begin : g_dst
    logic [CntW-1:0] owed;
    assign owed = owed_q[d*CntW +: CntW];
    `HTM_ASSERT(OwedBound_A, 32'(owed) <= MaxOwed)
    `HTM_ASSERT(ValidOnlyIfOwed_A, !out_valid[d] || owed != '0)
  end
  // Grants: only valid, in-range requests (without input FIFOs the acceptance is the grant).
  `HTM_ASSERT(GrantLegal_A,
              InDepth != 0 || ((req_ready & ~req_valid_i) == '0 && (req_ready & bad) == '0))

  // The error output.
  logic f_bad, f_err_seen;
  assign f_bad = bad != '0;
  htm_err_check #(.Timing(0)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(f_bad), .set_i(f_bad), .err_i(err),
    .seen_o(f_err_seen)
  );

  // Covers.
  logic f_cred_out;
  always_comb begin
    f_cred_out = 1'b0;
    for (int s = 0; s < NumSrc; s++) begin
      if (req_valid_i[s] && !req_ready[s] && req_dst_i[s*DstW +: DstW] == f_dst_i &&
          32'(owed_q[32'(f_dst_i)*CntW +: CntW]) >= FifoDepth) begin
        f_cred_out = 1'b1;
      end
    end
  end
  `HTM_COVER(TaggedAfterOthers_C, tag_out && tag_late_q)
  `HTM_COVER(CreditsOut_C, f_cred_out)
  `HTM_COVER(AcceptWhileDelivering_C, pair_acc && pair_dlv)
  `HTM_COVER(Error_C, f_bad && !f_err_seen)

endmodule
