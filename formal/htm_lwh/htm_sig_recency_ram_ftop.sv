// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_sig_recency_ram: every lookup answer is exactly the specification's.
// For an arbitrary fixed address f_addr, a reference copy of its slot in every table (valid and
// value) is updated from the inserts and scrubs exactly as the specification says (newer value
// wins against the reference now_i; a scrub invalidates at age >= 2**(ValW-2) or always). A
// lookup of f_addr must answer found = every reference slot valid, value = the oldest, seeing
// the update of its own cycle. This checks the RAM read-modify-write and both forwarding paths.
// Bounded proof: the RAM contents of other slots are unconstrained in an induction step.
`include "htm_assert.svh"

module htm_sig_recency_ram_ftop #(
  parameter int unsigned        AddrW        = 3,
  parameter int unsigned        NumHashes    = 2,
  parameter int unsigned        SlotsPerHash = 2,
  parameter int unsigned        ValW         = 3,
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::sig_hash_e HashKind     = htm_pkg::SigHashH3,
  /* verilator lint_on ENUMVALUE */
  localparam int unsigned       IdxW         = htm_pkg::idx_width(SlotsPerHash)
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic [ValW-1:0]  now_i,
  input logic             lkp_valid_i,
  input logic             ins_valid_i,
  input logic [AddrW-1:0] ins_addr_i,
  input logic [ValW-1:0]  ins_val_i,
  input logic             scrub_valid_i,
  input logic             scrub_all_i,
  input logic [IdxW-1:0]  scrub_idx_i
);
  (* anyconst *) logic [AddrW-1:0] f_addr;

  logic            ready, lkp_valid, lkp_found;
  logic [ValW-1:0] lkp_val;

  htm_sig_recency_ram #(
    .AddrW       (AddrW),
    .NumHashes   (NumHashes),
    .SlotsPerHash(SlotsPerHash),
    .ValW        (ValW),
    .HashKind    (HashKind)
  ) u_dut (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ready_o      (ready),
    .now_i        (now_i),
    .lkp_valid_i  (lkp_valid_i),
    .lkp_addr_i   (f_addr),
    .lkp_valid_o  (lkp_valid),
    .lkp_found_o  (lkp_found),
    .lkp_val_o    (lkp_val),
    .ins_valid_i  (ins_valid_i),
    .ins_addr_i   (ins_addr_i),
    .ins_val_i    (ins_val_i),
    .scrub_valid_i(scrub_valid_i),
    .scrub_all_i  (scrub_all_i),
    .scrub_idx_i  (scrub_idx_i)
  );

  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    assume (!(ins_valid_i && scrub_valid_i));
    assume (!scrub_valid_i || 32'(scrub_idx_i) < SlotsPerHash);
  end

  logic [NumHashes*IdxW-1:0] f_idx_h, ins_idx_h;
  htm_sig_hash #(.AddrW(AddrW), .NumHashes(NumHashes), .IdxW(IdxW), .HashKind(HashKind))
    u_f_hash (.addr_i(f_addr), .idx_o(f_idx_h));
  htm_sig_hash #(.AddrW(AddrW), .NumHashes(NumHashes), .IdxW(IdxW), .HashKind(HashKind))
    u_ins_hash (.addr_i(ins_addr_i), .idx_o(ins_idx_h));

  // Reference slots of f_addr, after this cycle's update (f_slot_d) and registered.
  logic [NumHashes-1:0] f_valid_d, f_valid_q;
  logic [ValW-1:0]      f_val_d [NumHashes];
  logic [ValW-1:0]      f_val_q [NumHashes];

  for (genvar h = 0; h < NumHashes; h++) begin : gen_ref
    logic [IdxW-1:0] f_idx, ins_idx;
    logic [ValW-1:0] old_age, new_age;
    assign f_idx   = (SlotsPerHash == 1) ? '0 : f_idx_h[h*IdxW +: IdxW];
    assign ins_idx = (SlotsPerHash == 1) ? '0 : ins_idx_h[h*IdxW +: IdxW];
    assign old_age = now_i - f_val_q[h];
    assign new_age = now_i - ins_val_i;
    always_comb begin
      f_valid_d[h] = f_valid_q[h];
      f_val_d[h]   = f_val_q[h];
      if (ready && ins_valid_i && ins_idx == f_idx &&
          (!f_valid_q[h] || new_age < old_age)) begin
        f_valid_d[h] = 1'b1;
        f_val_d[h]   = ins_val_i;
      end
      if (ready && scrub_valid_i && scrub_idx_i == f_idx &&
          (scrub_all_i || old_age >= ValW'(1 << (ValW - 2)))) begin
        f_valid_d[h] = 1'b0;
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        f_valid_q[h] <= 1'b0;
        f_val_q[h]   <= '0;
      end else begin
        f_valid_q[h] <= f_valid_d[h];
        f_val_q[h]   <= f_val_d[h];
      end
    end
  end

  // The expected answer of a lookup accepted this cycle.
  logic            f_found;
  logic [ValW-1:0] f_oldest, f_oldest_age, f_age;
  always_comb begin
    f_found      = &f_valid_d;
    f_oldest     = f_val_d[0];
    f_oldest_age = now_i - f_val_d[0];
    f_age        = '0;
    for (int h = 1; h < NumHashes; h++) begin
      f_age = now_i - f_val_d[h];
      if (f_age > f_oldest_age) begin
        f_oldest     = f_val_d[h];
        f_oldest_age = f_age;
      end
    end
  end

  logic            f_lkp_q, f_found_q;
  logic [ValW-1:0] f_val_exp_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_lkp_q     <= 1'b0;
      f_found_q   <= 1'b0;
      f_val_exp_q <= '0;
    end else begin
      f_lkp_q     <= lkp_valid_i && ready;
      f_found_q   <= f_found;
      f_val_exp_q <= f_found ? f_oldest : '0;
    end
  end

  always_comb begin
    if (rst_ni && f_past_valid_q) begin
      assert (lkp_valid == f_lkp_q);
      if (f_lkp_q) begin
        assert (lkp_found == f_found_q);
        assert (lkp_val == f_val_exp_q);
      end
      cover (f_lkp_q && f_found_q && f_valid_q != '0);
    end
  end

endmodule
