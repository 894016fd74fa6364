// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_sys_draw: the unit's valid and tag are those of the input five cycles
// earlier, in every reachable state (k-induction), and a result is never valid before five
// cycles after reset. Its value is not proved here: a SAT check that the pipelined chain of two
// 32-bit constant multiplications equals a reference computed at the input did not finish in
// 10 minutes (BMC to depth 6 of a three-stage version); the value is checked by lockstep against
// the golden model, which the directed tests compare with the workloads' LowBias32 and
// reference values (docs/htm_sys_draw.md).
`include "htm_assert.svh"

module htm_sys_draw_ftop #(
  parameter int unsigned TagW = 2
) (
  input logic            clk_i,
  input logic            rst_ni,
  input logic            in_valid_i,
  input logic [31:0]     a_i,
  input logic [31:0]     b_i,
  input logic [TagW-1:0] in_tag_i
);

  logic            out_valid;
  logic [31:0]     out_value;
  logic [TagW-1:0] out_tag;

  htm_sys_draw #(
    .TagW(TagW)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .a_i        (a_i),
    .b_i        (b_i),
    .in_tag_i   (in_tag_i),
    .out_valid_o(out_valid),
    .out_value_o(out_value),
    .out_tag_o  (out_tag)
  );

  localparam int unsigned Latency = 5;

  logic [TagW-1:0]    ref_tag_q [Latency];
  logic [Latency-1:0] ref_valid_q;

  always_ff @(posedge clk_i) begin
    ref_tag_q[0] <= in_tag_i;
    for (int i = 1; i < Latency; i++) begin
      ref_tag_q[i] <= ref_tag_q[i-1];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ref_valid_q <= '0;
    end else begin
      ref_valid_q <= {ref_valid_q[Latency-2:0], in_valid_i};
    end
  end

  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    if (rst_ni) begin
      assert (out_valid == ref_valid_q[Latency-1]);
      if (out_valid) begin
        assert (out_tag == ref_tag_q[Latency-1]);
      end
      cover (out_valid && out_tag == {TagW{1'b1}});
    end
  end

endmodule
