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

  localparam int unsigned AW = CntW + 1;  // stack-pointer arithmetic without wrap

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

  // -----------------------------------------------------------------------------------------------
  // Where each entry stands, decoded from the registered pointers (one-hot and thermometer rows,
  // at the pointers' width): the write selection below is per entry and never compares an index.
  // -----------------------------------------------------------------------------------------------
  logic [AW-1:0]    sp_w, ridx_w;
  logic [Depth-1:0] e_top;    // the top entry (sp - 1)
  logic [Depth-1:0] e_sp;     // the first free entry (sp)
  logic [Depth-1:0] e_sp1;    // the one above it (sp + 1)
  logic [Depth-1:0] e_used;   // below sp
  logic [Depth-1:0] e_btop;   // below the top
  logic [Depth-1:0] e_r;      // the Retry entry
  logic [Depth-1:0] e_r1;     // the one above Retry
  logic [Depth-1:0] e_rm1;    // the one below Retry
  logic [Depth-1:0] e_above;  // above Retry

  assign sp_w   = AW'(sp_q);
  assign ridx_w = AW'(ridx_q);
  for (genvar i = 0; i < Depth; i++) begin : gen_pos
    assign e_top[i]   = sp_w == AW'(i + 1);
    assign e_sp[i]    = sp_w == AW'(i);
    assign e_sp1[i]   = sp_w + AW'(1) == AW'(i);
    assign e_used[i]  = AW'(i) < sp_w;
    assign e_btop[i]  = AW'(i + 1) < sp_w;
    assign e_r[i]     = ridx_w == AW'(i);
    assign e_r1[i]    = ridx_w + AW'(1) == AW'(i);
    assign e_rm1[i]   = ridx_w == AW'(i + 1);
    assign e_above[i] = AW'(i) >= ridx_w + AW'(1);
  end

  // The top entry, the Retry entry and the lanes above Retry (AND-OR over the one-hot rows).
  logic                has, full, full1, sp_gt1;
  logic [1:0]          t_type;
  logic [PcW-1:0]      t_pc, t_rpc, r_pc, r_rpc;
  logic [WarpSize-1:0] t_mask, r_mask, live;
  logic [LogW-1:0]     t_log;
  logic                t_trans, t_normal;

  assign has    = sp_q != '0;
  assign full   = sp_w == AW'(Depth);
  assign full1  = sp_w >= AW'(Depth - 1);
  assign sp_gt1 = sp_w > AW'(1);

  always_comb begin
    t_type = '0;
    t_pc   = '0;
    t_rpc  = '0;
    t_mask = '0;
    t_log  = '0;
    r_pc   = '0;
    r_rpc  = '0;
    r_mask = '0;
    live   = '0;
    for (int i = 0; i < Depth; i++) begin
      t_type = t_type | ({2{e_top[i]}} & type_q[i]);
      t_pc   = t_pc | ({PcW{e_top[i]}} & pc_q[i]);
      t_rpc  = t_rpc | ({PcW{e_top[i]}} & rpc_q[i]);
      t_mask = t_mask | ({WarpSize{e_top[i]}} & mask_q[i]);
      t_log  = t_log | ({LogW{e_top[i]}} & log_q[i]);
      r_pc   = r_pc | ({PcW{e_r[i]}} & pc_q[i]);
      r_rpc  = r_rpc | ({PcW{e_r[i]}} & rpc_q[i]);
      r_mask = r_mask | ({WarpSize{e_r[i]}} & mask_q[i]);
      live   = live | ({WarpSize{in_tx_q && e_above[i] && e_used[i]}} & mask_q[i]);
    end
  end
  assign t_trans  = t_type == TTrans;
  assign t_normal = t_type == TNormal;

  // -----------------------------------------------------------------------------------------------
  // The command, decoded into per-entry writes
  // -----------------------------------------------------------------------------------------------
  logic op_init, op_next, op_branch, op_txb, op_pause, op_commit, op_abort, op_unknown;
  assign op_init    = cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpInit);
  assign op_next    = cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpNext);
  assign op_branch  = cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpBranch);
  assign op_txb     = cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpTxBegin);
  assign op_pause   = cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpPause);
  assign op_commit  = cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpCommit);
  assign op_abort   = cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpAbort);
  assign op_unknown = cmd_valid_i && !(op_init || op_next || op_branch || op_txb || op_pause ||
                                       op_commit || op_abort);

  // Branch (and Pause: the paused lanes are the taken ones, the running lanes the fall-through).
  logic [WarpSize-1:0] taken, fall;
  logic                any_taken, any_fall, div, same, pe1, pe2, push_sp, push_sp1, sp_fall;
  logic                pop, br_ovf;
  assign taken     = cmd_mask_i & t_mask;
  assign fall      = t_mask & ~cmd_mask_i;
  assign any_taken = taken != '0;
  assign any_fall  = fall != '0;
  assign div       = any_fall && any_taken;
  assign pe1       = cmd_pc_i != cmd_rpc_i;   // the taken path does not start at rpc
  assign pe2       = cmd_pc2_i != cmd_rpc_i;  // nor the fall-through path
  // A Normal top above the bottom that already reconverges at rpc is reused for the paths (the
  // entry below waits at rpc with every lane); otherwise it waits at rpc.
  assign same      = t_normal && sp_gt1 && cmd_rpc_i == t_rpc;
  // A divergent Branch pushes at sp (the fall-through path, or the taken one when the
  // fall-through starts at rpc or the top is reused) and at sp + 1 (the taken path above the
  // fall-through).
  assign push_sp   = same ? pe1 && pe2 : pe1 || pe2;
  assign push_sp1  = !same && pe1 && pe2;
  assign sp_fall   = !same && pe2;
  assign br_ovf    = (push_sp && full) || (push_sp1 && full1);
  // Next: a Normal top (not the bottom) pops when it reaches its reconvergence point.
  assign pop       = t_normal && sp_gt1 && cmd_pc_i == t_rpc;

  logic txb_new, pause_go;
  assign txb_new  = op_txb && !in_tx_q;
  assign pause_go = op_pause && t_trans && any_taken;  // applied unless it names every lane

  // Commit and Abort: the lanes X leave every entry above Retry and join the Retry mask; then
  // the empty entries above Retry pop (below the committing top for Commit) and the stack
  // restarts, ends or resumes. keep: an entry above Retry that stays non-empty.
  logic                settle, any_keep, rmask_nz, restart, done, resume, popped_trans;
  logic                top_trans_after;
  logic [WarpSize-1:0] x, rmask;
  logic [Depth-1:0]    keep, keep_ge, hk;
  logic [CntW-1:0]     nn;
  assign settle = op_commit || op_abort;
  assign x      = cmd_mask_i & (op_commit ? t_mask : live);
  assign rmask  = r_mask | x;
  // An entry keeps a lane outside X: mask & ~(cmd_mask & M) is (mask & ~cmd_mask) | (mask & ~M),
  // so the test splits into a term of the command and a term of the registered state only (the
  // entry against every entry above it, the top selecting one). For Abort, M (the lanes above
  // Retry) holds every lane of the entries it tests: only the first term is left. Whether any
  // entry keeps a lane (the restart and the end, the latest selects) is taken from the two
  // commands' rows directly, beside the priority chain that finds the new top.
  logic [Depth-1:0] lane_not_named, lane_not_top, keep_c, keep_a;
  for (genvar i = 0; i < Depth; i++) begin : gen_keep
    logic [Depth-1:0] not_in;
    for (genvar j = 0; j < Depth; j++) begin : gen_pair
      if (j > i) begin : gen_above
        assign not_in[j] = (mask_q[i] & ~mask_q[j]) != '0;
      end else begin : gen_below
        assign not_in[j] = 1'b0;
      end
    end
    assign lane_not_named[i] = (mask_q[i] & ~cmd_mask_i) != '0;
    assign lane_not_top[i]   = (e_top & not_in) != '0;
    assign keep_c[i] = e_above[i] && e_btop[i] && (lane_not_named[i] || lane_not_top[i]);
    assign keep_a[i] = e_above[i] && e_used[i] && lane_not_named[i];
  end
  assign keep     = op_commit ? keep_c : keep_a;
  assign any_keep = op_commit ? keep_c != '0 : keep_a != '0;

  always_comb begin
    keep_ge[Depth-1] = keep[Depth-1];
    for (int i = Depth - 2; i >= 0; i--) begin
      keep_ge[i] = keep_ge[i+1] || keep[i];
    end
    hk              = keep & ~(keep_ge >> 1);  // the highest kept entry, the new top
    nn              = '0;
    popped_trans    = op_commit;
    top_trans_after = 1'b0;
    for (int i = 0; i < Depth; i++) begin
      nn = nn | ({CntW{hk[i]}} & CntW'(i + 1));
      if (!keep_ge[i] && (op_commit ? e_btop[i] : e_used[i]) && type_q[i] == TTrans) begin
        popped_trans = 1'b1;  // a Trans entry above the new top pops
      end
      if (hk[i] && type_q[i] == TTrans) begin
        top_trans_after = 1'b1;
      end
    end
  end
  assign rmask_nz = r_mask != '0 || x != '0;
  assign restart  = settle && !any_keep && rmask_nz;
  assign done     = settle && !any_keep && !rmask_nz;
  assign resume   = settle && any_keep && popped_trans && top_trans_after;

  // Per-entry next state: the writes of fields first, then the writes of a whole entry
  // {type, PC, RPC, mask, L}, which exclude each other and override the settle's mask update.
  localparam int unsigned EW = 2 + 2 * PcW + WarpSize + LogW;
  logic          put;
  logic [EW-1:0] ent;
  always_comb begin
    put = 1'b0;
    ent = '0;
    for (int i = 0; i < Depth; i++) begin
      type_d[i] = type_q[i];
      pc_d[i]   = pc_q[i];
      rpc_d[i]  = rpc_q[i];
      mask_d[i] = mask_q[i];
      log_d[i]  = log_q[i];
      // The top: Next, Branch and a nested TxBegin move its PC (a Trans top takes L), a
      // divergent Branch may reuse it, Pause keeps the paused lanes in it.
      if (e_top[i]) begin
        if ((op_next || op_branch || (op_txb && in_tx_q)) && t_trans) begin
          log_d[i] = cmd_log_i;
        end
        if (op_next || (op_txb && in_tx_q) || (op_branch && !any_fall)) begin
          pc_d[i] = cmd_pc_i;
        end else if (op_branch && !any_taken) begin
          pc_d[i] = cmd_pc2_i;
        end else if (op_branch && same && pe2) begin
          pc_d[i]   = cmd_pc2_i;  // the top becomes the fall-through path
          mask_d[i] = fall;
        end else if (op_branch && same) begin
          pc_d[i]   = cmd_pc_i;  // the top becomes the taken path
          mask_d[i] = taken;
        end else if (op_branch) begin
          pc_d[i] = cmd_rpc_i;
        end
        if (pause_go) begin  // the paused lanes, just below the top
          mask_d[i] = taken;
          log_d[i]  = cmd_log_i;
        end
      end
      // Commit and Abort: the lanes X join Retry and leave the entries above it; an end moves
      // the entry below Retry to Retry's RPC.
      if (settle && e_r[i]) begin
        mask_d[i] = mask_q[i] | x;
      end
      if (settle && e_above[i]) begin
        mask_d[i] = mask_q[i] & ~x;
      end
      if (done && e_rm1[i]) begin
        pc_d[i] = r_rpc;
      end
      // Whole entries: Init writes entry 0; at sp a Branch's path, TxBegin's Retry or Pause's
      // running lanes, at sp + 1 a Branch's taken path or TxBegin's Trans entry; last (the
      // latest select), a restart clears Retry and copies it into a new Trans entry above it.
      put = 1'b1;
      if (op_init && i == 0) begin
        ent = {TNormal, cmd_pc_i, cmd_rpc_i, cmd_mask_i, LogW'(0)};
      end else if (e_sp[i] && op_branch && div && push_sp) begin
        ent = {TNormal, sp_fall ? cmd_pc2_i : cmd_pc_i, cmd_rpc_i, sp_fall ? fall : taken,
               LogW'(0)};
      end else if (e_sp[i] && txb_new) begin
        ent = {TRetry, cmd_pc_i, cmd_rpc_i, WarpSize'(0), LogW'(0)};
      end else if (e_sp[i] && pause_go) begin
        ent = {TTrans, t_pc, t_rpc, fall, cmd_log_i};
      end else if (e_sp1[i] && op_branch && div && push_sp1) begin
        ent = {TNormal, cmd_pc_i, cmd_rpc_i, taken, LogW'(0)};
      end else if (e_sp1[i] && txb_new) begin
        ent = {TTrans, cmd_pc_i, PcW'(0), t_mask, LogW'(0)};
      end else begin
        put = 1'b0;
        ent = '0;
      end
      if (put) begin
        type_d[i] = ent[EW-1-:2];
        pc_d[i]   = ent[EW-3-:PcW];
        rpc_d[i]  = ent[EW-3-PcW-:PcW];
        mask_d[i] = ent[LogW+WarpSize-1-:WarpSize];
        log_d[i]  = ent[LogW-1:0];
      end
      if (restart && e_r[i]) begin
        mask_d[i] = '0;
      end
      if (restart && e_r1[i]) begin
        type_d[i] = TTrans;
        pc_d[i]   = r_pc;
        rpc_d[i]  = '0;
        mask_d[i] = rmask;
        log_d[i]  = '0;
      end
    end
  end

  // The pointers and the events.
  always_comb begin
    sp_d        = sp_q;
    ridx_d      = ridx_q;
    in_tx_d     = in_tx_q;
    resumed_d   = resume;
    restarted_d = restart;
    tx_done_d   = done;
    paused_d    = pause_go;
    if (op_init) begin
      sp_d    = CntW'(1);
      ridx_d  = '0;
      in_tx_d = 1'b0;
    end
    if (op_next && pop) begin
      sp_d = CntW'(sp_w - AW'(1));  // reconverged
    end
    if (op_branch && div) begin
      sp_d = CntW'(sp_w + AW'(push_sp) + AW'(push_sp1));
    end
    if (txb_new) begin
      sp_d    = CntW'(sp_w + AW'(2));
      ridx_d  = sp_q;
      in_tx_d = 1'b1;
    end
    if (pause_go) begin
      sp_d = CntW'(sp_w + AW'(1));
    end
    if (settle) begin
      if (restart) begin
        sp_d = CntW'(ridx_w + AW'(2));
      end else if (done) begin
        sp_d    = ridx_q;
        in_tx_d = 1'b0;
      end else begin
        sp_d = nn;
      end
    end
  end

  // Errors: the command is ignored.
  assign bad = op_unknown ||
               (!has && (op_next || op_branch || op_txb || op_pause || op_commit)) ||
               (op_branch && div && br_ovf) ||
               (txb_new && full1) ||
               (pause_go && (!any_fall || full)) ||
               (op_commit && (!in_tx_q || !t_trans)) ||
               (op_abort && !in_tx_q);

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
    assign stk_type_o[i*2 +: 2]               = e_used[i] ? type_q[i] : '0;
    assign stk_pc_o[i*PcW +: PcW]             = e_used[i] ? pc_q[i] : '0;
    assign stk_rpc_o[i*PcW +: PcW]            = e_used[i] ? rpc_q[i] : '0;
    assign stk_mask_o[i*WarpSize +: WarpSize] = e_used[i] ? mask_q[i] : '0;
    assign stk_log_o[i*LogW +: LogW]          = e_used[i] ? log_q[i] : '0;
  end

  // The Retry entry is below the top inside a transaction; the lanes of the Trans entries above
  // it never overlap (checked by the formal wrapper with the union).
  logic retry_is_retry;
  always_comb begin
    retry_is_retry = 1'b0;
    for (int i = 0; i < Depth; i++) begin
      if (e_r[i] && type_q[i] == TRetry) begin
        retry_is_retry = 1'b1;
      end
    end
  end
  `HTM_ASSERT(RetryBelowTop_A, !in_tx_q || (ridx_w + AW'(1) < sp_w && retry_is_retry))

endmodule
