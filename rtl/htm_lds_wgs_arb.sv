// SPDX-License-Identifier: Apache-2.0
//
// htm_lds_wgs_arb: GPU-LocalTM work-group serialization arbiter (thesis 5.2.2). At most one
// wavefront of the work-group holds WgS. A wavefront that requests it (wgs_req_o of its
// htm_lds_wf_ctrl) is granted, round robin among the requesters, in the cycle after the
// holder, if any, has dropped its request; the grant is held while the request stays. Every
// other wavefront sees other_o while a wavefront holds WgS: its TX_Begin waits and a try in
// progress is aborted, so the holder's try is the only transactional one of the work-group.
`include "htm_assert.svh"

module htm_lds_wgs_arb #(
  parameter int unsigned NumWf = 4,  // wavefronts of the work-group, >= 1
  // Derived, do not set.
  localparam int unsigned IdxW = htm_pkg::idx_width(NumWf)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [NumWf-1:0] req_i,
  output logic [NumWf-1:0] grant_o,  // this wavefront holds WgS
  output logic [NumWf-1:0] other_o   // another wavefront holds WgS
);

  `HTM_ASSERT_INIT(NumWfRange_A, NumWf >= 1)

  logic            hold_q, keep, take, pick_valid;
  logic [IdxW-1:0] holder_q, pick_idx, prio_unused;
  logic [NumWf-1:0] pick_unused;

  assign keep = hold_q && req_i[holder_q];
  assign take = !keep && pick_valid;

  htm_rr_arb #(.NumReq(NumWf)) u_pick (
    .clk_i,
    .rst_ni,
    .req_i      (req_i),
    .ack_i      (take),
    .gnt_o      (pick_unused),
    .gnt_idx_o  (pick_idx),
    .gnt_valid_o(pick_valid),
    .prio_o     (prio_unused)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hold_q   <= 1'b0;
      holder_q <= '0;
    end else begin
      hold_q <= keep || take;
      if (take) begin
        holder_q <= pick_idx;
      end
    end
  end

  always_comb begin
    for (int w = 0; w < NumWf; w++) begin
      grant_o[w] = hold_q && 32'(holder_q) == w;
      other_o[w] = hold_q && 32'(holder_q) != w;
    end
  end

  `HTM_ASSERT(OneHolder_A, $onehot0(grant_o))

  logic unused_sig;
  assign unused_sig = ^{pick_unused, prio_unused};

endmodule
