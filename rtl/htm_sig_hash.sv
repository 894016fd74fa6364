// SPDX-License-Identifier: Apache-2.0
//
// htm_sig_hash: the hash functions of a partitioned Bloom signature. Purely combinational.
//
// For each of NumHashes hash functions it produces an IdxW-bit index:
//   HashKind == SigHashH3  : index bit b of hash h = parity(addr_i & mask[h][b]), H3 class,
//                            masks from htm_pkg::SIG_H3_MASKS (splitmix64, see docs/htm_sig.md);
//   HashKind == SigHashMod : the low IdxW bits of addr_i (addr_i mod 2**IdxW), as the LDS
//                            signatures of GPU-LocalTM use (intra-bank address mod 8 / mod 32).
// Hash h occupies idx_o[h*IdxW +: IdxW].
`include "htm_assert.svh"

module htm_sig_hash #(
  parameter int unsigned        AddrW     = 32,  // address width, 1..64
  parameter int unsigned        NumHashes = 4,   // number of hash functions, 1..SIG_MAX_HASHES
  parameter int unsigned        IdxW      = 8,   // index bits per hash, 1..SIG_MAX_IDX_BITS
  // A configuration sets this enum-typed parameter with a number (-G), which is legal.
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::sig_hash_e HashKind  = htm_pkg::SigHashH3
  /* verilator lint_on ENUMVALUE */
) (
  input  logic [AddrW-1:0]          addr_i,
  output logic [NumHashes*IdxW-1:0] idx_o
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 64)
  `HTM_ASSERT_INIT(NumHashesRange_A, NumHashes >= 1 && NumHashes <= htm_pkg::SIG_MAX_HASHES)
  `HTM_ASSERT_INIT(IdxWRange_A, IdxW >= 1 && IdxW <= htm_pkg::SIG_MAX_IDX_BITS)

  // The modulo hash uses only the low address bits; the rest are intentionally unused.
  if (HashKind == htm_pkg::SigHashMod) begin : gen_mod_unused
    logic unused_addr;
    assign unused_addr = ^addr_i;
  end

  for (genvar h = 0; h < NumHashes; h++) begin : gen_hash
    for (genvar b = 0; b < IdxW; b++) begin : gen_bit
      if (HashKind == htm_pkg::SigHashH3) begin : gen_h3
        localparam int unsigned MaskLsb = (h * htm_pkg::SIG_MAX_IDX_BITS + b) * 64;
        localparam logic [63:0] Mask = htm_pkg::SIG_H3_MASKS[MaskLsb +: 64];
        assign idx_o[h*IdxW+b] = ^(addr_i & Mask[AddrW-1:0]);
      end else if (b < AddrW) begin : gen_mod
        assign idx_o[h*IdxW+b] = addr_i[b];
      end else begin : gen_mod_zero
        assign idx_o[h*IdxW+b] = 1'b0;
      end
    end
  end

endmodule
