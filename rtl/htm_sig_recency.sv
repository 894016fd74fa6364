// SPDX-License-Identifier: Apache-2.0
//
// htm_sig_recency: a recency ("versioning") Bloom filter.
//
// NumHashes tables of SlotsPerHash values of ValW bits. Inserting (address, value) raises each of
// the address's slots to max(slot, value); a lookup returns the minimum over the address's slots.
// The answer is conservative: never below the largest value inserted for that address since the
// last clear (it may be larger, through aliasing with other addresses). Values compare as
// unsigned numbers; a user whose values wrap (commit ids, timestamps) clears the filter or keeps
// values within a window where unsigned order is right. With ValW = 1 this is a Bloom filter.
//
// Timing (one insert and one lookup per cycle, no back-pressure):
//   * lkp_val_o is a combinational function of the registered state (zero-latency lookup); it
//     sees the state before this cycle's clear/insert (read-before-write).
//   * clr_i and ins_valid_i take effect at the rising edge; in the same cycle the clear is
//     applied first, so the filter then holds exactly the new (address, value).
`include "htm_assert.svh"

module htm_sig_recency #(
  parameter int unsigned        AddrW        = 32,   // address width, 1..64
  parameter int unsigned        NumHashes    = 4,    // hash functions (k), 1..8
  parameter int unsigned        SlotsPerHash = 256,  // slots per hash table, a power of two
  parameter int unsigned        ValW         = 16,   // value width (commit id, timestamp)
  // A configuration sets this enum-typed parameter with a number (-G), which is legal.
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::sig_hash_e HashKind     = htm_pkg::SigHashH3,
  /* verilator lint_on ENUMVALUE */
  // Derived, do not set.
  localparam int unsigned       IdxW         = htm_pkg::idx_width(SlotsPerHash),
  localparam int unsigned       NumSlots     = NumHashes * SlotsPerHash
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,        // set every slot to 0
  input  logic             ins_valid_i,  // insert (ins_addr_i, ins_val_i)
  input  logic [AddrW-1:0] ins_addr_i,
  input  logic [ValW-1:0]  ins_val_i,
  input  logic [AddrW-1:0] lkp_addr_i,   // lookup address
  output logic [ValW-1:0]  lkp_val_o     // min over the address's slots
);

  `HTM_ASSERT_INIT(SlotsPow2_A, htm_pkg::is_pow2(SlotsPerHash))
  `HTM_ASSERT_INIT(ModOneHash_A, HashKind != htm_pkg::SigHashMod || NumHashes == 1)
  `HTM_ASSERT_INIT(ValWRange_A, ValW >= 1 && ValW <= 64)

  localparam int unsigned SlotIdxW = htm_pkg::idx_width(NumSlots);

  // Position of slot `idx` of table `h` in the flat slot array.
  function automatic logic [SlotIdxW-1:0] slot_index(input int unsigned h,
                                                     input logic [IdxW-1:0] idx);
    slot_index = SlotIdxW'(h * SlotsPerHash) + ((SlotsPerHash == 1) ? '0 : SlotIdxW'(idx));
  endfunction

  // -----------------------------------------------------------------------------------------------
  // Hashes
  // -----------------------------------------------------------------------------------------------
  logic [NumHashes*IdxW-1:0] ins_idx, lkp_idx;

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
  ) u_lkp_hash (
    .addr_i(lkp_addr_i),
    .idx_o (lkp_idx)
  );

  // -----------------------------------------------------------------------------------------------
  // State and next state (slot h*SlotsPerHash + s is slot s of table h)
  // -----------------------------------------------------------------------------------------------
  logic [ValW-1:0]      slot_d [NumSlots];
  logic [ValW-1:0]      slot_q [NumSlots];
  logic [ValW-1:0]      ins_slot [NumHashes];  // the slot the insert selects in each table
  logic [NumHashes-1:0] ins_raise;             // ... and whether the insert raises it

  // One comparator per table: the inserted value against the selected slot (0 after a clear).
  always_comb begin
    for (int h = 0; h < NumHashes; h++) begin
      ins_slot[h] = slot_q[slot_index(h, ins_idx[h*IdxW +: IdxW])];
      ins_raise[h] = ins_valid_i && (clr_i ? (ins_val_i != '0) : (ins_val_i > ins_slot[h]));
    end
  end

  always_comb begin
    for (int h = 0; h < NumHashes; h++) begin
      for (int s = 0; s < SlotsPerHash; s++) begin
        slot_d[h*SlotsPerHash+s] = clr_i ? '0 : slot_q[h*SlotsPerHash+s];
        if (ins_raise[h] && (SlotsPerHash == 1 || ins_idx[h*IdxW +: IdxW] == IdxW'(s))) begin
          slot_d[h*SlotsPerHash+s] = ins_val_i;
        end
      end
    end
  end

  for (genvar i = 0; i < NumSlots; i++) begin : gen_slot
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        slot_q[i] <= '0;
      end else begin
        slot_q[i] <= slot_d[i];
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Lookup: the minimum over the address's slot in every table
  // -----------------------------------------------------------------------------------------------
  logic [ValW-1:0] lkp_slot [NumHashes];

  always_comb begin
    for (int h = 0; h < NumHashes; h++) begin
      lkp_slot[h] = slot_q[slot_index(h, lkp_idx[h*IdxW +: IdxW])];
    end
  end

  always_comb begin
    lkp_val_o = lkp_slot[0];
    for (int h = 1; h < NumHashes; h++) begin
      if (lkp_slot[h] < lkp_val_o) begin
        lkp_val_o = lkp_slot[h];
      end
    end
  end

endmodule
