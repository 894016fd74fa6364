// SPDX-License-Identifier: Apache-2.0
//
// htm_tx_simt_stack: the transaction-aware SIMT stack of a warp (KILO TM: Fung et al.,
// MICRO 2011, slides 23-24; extended for Pause-and-Go with the Log Index: Chen & Peng, HPCA 2016,
// section 4.4, Figures 6-7; docs/authors_simulator.md, sections 3.1-3.2).
//
// Entries {type, PC, RPC, mask, L} in Depth registers, entry 0 at the bottom. One command per
// cycle, applied at the clock edge; every output depends on registers only.
//   Init     the stack becomes Normal {pc, rpc, mask}.
//   Next     the top executed a non-branch instruction: its PC becomes pc; a Trans top takes the
//            log pointer (cmd_log_i) as L; a Normal top (not the bottom) pops when pc = its RPC.
//   Branch   taken lanes mask (of the top's), target pc, fall-through pc2, reconvergence rpc:
//            all or none taken moves the PC; otherwise the top waits at rpc and the fall-through
//            and taken paths are pushed as Normal entries (a path starting at rpc is not). When
//            the top is a Normal entry above the bottom whose RPC is rpc already, the entry
//            below waits there with every lane: the top itself becomes the fall-through path
//            (or the taken one when the fall-through starts at rpc) and only the taken path is
//            pushed (lanes of a path starting at rpc leave the top).
//   TxBegin  first transactional PC pc, the PC after the commit rpc: pushes Retry {pc, rpc,
//            empty} and Trans {pc, the top's lanes}. Inside a transaction it only moves the PC
//            (nesting is flattened).
//   Pause    lanes mask of the top Trans entry pause: a Trans entry {the top's PC, the paused
//            lanes, L = cmd_log_i} is inserted just below the top, whose lanes are the rest.
//            Skipped (paused_o low) when the top is not Trans or no lane of it is named.
//   Commit   the top Trans entry's commit; mask: its lanes that failed. Failed lanes join the
//            Retry mask; the entry pops.
//   Abort    lanes mask leave every entry above Retry and join the Retry mask.
// After Commit and Abort, empty entries above Retry pop; then, when Retry is the top, the
// transaction restarts (Retry's lanes and PC are copied into a new Trans entry, Retry's mask is
// cleared: restarted_o) or, with no failed lane, ends (Retry pops, the entry below continues
// at Retry's RPC: tx_done_o); when a Trans entry popped and a paused Trans entry is the top,
// resumed_o tells the log walker to restore its pointer from top_log_o.
// Errors (err_o, sticky; the command is ignored): no entry (before Init), overflow, Commit
// without a Trans top in a transaction, Abort outside a transaction, a Pause naming every lane
// of the top, an unknown command.
`include "htm_assert.svh"

module htm_tx_simt_stack #(
  parameter int unsigned WarpSize = 32,  // lanes, 1..64
  parameter int unsigned Depth    = 16,  // entries, 3..64
  parameter int unsigned PcW      = 32,  // PC width, 1..64
  parameter int unsigned LogW     = 10,  // Log Index width, 1..32
  // Derived, do not set.
  localparam int unsigned CntW    = $clog2(Depth + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // A command of the warp's pipeline.
  input  logic                     cmd_valid_i,
  input  logic [2:0]               cmd_op_i,    // htm_pkg::simt_op_e
  input  logic [WarpSize-1:0]      cmd_mask_i,
  input  logic [PcW-1:0]           cmd_pc_i,
  input  logic [PcW-1:0]           cmd_pc2_i,
  input  logic [PcW-1:0]           cmd_rpc_i,
  input  logic [LogW-1:0]          cmd_log_i,   // the log walker's pointer
  // The top of the stack.
  output logic                     top_valid_o,
  output logic [1:0]               top_type_o,  // htm_pkg::simt_type_e
  output logic [PcW-1:0]           top_pc_o,
  output logic [PcW-1:0]           top_rpc_o,
  output logic [WarpSize-1:0]      top_mask_o,
  output logic [LogW-1:0]          top_log_o,
  output logic [CntW-1:0]          depth_o,
  output logic                     in_tx_o,
  // What the last command did.
  output logic                     resumed_o,
  output logic                     restarted_o,
  output logic                     tx_done_o,
  output logic                     paused_o,
  output logic                     err_o,
  // The whole stack, entry i at [i*W +: W]; zero at and above depth_o.
  output logic [Depth*2-1:0]        stk_type_o,
  output logic [Depth*PcW-1:0]      stk_pc_o,
  output logic [Depth*PcW-1:0]      stk_rpc_o,
  output logic [Depth*WarpSize-1:0] stk_mask_o,
  output logic [Depth*LogW-1:0]     stk_log_o
);

  `HTM_ASSERT_INIT(WarpSizeRange_A, WarpSize >= 1 && WarpSize <= 64)
  `HTM_ASSERT_INIT(DepthRange_A, Depth >= 3 && Depth <= 64)
  `HTM_ASSERT_INIT(PcWRange_A, PcW >= 1 && PcW <= 64)
  `HTM_ASSERT_INIT(LogWRange_A, LogW >= 1 && LogW <= 32)

  localparam logic [1:0] TNormal = 2'(htm_pkg::SimtTypeNormal);
  localparam logic [1:0] TRetry  = 2'(htm_pkg::SimtTypeRetry);
  localparam logic [1:0] TTrans  = 2'(htm_pkg::SimtTypeTrans);

  // The entries.
  logic [1:0]          type_q [Depth];
  logic [PcW-1:0]      pc_q   [Depth];
  logic [PcW-1:0]      rpc_q  [Depth];
  logic [WarpSize-1:0] mask_q [Depth];
  logic [LogW-1:0]     log_q  [Depth];
  logic [1:0]          type_d [Depth];
  logic [PcW-1:0]      pc_d   [Depth];
  logic [PcW-1:0]      rpc_d  [Depth];
  logic [WarpSize-1:0] mask_d [Depth];
  logic [LogW-1:0]     log_d  [Depth];
  logic [CntW-1:0]     sp_q, sp_d;      // entries in use
  logic [CntW-1:0]     ridx_q, ridx_d;  // the Retry entry (in a transaction)
  logic                in_tx_q, in_tx_d;
  logic                resumed_q, restarted_q, tx_done_q, paused_q, err_q;
  logic                resumed_d, restarted_d, tx_done_d, paused_d, bad;

  // The top entry, the Retry entry and the lanes above Retry.
  logic [1:0]          t_type;
  logic [PcW-1:0]      t_pc, t_rpc, r_pc, r_rpc;
  logic [WarpSize-1:0] t_mask, live;
  logic                has;
  logic [31:0]         sp, top, ridx;

  assign has  = sp_q != '0;
  assign sp   = 32'(sp_q);
  assign top  = sp - 32'd1;
  assign ridx = 32'(ridx_q);

  always_comb begin
    t_type = '0;
    t_pc   = '0;
    t_rpc  = '0;
    t_mask = '0;
    r_pc   = '0;
    r_rpc  = '0;
    live   = '0;
    for (int i = 0; i < Depth; i++) begin
      if (has && 32'(i) == top) begin
        t_type = type_q[i];
        t_pc   = pc_q[i];
        t_rpc  = rpc_q[i];
        t_mask = mask_q[i];
      end
      if (32'(i) == ridx) begin
        r_pc  = pc_q[i];
        r_rpc = rpc_q[i];
      end
      if (in_tx_q && 32'(i) > ridx && 32'(i) < sp) begin
        live = live | mask_q[i];
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The command
  // -----------------------------------------------------------------------------------------------
  logic [WarpSize-1:0] taken, fall, pm, failed, ab, rmask;
  logic [31:0]         pushes, sp1, nn, k;
  logic                settle, popped_trans, r_top, top_trans_after, same;

  always_comb begin
    for (int i = 0; i < Depth; i++) begin
      type_d[i] = type_q[i];
      pc_d[i]   = pc_q[i];
      rpc_d[i]  = rpc_q[i];
      mask_d[i] = mask_q[i];
      log_d[i]  = log_q[i];
    end
    sp_d         = sp_q;
    ridx_d       = ridx_q;
    in_tx_d      = in_tx_q;
    resumed_d    = 1'b0;
    restarted_d  = 1'b0;
    tx_done_d    = 1'b0;
    paused_d     = 1'b0;
    bad          = 1'b0;
    taken        = cmd_mask_i & t_mask;
    fall         = t_mask & ~taken;
    pm           = cmd_mask_i & t_mask;
    failed       = cmd_mask_i & t_mask;
    ab           = cmd_mask_i & live;
    // Branch: a Normal top above the bottom that already reconverges at rpc is reused for the
    // paths (the entry below waits at rpc with every lane); otherwise it waits at rpc.
    same         = t_type == TNormal && sp > 32'd1 && cmd_rpc_i == t_rpc;
    pushes       = same ? 32'(cmd_pc2_i != cmd_rpc_i && cmd_pc_i != cmd_rpc_i)
                        : 32'(cmd_pc2_i != cmd_rpc_i) + 32'(cmd_pc_i != cmd_rpc_i);
    sp1          = sp;
    settle       = 1'b0;
    popped_trans = 1'b0;
    nn           = '0;
    k            = '0;
    rmask        = '0;
    r_top        = 1'b0;
    top_trans_after = 1'b0;

    if (cmd_valid_i) begin
      unique case (cmd_op_i)
        3'(htm_pkg::SimtOpInit): begin
          for (int i = 0; i < Depth; i++) begin
            if (i == 0) begin
              type_d[i] = TNormal;
              pc_d[i]   = cmd_pc_i;
              rpc_d[i]  = cmd_rpc_i;
              mask_d[i] = cmd_mask_i;
              log_d[i]  = '0;
            end
          end
          sp_d    = CntW'(1);
          ridx_d  = '0;
          in_tx_d = 1'b0;
        end
        3'(htm_pkg::SimtOpNext): begin
          if (!has) begin
            bad = 1'b1;
          end else begin
            for (int i = 0; i < Depth; i++) begin
              if (32'(i) == top) begin
                pc_d[i] = cmd_pc_i;
                if (t_type == TTrans) begin
                  log_d[i] = cmd_log_i;
                end
              end
            end
            if (t_type == TNormal && sp > 32'd1 && cmd_pc_i == t_rpc) begin
              sp_d = CntW'(top);  // reconverged
            end
          end
        end
        3'(htm_pkg::SimtOpBranch): begin
          if (!has || (fall != '0 && taken != '0 && sp + pushes > 32'(Depth))) begin
            bad = 1'b1;
          end else begin
            k = sp;
            for (int i = 0; i < Depth; i++) begin
              if (32'(i) == top) begin
                if (t_type == TTrans) begin
                  log_d[i] = cmd_log_i;
                end
                if (fall == '0) begin
                  pc_d[i] = cmd_pc_i;
                end else if (taken == '0) begin
                  pc_d[i] = cmd_pc2_i;
                end else if (same && cmd_pc2_i != cmd_rpc_i) begin
                  pc_d[i]   = cmd_pc2_i;  // the top becomes the fall-through path
                  mask_d[i] = fall;
                end else if (same) begin
                  pc_d[i]   = cmd_pc_i;  // the top becomes the taken path
                  mask_d[i] = taken;
                end else begin
                  pc_d[i] = cmd_rpc_i;
                end
              end
            end
            if (fall != '0 && taken != '0 && same) begin
              // The taken path on top of the reused entry, unless a path starts at rpc.
              for (int i = 0; i < Depth; i++) begin
                if (32'(i) == sp && cmd_pc2_i != cmd_rpc_i && cmd_pc_i != cmd_rpc_i) begin
                  type_d[i] = TNormal;
                  pc_d[i]   = cmd_pc_i;
                  rpc_d[i]  = cmd_rpc_i;
                  mask_d[i] = taken;
                  log_d[i]  = '0;
                end
              end
              sp_d = CntW'(sp + pushes);
            end else if (fall != '0 && taken != '0) begin
              // The fall-through path, then the taken path on top (paths at rpc are empty).
              for (int i = 0; i < Depth; i++) begin
                if (32'(i) == sp && cmd_pc2_i != cmd_rpc_i) begin
                  type_d[i] = TNormal;
                  pc_d[i]   = cmd_pc2_i;
                  rpc_d[i]  = cmd_rpc_i;
                  mask_d[i] = fall;
                  log_d[i]  = '0;
                end
              end
              if (cmd_pc2_i != cmd_rpc_i) begin
                k = sp + 32'd1;
              end
              for (int i = 0; i < Depth; i++) begin
                if (32'(i) == k && cmd_pc_i != cmd_rpc_i) begin
                  type_d[i] = TNormal;
                  pc_d[i]   = cmd_pc_i;
                  rpc_d[i]  = cmd_rpc_i;
                  mask_d[i] = taken;
                  log_d[i]  = '0;
                end
              end
              sp_d = CntW'(sp + pushes);
            end
          end
        end
        3'(htm_pkg::SimtOpTxBegin): begin
          if (!has || (!in_tx_q && sp + 32'd2 > 32'(Depth))) begin
            bad = 1'b1;
          end else if (in_tx_q) begin
            // Nested: flattened into the outer transaction.
            for (int i = 0; i < Depth; i++) begin
              if (32'(i) == top) begin
                pc_d[i] = cmd_pc_i;
                if (t_type == TTrans) begin
                  log_d[i] = cmd_log_i;
                end
              end
            end
          end else begin
            for (int i = 0; i < Depth; i++) begin
              if (32'(i) == sp) begin
                type_d[i] = TRetry;
                pc_d[i]   = cmd_pc_i;
                rpc_d[i]  = cmd_rpc_i;
                mask_d[i] = '0;
                log_d[i]  = '0;
              end
              if (32'(i) == sp + 32'd1) begin
                type_d[i] = TTrans;
                pc_d[i]   = cmd_pc_i;
                rpc_d[i]  = '0;
                mask_d[i] = t_mask;
                log_d[i]  = '0;
              end
            end
            ridx_d  = sp_q;
            sp_d    = CntW'(sp + 32'd2);
            in_tx_d = 1'b1;
          end
        end
        3'(htm_pkg::SimtOpPause): begin
          if (!has) begin
            bad = 1'b1;
          end else if (t_type == TTrans && pm != '0) begin
            if (pm == t_mask || sp + 32'd1 > 32'(Depth)) begin
              bad = 1'b1;
            end else begin
              for (int i = 0; i < Depth; i++) begin
                if (32'(i) == top) begin  // the paused lanes, just below the top
                  mask_d[i] = pm;
                  log_d[i]  = cmd_log_i;
                end
                if (32'(i) == sp) begin  // the running lanes, on top
                  type_d[i] = TTrans;
                  pc_d[i]   = t_pc;
                  rpc_d[i]  = t_rpc;
                  mask_d[i] = t_mask & ~pm;
                  log_d[i]  = cmd_log_i;
                end
              end
              sp_d     = CntW'(sp + 32'd1);
              paused_d = 1'b1;
            end
          end
        end
        3'(htm_pkg::SimtOpCommit): begin
          if (!has || !in_tx_q || t_type != TTrans) begin
            bad = 1'b1;
          end else begin
            for (int i = 0; i < Depth; i++) begin
              if (32'(i) == ridx) begin
                mask_d[i] = mask_q[i] | failed;
              end
              if (32'(i) > ridx) begin
                mask_d[i] = mask_q[i] & ~failed;
              end
            end
            sp1          = top;  // the committing entry pops
            popped_trans = 1'b1;
            settle       = 1'b1;
          end
        end
        3'(htm_pkg::SimtOpAbort): begin
          if (!in_tx_q) begin
            bad = 1'b1;
          end else begin
            for (int i = 0; i < Depth; i++) begin
              if (32'(i) == ridx) begin
                mask_d[i] = mask_q[i] | ab;
              end
              if (32'(i) > ridx) begin
                mask_d[i] = mask_q[i] & ~ab;
              end
            end
            settle = 1'b1;
          end
        end
        default: bad = 1'b1;
      endcase
    end

    // Inside a transaction after Commit or Abort: pop the empty entries above Retry, then
    // restart, end, or resume.
    if (settle) begin
      nn = ridx + 32'd1;
      for (int i = 0; i < Depth; i++) begin
        if (32'(i) > ridx && 32'(i) < sp1 && mask_d[i] != '0) begin
          nn = 32'(i) + 32'd1;
        end
      end
      for (int i = 0; i < Depth; i++) begin
        if (32'(i) >= nn && 32'(i) < sp1 && type_q[i] == TTrans) begin
          popped_trans = 1'b1;
        end
        if (32'(i) == ridx) begin
          rmask = mask_d[i];
        end
        if (32'(i) + 32'd1 == nn && type_q[i] == TTrans) begin
          top_trans_after = 1'b1;
        end
      end
      r_top = nn == ridx + 32'd1;
      if (r_top && rmask != '0) begin
        // Restart: Retry's lanes run again from its PC.
        for (int i = 0; i < Depth; i++) begin
          if (32'(i) == ridx) begin
            mask_d[i] = '0;
          end
          if (32'(i) == ridx + 32'd1) begin
            type_d[i] = TTrans;
            pc_d[i]   = r_pc;
            rpc_d[i]  = '0;
            mask_d[i] = rmask;
            log_d[i]  = '0;
          end
        end
        sp_d        = CntW'(ridx + 32'd2);
        restarted_d = 1'b1;
      end else if (r_top) begin
        // Every lane committed: Retry pops, the entry below continues after the commit.
        for (int i = 0; i < Depth; i++) begin
          if (32'(i) + 32'd1 == ridx) begin
            pc_d[i] = r_rpc;
          end
        end
        sp_d      = ridx_q;
        in_tx_d   = 1'b0;
        tx_done_d = 1'b1;
      end else begin
        sp_d      = CntW'(nn);
        resumed_d = popped_trans && top_trans_after;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < Depth; i++) begin
        type_q[i] <= '0;
        pc_q[i]   <= '0;
        rpc_q[i]  <= '0;
        mask_q[i] <= '0;
        log_q[i]  <= '0;
      end
      sp_q        <= '0;
      ridx_q      <= '0;
      in_tx_q     <= 1'b0;
      resumed_q   <= 1'b0;
      restarted_q <= 1'b0;
      tx_done_q   <= 1'b0;
      paused_q    <= 1'b0;
      err_q       <= 1'b0;
    end else begin
      resumed_q   <= resumed_d && !bad;
      restarted_q <= restarted_d && !bad;
      tx_done_q   <= tx_done_d && !bad;
      paused_q    <= paused_d && !bad;
      if (bad) begin
        err_q <= 1'b1;
      end else begin
        for (int i = 0; i < Depth; i++) begin
          type_q[i] <= type_d[i];
          pc_q[i]   <= pc_d[i];
          rpc_q[i]  <= rpc_d[i];
          mask_q[i] <= mask_d[i];
          log_q[i]  <= log_d[i];
        end
        sp_q    <= sp_d;
        ridx_q  <= ridx_d;
        in_tx_q <= in_tx_d;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  logic [LogW-1:0] t_log;
  always_comb begin
    t_log = '0;
    for (int i = 0; i < Depth; i++) begin
      if (has && 32'(i) == top) begin
        t_log = log_q[i];
      end
    end
  end

  assign top_valid_o = has;
  assign top_type_o  = t_type;
  assign top_pc_o    = t_pc;
  assign top_rpc_o   = t_rpc;
  assign top_mask_o  = t_mask;
  assign top_log_o   = t_log;
  assign depth_o     = sp_q;
  assign in_tx_o     = in_tx_q;
  assign resumed_o   = resumed_q;
  assign restarted_o = restarted_q;
  assign tx_done_o   = tx_done_q;
  assign paused_o    = paused_q;
  assign err_o       = err_q;

  for (genvar i = 0; i < Depth; i++) begin : gen_out
    logic used;
    assign used = 32'(i) < sp;
    assign stk_type_o[i*2 +: 2]               = used ? type_q[i] : '0;
    assign stk_pc_o[i*PcW +: PcW]             = used ? pc_q[i] : '0;
    assign stk_rpc_o[i*PcW +: PcW]            = used ? rpc_q[i] : '0;
    assign stk_mask_o[i*WarpSize +: WarpSize] = used ? mask_q[i] : '0;
    assign stk_log_o[i*LogW +: LogW]          = used ? log_q[i] : '0;
  end

  // The Retry entry is below the top inside a transaction; the lanes of the Trans entries above
  // it never overlap (checked by the formal wrapper with the union).
  logic retry_is_retry;
  always_comb begin
    retry_is_retry = 1'b0;
    for (int i = 0; i < Depth; i++) begin
      if (32'(i) == ridx && type_q[i] == TRetry) begin
        retry_is_retry = 1'b1;
      end
    end
  end
  `HTM_ASSERT(RetryBelowTop_A, !in_tx_q || (ridx + 32'd1 < sp && retry_is_retry))

endmodule
