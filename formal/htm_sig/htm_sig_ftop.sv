// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_sig: no false negatives. For an arbitrary fixed address f_addr, once it
// has been inserted (and not cleared since), all of its bits are set and a test of it hits.
// The test port is tied to f_addr (it is a read-only port, so this loses no generality) which
// makes the property inductive at k = 1.
`include "htm_assert.svh"

module htm_sig_ftop #(
  parameter int unsigned        AddrW        = 6,
  parameter int unsigned        NumHashes    = 2,
  parameter int unsigned        SlotsPerHash = 4,
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::sig_hash_e HashKind     = htm_pkg::SigHashH3
  /* verilator lint_on ENUMVALUE */
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             clr_i,
  input logic             ins_valid_i,
  input logic [AddrW-1:0] ins_addr_i,
  input logic [AddrW-1:0] tst_addr_i
);
  localparam int unsigned IdxW = htm_pkg::idx_width(SlotsPerHash);
  localparam int unsigned SigW = NumHashes * SlotsPerHash;

  logic            tst_hit, empty;
  logic [SigW-1:0] bits;

  htm_sig #(
    .AddrW       (AddrW),
    .NumHashes   (NumHashes),
    .SlotsPerHash(SlotsPerHash),
    .HashKind    (HashKind)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (clr_i),
    .ins_valid_i(ins_valid_i),
    .ins_addr_i (ins_addr_i),
    .tst_addr_i (tst_addr_i),
    .tst_hit_o  (tst_hit),
    .empty_o    (empty),
    .bits_o     (bits)
  );

  (* anyconst *) logic [AddrW-1:0] f_addr;
  logic [NumHashes*IdxW-1:0] f_idx;

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(NumHashes),
    .IdxW     (IdxW),
    .HashKind (HashKind)
  ) u_f_hash (
    .addr_i(f_addr),
    .idx_o (f_idx)
  );

  // Reference: f_addr inserted since the last clear (a clear and an insert in one cycle: the
  // insert stays).
  logic f_inserted_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_inserted_q <= 1'b0;
    end else begin
      f_inserted_q <= (f_inserted_q && !clr_i) || (ins_valid_i && ins_addr_i == f_addr);
    end
  end

  // The run starts in reset.
  `HTM_FORMAL_START_IN_RESET
  always_comb begin
    assume (tst_addr_i == f_addr);
  end

  always_comb begin
    if (rst_ni && f_inserted_q) begin
      for (int h = 0; h < NumHashes; h++) begin
        assert (bits[h*SlotsPerHash + ((SlotsPerHash == 1) ? 0 : int'(f_idx[h*IdxW +: IdxW]))]);
      end
      assert (tst_hit);
      assert (!empty);
    end
    if (rst_ni) begin
      cover (f_inserted_q && tst_hit);
      cover (!f_inserted_q && tst_hit);  // a false positive is reachable
    end
  end

endmodule
