// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_proto_ctrl (docs/htm_proto_ctrl.md). Every input is free: bytes,
// framing errors, tx_ready_i and the subsystem's outputs in any cycle. Monitors beside the block
// check:
//   * start_o only in the cycle after a START frame's CRC byte, with a good CRC (the last three
//     bytes received 0x48, 0x03, CRC-8(0x03)) and busy_i low in that cycle;
//   * cfg_*_o change only in the cycle after a received byte with busy_i low, ctr_sel_o only
//     in the cycle after a received byte;
//   * tx bytes only in a reply: every reply taken byte by byte starts with 0x68, carries a
//     status of 0..5 and an op (a known one with status 0, an unknown one with status 2), is
//     as long as its status and op say, and ends with the CRC-8 of its status to payload bytes
//     (computed here, bit by bit over the data's bits, a different formulation of the RTL's);
//     tx_valid_o and tx_data_o hold while tx_ready_i is low; after a reply's last byte
//     tx_valid_o is low; a reply begins only in the cycle after a received byte or framing
//     error or after TimeoutCycles cycles without either.
// Bounded (BMC) at TimeoutCycles 3: make test to depth 10 (a START frame, its pulse and the
// start of its reply; a timeout or a framing error and its whole reply), make formal to depth
// 16 (a STATUS frame and the start of its 11-byte reply). The covers: a start, the whole reply
// to a command executed with status 0, and a whole status-5 reply.
`include "htm_assert.svh"

module htm_proto_ctrl_ftop #(
  parameter int unsigned AddrW         = 4,
  parameter int unsigned TimeoutCycles = 3
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             rx_valid_i,
  input logic [7:0]       rx_data_i,
  input logic             rx_err_i,
  input logic             tx_ready_i,
  input logic             busy_i,
  input logic             done_i,
  input logic             cfg_err_i,
  input logic [2:0]       cfg_err_code_i,
  input logic             check_ok_i,
  input logic [2:0]       check_code_i,
  input logic [AddrW-1:0] check_idx_i,
  input logic             err_i,
  input logic [63:0]      ctr_i
);

  logic        tx_valid, start;
  logic [7:0]  tx_data;
  logic [1:0]  cfg_wl;
  logic [23:0] cfg_threads;
  logic [4:0]  cfg_objlog2, cfg_reads, cfg_writes, cfg_cold;
  logic [31:0] cfg_seed;
  logic [2:0]  ctr_sel;

  htm_proto_ctrl #(
    .AddrW        (AddrW),
    .ClkKhz       (1000),
    .TimeoutCycles(TimeoutCycles)
  ) u_dut (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .rx_valid_i    (rx_valid_i),
    .rx_data_i     (rx_data_i),
    .rx_err_i      (rx_err_i),
    .tx_valid_o    (tx_valid),
    .tx_ready_i    (tx_ready_i),
    .tx_data_o     (tx_data),
    .start_o       (start),
    .cfg_wl_o      (cfg_wl),
    .cfg_threads_o (cfg_threads),
    .cfg_objlog2_o (cfg_objlog2),
    .cfg_reads_o   (cfg_reads),
    .cfg_writes_o  (cfg_writes),
    .cfg_cold_o    (cfg_cold),
    .cfg_seed_o    (cfg_seed),
    .busy_i        (busy_i),
    .done_i        (done_i),
    .cfg_err_i     (cfg_err_i),
    .cfg_err_code_i(cfg_err_code_i),
    .check_ok_i    (check_ok_i),
    .check_code_i  (check_code_i),
    .check_idx_i   (check_idx_i),
    .err_i         (err_i),
    .ctr_sel_o     (ctr_sel),
    .ctr_i         (ctr_i)
  );

  // CRC-8 (0x07), one data bit at a time, most significant first.
  function automatic logic [7:0] ref_crc(input logic [7:0] crc, input logic [7:0] data);
    logic [7:0] c;
    logic       fb;
    c = crc;
    for (int i = 7; i >= 0; i--) begin
      fb = c[7] ^ data[i];
      c  = {c[6:0], 1'b0} ^ (fb ? 8'h07 : 8'h00);
    end
    ref_crc = c;
  endfunction

  function automatic logic known_op(input logic [7:0] op);
    known_op = op >= 8'd1 && op <= 8'd5;
  endfunction

  function automatic logic [5:0] payload_len(input logic [7:0] op);
    payload_len = (op == 8'd1) ? 6'd49 : (op == 8'd4) ? 6'd7 : (op == 8'd5) ? 6'd8 : 6'd0;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // The receive side: the last three bytes, the previous cycle's events
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned QW = $clog2(TimeoutCycles + 1);
  logic          rx_byte, rx_any;
  logic [23:0]   last3_q;
  logic          prev_byte_q, prev_any_q, prev_busy_q, prev_quiet_q;
  logic [QW-1:0] quiet_q;  // cycles since the last byte or framing error (saturating)
  assign rx_byte = rx_valid_i && !rx_err_i;
  assign rx_any  = rx_valid_i || rx_err_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last3_q      <= '0;
      prev_byte_q  <= 1'b0;
      prev_any_q   <= 1'b0;
      prev_busy_q  <= 1'b0;
      prev_quiet_q <= 1'b0;
      quiet_q      <= '0;
    end else begin
      if (rx_byte) begin
        last3_q <= {last3_q[15:0], rx_data_i};
      end
      prev_byte_q  <= rx_byte;
      prev_any_q   <= rx_any;
      prev_busy_q  <= busy_i;
      prev_quiet_q <= !rx_any && quiet_q == QW'(TimeoutCycles - 1);
      quiet_q      <= rx_any ? '0 : (quiet_q == QW'(TimeoutCycles)) ? quiet_q : quiet_q + 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The transmit side: the reply taken so far
  // ---------------------------------------------------------------------------------------------
  logic       hs, at_last;
  logic [5:0] ridx_q;
  logic [7:0] rsts_q, rop_q, rcrc_q, hold_data_q;
  logic       hold_q, ended_q, prev_valid_q;
  logic [5:0] rlast;
  assign hs      = tx_valid && tx_ready_i;
  assign rlast   = 6'd3 + ((rsts_q == 8'd0) ? payload_len(rop_q) : 6'd0);
  assign at_last = ridx_q >= 6'd3 && ridx_q == rlast;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ridx_q       <= '0;
      rsts_q       <= '0;
      rop_q        <= '0;
      rcrc_q       <= '0;
      hold_q       <= 1'b0;
      hold_data_q  <= '0;
      ended_q      <= 1'b0;
      prev_valid_q <= 1'b0;
    end else begin
      hold_q       <= tx_valid && !tx_ready_i;
      hold_data_q  <= tx_data;
      ended_q      <= hs && at_last;
      prev_valid_q <= tx_valid;
      if (hs) begin
        ridx_q <= at_last ? 6'd0 : ridx_q + 6'd1;
        if (ridx_q == 6'd1) begin
          rsts_q <= tx_data;
          rcrc_q <= ref_crc(8'd0, tx_data);
        end else if (ridx_q >= 6'd2) begin
          rcrc_q <= ref_crc(rcrc_q, tx_data);
        end
        if (ridx_q == 6'd2) begin
          rop_q <= tx_data;
        end
      end
    end
  end

  // The configuration and counter select a cycle ago.
  logic [73:0] prev_cfg_q;
  logic [2:0]  prev_sel_q;
  logic [73:0] cfg;
  assign cfg = {cfg_wl, cfg_threads, cfg_objlog2, cfg_reads, cfg_writes, cfg_cold, cfg_seed};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prev_cfg_q <= '0;
      prev_sel_q <= '0;
    end else begin
      prev_cfg_q <= cfg;
      prev_sel_q <= ctr_sel;
    end
  end

  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    if (rst_ni && f_past_valid_q) begin
      // START: only after its frame with a good CRC, and not busy.
      if (start) begin
        assert (prev_byte_q && !prev_busy_q &&
                last3_q == {8'h48, 8'h03, ref_crc(8'd0, 8'h03)});
      end
      if (cfg != prev_cfg_q) begin
        assert (prev_byte_q && !prev_busy_q);
      end
      if (ctr_sel != prev_sel_q) begin
        assert (prev_byte_q);
      end
      // The reply's bytes.
      if (hs && ridx_q == 6'd0) begin
        assert (tx_data == 8'h68);
      end
      if (hs && ridx_q == 6'd1) begin
        assert (tx_data <= 8'd5);
      end
      if (hs && ridx_q == 6'd2) begin
        assert (`HTM_IMPLIES(rsts_q == 8'd0, known_op(tx_data)));
        assert (`HTM_IMPLIES(rsts_q == 8'd2, !known_op(tx_data)));
      end
      if (hs && at_last) begin
        assert (tx_data == rcrc_q);
      end
      if (hold_q) begin
        assert (tx_valid && tx_data == hold_data_q);
      end
      if (ended_q) begin
        assert (!tx_valid);
      end
      if (tx_valid && !prev_valid_q) begin
        assert (ridx_q == 6'd0 && (prev_any_q || prev_quiet_q));
      end
      cover (start);
      cover (hs && at_last && rsts_q == 8'd0);
      cover (hs && at_last && rsts_q == 8'd5);
    end
  end

endmodule
