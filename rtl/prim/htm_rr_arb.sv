// SPDX-License-Identifier: Apache-2.0
//
// htm_rr_arb: a round-robin arbiter over NumReq requesters.
//
// The grant is combinational: among the requesters in req_i, the first one at or after the
// priority pointer (wrapping) wins. When the grant is taken (gnt_valid_o && ack_i) the pointer
// moves to the requester after the winner, so a requester that keeps requesting is granted
// within NumReq taken grants. With no ack the grant may change as req_i changes; the pointer
// stays. Any NumReq >= 1.
`include "htm_assert.svh"

module htm_rr_arb #(
  parameter int unsigned NumReq = 16,  // requesters, >= 1
  // Derived, do not set.
  localparam int unsigned IdxW  = htm_pkg::idx_width(NumReq)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [NumReq-1:0] req_i,        // requests
  input  logic              ack_i,        // the grant is taken this cycle
  output logic [NumReq-1:0] gnt_o,        // one-hot grant (zero when no request)
  output logic [IdxW-1:0]   gnt_idx_o,    // index of the granted requester
  output logic              gnt_valid_o,  // some requester is granted
  output logic [IdxW-1:0]   prio_o        // the requester with the highest priority now
);

  `HTM_ASSERT_INIT(NumReqRange_A, NumReq >= 1)

  logic [IdxW-1:0] prio_d, prio_q;  // the requester with the highest priority
  logic            found;

  // Search from the priority pointer, wrapping: offset o looks at requester (prio + o) mod N.
  always_comb begin
    found     = 1'b0;
    gnt_idx_o = '0;
    for (int o = 0; o < NumReq; o++) begin
      if (!found && req_i[(32'(prio_q) + o) % NumReq]) begin
        found     = 1'b1;
        gnt_idx_o = IdxW'((32'(prio_q) + o) % NumReq);
      end
    end
  end

  always_comb begin
    gnt_o = '0;
    if (found) begin
      gnt_o[gnt_idx_o] = 1'b1;
    end
  end

  assign gnt_valid_o = found;

  always_comb begin
    prio_d = prio_q;
    if (found && ack_i) begin
      prio_d = (gnt_idx_o == IdxW'(NumReq - 1)) ? '0 : gnt_idx_o + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q <= '0;
    end else begin
      prio_q <= prio_d;
    end
  end

  assign prio_o = prio_q;

  `HTM_ASSERT(GrantOneHot_A, $onehot0(gnt_o))
  `HTM_ASSERT(GrantRequested_A, (gnt_o & ~req_i) == '0)
  `HTM_ASSERT(GrantIfRequest_A, gnt_valid_o == (req_i != '0))
  `HTM_ASSERT(PrioInRange_A, 32'(prio_q) < NumReq)

endmodule
