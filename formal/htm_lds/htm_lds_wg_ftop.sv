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
`include "htm_assert.svh"

module htm_lds_wg_ftop #(
  parameter int unsigned NumWf  = 2,
  parameter int unsigned WfSize = 2,
  parameter int unsigned Sel    = 0,  // htm_pkg::lds_sel_e
  parameter int unsigned Depth  = 1
) (
  input logic                    clk_i,
  input logic                    rst_ni,
  input logic [NumWf-1:0]        op_valid_i,
  input logic [2*NumWf-1:0]      op_i,
  input logic [NumWf*WfSize-1:0] op_exec_i,
  input logic [NumWf*WfSize-1:0] conf_i,
  input logic [NumWf*WfSize-1:0] conf_lower_i,
  input logic [NumWf*WfSize-1:0] conf_self_i
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

  `HTM_COVER(WgSTry_C, wgs_try != '0)
  `HTM_COVER(Abort_C, abort != '0)
  `HTM_COVER(Commit_C, cmt_valid != '0 && cmt_mask != '0)

  logic unused_sig;
  assign unused_sig = ^{op_ready, retry, prev_valid, err, exec, mcm, prev, part};

endmodule
