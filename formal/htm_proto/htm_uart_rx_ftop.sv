// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_uart_rx, driven by a transmitter (htm_uart_tx of the same ClkPerBit)
// whose line may be disturbed: undisturbed, every byte the transmitter takes is received intact,
// in order, and no framing error is flagged; disturbed by glitches (the line forced low for at
// most ClkPerBit / 2 cycles at a time between frames, at least a bit time apart), a byte is
// never delivered out of thin air (at most as many bytes as were sent) and no framing error is
// flagged either. A byte and a framing error never come
// in the same cycle. Bounded (BMC): make test to depth 30 (no frame ends: nothing spurious), make
// formal to depth 46 (a whole frame at ClkPerBit 4).
`include "htm_assert.svh"

module htm_uart_rx_ftop #(
  parameter int unsigned ClkPerBit = 4
) (
  input logic       clk_i,
  input logic       rst_ni,
  input logic       in_valid_i,
  input logic [7:0] in_data_i,
  input logic       noise_i   // pulls an idle line low (a glitch) when allowed
);

  logic       in_ready, tx, line;
  logic       out_valid, frame_err;
  logic [7:0] out_data;

  htm_uart_tx #(
    .ClkPerBit(ClkPerBit)
  ) u_tx (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .in_valid_i(in_valid_i),
    .in_ready_o(in_ready),
    .in_data_i (in_data_i),
    .tx_o      (tx)
  );

  htm_uart_rx #(
    .ClkPerBit(ClkPerBit)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .rx_i       (line),
    .out_valid_o(out_valid),
    .out_data_o (out_data),
    .frame_err_o(frame_err)
  );

  // Glitches: low for at most ClkPerBit / 2 cycles at a time, only while the transmitter idles
  // (or is in its stop bit's last cycle), then high for at least a bit time.
  (* anyconst *) logic f_noisy;
  logic [31:0] low_q, high_q;
  logic        glitch;
  assign glitch = f_noisy && noise_i && in_ready && low_q < ClkPerBit / 2 &&
                  (low_q != 0 || high_q >= ClkPerBit);
  assign line   = tx && !glitch;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      low_q  <= '0;
      high_q <= 32'(ClkPerBit);
    end else begin
      low_q  <= glitch ? low_q + 1 : '0;
      high_q <= glitch ? '0 : (high_q < ClkPerBit ? high_q + 1 : high_q);
    end
  end

  // The bytes sent, in order (two at most within the bound), and those received.
  logic [7:0] sent_q [2];
  logic [1:0] n_sent_q, n_recv_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_sent_q <= '0;
      n_recv_q <= '0;
    end else begin
      if (in_valid_i && in_ready && n_sent_q != 2'd2) begin
        sent_q[n_sent_q[0]] <= in_data_i;
        n_sent_q            <= n_sent_q + 2'd1;
      end
      if (out_valid && n_recv_q != 2'd3) begin
        n_recv_q <= n_recv_q + 2'd1;
      end
    end
  end

  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    if (rst_ni) begin
      assume (!(in_valid_i && in_ready && n_sent_q == 2'd2));  // two bytes within the bound
      assert (!(out_valid && frame_err));
      assert (n_recv_q <= n_sent_q);
      assert (!frame_err);
      if (!f_noisy) begin
        if (out_valid) begin
          assert (out_data == sent_q[n_recv_q[0]]);
        end
      end
      cover (!f_noisy && n_recv_q == 2'd1);
      cover (f_noisy && n_recv_q == 2'd1 && low_q != 0);
    end
  end

endmodule
