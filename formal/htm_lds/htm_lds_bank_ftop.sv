// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_lds_bank: every input free, except that nothing writes the shadow area
// or the watched word directly (non-transactionally); those writes void the records by design.
// A watched word f_k and work-item f_wi (any constants). Properties:
//   * isolation: while f_wi's transaction has written f_k (a non-conflicting transactional
//     write answered, no abort or commit of f_wi since), no other work-item's transactional
//     access to f_k is answered without a conflict;
//   * restore: after f_wi's abort, once the bank is idle, f_k holds the value it had before
//     f_wi's first write (checked on the next non-transactional read of f_k, if no write to f_k
//     came in between);
//   * the bank's own assertions (queued work-items have records);
//   * the error output pulses exactly one cycle after an accepted request with a work-item or
//     address out of range or an abort/commit of a wavefront out of range, and never
//     otherwise; with illegal_i low in every cycle (no such input) it stays low. Covered: the
//     pulse after an out-of-range address (the only out-of-range class these sizes can
//     express when WgSize and NumWf are powers of two).
// Protocol (as htm_lds_wf_ctrl keeps it): a wavefront's commit ends the try of every one of its
// work-items, so it clears the wavefront's sWOsig; a commit of f_wi's wavefront without f_wi
// comes only when f_wi has no live write and no access in flight (f_wi was aborted before).
// Covers: a restore checked, a conflict, a walk.
`include "htm_assert.svh"

module htm_lds_bank_ftop #(
  parameter int unsigned Mode      = 3,  // htm_pkg::lds_cd_e
  parameter int unsigned BankWords = 4,
  parameter int unsigned WgSize    = 2,
  parameter int unsigned WfSize    = 1,
  localparam int unsigned NumWf    = WgSize / WfSize,
  localparam int unsigned Depth    = 2 * BankWords + BankWords / 4,
  localparam int unsigned AddrW    = htm_pkg::idx_width(Depth),
  localparam int unsigned WiW      = htm_pkg::idx_width(WgSize),
  localparam int unsigned WfW      = htm_pkg::idx_width(NumWf)
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              req_valid_i,
  input logic              req_tx_i,
  input logic              req_we_i,
  input logic [WiW-1:0]    req_wi_i,
  input logic [AddrW-1:0]  req_addr_i,
  input logic [31:0]       req_data_i,
  input logic              abt_valid_i,
  input logic [WfW-1:0]    abt_wf_i,
  input logic [WfSize-1:0] abt_mask_i,
  input logic              cmt_valid_i,
  input logic [WfW-1:0]    cmt_wf_i,
  input logic [WfSize-1:0] cmt_mask_i,
  input logic              shr_clr_i,
  // 0: no input of this cycle is out of range (assumed).
  input logic              illegal_i
);
  logic            req_ready, rsp_valid, rsp_conflict, rsp_lower, rsp_self, busy, err;
  logic [WiW-1:0]  rsp_wi;
  logic [31:0]     rsp_data;
  logic [1:0]      rsp_shadow;

  /* verilator lint_off ENUMVALUE */
  htm_lds_bank #(
    .Mode     (htm_pkg::lds_cd_e'(Mode)),
    .BankWords(BankWords),
    .WgSize   (WgSize),
    .WfSize   (WfSize)
  ) u_dut (
  /* verilator lint_on ENUMVALUE */
    .clk_i,
    .rst_ni,
    .req_valid_i,
    .req_ready_o   (req_ready),
    .req_tx_i,
    .req_we_i,
    .req_wi_i,
    .req_addr_i,
    .req_data_i,
    .rsp_valid_o   (rsp_valid),
    .rsp_wi_o      (rsp_wi),
    .rsp_data_o    (rsp_data),
    .rsp_conflict_o(rsp_conflict),
    .rsp_lower_o   (rsp_lower),
    .rsp_self_o    (rsp_self),
    .rsp_shadow_o  (rsp_shadow),
    .abt_valid_i,
    .abt_wf_i,
    .abt_mask_i,
    .cmt_valid_i,
    .cmt_wf_i,
    .cmt_mask_i,
    .shr_clr_i,
    .busy_o        (busy),
    .err_o         (err)
  );

  `HTM_FORMAL_START_IN_RESET

  (* anyconst *) logic [AddrW-1:0] f_k;
  (* anyconst *) logic [WiW-1:0]   f_wi;

  logic plain_wr;
  assign plain_wr = req_valid_i && req_we_i && (!req_tx_i || req_addr_i >= AddrW'(BankWords));
  `HTM_ASSUME(WatchedIsData_M, f_k < AddrW'(BankWords) && 32'(f_wi) < WgSize)
  `HTM_ASSUME(NoDirectShadowWrite_M, !(plain_wr && (req_addr_i >= AddrW'(BankWords) ||
                                                    req_addr_i == f_k)))

  // The access in flight, and whether an abort/commit of its work-item came since its accept.
  logic            acc_q, acc_tx_q, acc_we_q, killed_q;
  logic [WiW-1:0]  acc_wi_q;
  logic [AddrW-1:0] acc_addr_q;
  logic            ends_wi, ends_acc, aborts_wi;

  always_comb begin
    ends_wi   = 1'b0;
    ends_acc  = 1'b0;
    aborts_wi = 1'b0;
    for (int l = 0; l < WfSize; l++) begin
      if (abt_valid_i && abt_mask_i[l] && 32'(abt_wf_i) * WfSize + l == 32'(f_wi)) begin
        ends_wi   = 1'b1;
        aborts_wi = 1'b1;
      end
      if (cmt_valid_i && cmt_mask_i[l] && 32'(cmt_wf_i) * WfSize + l == 32'(f_wi)) begin
        ends_wi = 1'b1;
      end
      if (abt_valid_i && abt_mask_i[l] && 32'(abt_wf_i) * WfSize + l == 32'(acc_wi_q)) begin
        ends_acc = 1'b1;
      end
      if (cmt_valid_i && cmt_mask_i[l] && 32'(cmt_wf_i) * WfSize + l == 32'(acc_wi_q)) begin
        ends_acc = 1'b1;
      end
    end
  end

  logic live_q, saved_q, restoring_q, check_q;
  logic [31:0] saved_val_q;
  logic rsp_ok, rsp_on_k;

  assign rsp_ok   = rsp_valid && !rsp_conflict && !killed_q;
  assign rsp_on_k = acc_q && acc_tx_q && acc_addr_q == f_k;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q       <= 1'b0;
      acc_tx_q    <= 1'b0;
      acc_we_q    <= 1'b0;
      acc_wi_q    <= '0;
      acc_addr_q  <= '0;
      killed_q    <= 1'b0;
      live_q      <= 1'b0;
      saved_q     <= 1'b0;
      saved_val_q <= '0;
      restoring_q <= 1'b0;
      check_q     <= 1'b0;
    end else begin
      if (rsp_valid) begin
        acc_q <= 1'b0;
      end
      if (acc_q && ends_acc) begin
        killed_q <= 1'b1;
      end
      if (req_valid_i && req_ready) begin
        acc_q      <= 1'b1;
        acc_tx_q   <= req_tx_i;
        acc_we_q   <= req_we_i;
        acc_wi_q   <= req_wi_i;
        acc_addr_q <= req_addr_i;
        killed_q   <= 1'b0;
      end
      // f_wi's transaction writes f_k: the value before its first write is saved.
      if (rsp_ok && rsp_on_k && acc_we_q && rsp_wi == f_wi && !restoring_q) begin
        live_q <= 1'b1;
        if (!saved_q) begin
          saved_q     <= 1'b1;
          saved_val_q <= rsp_data;
        end
      end
      if (ends_wi) begin
        live_q  <= 1'b0;
        saved_q <= 1'b0;
        if (aborts_wi && saved_q) begin
          restoring_q <= 1'b1;
          check_q     <= 1'b1;
        end
      end
      // Any write of f_k after the abort ends the check; a non-transactional read checks it.
      if (restoring_q && req_valid_i && req_ready && req_addr_i == f_k) begin
        restoring_q <= 1'b0;
        if (req_we_i || req_tx_i) begin
          check_q <= 1'b0;
        end
      end
      if (check_q && !restoring_q && rsp_valid && acc_q && acc_addr_q == f_k) begin
        check_q <= 1'b0;
      end
    end
  end

  logic [WfW-1:0] f_wf;
  logic [31:0]    f_lane;
  assign f_wf   = WfW'(32'(f_wi) / WfSize);
  assign f_lane = 32'(f_wi) % WfSize;
  `HTM_ASSUME(CommitEndsEveryTry_M, !(cmt_valid_i && cmt_wf_i == f_wf && !cmt_mask_i[f_lane] &&
                                       (live_q || (acc_q && acc_wi_q == f_wi))))

  // Isolation.
  `HTM_ASSERT(Isolation_A, !(live_q && rsp_ok && rsp_on_k && rsp_wi != f_wi))
  // Restore: the first access of f_k after the abort (a non-transactional read) sees the value.
  `HTM_ASSERT(Restore_A, !(check_q && !restoring_q && rsp_valid && acc_q && !acc_tx_q &&
                           !acc_we_q && acc_addr_q == f_k) || rsp_data == saved_val_q)

  `HTM_COVER(RestoreChecked_C, check_q && !restoring_q && rsp_valid && acc_q && !acc_tx_q &&
                               acc_addr_q == f_k)
  `HTM_COVER(Conflict_C, rsp_valid && rsp_conflict)
  `HTM_COVER(Walk_C, busy && !acc_q)

  // The error output.
  logic f_bad_req, f_bad_end, f_err_seen;
  assign f_bad_req = req_valid_i && (32'(req_wi_i) >= WgSize || 32'(req_addr_i) >= Depth);
  assign f_bad_end = (abt_valid_i && 32'(abt_wf_i) >= NumWf) ||
                     (cmt_valid_i && 32'(cmt_wf_i) >= NumWf);
  htm_err_check #(.Timing(2)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(f_bad_req || f_bad_end),
    .set_i((f_bad_req && req_ready) || f_bad_end), .err_i(err), .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrBadAddr_C, err)

  logic unused;
  assign unused = ^{rsp_lower, rsp_self, rsp_shadow};
endmodule
