// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_postdate. The environment issues any operation stream (any kind,
// any slots, bad ones included, with or without gaps). Three slots, so that every two- and
// three-transaction dependency loop is covered. Bounded proof (the table is block RAM, which
// k-induction would need tied to the wrapper's view; the reset sweep alone takes NumTx cycles):
//   * CTS < PDTS for every slot with a PDTS, as any Query reports it (the invariant of 4.1),
//     and the RTL's own assertions that an applied Edge keeps it;
//   * no loop among running transactions is missed: once the edges of a two- or three-slot
//     cycle have all been applied without a declaration between the same running transactions
//     (none committed, aborted or reset since), the assertion fails;
//   * every operation has its result two cycles after it was taken, in order.
`include "htm_assert.svh"

module htm_postdate_ftop #(
  parameter int unsigned NumTx = 3,
  parameter int unsigned TsW   = 5,
  parameter int unsigned Inc   = 3,
  localparam int unsigned TxW = htm_pkg::idx_width(NumTx)
) (
  input logic            clk_i,
  input logic            rst_ni,
  input logic            op_valid_i,
  input htm_pkg::pd_op_e op_kind_i,
  input logic [TxW-1:0]  op_a_i,
  input logic [TxW-1:0]  op_b_i,
  // 0: the operation of this cycle is well formed (assumed).
  input logic            illegal_i
);
  logic            op_ready, res_valid, res_loop, res_ovf, res_err, res_pdts_set;
  logic            res_committed, err;
  htm_pkg::pd_op_e res_kind;
  logic [TxW-1:0]  res_a, res_b;
  logic [TsW:0]    res_ts, res_cts, res_pdts;
  logic [TsW-1:0]  res_prev;

  htm_postdate #(
    .NumTx(NumTx),
    .TsW  (TsW),
    .Inc  (Inc)
  ) u_dut (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .op_valid_i     (op_valid_i),
    .op_ready_o     (op_ready),
    .op_kind_i      (op_kind_i),
    .op_a_i         (op_a_i),
    .op_b_i         (op_b_i),
    .res_valid_o    (res_valid),
    .res_kind_o     (res_kind),
    .res_a_o        (res_a),
    .res_b_o        (res_b),
    .res_loop_o     (res_loop),
    .res_ovf_o      (res_ovf),
    .res_err_o      (res_err),
    .res_ts_o       (res_ts),
    .res_cts_o      (res_cts),
    .res_pdts_o     (res_pdts),
    .res_pdts_set_o (res_pdts_set),
    .res_prev_o     (res_prev),
    .res_committed_o(res_committed),
    .err_o          (err)
  );

  `HTM_FORMAL_START_IN_RESET

  // The pipeline as the environment sees it.
  logic            acc, acc1_q, acc2_q;
  htm_pkg::pd_op_e kind1_q, kind2_q;
  logic [TxW-1:0]  a1_q, a2_q, b1_q, b2_q;
  assign acc = op_valid_i && op_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc1_q  <= 1'b0;
      acc2_q  <= 1'b0;
      kind1_q <= htm_pkg::PdOpEdge;
      kind2_q <= htm_pkg::PdOpEdge;
      a1_q    <= '0;
      a2_q    <= '0;
      b1_q    <= '0;
      b2_q    <= '0;
    end else begin
      acc1_q  <= acc;
      acc2_q  <= acc1_q;
      kind1_q <= op_kind_i;
      kind2_q <= kind1_q;
      a1_q    <= op_a_i;
      a2_q    <= a1_q;
      b1_q    <= op_b_i;
      b2_q    <= b1_q;
    end
  end

  `HTM_ASSERT(ResultTwoCyclesLater_A, res_valid == acc2_q)
  `HTM_ASSERT(ResultIsTheOperation_A, !res_valid ||
                                      (res_kind == kind2_q && res_a == a2_q && res_b == b2_q))

  // CTS < PDTS wherever a PDTS is set.
  logic applied;
  assign applied = res_valid && !res_err && !res_ovf;
  `HTM_ASSERT(CtsBelowPdts_A, !(applied && res_kind == htm_pkg::PdOpQuery && res_pdts_set) ||
                              res_cts < res_pdts)

  // Edges applied between running transactions: e_q[i*NumTx+j] for slot i -> slot j.
  logic [NumTx*NumTx-1:0] e_q, e_d;
  always_comb begin
    e_d = e_q;
    if (res_valid && res_ovf) begin
      e_d = '0;
    end else if (applied && (res_kind == htm_pkg::PdOpCommit ||
                             res_kind == htm_pkg::PdOpAbort)) begin
      for (int i = 0; i < NumTx; i++) begin
        if (TxW'(i) == res_a) begin
          for (int j = 0; j < NumTx; j++) begin
            e_d[i*NumTx+j] = 1'b0;
            e_d[j*NumTx+i] = 1'b0;
          end
        end
      end
    end else if (applied && res_kind == htm_pkg::PdOpEdge && !res_loop && !res_committed) begin
      for (int i = 0; i < NumTx; i++) begin
        for (int j = 0; j < NumTx; j++) begin
          if (TxW'(i) == res_a && TxW'(j) == res_b) begin
            e_d[i*NumTx+j] = 1'b1;
          end
        end
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      e_q <= '0;
    end else begin
      e_q <= e_d;
    end
  end

  if (NumTx >= 2) begin : gen_two
    `HTM_ASSERT(NoTwoLoop_A, !(e_q[0*NumTx+1] && e_q[1*NumTx+0]))
  end
  if (NumTx >= 3) begin : gen_three
    `HTM_ASSERT(NoTwoLoop02_A, !(e_q[0*NumTx+2] && e_q[2*NumTx+0]))
    `HTM_ASSERT(NoTwoLoop12_A, !(e_q[1*NumTx+2] && e_q[2*NumTx+1]))
    `HTM_ASSERT(NoThreeLoop012_A, !(e_q[0*NumTx+1] && e_q[1*NumTx+2] && e_q[2*NumTx+0]))
    `HTM_ASSERT(NoThreeLoop021_A, !(e_q[0*NumTx+2] && e_q[2*NumTx+1] && e_q[1*NumTx+0]))
    `HTM_COVER(ChainOfThree_C, e_q[0*NumTx+1] && e_q[1*NumTx+2])
  end

  `HTM_COVER(Loop_C, applied && res_loop)
  `HTM_COVER(QueriedPdts_C, applied && res_kind == htm_pkg::PdOpQuery && res_pdts_set)
  `HTM_COVER(CommittedPred_C, applied && res_kind == htm_pkg::PdOpEdge && res_committed)

  // The error outputs: res_err_o marks exactly the bad operations (an unknown kind, a slot out
  // of range, an edge to an out-of-range slot or to itself), err_o is exactly "a bad result
  // was given since reset", and with only well-formed operations (illegal_i low in every
  // cycle) err_o stays low.
  function automatic logic f_bad(htm_pkg::pd_op_e k, logic [TxW-1:0] a, logic [TxW-1:0] b);
    logic kind_ok;
    kind_ok = k == htm_pkg::PdOpEdge || k == htm_pkg::PdOpBegin || k == htm_pkg::PdOpCommit ||
              k == htm_pkg::PdOpAbort || k == htm_pkg::PdOpQuery;
    f_bad = !kind_ok || 32'(a) >= NumTx ||
            (k == htm_pkg::PdOpEdge && (32'(b) >= NumTx || a == b));
  endfunction
  logic f_bad2, f_err_seen;
  assign f_bad2 = f_bad(kind2_q, a2_q, b2_q);
  `HTM_ASSERT(ResErrIsBad_A, !res_valid || res_err == f_bad2)
  htm_err_check #(.Timing(1)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(op_valid_i && f_bad(op_kind_i, op_a_i, op_b_i)),
    .set_i(res_valid && f_bad2), .err_i(err), .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrKind_C, res_valid && res_err && 3'(res_kind) > 3'd4)
  `HTM_COVER(ErrSelfEdge_C, res_valid && res_err && res_kind == htm_pkg::PdOpEdge &&
                            res_a == res_b && 32'(res_a) < NumTx)
  `HTM_COVER(ErrSlot_C, res_valid && res_err && 32'(res_a) >= NumTx)

endmodule
