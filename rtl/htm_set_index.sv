// SPDX-License-Identifier: Apache-2.0
//
// htm_set_index: the set of a block address in a set-associative table of any number of sets.
// Purely combinational. The H3 hash of the address (htm_sig_hash) gives idx_width(Sets) bits;
// a hash h >= Sets is folded to h - Sets, so Sets need not be a power of two (the low sets
// then take twice the share of the others). The golden model's SigFoldedSet is the same
// function. Used by the snapshot-isolation tables (htm_writer_table, htm_reader_list).
`include "htm_assert.svh"

module htm_set_index #(
  parameter int unsigned AddrW = 30,    // block address width, 1..62
  parameter int unsigned Sets  = 1000,  // sets, 1..65536
  // Derived, do not set.
  localparam int unsigned SetIdxW = htm_pkg::idx_width(Sets)
) (
  input  logic [AddrW-1:0]   addr_i,
  output logic [SetIdxW-1:0] set_o
);

  `HTM_ASSERT_INIT(SetsRange_A, Sets >= 1 && Sets <= 65536)

  logic [SetIdxW-1:0] hash;

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(1),
    .IdxW     (SetIdxW),
    .HashKind (htm_pkg::SigHashH3)
  ) u_hash (
    .addr_i(addr_i),
    .idx_o (hash)
  );

  always_comb begin
    if (Sets == 1) begin
      set_o = '0;
    end else if (32'(hash) >= Sets) begin
      set_o = hash - SetIdxW'(Sets);
    end else begin
      set_o = hash;
    end
  end

endmodule
