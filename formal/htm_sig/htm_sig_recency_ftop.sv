// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_sig_recency: a lookup is never below the true last value. For an
// arbitrary fixed address f_addr, f_max_q is the largest value inserted for it since the last
// clear; the lookup of f_addr returns at least f_max_q. The lookup port is tied to f_addr (a
// read-only port), which makes the property inductive at k = 1.
`include "htm_assert.svh"

module htm_sig_recency_ftop #(
  parameter int unsigned        AddrW        = 5,
  parameter int unsigned        NumHashes    = 2,
  parameter int unsigned        SlotsPerHash = 4,
  parameter int unsigned        ValW         = 3,
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::sig_hash_e HashKind     = htm_pkg::SigHashH3
  /* verilator lint_on ENUMVALUE */
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             clr_i,
  input logic             ins_valid_i,
  input logic [AddrW-1:0] ins_addr_i,
  input logic [ValW-1:0]  ins_val_i,
  input logic [AddrW-1:0] lkp_addr_i
);
  logic [ValW-1:0] lkp_val;

  htm_sig_recency #(
    .AddrW       (AddrW),
    .NumHashes   (NumHashes),
    .SlotsPerHash(SlotsPerHash),
    .ValW        (ValW),
    .HashKind    (HashKind)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (clr_i),
    .ins_valid_i(ins_valid_i),
    .ins_addr_i (ins_addr_i),
    .ins_val_i  (ins_val_i),
    .lkp_addr_i (lkp_addr_i),
    .lkp_val_o  (lkp_val)
  );

  (* anyconst *) logic [AddrW-1:0] f_addr;

  // Reference: the largest value inserted for f_addr since the last clear.
  logic [ValW-1:0] f_max_d, f_max_q;
  always_comb begin
    f_max_d = clr_i ? '0 : f_max_q;
    if (ins_valid_i && ins_addr_i == f_addr && ins_val_i > f_max_d) begin
      f_max_d = ins_val_i;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_max_q <= '0;
    end else begin
      f_max_q <= f_max_d;
    end
  end

  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    assume (lkp_addr_i == f_addr);
  end

  always_comb begin
    if (rst_ni) begin
      assert (lkp_val >= f_max_q);
      cover (f_max_q != '0 && lkp_val == f_max_q);
      cover (lkp_val > f_max_q);  // an over-estimate through aliasing is reachable
    end
  end

endmodule
