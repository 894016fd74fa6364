// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_uart_tx: against a reference frame (the byte taken, then the cycles
// since), the line carries exactly the start bit, the 8 data bits least significant first and
// the stop bit, each for ClkPerBit cycles, and is high when no frame is on it; a byte is taken
// only while the line is idle or in the stop bit's last cycle. Bounded (BMC) at ClkPerBit 2: make
// test to depth 24 (a frame and the next one's start), make formal to depth 44 (two frames).
`include "htm_assert.svh"

module htm_uart_tx_ftop #(
  parameter int unsigned ClkPerBit = 2
) (
  input logic       clk_i,
  input logic       rst_ni,
  input logic       in_valid_i,
  input logic [7:0] in_data_i
);

  logic in_ready, tx;

  htm_uart_tx #(
    .ClkPerBit(ClkPerBit)
  ) u_dut (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .in_valid_i(in_valid_i),
    .in_ready_o(in_ready),
    .in_data_i (in_data_i),
    .tx_o      (tx)
  );

  localparam int unsigned FrameCycles = 10 * ClkPerBit;

  logic        busy_q;  // a frame is on the line
  logic [31:0] since_q;  // its cycles so far
  logic [7:0]  byte_q;
  logic [31:0] bit_idx;
  logic        want;

  assign bit_idx = since_q / ClkPerBit;
  always_comb begin
    want = 1'b1;
    if (busy_q) begin
      if (bit_idx == 0) begin
        want = 1'b0;
      end else if (bit_idx <= 8) begin
        want = byte_q[bit_idx-1];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      since_q <= '0;
      byte_q  <= '0;
    end else if (in_valid_i && in_ready) begin
      busy_q  <= 1'b1;
      since_q <= '0;
      byte_q  <= in_data_i;
    end else if (busy_q) begin
      busy_q  <= since_q != FrameCycles - 1;
      since_q <= since_q + 1;
    end
  end

  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    if (rst_ni) begin
      assert (tx == want);
      assert (in_ready == (!busy_q || since_q == FrameCycles - 1));
      cover (busy_q && since_q == FrameCycles - 1 && in_valid_i);
    end
  end

endmodule
