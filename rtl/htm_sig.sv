// SPDX-License-Identifier: Apache-2.0
//
// htm_sig: a partitioned Bloom signature (read/write-set signature).
//
// NumHashes tables of SlotsPerHash bits each; an address sets one bit in every table (the index
// given by htm_sig_hash) and tests positive when all of its bits are set. False positives are
// possible, false negatives are not: once inserted, an address tests positive until cleared.
//
// Timing (one operation of each kind per cycle, no back-pressure):
//   * tst_hit_o, bits_o and empty_o are combinational functions of the registered state
//     (zero-latency test). A test sees the state before this cycle's clear/insert
//     (read-before-write); an insert is visible from the next cycle.
//   * clr_i and ins_valid_i take effect at the rising edge. In the same cycle the clear is
//     applied first, so the signature then holds exactly the new address: no insert is lost.
`include "htm_assert.svh"

module htm_sig #(
  parameter int unsigned        AddrW        = 32,  // address width, 1..64
  parameter int unsigned        NumHashes    = 4,   // hash functions (k), 1..8
  parameter int unsigned        SlotsPerHash = 16,  // bits per hash table, a power of two
  // A configuration sets this enum-typed parameter with a number (-G), which is legal.
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::sig_hash_e HashKind     = htm_pkg::SigHashH3,
  /* verilator lint_on ENUMVALUE */
  // Derived, do not set.
  localparam int unsigned       IdxW         = htm_pkg::idx_width(SlotsPerHash),
  localparam int unsigned       SigW         = NumHashes * SlotsPerHash
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,        // clear every bit
  input  logic             ins_valid_i,  // insert ins_addr_i
  input  logic [AddrW-1:0] ins_addr_i,
  input  logic [AddrW-1:0] tst_addr_i,   // membership test address
  output logic             tst_hit_o,    // all NumHashes bits of tst_addr_i are set
  output logic             empty_o,      // no bit is set
  output logic [SigW-1:0]  bits_o        // the whole signature, table h at [h*SlotsPerHash +: ..]
);

  `HTM_ASSERT_INIT(SlotsPow2_A, htm_pkg::is_pow2(SlotsPerHash))
  `HTM_ASSERT_INIT(ModOneHash_A, HashKind != htm_pkg::SigHashMod || NumHashes == 1)

  // -----------------------------------------------------------------------------------------------
  // Hashes
  // -----------------------------------------------------------------------------------------------
  logic [NumHashes*IdxW-1:0] ins_idx, tst_idx;

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(NumHashes),
    .IdxW     (IdxW),
    .HashKind (HashKind)
  ) u_ins_hash (
    .addr_i(ins_addr_i),
    .idx_o (ins_idx)
  );

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(NumHashes),
    .IdxW     (IdxW),
    .HashKind (HashKind)
  ) u_tst_hash (
    .addr_i(tst_addr_i),
    .idx_o (tst_idx)
  );

  // -----------------------------------------------------------------------------------------------
  // State and next state
  // -----------------------------------------------------------------------------------------------
  logic [SigW-1:0] bits_d, bits_q;

  always_comb begin
    bits_d = clr_i ? '0 : bits_q;
    for (int h = 0; h < NumHashes; h++) begin
      for (int s = 0; s < SlotsPerHash; s++) begin
        if (ins_valid_i && (SlotsPerHash == 1 || ins_idx[h*IdxW +: IdxW] == IdxW'(s))) begin
          bits_d[h*SlotsPerHash+s] = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bits_q <= '0;
    end else begin
      bits_q <= bits_d;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  logic [NumHashes-1:0] tst_bit;

  localparam int unsigned BitIdxW = htm_pkg::idx_width(SigW);

  always_comb begin
    for (int h = 0; h < NumHashes; h++) begin
      tst_bit[h] = bits_q[BitIdxW'(h * SlotsPerHash) +
                          ((SlotsPerHash == 1) ? '0 : BitIdxW'(tst_idx[h*IdxW +: IdxW]))];
    end
  end

  assign tst_hit_o = &tst_bit;
  assign empty_o   = ~|bits_q;
  assign bits_o    = bits_q;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // Every hash table holds the same number of inserted addresses' bits, so either all tables are
  // empty or none is.
  logic [NumHashes-1:0] table_empty;
  always_comb begin
    for (int h = 0; h < NumHashes; h++) begin
      table_empty[h] = ~|bits_q[h*SlotsPerHash +: SlotsPerHash];
    end
  end
  `HTM_ASSERT(TablesEmptyTogether_A, table_empty == '0 || table_empty == {NumHashes{1'b1}})

endmodule
