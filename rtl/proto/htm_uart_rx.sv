// SPDX-License-Identifier: Apache-2.0
//
// htm_uart_rx: the FPGA prototype's UART receiver (docs/htm_uart.md): 8N1, least significant
// bit first, ClkPerBit clock cycles per bit.
//
// The line passes two synchronizing flip-flops. A falling edge while idle starts a frame; the
// start bit is sampled again ClkPerBit / 2 cycles later (still low: the frame goes on; high: a
// glitch, back to idle), then each data bit and the stop bit one bit time apart, in the middle
// of each bit. A high stop bit delivers the byte (out_valid_o for one cycle, in the cycle after
// the stop bit's sample); a low one drops it and raises frame_err_o for one cycle, and the
// receiver waits for the line to go high before it looks for the next start bit. Bytes are
// never back-pressured: a reader must take out_data_o in its cycle.
`include "htm_assert.svh"

module htm_uart_rx #(
  parameter int unsigned ClkPerBit = 868,  // clock cycles per bit, >= 4
  // Derived, do not set.
  localparam int unsigned CntW     = $clog2(ClkPerBit)
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,
  output logic       out_valid_o,
  output logic [7:0] out_data_o,
  output logic       frame_err_o
);

  `HTM_ASSERT_INIT(ClkPerBitRange_A, ClkPerBit >= 4)

  typedef enum logic [1:0] {
    StIdle  = 2'd0,  // waiting for a falling edge
    StStart = 2'd1,  // half a bit into the start bit
    StData  = 2'd2,  // the data bits and the stop bit
    StBreak = 2'd3   // after a framing error: waiting for the line to go high
  } st_e;

  st_e             st_d, st_q;
  logic [1:0]      sync_q;            // sync_q[1] is the synchronized line
  logic            line;
  logic [CntW-1:0] cnt_d, cnt_q;      // cycles to the next sample
  logic [3:0]      nbit_d, nbit_q;    // samples taken in StData (8 data, then the stop bit)
  logic [7:0]      data_d, data_q;
  logic            valid_d, valid_q, err_d, err_q;

  assign line = sync_q[1];

  always_comb begin
    st_d    = st_q;
    cnt_d   = cnt_q;
    nbit_d  = nbit_q;
    data_d  = data_q;
    valid_d = 1'b0;
    err_d   = 1'b0;
    unique case (st_q)
      StIdle: begin
        if (!line) begin
          st_d  = StStart;
          cnt_d = CntW'(ClkPerBit / 2 - 1);
        end
      end
      StStart: begin
        if (cnt_q != '0) begin
          cnt_d = cnt_q - 1'b1;
        end else if (line) begin
          st_d = StIdle;  // a glitch, not a start bit
        end else begin
          st_d   = StData;
          cnt_d  = CntW'(ClkPerBit - 1);
          nbit_d = '0;
        end
      end
      StData: begin
        if (cnt_q != '0) begin
          cnt_d = cnt_q - 1'b1;
        end else if (nbit_q != 4'd8) begin
          data_d = {line, data_q[7:1]};
          nbit_d = nbit_q + 4'd1;
          cnt_d  = CntW'(ClkPerBit - 1);
        end else if (line) begin
          st_d    = StIdle;
          valid_d = 1'b1;
        end else begin
          st_d  = StBreak;
          err_d = 1'b1;
        end
      end
      StBreak: begin
        if (line) begin
          st_d = StIdle;
        end
      end
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q  <= 2'b11;
      st_q    <= StIdle;
      cnt_q   <= '0;
      nbit_q  <= '0;
      data_q  <= '0;
      valid_q <= 1'b0;
      err_q   <= 1'b0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      st_q    <= st_d;
      cnt_q   <= cnt_d;
      nbit_q  <= nbit_d;
      data_q  <= data_d;
      valid_q <= valid_d;
      err_q   <= err_d;
    end
  end

  assign out_valid_o = valid_q;
  assign out_data_o  = data_q;
  assign frame_err_o = err_q;

endmodule
