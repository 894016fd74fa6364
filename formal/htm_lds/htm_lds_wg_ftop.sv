// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of GPU-LocalTM's transaction control at work-group level: NumWf
// htm_lds_wf_ctrl wavefronts and the htm_lds_wgs_arb arbiter, every instruction and conflict
// input free. Properties, for every wavefront w and every other wavefront v:
//   * a work-item never runs while its TCM bit is set (run = EXEC & ~TCM, in every mode);
//   * a WgS try runs only while w holds work-group serialization, with exactly one work-item
//     (the RTL's WgSRunsOne_A), and no other wavefront is in a try meanwhile: work-group
//     serialization admits one transactional wavefront;
//   * at most one wavefront holds WgS (the arbiter's OneHolder_A).
// Covers: a WgS try, an abort by another wavefront's WgS, a commit.
// The error output of every wavefront (htm_err_check): err_o rises, from the next cycle and for
// good, exactly on the block header's protocol violations, stated from the ports: a conflict
// outside a try or for a work-item not in it, and, for an instruction taken (op_ready_o, no
// abort this cycle), an EXEC write while the wavefront waits to retry, TX_Commit outside a try,
// a TX_Begin nested deeper than Depth (the wrapper counts the nesting), the unknown op.
// illegal_i: the environment may offer such inputs in this cycle. ErrCheck = 0 leaves the
// error checkers out (the long runs of the other properties).
`include "htm_assert.svh"

module htm_lds_wg_ftop #(
  parameter int unsigned NumWf  = 2,
  parameter int unsigned WfSize = 2,
  parameter int unsigned Sel    = 0,  // htm_pkg::lds_sel_e
  parameter int unsigned Depth  = 1,
  parameter bit          ErrCheck = 1'b0
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic [NumWf-1:0]        op_valid_i,
  input logic [2*NumWf-1:0]      op_i,
  input logic [NumWf*WfSize-1:0] op_exec_i,
  input logic [NumWf*WfSize-1:0] conf_i,
  input logic [NumWf*WfSize-1:0] conf_lower_i,
  input logic [NumWf*WfSize-1:0] conf_self_i,
  input logic                    illegal_i
);
  localparam logic [1:0] ModeWgS = 2'(htm_pkg::LdsModeWgS);

  logic [NumWf-1:0]        req, grant, other, in_try, op_ready, retry, prev_valid, cmt_valid;
  logic [NumWf-1:0]        abort, err;
  logic [2*NumWf-1:0]      mode;
  logic [NumWf*WfSize-1:0] exec, tcm, run, mcm, prev, cmt_mask, part;

  for (genvar w = 0; w < NumWf; w++) begin : g_wf
    /* verilator lint_off ENUMVALUE */
    htm_lds_wf_ctrl #(
      .WfSize  (WfSize),
      .Sel     (htm_pkg::lds_sel_e'(Sel)),
      .MaxDepth(Depth)
    ) u_wf (
    /* verilator lint_on ENUMVALUE */
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .op_valid_i  (op_valid_i[w]),
      .op_ready_o  (op_ready[w]),
      .op_i        (op_i[2*w +: 2]),
      .op_exec_i   (op_exec_i[w*WfSize +: WfSize]),
      .conf_i      (conf_i[w*WfSize +: WfSize]),
      .conf_lower_i(conf_lower_i[w*WfSize +: WfSize]),
      .conf_self_i (conf_self_i[w*WfSize +: WfSize]),
      .wgs_req_o   (req[w]),
      .wgs_grant_i (grant[w]),
      .wgs_other_i (other[w]),
      .exec_o      (exec[w*WfSize +: WfSize]),
      .tcm_o       (tcm[w*WfSize +: WfSize]),
      .run_o       (run[w*WfSize +: WfSize]),
      .mcm_o       (mcm[w*WfSize +: WfSize]),
      .prev_o      (prev[w*WfSize +: WfSize]),
      .prev_valid_o(prev_valid[w]),
      .mode_o      (mode[2*w +: 2]),
      .in_try_o    (in_try[w]),
      .part_o      (part[w*WfSize +: WfSize]),
      .retry_o     (retry[w]),
      .cmt_valid_o (cmt_valid[w]),
      .cmt_mask_o  (cmt_mask[w*WfSize +: WfSize]),
      .abort_o     (abort[w]),
      .err_o       (err[w])
    );
  end

  htm_lds_wgs_arb #(.NumWf(NumWf)) u_arb (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (req),
    .grant_o(grant),
    .other_o(other)
  );

  `HTM_FORMAL_START_IN_RESET

  logic [NumWf-1:0] wgs_try;
  always_comb begin
    for (int w = 0; w < NumWf; w++) begin
      wgs_try[w] = in_try[w] && mode[2*w +: 2] == ModeWgS;
    end
  end

  for (genvar w = 0; w < NumWf; w++) begin : g_prop
    `HTM_ASSERT(NeverRunsWithTcm_A, (run[w*WfSize +: WfSize] & tcm[w*WfSize +: WfSize]) == '0)
    `HTM_ASSERT(WgSHeld_A, `HTM_IMPLIES(wgs_try[w], grant[w]))
    `HTM_ASSERT(WgSAlone_A, `HTM_IMPLIES(wgs_try[w], (in_try & ~(NumWf'(1) << w)) == '0))
  end

  // The error outputs. f_depth: the nesting the wrapper counts for each wavefront.
  localparam logic [1:0] OpExecWrite = 2'(htm_pkg::LdsOpExecWrite);
  localparam logic [1:0] OpTxBegin   = 2'(htm_pkg::LdsOpTxBegin);
  localparam logic [1:0] OpTxCommit  = 2'(htm_pkg::LdsOpTxCommit);
  logic [NumWf-1:0] f_take, f_bad, f_err_seen;
  logic [31:0]      f_depth_q [NumWf];
  logic [31:0]      f_depth_d [NumWf];
  always_comb begin
    for (int w = 0; w < NumWf; w++) begin
      f_take[w]    = op_valid_i[w] && op_ready[w] && !(in_try[w] && other[w]);
      f_depth_d[w] = f_depth_q[w];
      f_bad[w]     = conf_i[w*WfSize +: WfSize] != '0 &&
                     (!in_try[w] || (conf_i[w*WfSize +: WfSize] & ~part[w*WfSize +: WfSize]) != '0);
      if (in_try[w] && other[w]) begin
        f_depth_d[w] = '0;
      end else if (f_take[w]) begin
        unique case (op_i[2*w +: 2])
          OpExecWrite: f_bad[w] = f_bad[w] || retry[w];
          OpTxBegin: begin
            if (!in_try[w]) begin
              f_depth_d[w] = '0;
            end else if (f_depth_q[w] == Depth) begin
              f_bad[w] = 1'b1;
            end else begin
              f_depth_d[w] = f_depth_q[w] + 32'd1;
            end
          end
          OpTxCommit: begin
            if (!in_try[w]) begin
              f_bad[w] = 1'b1;
            end else if (f_depth_q[w] != '0) begin
              f_depth_d[w] = f_depth_q[w] - 32'd1;
            end
          end
          default: f_bad[w] = 1'b1;
        endcase
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int w = 0; w < NumWf; w++) begin
        f_depth_q[w] <= '0;
      end
    end else begin
      for (int w = 0; w < NumWf; w++) begin
        f_depth_q[w] <= f_depth_d[w];
      end
    end
  end
  if (ErrCheck) begin : g_err_on
    for (genvar w = 0; w < NumWf; w++) begin : g_err
      htm_err_check #(.Timing(0)) u_err_check (
        .clk_i, .rst_ni, .illegal_i, .bad_i(f_bad[w]), .set_i(f_bad[w]), .err_i(err[w]),
        .seen_o(f_err_seen[w])
      );
    end
    `HTM_COVER(ErrNested_C, !f_err_seen[0] && f_bad[0] && f_take[0] && in_try[0] &&
                            op_i[1:0] == OpTxBegin)
  end else begin : g_err_off
    assign f_err_seen = '0;
    logic unused_err;
    assign unused_err = ^{illegal_i, f_bad, err};
  end

  `HTM_COVER(WgSTry_C, wgs_try != '0)
  `HTM_COVER(Abort_C, abort != '0)
  `HTM_COVER(Commit_C, cmt_valid != '0 && cmt_mask != '0)

  logic unused_sig;
  assign unused_sig = ^{prev_valid, exec, mcm, prev};

endmodule
