// SPDX-License-Identifier: Apache-2.0
//
// htm_proto_ctrl: the FPGA prototype's command interface (docs/proto.md, "The board and its
// command interface"; docs/htm_proto_ctrl.md), between the UART (htm_uart_rx, htm_uart_tx) and
// the subsystem's run-control ports. The host sends a command frame (0x48, op, the op's
// payload, CRC-8 over op and payload) and waits for the reply (0x68, status, op, the payload
// when the status is 0, CRC-8 over status to payload).
//
// Timing (every output is a register or a function of registers):
//   * a byte counts in the cycle rx_valid_i is high (rx_err_i high in the same cycle wins: the
//     byte is dropped and the cycle is a framing error);
//   * a command is executed in the cycle its CRC byte arrives (cycle E): CONFIG's cfg_*_o,
//     START's start_o (high in cycle E + 1 only) and COUNTER's ctr_sel_o change at the end of
//     E; STATUS samples busy_i, done_i, cfg_err_i, cfg_err_code_i, check_ok_i, check_code_i,
//     check_idx_i and err_i in E; COUNTER samples ctr_i in E + 1 (ctr_sel_o's first cycle);
//   * the reply's first byte is offered in E + 1 (tx_valid_o), each further one in the cycle
//     after the previous one is taken (tx_valid_o && tx_ready_i); the CRC byte is the last;
//   * an unknown op (arriving in cycle E) is answered from E + 1 with status 2, without
//     payload; after that reply every byte (and framing error) is dropped until TimeoutCycles
//     cycles pass with none, then the interface is idle again;
//   * inside a frame (after the sync byte), a framing error in cycle E, or TimeoutCycles cycles
//     without a byte (the last of them E), answers status 5 from E + 1 (the op byte 0 when the
//     op had not arrived), then the interface is idle;
//   * while a reply goes out (including the cycle its CRC byte is taken) every received byte
//     and framing error is dropped; idle, bytes other than 0x48 and framing errors are dropped.
`include "htm_assert.svh"

module htm_proto_ctrl #(
  // The subsystem's parameters (htm_sys), reported by IDENT in this order (16 bits each).
  parameter int unsigned NumCores         = 4,
  parameter int unsigned NumWarps         = 4,
  parameter int unsigned WarpSize         = 8,
  parameter int unsigned NumParts         = 2,
  parameter int unsigned AddrW            = 13,      // also check_idx_i's width, 1..32
  parameter int unsigned IlvLog2          = 6,
  parameter int unsigned CidW             = 10,
  parameter int unsigned MaxReads         = 8,
  parameter int unsigned MaxWrites        = 4,
  parameter int unsigned AllocRetry       = 8,
  parameter int unsigned RingSize         = 16,
  parameter int unsigned BufWords         = 256,
  parameter int unsigned ValTags          = 4,
  parameter int unsigned LwhSets          = 64,
  parameter int unsigned LwhWays          = 2,
  parameter int unsigned LwhBfHashes      = 2,
  parameter int unsigned LwhBfSlots       = 64,
  parameter int unsigned LwhScrubInterval = 3,
  parameter int unsigned XbarLatency      = 4,
  parameter int unsigned XbarFifoDepth    = 8,
  // The subsystem's clock in kHz (reported by IDENT), >= 1.
  parameter int unsigned ClkKhz           = 100000,
  // Cycles without a byte after which a frame is abandoned (and an unknown op's drop ends), >= 1.
  parameter int unsigned TimeoutCycles    = 100000,
  // Derived, do not set.
  localparam int unsigned SilW            = htm_pkg::idx_width(TimeoutCycles)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // From htm_uart_rx.
  input  logic             rx_valid_i,
  input  logic [7:0]       rx_data_i,
  input  logic             rx_err_i,
  // To htm_uart_tx.
  output logic             tx_valid_o,
  input  logic             tx_ready_i,
  output logic [7:0]       tx_data_o,
  // The subsystem's run control.
  output logic             start_o,
  output logic [1:0]       cfg_wl_o,        // htm_pkg::sys_wl_e
  output logic [23:0]      cfg_threads_o,
  output logic [4:0]       cfg_objlog2_o,
  output logic [4:0]       cfg_reads_o,
  output logic [4:0]       cfg_writes_o,
  output logic [4:0]       cfg_cold_o,
  output logic [31:0]      cfg_seed_o,
  input  logic             busy_i,
  input  logic             done_i,
  input  logic             cfg_err_i,
  input  logic [2:0]       cfg_err_code_i,
  input  logic             check_ok_i,
  input  logic [2:0]       check_code_i,
  input  logic [AddrW-1:0] check_idx_i,
  input  logic             err_i,
  output logic [2:0]       ctr_sel_o,
  input  logic [63:0]      ctr_i
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 32)
  `HTM_ASSERT_INIT(ClkKhzRange_A, ClkKhz >= 1)
  `HTM_ASSERT_INIT(TimeoutRange_A, TimeoutCycles >= 1)
  `HTM_ASSERT_INIT(ParamsFit16_A,
                   NumCores < 65536 && NumWarps < 65536 && WarpSize < 65536 &&
                   NumParts < 65536 && AddrW < 65536 && IlvLog2 < 65536 && CidW < 65536 &&
                   MaxReads < 65536 && MaxWrites < 65536 && AllocRetry < 65536 &&
                   RingSize < 65536 && BufWords < 65536 && ValTags < 65536 &&
                   LwhSets < 65536 && LwhWays < 65536 && LwhBfHashes < 65536 &&
                   LwhBfSlots < 65536 && LwhScrubInterval < 65536 && XbarLatency < 65536 &&
                   XbarFifoDepth < 65536)

  // ---------------------------------------------------------------------------------------------
  // Codes
  // ---------------------------------------------------------------------------------------------
  localparam logic [7:0] SyncCmd   = 8'(htm_pkg::ProtoSyncCmd);
  localparam logic [7:0] SyncRep   = 8'(htm_pkg::ProtoSyncRep);
  localparam logic [7:0] OpIdent   = 8'(htm_pkg::ProtoOpIdent);
  localparam logic [7:0] OpConfig  = 8'(htm_pkg::ProtoOpConfig);
  localparam logic [7:0] OpStart   = 8'(htm_pkg::ProtoOpStart);
  localparam logic [7:0] OpStatus  = 8'(htm_pkg::ProtoOpStatus);
  localparam logic [7:0] OpCounter = 8'(htm_pkg::ProtoOpCounter);
  localparam logic [2:0] StsOk       = 3'(htm_pkg::ProtoStatusOk);
  localparam logic [2:0] StsBadCrc   = 3'(htm_pkg::ProtoStatusBadCrc);
  localparam logic [2:0] StsUnknown  = 3'(htm_pkg::ProtoStatusUnknownOp);
  localparam logic [2:0] StsBadField = 3'(htm_pkg::ProtoStatusBadField);
  localparam logic [2:0] StsBusy     = 3'(htm_pkg::ProtoStatusBusy);
  localparam logic [2:0] StsBadFrame = 3'(htm_pkg::ProtoStatusBadFrame);

  // IDENT's payload, byte j at [8*j +: 8] ("HTMP", version 1, ClkKhz, the 20 parameters), padded
  // to 64 bytes so that every 6-bit payload index selects inside it.
  localparam logic [511:0] IdentBytes = {
    120'd0,
    16'(XbarFifoDepth), 16'(XbarLatency), 16'(LwhScrubInterval), 16'(LwhBfSlots),
    16'(LwhBfHashes), 16'(LwhWays), 16'(LwhSets), 16'(ValTags), 16'(BufWords), 16'(RingSize),
    16'(AllocRetry), 16'(MaxWrites), 16'(MaxReads), 16'(CidW), 16'(IlvLog2), 16'(AddrW),
    16'(NumParts), 16'(WarpSize), 16'(NumWarps), 16'(NumCores),
    32'(ClkKhz), 8'd1, 8'h50, 8'h4D, 8'h54, 8'h48
  };

  // CRC-8, polynomial x^8 + x^2 + x + 1, no reflection: one byte's step, bit-serial.
  function automatic logic [7:0] crc8_step(input logic [7:0] crc, input logic [7:0] data);
    logic [7:0] c;
    c = crc ^ data;
    for (int i = 0; i < 8; i++) begin
      c = c[7] ? ({c[6:0], 1'b0} ^ 8'h07) : {c[6:0], 1'b0};
    end
    crc8_step = c;
  endfunction

  // Command payload bytes of a known op.
  function automatic logic [3:0] cmd_len(input logic [7:0] op);
    cmd_len = (op == OpConfig) ? 4'd12 : (op == OpCounter) ? 4'd1 : 4'd0;
  endfunction

  // Reply payload bytes of a known op executed with status 0.
  function automatic logic [5:0] rep_len(input logic [7:0] op);
    unique case (op)
      OpIdent:   rep_len = 6'd49;
      OpStatus:  rep_len = 6'd7;
      OpCounter: rep_len = 6'd8;
      default:   rep_len = 6'd0;
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  typedef enum logic [2:0] {
    StIdle  = 3'd0,  // waiting for the sync byte
    StOp    = 3'd1,  // waiting for the op
    StPay   = 3'd2,  // receiving the payload
    StCrc   = 3'd3,  // waiting for the CRC byte
    StReply = 3'd4,  // the reply goes out
    StDrop  = 3'd5   // after an unknown op's reply: bytes dropped until TimeoutCycles quiet
  } st_e;

  st_e             st_d, st_q;
  logic [7:0]      op_d, op_q;          // the frame's op (0 until it arrives)
  logic [7:0]      crc_d, crc_q;        // the command's or the reply's running CRC
  logic [95:0]     pay_d, pay_q;        // the command's payload, byte k at [8*k +: 8]
  logic [3:0]      pidx_d, pidx_q;      // payload bytes received
  logic [SilW-1:0] sil_d, sil_q;        // cycles without a byte (inside a frame, in StDrop)
  logic [2:0]      sts_d, sts_q;        // the reply's status
  logic [5:0]      ridx_d, ridx_q;      // the reply byte offered
  logic [5:0]      rlast_d, rlast_q;    // the reply's last byte index (its CRC)
  logic            drop_d, drop_q;      // StDrop after the reply
  logic [63:0]     cap_d, cap_q;        // STATUS's or COUNTER's payload
  logic            cap_ctr_d, cap_ctr_q;  // ctr_i is sampled this cycle
  logic            start_d, start_q;
  logic [1:0]      wl_d, wl_q;
  logic [23:0]     thr_d, thr_q;
  logic [4:0]      objlog2_d, objlog2_q, reads_d, reads_q, writes_d, writes_q, cold_d, cold_q;
  logic [31:0]     seed_d, seed_q;
  logic [2:0]      sel_d, sel_q;

  logic            rx_byte, rx_any, quiet_end, known, bad_field, busy_cmd;
  logic [7:0]      crc_next;
  logic [2:0]      exec_sts;
  logic [5:0]      pay_idx;
  logic [511:0]    pay_bytes;

  assign rx_byte   = rx_valid_i && !rx_err_i;
  assign rx_any    = rx_valid_i || rx_err_i;
  assign quiet_end = !rx_any && sil_q == SilW'(TimeoutCycles - 1);
  assign known     = rx_data_i == OpIdent || rx_data_i == OpConfig || rx_data_i == OpStart ||
                     rx_data_i == OpStatus || rx_data_i == OpCounter;
  assign crc_next  = crc8_step(crc_q, rx_data_i);

  // Execution checks on the received payload (wl, objlog2, reads, writes, cold; the index).
  always_comb begin
    bad_field = 1'b0;
    if (op_q == OpConfig) begin
      bad_field = pay_q[7:0] > 8'd3 || pay_q[39:32] > 8'd31 || pay_q[47:40] > 8'd31 ||
                  pay_q[55:48] > 8'd31 || pay_q[63:56] > 8'd31;
    end else if (op_q == OpCounter) begin
      bad_field = pay_q[7:0] > 8'd7;
    end
  end
  assign busy_cmd = (op_q == OpConfig || op_q == OpStart) && busy_i;
  assign exec_sts = (crc_q != rx_data_i) ? StsBadCrc :
                    bad_field            ? StsBadField :
                    busy_cmd             ? StsBusy : StsOk;

  // ---------------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    st_d      = st_q;
    op_d      = op_q;
    crc_d     = crc_q;
    pay_d     = pay_q;
    pidx_d    = pidx_q;
    sil_d     = sil_q + 1'b1;
    sts_d     = sts_q;
    ridx_d    = ridx_q;
    rlast_d   = rlast_q;
    drop_d    = drop_q;
    cap_d     = cap_ctr_q ? ctr_i : cap_q;
    cap_ctr_d = 1'b0;
    start_d   = 1'b0;
    wl_d      = wl_q;
    thr_d     = thr_q;
    objlog2_d = objlog2_q;
    reads_d   = reads_q;
    writes_d  = writes_q;
    cold_d    = cold_q;
    seed_d    = seed_q;
    sel_d     = sel_q;
    if (rx_any) begin
      sil_d = '0;
    end
    unique case (st_q)
      StIdle: begin
        if (rx_byte && rx_data_i == SyncCmd) begin
          st_d   = StOp;
          op_d   = 8'd0;
          pidx_d = '0;
        end
      end
      StOp, StPay, StCrc: begin
        if (rx_err_i || quiet_end) begin
          st_d    = StReply;
          sts_d   = StsBadFrame;
          rlast_d = 6'd3;
          drop_d  = 1'b0;
        end else if (rx_byte && st_q == StOp) begin
          op_d = rx_data_i;
          if (!known) begin
            st_d    = StReply;
            sts_d   = StsUnknown;
            rlast_d = 6'd3;
            drop_d  = 1'b1;
          end else begin
            crc_d = crc8_step(8'd0, rx_data_i);
            st_d  = (cmd_len(rx_data_i) == 4'd0) ? StCrc : StPay;
          end
        end else if (rx_byte && st_q == StPay) begin
          pay_d[8*pidx_q+:8] = rx_data_i;
          crc_d              = crc_next;
          pidx_d             = pidx_q + 4'd1;
          if (pidx_q + 4'd1 == cmd_len(op_q)) begin
            st_d = StCrc;
          end
        end else if (rx_byte) begin  // StCrc: execute
          st_d    = StReply;
          sts_d   = exec_sts;
          rlast_d = 6'd3 + ((exec_sts == StsOk) ? rep_len(op_q) : 6'd0);
          drop_d  = 1'b0;
          if (exec_sts == StsOk) begin
            if (op_q == OpConfig) begin
              wl_d      = pay_q[1:0];
              thr_d     = pay_q[31:8];
              objlog2_d = pay_q[36:32];
              reads_d   = pay_q[44:40];
              writes_d  = pay_q[52:48];
              cold_d    = pay_q[60:56];
              seed_d    = pay_q[95:64];
            end
            start_d = op_q == OpStart;
            if (op_q == OpStatus) begin
              cap_d = {8'd0, 32'(check_idx_i), 5'd0, check_code_i, 5'd0, cfg_err_code_i,
                       3'd0, err_i, check_ok_i, cfg_err_i, done_i, busy_i};
            end
            if (op_q == OpCounter) begin
              sel_d     = pay_q[2:0];
              cap_ctr_d = 1'b1;
            end
          end
        end
        if (st_d == StReply) begin
          ridx_d = '0;
          crc_d  = 8'd0;
        end
      end
      StReply: begin
        if (tx_ready_i) begin
          if (ridx_q == rlast_q) begin
            st_d  = drop_q ? StDrop : StIdle;
            sil_d = '0;
          end else begin
            ridx_d = ridx_q + 6'd1;
            if (ridx_q != 6'd0) begin
              crc_d = crc8_step(crc_q, tx_data_o);
            end
          end
        end
      end
      StDrop: begin
        if (quiet_end) begin
          st_d = StIdle;
        end
      end
      default: st_d = StIdle;
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // The reply's bytes
  // ---------------------------------------------------------------------------------------------
  assign pay_idx   = ridx_q - 6'd3;
  assign pay_bytes = (op_q == OpIdent) ? IdentBytes : {448'd0, cap_q};
  always_comb begin
    if (ridx_q == rlast_q) begin
      tx_data_o = crc_q;
    end else if (ridx_q == 6'd0) begin
      tx_data_o = SyncRep;
    end else if (ridx_q == 6'd1) begin
      tx_data_o = {5'd0, sts_q};
    end else if (ridx_q == 6'd2) begin
      tx_data_o = op_q;
    end else begin
      tx_data_o = pay_bytes[{pay_idx, 3'b000}+:8];
    end
  end
  assign tx_valid_o = st_q == StReply;

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q      <= StIdle;
      op_q      <= '0;
      crc_q     <= '0;
      pay_q     <= '0;
      pidx_q    <= '0;
      sil_q     <= '0;
      sts_q     <= '0;
      ridx_q    <= '0;
      rlast_q   <= '0;
      drop_q    <= 1'b0;
      cap_q     <= '0;
      cap_ctr_q <= 1'b0;
      start_q   <= 1'b0;
      wl_q      <= '0;
      thr_q     <= '0;
      objlog2_q <= '0;
      reads_q   <= '0;
      writes_q  <= '0;
      cold_q    <= '0;
      seed_q    <= '0;
      sel_q     <= '0;
    end else begin
      st_q      <= st_d;
      op_q      <= op_d;
      crc_q     <= crc_d;
      pay_q     <= pay_d;
      pidx_q    <= pidx_d;
      sil_q     <= sil_d;
      sts_q     <= sts_d;
      ridx_q    <= ridx_d;
      rlast_q   <= rlast_d;
      drop_q    <= drop_d;
      cap_q     <= cap_d;
      cap_ctr_q <= cap_ctr_d;
      start_q   <= start_d;
      wl_q      <= wl_d;
      thr_q     <= thr_d;
      objlog2_q <= objlog2_d;
      reads_q   <= reads_d;
      writes_q  <= writes_d;
      cold_q    <= cold_d;
      seed_q    <= seed_d;
      sel_q     <= sel_d;
    end
  end

  assign start_o       = start_q;
  assign cfg_wl_o      = wl_q;
  assign cfg_threads_o = thr_q;
  assign cfg_objlog2_o = objlog2_q;
  assign cfg_reads_o   = reads_q;
  assign cfg_writes_o  = writes_q;
  assign cfg_cold_o    = cold_q;
  assign cfg_seed_o    = seed_q;
  assign ctr_sel_o     = sel_q;

endmodule
