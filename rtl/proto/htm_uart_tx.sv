// SPDX-License-Identifier: Apache-2.0
//
// htm_uart_tx: the FPGA prototype's UART transmitter (docs/htm_uart.md): 8 data bits, no
// parity, one stop bit (8N1), least significant bit first, ClkPerBit clock cycles per bit.
//
// Timing: a byte is taken (in_valid_i && in_ready_o) only while the line is idle; tx_o (a
// register) carries the start bit from the next cycle, then the 8 data bits and the stop bit,
// each for ClkPerBit cycles; in_ready_o rises again in the last cycle of the stop bit, so that
// bytes offered back to back leave with no idle time between them (10 * ClkPerBit cycles per
// byte). The line is high (idle) out of reset.
`include "htm_assert.svh"

module htm_uart_tx #(
  parameter int unsigned ClkPerBit = 868,  // clock cycles per bit (100 MHz / 115 200 baud), >= 2
  // Derived, do not set.
  localparam int unsigned CntW     = $clog2(ClkPerBit)
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       in_valid_i,
  output logic       in_ready_o,
  input  logic [7:0] in_data_i,
  output logic       tx_o
);

  `HTM_ASSERT_INIT(ClkPerBitRange_A, ClkPerBit >= 2)

  logic [8:0]      shift_d, shift_q;  // the bits still to send after the one on the line
  logic [3:0]      left_d, left_q;    // bits on the line or still to send; 0: idle
  logic [CntW-1:0] cnt_d, cnt_q;      // cycles of the current bit so far
  logic            tx_d, tx_q;
  logic            bit_end;

  assign bit_end    = cnt_q == CntW'(ClkPerBit - 1);
  assign in_ready_o = left_q == 4'd0 || (left_q == 4'd1 && bit_end);

  always_comb begin
    shift_d = shift_q;
    left_d  = left_q;
    cnt_d   = cnt_q;
    tx_d    = tx_q;
    if (left_q != 4'd0) begin
      cnt_d = bit_end ? '0 : cnt_q + 1'b1;
      if (bit_end) begin
        left_d  = left_q - 4'd1;
        tx_d    = (left_q == 4'd1) ? 1'b1 : shift_q[0];
        shift_d = {1'b1, shift_q[8:1]};
      end
    end
    if (in_valid_i && in_ready_o) begin
      shift_d = {1'b1, in_data_i};  // the data, then the stop bit
      left_d  = 4'd10;
      cnt_d   = '0;
      tx_d    = 1'b0;               // the start bit
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shift_q <= '1;
      left_q  <= '0;
      cnt_q   <= '0;
      tx_q    <= 1'b1;
    end else begin
      shift_q <= shift_d;
      left_q  <= left_d;
      cnt_q   <= cnt_d;
      tx_q    <= tx_d;
    end
  end

  assign tx_o = tx_q;

endmodule
