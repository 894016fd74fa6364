// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_rr_arb: besides the arbiter's own assertions (one-hot grant, only to a
// requester, a grant whenever there is a request), fairness: a requester f that keeps
// requesting until it is served waits for fewer than NumReq taken grants to others. The
// strengthening invariant (waited grants + distance from the priority pointer to f < NumReq)
// makes the proof inductive.
`include "htm_assert.svh"

module htm_rr_arb_ftop #(
  parameter int unsigned NumReq = 5
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic [NumReq-1:0] req_i,
  input logic              ack_i
);
  localparam int unsigned IdxW = htm_pkg::idx_width(NumReq);

  logic [NumReq-1:0] gnt;
  logic [IdxW-1:0]   gnt_idx;
  logic              gnt_valid;
  logic [IdxW-1:0]   prio;

  htm_rr_arb #(
    .NumReq(NumReq)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (req_i),
    .ack_i      (ack_i),
    .gnt_o      (gnt),
    .gnt_idx_o  (gnt_idx),
    .gnt_valid_o(gnt_valid),
    .prio_o     (prio)
  );

  (* anyconst *) logic [IdxW-1:0] f_req;
  logic        f_served;       // f's grant is taken this cycle
  logic        f_waiting_q;    // f has requested since its last service
  logic [31:0] f_wait_q;       // grants taken by others while f waited

  assign f_served = gnt_valid && ack_i && gnt_idx == f_req;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_waiting_q <= 1'b0;
      f_wait_q    <= '0;
    end else if (f_served) begin
      f_waiting_q <= 1'b0;
      f_wait_q    <= '0;
    end else if (req_i[f_req]) begin
      f_waiting_q <= 1'b1;
      if (gnt_valid && ack_i) begin
        f_wait_q <= f_wait_q + 1;
      end
    end
  end

  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    assume (32'(f_req) < NumReq);
    // f keeps requesting until served.
    if (f_waiting_q) begin
      assume (req_i[f_req]);
    end
  end

  // Distance from the priority pointer to f, going up and wrapping.
  logic [31:0] f_dist;
  assign f_dist = (32'(f_req) + NumReq - 32'(prio)) % NumReq;

  always_comb begin
    if (rst_ni) begin
      assert (f_wait_q < NumReq);
      if (f_waiting_q) begin
        assert (f_wait_q + f_dist < NumReq);
      end else begin
        assert (f_wait_q == 0);
      end
      cover (f_waiting_q && f_wait_q == NumReq - 1);
    end
  end

endmodule
