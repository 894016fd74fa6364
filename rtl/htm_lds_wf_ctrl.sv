// SPDX-License-Identifier: Apache-2.0
//
// htm_lds_wf_ctrl: GPU-LocalTM transaction control of one wavefront (thesis 5.2.1, 5.2.2, 5.5;
// paper 3.1). It keeps the wavefront's EXEC, its transaction conflict mask TCM, the TCM at the
// end of the previous try (TCM_prev), the multiple conflict mask MCM and the execution mode.
//
// A work-item runs when EXEC & ~TCM (run_o). TX_Begin starts a try: the first one saves EXEC
// and clears TCM; a retry sets TCM by the mode chosen at the last TX_Commit (Tx: cleared; WfS:
// every conflicting work-item but the selected ones; WgS: all but one). Conflicts reported by
// the LDS banks set TCM bits and update MCM. TX_Commit commits the try's work-items whose TCM
// bit is clear (cmt_*); if TCM has a bit set, EXEC <- TCM and the next TX_Begin retries:
//   Tx  -> WfS when the try ends with the same TCM as the previous one (livelock), else Tx;
//   WfS -> WgS when a selected work-item conflicted again, else Tx;
//   WgS -> Tx.
// When every work-item has committed, EXEC is restored to its value at the first TX_Begin.
// Work-group serialization: a wavefront that needs WgS requests it (wgs_req_o) and its
// TX_Begin waits for the grant; while another wavefront holds it (wgs_other_i), TX_Begin
// waits, and a try in progress is aborted (abort_o: every work-item of the try gets its TCM
// bit, EXEC returns to the try's start, the next TX_Begin replays the try). Nested TX_Begin /
// TX_Commit pairs are flattened (MaxDepth levels). Every state change takes effect at the
// clock edge after the instruction. Protocol violations (TX_Commit outside a try, a conflict
// for a work-item that is not in the try, an EXEC write between a TX_Commit and the retry's
// TX_Begin, nesting too deep, an unknown op) are dropped and set err_o.
//
// See docs/htm_lds_wf_ctrl.md.
`include "htm_assert.svh"

module htm_lds_wf_ctrl #(
  parameter int unsigned       WfSize   = 64,   // work-items per wavefront, 1..64
  // A configuration sets this enum-typed parameter with a number (-G), which is legal.
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::lds_sel_e Sel      = htm_pkg::LdsSelSingleAsc,
  /* verilator lint_on ENUMVALUE */
  parameter int unsigned       MaxDepth = 15    // nested TX_Begin levels, 1..255
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // wavefront instructions
  input  logic              op_valid_i,
  output logic              op_ready_o,
  input  logic [1:0]        op_i,          // htm_pkg::lds_op_e
  input  logic [WfSize-1:0] op_exec_i,     // ExecWrite: the new EXEC
  // conflicts detected by the LDS banks in this cycle
  input  logic [WfSize-1:0] conf_i,        // the work-items that conflicted
  input  logic [WfSize-1:0] conf_lower_i,  // the location's owner has a lower id
  input  logic [WfSize-1:0] conf_self_i,   // the work-item is the owner itself (SMDCD)
  // work-group serialization
  output logic              wgs_req_o,     // this wavefront needs or holds WgS
  input  logic              wgs_grant_i,   // this wavefront holds WgS
  input  logic              wgs_other_i,   // another wavefront holds WgS
  // state
  output logic [WfSize-1:0] exec_o,
  output logic [WfSize-1:0] tcm_o,
  output logic [WfSize-1:0] run_o,         // EXEC & ~TCM
  output logic [WfSize-1:0] mcm_o,
  output logic [WfSize-1:0] prev_o,        // TCM at the end of the previous try
  output logic              prev_valid_o,
  output logic [1:0]        mode_o,        // htm_pkg::lds_mode_e of the current or last try
  output logic              in_try_o,      // between TX_Begin and the outermost TX_Commit
  output logic [WfSize-1:0] part_o,        // the work-items of the current or last try
  output logic              retry_o,       // the next TX_Begin retries (or replays) the try
  // to the LDS banks, one cycle after the TX_Commit / the abort
  output logic              cmt_valid_o,
  output logic [WfSize-1:0] cmt_mask_o,    // the work-items whose try committed
  output logic              abort_o,
  output logic              err_o
);

  `HTM_ASSERT_INIT(WfSizeRange_A, WfSize >= 1 && WfSize <= 64)
  `HTM_ASSERT_INIT(MaxDepthRange_A, MaxDepth >= 1 && MaxDepth <= 255)

  localparam int unsigned DepthW = $clog2(MaxDepth + 1);
  localparam logic [1:0]  OpExecWrite = 2'(htm_pkg::LdsOpExecWrite);
  localparam logic [1:0]  OpTxBegin   = 2'(htm_pkg::LdsOpTxBegin);
  localparam logic [1:0]  OpTxCommit  = 2'(htm_pkg::LdsOpTxCommit);
  localparam bit          Multi       = Sel == htm_pkg::LdsSelMultiAsc ||
                                        Sel == htm_pkg::LdsSelMultiDesc;
  localparam bit          Ascending   = Sel == htm_pkg::LdsSelSingleAsc ||
                                        Sel == htm_pkg::LdsSelMultiAsc;

  typedef enum logic [1:0] {
    StIdle,   // no transaction
    StTry,    // a try runs
    StRetry   // between a TX_Commit (or an abort) and the TX_Begin of the next try
  } state_e;

  state_e                state_q, state_d;
  htm_pkg::lds_mode_e    mode_q, mode_d, next_q, next_d;
  logic [WfSize-1:0]     exec_q, exec_d, tcm_q, tcm_d, mcm_q, mcm_d, prev_q, prev_d;
  logic [WfSize-1:0]     orig_q, orig_d;          // EXEC at the first TX_Begin
  logic [WfSize-1:0]     try_exec_q, try_exec_d;  // EXEC at this try's TX_Begin
  logic [WfSize-1:0]     try_tcm_q, try_tcm_d;    // TCM at this try's TX_Begin
  logic [WfSize-1:0]     cmt_mask_q, cmt_mask_d;
  logic                  prev_valid_q, prev_valid_d, replay_q, replay_d;
  logic                  cmt_valid_q, cmt_valid_d, abort_q, abort_d, err_q, err_d;
  logic [DepthW-1:0]     depth_q, depth_d;

  // -----------------------------------------------------------------------------------------------
  // Selection of the work-items that run in a serialized try
  // -----------------------------------------------------------------------------------------------
  // sel_one: the conflicting work-item with the lowest (ascending) or highest id (one-hot);
  // sel_wfs: the MCM subset of the conflicting work-items (multiple policies), or sel_one when
  // that subset is empty. The serialized try's TCM is the last TCM with these bits cleared.
  logic [WfSize-1:0] sel_lo, sel_hi, sel_one, sel_cand, sel_wfs;
  logic              found_lo, found_hi;

  always_comb begin
    sel_lo   = '0;
    sel_hi   = '0;
    found_lo = 1'b0;
    found_hi = 1'b0;
    for (int i = 0; i < WfSize; i++) begin
      if (!found_lo && tcm_q[i]) begin
        sel_lo[i] = 1'b1;
        found_lo  = 1'b1;
      end
    end
    for (int i = WfSize - 1; i >= 0; i--) begin
      if (!found_hi && tcm_q[i]) begin
        sel_hi[i] = 1'b1;
        found_hi  = 1'b1;
      end
    end
  end

  assign sel_one  = Ascending ? sel_lo : sel_hi;
  assign sel_cand = tcm_q & mcm_q;
  assign sel_wfs  = (Multi && sel_cand != '0) ? sel_cand : sel_one;

  // -----------------------------------------------------------------------------------------------
  // Next state
  // -----------------------------------------------------------------------------------------------
  logic              aborting, begin_ok, accept;
  logic [WfSize-1:0] tcm_conf, part, start_tcm, mcm_clr;
  htm_pkg::lds_mode_e start_mode;

  // Another wavefront took work-group serialization: a try in progress is aborted.
  assign aborting  = state_q == StTry && wgs_other_i;
  // TX_Begin waits while another wavefront holds WgS, and for the grant when it needs WgS.
  assign begin_ok  = !wgs_other_i &&
                     (state_q != StRetry || next_q != htm_pkg::LdsModeWgS || wgs_grant_i);
  assign op_ready_o = !aborting && (op_i != OpTxBegin || state_q == StTry || begin_ok);
  assign accept    = op_valid_i && op_ready_o;

  // The work-items of the try; its TCM with this cycle's conflicts.
  assign part     = try_exec_q & ~try_tcm_q;
  assign tcm_conf = tcm_q | (conf_i & part);

  // MCM: a conflicting work-item stays a candidate when it is below the owner (ascending) or
  // above it (descending); a work-item that conflicts on its own location never does.
  assign mcm_clr  = conf_i & part & (conf_self_i | (Ascending ? conf_lower_i : ~conf_lower_i));

  // The TCM and mode of a try that TX_Begin starts from StRetry.
  always_comb begin
    start_mode = next_q;
    if (replay_q) begin
      start_tcm = try_tcm_q;  // the aborted try again
    end else begin
      unique case (next_q)
        htm_pkg::LdsModeWfS: start_tcm = tcm_q & ~sel_wfs;
        htm_pkg::LdsModeWgS: start_tcm = tcm_q & ~sel_one;
        default:             start_tcm = '0;
      endcase
    end
  end

  always_comb begin
    state_d      = state_q;
    mode_d       = mode_q;
    next_d       = next_q;
    exec_d       = exec_q;
    tcm_d        = tcm_q;
    mcm_d        = mcm_q;
    prev_d       = prev_q;
    prev_valid_d = prev_valid_q;
    orig_d       = orig_q;
    try_exec_d   = try_exec_q;
    try_tcm_d    = try_tcm_q;
    replay_d     = replay_q;
    depth_d      = depth_q;
    cmt_valid_d  = 1'b0;
    cmt_mask_d   = cmt_mask_q;
    abort_d      = 1'b0;
    err_d        = err_q;

    // Conflicts of this cycle (only work-items of a running try can conflict).
    if (state_q == StTry) begin
      tcm_d = tcm_conf;
      mcm_d = mcm_q & ~mcm_clr;
    end
    if (conf_i != '0 && (state_q != StTry || (conf_i & ~part) != '0)) begin
      err_d = 1'b1;
    end

    if (aborting) begin
      // Every work-item of the try is rolled back; the next TX_Begin replays the try.
      state_d  = StRetry;
      next_d   = mode_q;
      replay_d = 1'b1;
      tcm_d    = tcm_conf | part;
      exec_d   = try_exec_q;
      depth_d  = '0;
      abort_d  = 1'b1;
    end else if (accept) begin
      unique case (op_i)
        OpExecWrite: begin
          // Between TX_Commit and the retry's TX_Begin EXEC holds the work-items to retry.
          if (state_q == StRetry) begin
            err_d = 1'b1;
          end else begin
            exec_d = op_exec_i;
          end
        end
        OpTxBegin: begin
          if (state_q == StTry) begin
            // Flattened nesting.
            if (32'(depth_q) == MaxDepth) begin
              err_d = 1'b1;
            end else begin
              depth_d = depth_q + DepthW'(1);
            end
          end else begin
            state_d    = StTry;
            try_exec_d = exec_q;
            mcm_d      = {WfSize{1'b1}};
            replay_d   = 1'b0;
            if (state_q == StIdle) begin
              mode_d       = htm_pkg::LdsModeTx;
              orig_d       = exec_q;
              tcm_d        = '0;
              try_tcm_d    = '0;
              prev_valid_d = 1'b0;
            end else begin
              mode_d    = start_mode;
              tcm_d     = start_tcm;
              try_tcm_d = start_tcm;
              if (!replay_q) begin
                prev_d       = tcm_q;  // the TCM the last try ended with
                prev_valid_d = 1'b1;
              end
            end
          end
        end
        OpTxCommit: begin
          if (state_q != StTry) begin
            err_d = 1'b1;
          end else if (depth_q != '0) begin
            depth_d = depth_q - DepthW'(1);
          end else begin
            cmt_valid_d = 1'b1;
            cmt_mask_d  = part & ~tcm_conf;
            if (tcm_conf == '0) begin
              // Every work-item has committed.
              state_d      = StIdle;
              mode_d       = htm_pkg::LdsModeNonTx;
              exec_d       = orig_q;
              tcm_d        = '0;
              prev_valid_d = 1'b0;
            end else begin
              state_d = StRetry;
              exec_d  = tcm_conf;
              unique case (mode_q)
                htm_pkg::LdsModeTx:
                  next_d = (prev_valid_q && tcm_conf == prev_q) ? htm_pkg::LdsModeWfS
                                                                : htm_pkg::LdsModeTx;
                htm_pkg::LdsModeWfS:
                  next_d = ((tcm_conf & part) != '0) ? htm_pkg::LdsModeWgS
                                                     : htm_pkg::LdsModeTx;
                default: next_d = htm_pkg::LdsModeTx;
              endcase
            end
          end
        end
        default: err_d = 1'b1;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      mode_q       <= htm_pkg::LdsModeNonTx;
      next_q       <= htm_pkg::LdsModeTx;
      exec_q       <= {WfSize{1'b1}};
      tcm_q        <= '0;
      mcm_q        <= {WfSize{1'b1}};
      prev_q       <= '0;
      prev_valid_q <= 1'b0;
      orig_q       <= '0;
      try_exec_q   <= '0;
      try_tcm_q    <= '0;
      replay_q     <= 1'b0;
      depth_q      <= '0;
      cmt_valid_q  <= 1'b0;
      cmt_mask_q   <= '0;
      abort_q      <= 1'b0;
      err_q        <= 1'b0;
    end else begin
      state_q      <= state_d;
      mode_q       <= mode_d;
      next_q       <= next_d;
      exec_q       <= exec_d;
      tcm_q        <= tcm_d;
      mcm_q        <= mcm_d;
      prev_q       <= prev_d;
      prev_valid_q <= prev_valid_d;
      orig_q       <= orig_d;
      try_exec_q   <= try_exec_d;
      try_tcm_q    <= try_tcm_d;
      replay_q     <= replay_d;
      depth_q      <= depth_d;
      cmt_valid_q  <= cmt_valid_d;
      cmt_mask_q   <= cmt_mask_d;
      abort_q      <= abort_d;
      err_q        <= err_d;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  assign exec_o       = exec_q;
  assign tcm_o        = tcm_q;
  assign run_o        = exec_q & ~tcm_q;
  assign mcm_o        = mcm_q;
  assign prev_o       = prev_q;
  assign prev_valid_o = prev_valid_q;
  assign mode_o       = mode_q;
  assign in_try_o     = state_q == StTry;
  assign part_o       = part;
  assign retry_o      = state_q == StRetry;
  assign wgs_req_o    = (state_q == StRetry && next_q == htm_pkg::LdsModeWgS) ||
                        (state_q == StTry && mode_q == htm_pkg::LdsModeWgS);
  assign cmt_valid_o  = cmt_valid_q;
  assign cmt_mask_o   = cmt_mask_q;
  assign abort_o      = abort_q;
  assign err_o        = err_q;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // A serialized try runs at least one work-item, and a WgS try exactly one.
  `HTM_ASSERT(SerializedRuns_A, `HTM_IMPLIES(state_q == StTry && mode_q != htm_pkg::LdsModeTx,
                                             part != '0))
  `HTM_ASSERT(WgSRunsOne_A, `HTM_IMPLIES(state_q == StTry && mode_q == htm_pkg::LdsModeWgS,
                                         $onehot(part)))
  // A retry after a TX_Commit always has work-items to retry, and EXEC holds them.
  `HTM_ASSERT(RetryHasWork_A, `HTM_IMPLIES(state_q == StRetry && !replay_q,
                                           tcm_q != '0 && exec_q == tcm_q))

endmodule
