// SPDX-License-Identifier: Apache-2.0
//
// htm_sys: the FPGA prototype's subsystem (docs/htm_sys.md, "htm_sys"; docs/proto.md, "The
// subsystem"). NumCores SIMT cores (htm_sys_core), NumParts memory partitions (htm_sys_part), a
// request crossbar from the cores to the partitions and a reply crossbar back (htm_xbar), the
// commit-id allocator and the run control (htm_sys_run: initialisation, start, run to quiet,
// check, counters), composed exactly as golden::SysFabric composes their golden models:
//   * core c: core_idx_i = c, the run control's run_* outputs as cfg_*, core_start_o as
//     start_i; its request port is source c of the request crossbar, its reply port destination
//     c of the reply crossbar (always taken);
//   * partition p: destination p of the request crossbar (req_src_i = the crossbar's out_src,
//     out_ready = its req_ready_o), part_idx_i = p, rep_ready_i = the reply crossbar's
//     req_ready of source p; its reply is source p of the reply crossbar; its maintenance port is
//     the run control's port p (nothing else uses it: the cores do not run during Init and
//     Check);
//   * the commit-id allocator: a CidW-bit counter and a round-robin arbiter (htm_rr_arb) over
//     the cores' cid_req_o; the winner gets cid_gnt_i and the counter as cid_i, and the counter
//     increments;
//   * quiet (the run control's quiet_i): no core running or holding a request, no partition
//     busy, and both crossbars empty, each by a counter of the messages taken at its inputs and
//     not yet taken at its outputs (+1 per req_valid && req_ready, -1 per out_valid &&
//     out_ready), zero.
// The commit-log port is the cores' logw and logd streams side by side (element c from core c);
// err_o is the OR of every core's, partition's and crossbar's err_o (each sticky).
//
// Where docs/htm_sys.md leaves a choice, the reading taken is marked "Choice:" below.
//
// Status: written to docs/htm_sys.md; Verilator-lint clean in default, small and one, parsed by
// Yosys; not yet in rtl/files.f nor registered in cmake, so no test in the tree runs it yet.
`include "htm_assert.svh"

module htm_sys #(
  // The cores' (docs/htm_sys_core.md).
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
  // The partitions' commit units (docs/htm_commit_unit.md).
  parameter int unsigned RingSize         = 32,
  parameter int unsigned BufWords         = 256,
  parameter int unsigned ValTags          = 4,
  parameter int unsigned LwhSets          = 64,
  parameter int unsigned LwhWays          = 2,
  parameter int unsigned LwhBfHashes      = 2,
  parameter int unsigned LwhBfSlots       = 64,
  parameter int unsigned LwhScrubInterval = 3,
  // Both crossbars' (docs/htm_xbar.md).
  parameter int unsigned XbarLatency      = 4,
  parameter int unsigned XbarFifoDepth    = 8,
  // Derived, do not set.
  localparam int unsigned ThrW            = 24,
  localparam int unsigned DataW           = 32
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // Run control (htm_sys_run).
  input  logic                     start_i,
  input  logic [1:0]               cfg_wl_i,
  input  logic [ThrW-1:0]          cfg_threads_i,
  input  logic [4:0]               cfg_objlog2_i,
  input  logic [4:0]               cfg_reads_i,
  input  logic [4:0]               cfg_writes_i,
  input  logic [4:0]               cfg_cold_i,
  input  logic [31:0]              cfg_seed_i,
  output logic                     busy_o,
  output logic                     done_o,
  output logic                     cfg_err_o,
  output logic [2:0]               cfg_err_code_o,
  output logic                     check_ok_o,
  output logic [2:0]               check_code_o,
  output logic [AddrW-1:0]         check_idx_o,
  input  logic [2:0]               ctr_sel_i,
  output logic [63:0]              ctr_o,
  output logic                     err_o,           // any block's err_o (each sticky)
  // Commit log: core c's streams at element c (no ready).
  output logic [NumCores-1:0]      logw_valid_o,
  output logic [NumCores*CidW-1:0] logw_cid_o,
  output logic [NumCores*ThrW-1:0] logw_thread_o,
  output logic [NumCores-1:0]      logw_write_o,
  output logic [NumCores*AddrW-1:0] logw_addr_o,
  output logic [NumCores*DataW-1:0] logw_data_o,
  output logic [NumCores-1:0]      logd_valid_o,
  output logic [NumCores*CidW-1:0] logd_cid_o,
  output logic [NumCores*ThrW-1:0] logd_thread_o,
  output logic [NumCores-1:0]      logd_commit_o
);

  localparam int unsigned CoreW  = htm_pkg::idx_width(NumCores);
  localparam int unsigned PartW  = htm_pkg::idx_width(NumParts);
  localparam int unsigned SlotW  = htm_pkg::idx_width(NumWarps);
  localparam int unsigned LaneW  = htm_pkg::idx_width(WarpSize);
  localparam int unsigned RouteW = SlotW + LaneW;
  localparam int unsigned ReqW   = 4 + CidW + RouteW + AddrW + DataW;
  localparam int unsigned RepW   = 5 + CidW + RouteW + DataW;
  // Both crossbars take requests into input FIFOs of two entries per source, so that their
  // req_ready_o comes from a register (docs/htm_xbar.md, "Pipelining for the prototype").
  localparam int unsigned XbarInDepth = 2;
  // Choice: the in-flight counters are $clog2(NumDst * FifoDepth + NumSrc * InDepth + 1) bits
  // wide: a crossbar holds at most NumDst * FifoDepth messages past its arbiters (its credits)
  // and NumSrc * InDepth in its input FIFOs, so they never wrap.
  localparam int unsigned ReqCntW = $clog2(NumParts * XbarFifoDepth + NumCores * XbarInDepth + 1);
  localparam int unsigned RepCntW = $clog2(NumCores * XbarFifoDepth + NumParts * XbarInDepth + 1);

  `HTM_ASSERT_INIT(NumCoresRange_A, NumCores >= 1)
  `HTM_ASSERT_INIT(NumPartsPow2_A, htm_pkg::is_pow2(NumParts))

  // ---------------------------------------------------------------------------------------------
  // Run control
  // ---------------------------------------------------------------------------------------------
  logic [1:0]              run_wl;
  logic [ThrW-1:0]         run_threads;
  logic [4:0]              run_objlog2, run_reads, run_writes, run_cold;
  logic [31:0]             run_seed_hash;
  logic                    core_start, quiet;
  logic [NumParts-1:0]     mt_valid, mt_we, mt_ready, mt_rvalid;
  logic [NumParts*AddrW-1:0] mt_addr;
  logic [NumParts*DataW-1:0] mt_wdata, mt_rdata;
  logic [NumCores-1:0]     ev_commit, ev_abort, ev_alloc_fail;
  logic [NumParts-1:0]     ev_load, ev_cu_msg, cu_busy;

  htm_sys_run #(
    .NumCores (NumCores),
    .NumParts (NumParts),
    .AddrW    (AddrW),
    .IlvLog2  (IlvLog2),
    .MaxReads (MaxReads),
    .MaxWrites(MaxWrites)
  ) u_run (
    .clk_i,
    .rst_ni,
    .start_i,
    .cfg_wl_i,
    .cfg_threads_i,
    .cfg_objlog2_i,
    .cfg_reads_i,
    .cfg_writes_i,
    .cfg_cold_i,
    .cfg_seed_i,
    .busy_o,
    .done_o,
    .cfg_err_o,
    .cfg_err_code_o,
    .check_ok_o,
    .check_code_o,
    .check_idx_o,
    .run_wl_o       (run_wl),
    .run_threads_o  (run_threads),
    .run_objlog2_o  (run_objlog2),
    .run_reads_o    (run_reads),
    .run_writes_o   (run_writes),
    .run_cold_o     (run_cold),
    .run_seed_hash_o(run_seed_hash),
    .core_start_o   (core_start),
    .quiet_i        (quiet),
    .mt_valid_o     (mt_valid),
    .mt_we_o        (mt_we),
    .mt_addr_o      (mt_addr),
    .mt_wdata_o     (mt_wdata),
    .mt_ready_i     (mt_ready),
    .mt_rvalid_i    (mt_rvalid),
    .mt_rdata_i     (mt_rdata),
    .ev_commit_i    (ev_commit),
    .ev_abort_i     (ev_abort),
    .ev_alloc_fail_i(ev_alloc_fail),
    .ev_load_i      (ev_load),
    .ev_cu_msg_i    (ev_cu_msg),
    .cu_busy_i      (cu_busy),
    .ctr_sel_i,
    .ctr_o
  );

  // ---------------------------------------------------------------------------------------------
  // Cores
  // ---------------------------------------------------------------------------------------------
  logic [NumCores-1:0]       core_running, cid_req, cid_gnt, core_req_valid, core_req_ready;
  logic [NumCores-1:0]       core_err;
  logic [NumCores*PartW-1:0] core_req_dst;
  logic [NumCores*ReqW-1:0]  core_req_data;
  logic [NumCores-1:0]       core_rep_valid;
  logic [NumCores*PartW-1:0] core_rep_src;
  logic [NumCores*RepW-1:0]  core_rep_data;
  logic [CidW-1:0]           cid_q;

  for (genvar c = 0; c < NumCores; c++) begin : g_core
    htm_sys_core #(
      .NumCores  (NumCores),
      .NumWarps  (NumWarps),
      .WarpSize  (WarpSize),
      .NumParts  (NumParts),
      .AddrW     (AddrW),
      .IlvLog2   (IlvLog2),
      .CidW      (CidW),
      .MaxReads  (MaxReads),
      .MaxWrites (MaxWrites),
      .AllocRetry(AllocRetry)
    ) u_core (
      .clk_i,
      .rst_ni,
      .core_idx_i     (CoreW'(c)),
      .start_i        (core_start),
      .cfg_wl_i       (run_wl),
      .cfg_threads_i  (run_threads),
      .cfg_objlog2_i  (run_objlog2),
      .cfg_reads_i    (run_reads),
      .cfg_writes_i   (run_writes),
      .cfg_cold_i     (run_cold),
      .cfg_seed_hash_i(run_seed_hash),
      .running_o      (core_running[c]),
      .cid_req_o      (cid_req[c]),
      .cid_gnt_i      (cid_gnt[c]),
      .cid_i          (cid_q),
      .req_valid_o    (core_req_valid[c]),
      .req_ready_i    (core_req_ready[c]),
      .req_dst_o      (core_req_dst[c*PartW +: PartW]),
      .req_data_o     (core_req_data[c*ReqW +: ReqW]),
      .rep_valid_i    (core_rep_valid[c]),
      .rep_src_i      (core_rep_src[c*PartW +: PartW]),
      .rep_data_i     (core_rep_data[c*RepW +: RepW]),
      .logw_valid_o   (logw_valid_o[c]),
      .logw_cid_o     (logw_cid_o[c*CidW +: CidW]),
      .logw_thread_o  (logw_thread_o[c*ThrW +: ThrW]),
      .logw_write_o   (logw_write_o[c]),
      .logw_addr_o    (logw_addr_o[c*AddrW +: AddrW]),
      .logw_data_o    (logw_data_o[c*DataW +: DataW]),
      .logd_valid_o   (logd_valid_o[c]),
      .logd_cid_o     (logd_cid_o[c*CidW +: CidW]),
      .logd_thread_o  (logd_thread_o[c*ThrW +: ThrW]),
      .logd_commit_o  (logd_commit_o[c]),
      .ev_commit_o    (ev_commit[c]),
      .ev_abort_o     (ev_abort[c]),
      .ev_alloc_fail_o(ev_alloc_fail[c]),
      .err_o          (core_err[c])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Commit-id allocator: the winner of the round-robin arbiter takes the counter.
  // ---------------------------------------------------------------------------------------------
  logic             cid_gnt_valid;
  logic [CoreW-1:0] cid_gnt_idx_unused, cid_prio_unused;

  // Choice: ack_i is 1, as golden::SysFabric's allocator; the page's "ack = a grant" is the
  // same arbiter, whose pointer moves only when some requester is granted.
  htm_rr_arb #(.NumReq(NumCores)) u_cid_arb (
    .clk_i,
    .rst_ni,
    .req_i      (cid_req),
    .ack_i      (1'b1),
    .gnt_o      (cid_gnt),
    .gnt_idx_o  (cid_gnt_idx_unused),
    .gnt_valid_o(cid_gnt_valid),
    .prio_o     (cid_prio_unused)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cid_q <= '0;
    end else if (cid_gnt_valid) begin
      cid_q <= cid_q + 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Request crossbar (cores -> partitions)
  // ---------------------------------------------------------------------------------------------
  logic [NumParts-1:0]       part_req_valid, part_req_ready;
  logic [NumParts*CoreW-1:0] part_req_src;
  logic [NumParts*ReqW-1:0]  part_req_data;
  logic                      xreq_err;

  htm_xbar #(
    .NumSrc   (NumCores),
    .NumDst   (NumParts),
    .DataW    (ReqW),
    .Latency  (XbarLatency),
    .FifoDepth(XbarFifoDepth),
    .InDepth  (XbarInDepth)
  ) u_req_xbar (
    .clk_i,
    .rst_ni,
    .req_valid_i(core_req_valid),
    .req_ready_o(core_req_ready),
    .req_dst_i  (core_req_dst),
    .req_data_i (core_req_data),
    .out_valid_o(part_req_valid),
    .out_ready_i(part_req_ready),
    .out_src_o  (part_req_src),
    .out_data_o (part_req_data),
    .err_o      (xreq_err)
  );

  // ---------------------------------------------------------------------------------------------
  // Partitions
  // ---------------------------------------------------------------------------------------------
  logic [NumParts-1:0]       part_rep_valid, part_rep_ready, part_busy, part_err;
  logic [NumParts*CoreW-1:0] part_rep_dst;
  logic [NumParts*RepW-1:0]  part_rep_data;
  logic [NumParts-1:0]       part_alloc_fail_unused, rct_inc_valid_unused, rct_inc_write_unused;
  logic [NumParts-1:0]       rct_dec_valid_unused, rct_dec_write_unused;
  logic [NumParts*AddrW-1:0] rct_inc_addr_unused, rct_dec_addr_unused;

  for (genvar p = 0; p < NumParts; p++) begin : g_part
    htm_sys_part #(
      .NumParts        (NumParts),
      .AddrW           (AddrW),
      .DataW           (DataW),
      .IlvLog2         (IlvLog2),
      .CoreW           (CoreW),
      .RouteW          (RouteW),
      .CidW            (CidW),
      .RingSize        (RingSize),
      .BufWords        (BufWords),
      .ValTags         (ValTags),
      .LwhSets         (LwhSets),
      .LwhWays         (LwhWays),
      .LwhBfHashes     (LwhBfHashes),
      .LwhBfSlots      (LwhBfSlots),
      .LwhScrubInterval(LwhScrubInterval),
      .LwhPipe         (1'b1)  // the LWH result registered (docs/htm_sys_part.md)
    ) u_part (
      .clk_i,
      .rst_ni,
      .part_idx_i     (PartW'(p)),
      .req_valid_i    (part_req_valid[p]),
      .req_ready_o    (part_req_ready[p]),
      .req_src_i      (part_req_src[p*CoreW +: CoreW]),
      .req_data_i     (part_req_data[p*ReqW +: ReqW]),
      .rep_valid_o    (part_rep_valid[p]),
      .rep_ready_i    (part_rep_ready[p]),
      .rep_dst_o      (part_rep_dst[p*CoreW +: CoreW]),
      .rep_data_o     (part_rep_data[p*RepW +: RepW]),
      .mt_valid_i     (mt_valid[p]),
      .mt_ready_o     (mt_ready[p]),
      .mt_we_i        (mt_we[p]),
      .mt_addr_i      (mt_addr[p*AddrW +: AddrW]),
      .mt_wdata_i     (mt_wdata[p*DataW +: DataW]),
      .mt_rvalid_o    (mt_rvalid[p]),
      .mt_rdata_o     (mt_rdata[p*DataW +: DataW]),
      .ev_load_o      (ev_load[p]),
      .ev_cu_msg_o    (ev_cu_msg[p]),
      .ev_alloc_fail_o(part_alloc_fail_unused[p]),
      .cu_busy_o      (cu_busy[p]),
      .rct_inc_valid_o(rct_inc_valid_unused[p]),
      .rct_inc_addr_o (rct_inc_addr_unused[p*AddrW +: AddrW]),
      .rct_inc_write_o(rct_inc_write_unused[p]),
      .rct_dec_valid_o(rct_dec_valid_unused[p]),
      .rct_dec_addr_o (rct_dec_addr_unused[p*AddrW +: AddrW]),
      .rct_dec_write_o(rct_dec_write_unused[p]),
      .busy_o         (part_busy[p]),
      .err_o          (part_err[p])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Reply crossbar (partitions -> cores); a core takes every reply.
  // ---------------------------------------------------------------------------------------------
  logic xrep_err;

  htm_xbar #(
    .NumSrc   (NumParts),
    .NumDst   (NumCores),
    .DataW    (RepW),
    .Latency  (XbarLatency),
    .FifoDepth(XbarFifoDepth),
    .InDepth  (XbarInDepth)
  ) u_rep_xbar (
    .clk_i,
    .rst_ni,
    .req_valid_i(part_rep_valid),
    .req_ready_o(part_rep_ready),
    .req_dst_i  (part_rep_dst),
    .req_data_i (part_rep_data),
    .out_valid_o(core_rep_valid),
    .out_ready_i({NumCores{1'b1}}),
    .out_src_o  (core_rep_src),
    .out_data_o (core_rep_data),
    .err_o      (xrep_err)
  );

  // ---------------------------------------------------------------------------------------------
  // Quiet: the crossbars' in-flight counters (registers) and the blocks' state outputs.
  // ---------------------------------------------------------------------------------------------
  logic [ReqCntW-1:0] req_cnt_q;
  logic [RepCntW-1:0] rep_cnt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_cnt_q <= '0;
      rep_cnt_q <= '0;
    end else begin
      req_cnt_q <= req_cnt_q + ReqCntW'($countones(core_req_valid & core_req_ready))
                 - ReqCntW'($countones(part_req_valid & part_req_ready));
      rep_cnt_q <= rep_cnt_q + RepCntW'($countones(part_rep_valid & part_rep_ready))
                 - RepCntW'($countones(core_rep_valid));
    end
  end

  assign quiet = core_running == '0 && core_req_valid == '0 && part_busy == '0
              && req_cnt_q == '0 && rep_cnt_q == '0;

  // Choice: err_o is the combinational OR of the blocks' err_o, which are each sticky already
  // (docs/htm_sys.md says "sticky: any core's, partition's or crossbar's err_o"); no register
  // of its own, so it rises in the cycle the first block's does.
  assign err_o = (|core_err) | (|part_err) | xreq_err | xrep_err;

  logic unused_sig;
  assign unused_sig = ^{cid_gnt_idx_unused, cid_prio_unused, part_alloc_fail_unused,
                        rct_inc_valid_unused, rct_inc_write_unused, rct_dec_valid_unused,
                        rct_dec_write_unused, rct_inc_addr_unused, rct_dec_addr_unused};

  `HTM_ASSERT(ReqCntBound_A, 32'(req_cnt_q) <= NumParts * XbarFifoDepth + NumCores * XbarInDepth)
  `HTM_ASSERT(RepCntBound_A, 32'(rep_cnt_q) <= NumCores * XbarFifoDepth + NumParts * XbarInDepth)

endmodule
