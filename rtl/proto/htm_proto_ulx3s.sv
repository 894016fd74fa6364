// SPDX-License-Identifier: Apache-2.0
//
// htm_proto_ulx3s: the FPGA prototype's board top for the ULX3S 85F (LFE5U-85F-8BG381;
// docs/proto.md, "The board top"). The port names are those of the board's reference
// constraint file (fpga/ulx3s_v20.lpf), so that they are not suffixed _i/_o.
//
//   clk_25mhz -> htm_ecp5_pll -> clk (the subsystem's clock, ClkKhz kHz)
//   reset: the PLL not locked or btn[0] (PWR, active low) low, asserted at once and released
//     through two flip-flops on clk (so that every block leaves reset in the same cycle);
//   ftdi_txd (the FTDI's transmit) -> htm_uart_rx -> htm_proto_ctrl -> htm_uart_tx -> ftdi_rxd,
//     8N1 at ClkKhz * 1000 / ClkPerBit baud (115 200 with ClkPerBit's default);
//   htm_proto_ctrl <-> htm_sys: the run control's ports (start, configuration, status, counters);
//     the subsystem's commit-log port is not used on the board;
//   led[0] busy, led[1] done, led[2] check_ok, led[3] cfg_err, led[4] err (the subsystem's),
//     led[5] a heartbeat (toggles every half second of clk: the clock runs and reset is over),
//     led[6] the PLL's lock, led[7] off.
// btn[6:1] and the FTDI's other pins are not used. In simulation (no SYNTHESIS) the PLL is a
// model that passes clk_25mhz through and locks 16 cycles after btn[0] rises, so that a
// Verilated board runs at one clock of ClkKhz kHz.
`include "htm_assert.svh"

module htm_proto_ulx3s #(
  // The subsystem's (htm_sys; defaults: its `default` configuration in cmake/HtmConfigs.cmake).
  parameter int unsigned NumCores         = 4,
  parameter int unsigned NumWarps         = 4,
  parameter int unsigned WarpSize         = 8,
  parameter int unsigned NumParts         = 2,
  parameter int unsigned AddrW            = 13,
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
  // The subsystem's clock in kHz (the PLL's output; reported by IDENT).
  parameter int unsigned ClkKhz           = 100000,
  // The UART's clock cycles per bit (115 200 baud).
  parameter int unsigned ClkPerBit        = ClkKhz * 1000 / 115200,
  // The PLL's dividers for 25 MHz to ClkKhz (ecppll's; htm_ecp5_pll). Defaults: 100 MHz.
  parameter int unsigned ClkiDiv          = 1,
  parameter int unsigned ClkfbDiv         = 4,
  parameter int unsigned ClkopDiv         = 6,
  parameter int unsigned ClkopCphase      = 2,
  parameter int unsigned ClkopFphase      = 0,
  // A command frame whose next byte does not come within this many cycles is abandoned (10 ms).
  parameter int unsigned TimeoutCycles    = ClkKhz * 10,
  // Derived, do not set.
  localparam int unsigned BeatCycles      = ClkKhz * 500,  // half a second of clk
  localparam int unsigned BeatW           = $clog2(BeatCycles)
) (
  input  logic       clk_25mhz,  // sv-style: allow ports
  input  logic [6:0] btn,        // sv-style: allow ports
  input  logic       ftdi_txd,   // sv-style: allow ports
  output logic       ftdi_rxd,   // sv-style: allow ports
  output logic [7:0] led         // sv-style: allow ports
);

  localparam int unsigned ThrW  = 24;
  localparam int unsigned DataW = 32;

  `HTM_ASSERT_INIT(BeatCyclesRange_A, BeatCycles >= 2)

  // ---------------------------------------------------------------------------------------------
  // Clock and reset
  // ---------------------------------------------------------------------------------------------
  logic       clk, locked, arst_n, rst_n;
  // rst_sync_q[1] is every block's rst_ni: their assertions sample it synchronously (disable
  // iff) while their flip-flops use it as an asynchronous reset, as the project-wide waiver on
  // rst_ni says; this is where that net is a flip-flop.
  /* verilator lint_off SYNCASYNCNET */
  logic [1:0] rst_sync_q;
  /* verilator lint_on SYNCASYNCNET */

  htm_ecp5_pll #(
    .ClkiDiv    (ClkiDiv),
    .ClkfbDiv   (ClkfbDiv),
    .ClkopDiv   (ClkopDiv),
    .ClkopCphase(ClkopCphase),
    .ClkopFphase(ClkopFphase)
  ) u_pll (
    .clk_i   (clk_25mhz),
    .rst_ni  (btn[0]),
    .clk_o   (clk),
    .locked_o(locked)
  );

  assign arst_n = locked & btn[0];

  always_ff @(posedge clk or negedge arst_n) begin
    if (!arst_n) begin
      rst_sync_q <= 2'b00;
    end else begin
      rst_sync_q <= {rst_sync_q[0], 1'b1};
    end
  end

  assign rst_n = rst_sync_q[1];

  // ---------------------------------------------------------------------------------------------
  // UART and command interface
  // ---------------------------------------------------------------------------------------------
  logic             rx_valid, rx_err, tx_valid, tx_ready;
  logic [7:0]       rx_data, tx_data;
  logic             start;
  logic [1:0]       cfg_wl;
  logic [ThrW-1:0]  cfg_threads;
  logic [4:0]       cfg_objlog2, cfg_reads, cfg_writes, cfg_cold;
  logic [31:0]      cfg_seed;
  logic             busy, done, cfg_err, check_ok, err;
  logic [2:0]       cfg_err_code, check_code, ctr_sel;
  logic [AddrW-1:0] check_idx;
  logic [63:0]      ctr;

  htm_uart_rx #(.ClkPerBit(ClkPerBit)) u_uart_rx (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .rx_i       (ftdi_txd),
    .out_valid_o(rx_valid),
    .out_data_o (rx_data),
    .frame_err_o(rx_err)
  );

  htm_uart_tx #(.ClkPerBit(ClkPerBit)) u_uart_tx (
    .clk_i     (clk),
    .rst_ni    (rst_n),
    .in_valid_i(tx_valid),
    .in_ready_o(tx_ready),
    .in_data_i (tx_data),
    .tx_o      (ftdi_rxd)
  );

  htm_proto_ctrl #(
    .NumCores        (NumCores),
    .NumWarps        (NumWarps),
    .WarpSize        (WarpSize),
    .NumParts        (NumParts),
    .AddrW           (AddrW),
    .IlvLog2         (IlvLog2),
    .CidW            (CidW),
    .MaxReads        (MaxReads),
    .MaxWrites       (MaxWrites),
    .AllocRetry      (AllocRetry),
    .RingSize        (RingSize),
    .BufWords        (BufWords),
    .ValTags         (ValTags),
    .LwhSets         (LwhSets),
    .LwhWays         (LwhWays),
    .LwhBfHashes     (LwhBfHashes),
    .LwhBfSlots      (LwhBfSlots),
    .LwhScrubInterval(LwhScrubInterval),
    .XbarLatency     (XbarLatency),
    .XbarFifoDepth   (XbarFifoDepth),
    .ClkKhz          (ClkKhz),
    .TimeoutCycles   (TimeoutCycles)
  ) u_ctrl (
    .clk_i         (clk),
    .rst_ni        (rst_n),
    .rx_valid_i    (rx_valid),
    .rx_data_i     (rx_data),
    .rx_err_i      (rx_err),
    .tx_valid_o    (tx_valid),
    .tx_ready_i    (tx_ready),
    .tx_data_o     (tx_data),
    .start_o       (start),
    .cfg_wl_o      (cfg_wl),
    .cfg_threads_o (cfg_threads),
    .cfg_objlog2_o (cfg_objlog2),
    .cfg_reads_o   (cfg_reads),
    .cfg_writes_o  (cfg_writes),
    .cfg_cold_o    (cfg_cold),
    .cfg_seed_o    (cfg_seed),
    .busy_i        (busy),
    .done_i        (done),
    .cfg_err_i     (cfg_err),
    .cfg_err_code_i(cfg_err_code),
    .check_ok_i    (check_ok),
    .check_code_i  (check_code),
    .check_idx_i   (check_idx),
    .err_i         (err),
    .ctr_sel_o     (ctr_sel),
    .ctr_i         (ctr)
  );

  // ---------------------------------------------------------------------------------------------
  // Every run from reset
  // ---------------------------------------------------------------------------------------------
  // START (htm_proto_ctrl's start_o in cycle t) holds the subsystem in reset in cycles t+1 and
  // t+2 and starts it in t+3, its first cycle out of reset: a run on the board then does not
  // depend on the runs before it (the commit-id counter, the commit units' rings and LWH, the
  // arbiters' priorities), and its golden twin, started from reset, is cycle-exact with it.
  // Memory keeps its contents: the run's initialisation writes every word the workload uses.
  // The reset is a flip-flop's output, never a gate's.
  logic       sys_start, sys_rst_nq;
  logic [2:0] run_q;  // START delayed by 1, 2 and 3 cycles

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      run_q      <= 3'b000;
      sys_rst_nq <= 1'b0;
    end else begin
      run_q      <= {run_q[1:0], start};
      sys_rst_nq <= !(start || run_q[0]);
    end
  end

  assign sys_start = run_q[2];

  // ---------------------------------------------------------------------------------------------
  // The subsystem
  // ---------------------------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  // The commit-log port: for the Verilated subsystem and its twin, not brought out on the board.
  logic [NumCores-1:0]       logw_valid, logw_write, logd_valid, logd_commit;
  logic [NumCores*CidW-1:0]  logw_cid, logd_cid;
  logic [NumCores*ThrW-1:0]  logw_thread, logd_thread;
  logic [NumCores*AddrW-1:0] logw_addr;
  logic [NumCores*DataW-1:0] logw_data;
  logic [5:0]                btn_unused;  // btn[6:1]: FIRE1, FIRE2, UP, DOWN, LEFT, RIGHT
  /* verilator lint_on UNUSEDSIGNAL */

  assign btn_unused = btn[6:1];

  htm_sys #(
    .NumCores        (NumCores),
    .NumWarps        (NumWarps),
    .WarpSize        (WarpSize),
    .NumParts        (NumParts),
    .AddrW           (AddrW),
    .IlvLog2         (IlvLog2),
    .CidW            (CidW),
    .MaxReads        (MaxReads),
    .MaxWrites       (MaxWrites),
    .AllocRetry      (AllocRetry),
    .RingSize        (RingSize),
    .BufWords        (BufWords),
    .ValTags         (ValTags),
    .LwhSets         (LwhSets),
    .LwhWays         (LwhWays),
    .LwhBfHashes     (LwhBfHashes),
    .LwhBfSlots      (LwhBfSlots),
    .LwhScrubInterval(LwhScrubInterval),
    .XbarLatency     (XbarLatency),
    .XbarFifoDepth   (XbarFifoDepth)
  ) u_sys (
    .clk_i         (clk),
    .rst_ni        (sys_rst_nq),
    .start_i       (sys_start),
    .cfg_wl_i      (cfg_wl),
    .cfg_threads_i (cfg_threads),
    .cfg_objlog2_i (cfg_objlog2),
    .cfg_reads_i   (cfg_reads),
    .cfg_writes_i  (cfg_writes),
    .cfg_cold_i    (cfg_cold),
    .cfg_seed_i    (cfg_seed),
    .busy_o        (busy),
    .done_o        (done),
    .cfg_err_o     (cfg_err),
    .cfg_err_code_o(cfg_err_code),
    .check_ok_o    (check_ok),
    .check_code_o  (check_code),
    .check_idx_o   (check_idx),
    .ctr_sel_i     (ctr_sel),
    .ctr_o         (ctr),
    .err_o         (err),
    .logw_valid_o  (logw_valid),
    .logw_cid_o    (logw_cid),
    .logw_thread_o (logw_thread),
    .logw_write_o  (logw_write),
    .logw_addr_o   (logw_addr),
    .logw_data_o   (logw_data),
    .logd_valid_o  (logd_valid),
    .logd_cid_o    (logd_cid),
    .logd_thread_o (logd_thread),
    .logd_commit_o (logd_commit)
  );

  // ---------------------------------------------------------------------------------------------
  // LEDs
  // ---------------------------------------------------------------------------------------------
  logic [BeatW-1:0] beat_cnt_q;  // cycles to the heartbeat's next toggle
  logic             beat_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      beat_cnt_q <= BeatW'(BeatCycles - 1);
      beat_q     <= 1'b0;
    end else if (beat_cnt_q == '0) begin
      beat_cnt_q <= BeatW'(BeatCycles - 1);
      beat_q     <= !beat_q;
    end else begin
      beat_cnt_q <= beat_cnt_q - 1'b1;
    end
  end

  assign led = {1'b0, locked, beat_q, err, cfg_err, check_ok, done, busy};

endmodule
