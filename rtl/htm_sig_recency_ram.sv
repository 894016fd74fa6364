// SPDX-License-Identifier: Apache-2.0
//
// htm_sig_recency_ram: a recency ("versioning") Bloom filter in block RAM, for values that wrap
// (commit ids, timestamps).
//
// NumHashes tables of SlotsPerHash slots; a slot is invalid or holds a ValW-bit value. Values
// are ordered by their age relative to a reference now_i: age(v) = (now_i - v) mod 2**ValW, a
// smaller age is newer. Every value handed to the filter must not be newer than now_i.
//   * insert (address, value): each of the address's slots becomes the newer of the slot and
//     the value (an invalid slot takes the value);
//   * lookup (address): found when all the address's slots are valid; the value is the oldest
//     of them. It is never older than the newest value inserted for the address since that
//     address's slots were last invalidated (conservative), provided every value involved is
//     younger than 2**(ValW-1);
//   * scrub (slot index s): slot s of every table is invalidated when its age is at least
//     StaleAge = 2**(ValW-2), or always when scrub_all_i. A user that visits every slot often
//     enough keeps every valid value younger than 2**(ValW-1), so age order stays right while
//     values wrap (see docs/htm_lwh.md).
//
// Storage: per table, two copies in htm_ram_1r1w (one read by lookups, one read by the
// read-modify-write of inserts and scrubs), written together.
//
// Timing:
//   * after reset the filter invalidates one slot per table per cycle (SlotsPerHash cycles)
//     with ready_o low; requests are ignored while ready_o is low;
//   * one lookup and one insert-or-scrub per cycle; insert and scrub are exclusive;
//   * a lookup accepted in cycle t answers in cycle t+1 (lkp_valid_o); it sees every insert and
//     scrub accepted up to and including cycle t (the ones of cycle t first), through
//     forwarding of the two writes the RAMs have not yet returned.
`include "htm_assert.svh"

module htm_sig_recency_ram #(
  parameter int unsigned        AddrW        = 30,   // address width, 1..64
  parameter int unsigned        NumHashes    = 4,    // hash functions (k), 1..8
  parameter int unsigned        SlotsPerHash = 256,  // slots per table, a power of two
  parameter int unsigned        ValW         = 16,   // value width, 2..63
  // A configuration sets this enum-typed parameter with a number (-G), which is legal.
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::sig_hash_e HashKind     = htm_pkg::SigHashH3,
  /* verilator lint_on ENUMVALUE */
  // Derived, do not set.
  localparam int unsigned       IdxW         = htm_pkg::idx_width(SlotsPerHash)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  output logic             ready_o,        // low during the initial sweep
  input  logic [ValW-1:0]  now_i,          // reference for ages
  input  logic             lkp_valid_i,    // look up lkp_addr_i
  input  logic [AddrW-1:0] lkp_addr_i,
  output logic             lkp_valid_o,    // answer to the lookup of the previous cycle
  output logic             lkp_found_o,    // every slot of the address valid
  output logic [ValW-1:0]  lkp_val_o,      // oldest of them (0 when not found)
  input  logic             ins_valid_i,    // insert (ins_addr_i, ins_val_i)
  input  logic [AddrW-1:0] ins_addr_i,
  input  logic [ValW-1:0]  ins_val_i,
  input  logic             scrub_valid_i,  // scrub slot scrub_idx_i of every table
  input  logic             scrub_all_i,    // ... invalidating it whatever its age
  input  logic [IdxW-1:0]  scrub_idx_i
);

  `HTM_ASSERT_INIT(SlotsPow2_A, htm_pkg::is_pow2(SlotsPerHash))
  `HTM_ASSERT_INIT(ModOneHash_A, HashKind != htm_pkg::SigHashMod || NumHashes == 1)
  `HTM_ASSERT_INIT(ValWRange_A, ValW >= 2 && ValW <= 63)

  localparam int unsigned SlotW = ValW + 1;  // {valid, value}

  // Age order without the ages: age(v) = now - v + 2**ValW * wrap(v), wrap(v) = (v > now), so
  // age(a) > age(b) is a's wrap alone when the wraps differ, else b > a. One comparison of the
  // values, beside one of each value with now, instead of two subtractions and a comparison.
  function automatic logic older(input logic [ValW-1:0] a, input logic a_wrap,
                                 input logic [ValW-1:0] b, input logic b_wrap);
    older = (a_wrap != b_wrap) ? a_wrap : (b > a);
  endfunction

  // -----------------------------------------------------------------------------------------------
  // Acceptance and the initial sweep
  // -----------------------------------------------------------------------------------------------
  logic            init_q;
  logic [IdxW-1:0] init_idx_q;
  logic            lkp_acc, ins_acc, scrub_acc, upd_acc;

  assign ready_o   = !init_q;
  assign lkp_acc   = lkp_valid_i && !init_q;
  assign ins_acc   = ins_valid_i && !init_q;
  assign scrub_acc = scrub_valid_i && !init_q;
  assign upd_acc   = ins_acc || scrub_acc;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q     <= 1'b1;
      init_idx_q <= '0;
    end else if (init_q) begin
      init_idx_q <= init_idx_q + IdxW'(1);
      if (SlotsPerHash == 1 || init_idx_q == IdxW'(SlotsPerHash - 1)) begin
        init_q <= 1'b0;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Hashes
  // -----------------------------------------------------------------------------------------------
  logic [NumHashes*IdxW-1:0] lkp_hash, ins_hash, lkp_idx, ins_idx;

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(NumHashes),
    .IdxW     (IdxW),
    .HashKind (HashKind)
  ) u_lkp_hash (
    .addr_i(lkp_addr_i),
    .idx_o (lkp_hash)
  );

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(NumHashes),
    .IdxW     (IdxW),
    .HashKind (HashKind)
  ) u_ins_hash (
    .addr_i(ins_addr_i),
    .idx_o (ins_hash)
  );

  // A single-slot table has index 0 (the hash's one index bit is not used).
  assign lkp_idx = (SlotsPerHash == 1) ? '0 : lkp_hash;
  assign ins_idx = (SlotsPerHash == 1) ? '0 : ins_hash;

  // -----------------------------------------------------------------------------------------------
  // Stage 1 registers: the lookup and the update (insert or scrub) accepted last cycle
  // -----------------------------------------------------------------------------------------------
  logic                      lkp_q, upd_q, upd_scrub_q, upd_all_q;
  logic [NumHashes*IdxW-1:0] lkp_idx_q, upd_idx_q;
  logic [ValW-1:0]           now_q, upd_val_q;  // now_i of the lookup's and the update's cycle
  logic [NumHashes*IdxW-1:0] upd_idx_d;

  for (genvar h = 0; h < NumHashes; h++) begin : gen_upd_idx
    assign upd_idx_d[h*IdxW +: IdxW] = !scrub_acc ? ins_idx[h*IdxW +: IdxW] :
                                       (SlotsPerHash == 1) ? '0 : scrub_idx_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lkp_q       <= 1'b0;
      upd_q       <= 1'b0;
      upd_scrub_q <= 1'b0;
      upd_all_q   <= 1'b0;
      lkp_idx_q   <= '0;
      upd_idx_q   <= '0;
      now_q       <= '0;
      upd_val_q   <= '0;
    end else begin
      lkp_q       <= lkp_acc;
      upd_q       <= upd_acc;
      upd_scrub_q <= scrub_acc;
      upd_all_q   <= scrub_acc && scrub_all_i;
      lkp_idx_q   <= lkp_idx;
      upd_idx_q   <= upd_idx_d;
      now_q       <= now_i;
      upd_val_q   <= ins_val_i;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Per table: the two RAM copies, the read-modify-write and the lookup with forwarding
  // -----------------------------------------------------------------------------------------------
  logic [NumHashes-1:0] lkp_slot_valid;
  logic [ValW-1:0]      lkp_slot_val [NumHashes];
  logic [NumHashes-1:0] lkp_slot_wrap;

  for (genvar h = 0; h < NumHashes; h++) begin : gen_table
    logic [IdxW-1:0]  wr_idx, wr_idx_q;
    logic [SlotW-1:0] wr_data, wr_data_q, m_rdata, l_rdata, m_old, l_cur;
    logic             wr_en, wr_en_q;
    logic [ValW-1:0]  m_age, q_age;  // the scrub's test reads their top two bits
    logic             old_stale, m_fwd, m_wrap, q_wrap, new_wrap, new_lt_old;
    logic             m_unused_valid, l_unused_valid;

    htm_ram_1r1w #(
      .Width(SlotW),
      .Depth(SlotsPerHash)
    ) u_l (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .wr_en_i   (wr_en),
      .wr_addr_i (wr_idx),
      .wr_data_i (wr_data),
      .rd_en_i   (lkp_acc),
      .rd_addr_i (lkp_idx[h*IdxW +: IdxW]),
      .rd_valid_o(l_unused_valid),
      .rd_data_o (l_rdata)
    );

    htm_ram_1r1w #(
      .Width(SlotW),
      .Depth(SlotsPerHash)
    ) u_m (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .wr_en_i   (wr_en),
      .wr_addr_i (wr_idx),
      .wr_data_i (wr_data),
      .rd_en_i   (upd_acc),
      .rd_addr_i (upd_idx_d[h*IdxW +: IdxW]),
      .rd_valid_o(m_unused_valid),
      .rd_data_o (m_rdata)
    );

    // The slot before the update: the RAM word, or last cycle's write that the read missed.
    // The insert's age comparison is made against both candidates, from registers, before the
    // forwarding choice; the scrub's age (top bits) likewise.
    assign m_fwd      = wr_en_q && wr_idx_q == upd_idx_q[h*IdxW +: IdxW];
    assign m_wrap     = m_rdata[ValW-1:0] > now_q;
    assign q_wrap     = wr_data_q[ValW-1:0] > now_q;
    assign new_wrap   = upd_val_q > now_q;
    assign m_age      = now_q - m_rdata[ValW-1:0];
    assign q_age      = now_q - wr_data_q[ValW-1:0];
    assign m_old      = m_fwd ? wr_data_q : m_rdata;
    assign old_stale  = m_fwd ? (q_age[ValW-1 -: 2] != 2'b00) : (m_age[ValW-1 -: 2] != 2'b00);
    assign new_lt_old = m_fwd ? older(wr_data_q[ValW-1:0], q_wrap, upd_val_q, new_wrap) :
                                older(m_rdata[ValW-1:0], m_wrap, upd_val_q, new_wrap);

    always_comb begin
      wr_en   = 1'b0;
      wr_idx  = upd_idx_q[h*IdxW +: IdxW];
      wr_data = m_old;
      if (init_q) begin
        wr_en   = 1'b1;
        wr_idx  = init_idx_q;
        wr_data = '0;
      end else if (upd_q && upd_scrub_q) begin
        wr_en = 1'b1;
        if (upd_all_q || old_stale) begin
          wr_data = '0;
        end
      end else if (upd_q) begin
        wr_en = 1'b1;
        if (!m_old[ValW] || new_lt_old) begin
          wr_data = {1'b1, upd_val_q};
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wr_en_q   <= 1'b0;
        wr_idx_q  <= '0;
        wr_data_q <= '0;
      end else begin
        wr_en_q   <= wr_en;
        wr_idx_q  <= wr_idx;
        wr_data_q <= wr_data;
      end
    end

    // The lookup's slot: this cycle's write, else last cycle's write, else the RAM word.
    always_comb begin
      l_cur = l_rdata;
      if (wr_en && wr_idx == lkp_idx_q[h*IdxW +: IdxW]) begin
        l_cur = wr_data;
      end else if (wr_en_q && wr_idx_q == lkp_idx_q[h*IdxW +: IdxW]) begin
        l_cur = wr_data_q;
      end
    end
    assign lkp_slot_valid[h] = l_cur[ValW];
    assign lkp_slot_val[h]   = l_cur[ValW-1:0];
    assign lkp_slot_wrap[h]  = l_cur[ValW-1:0] > now_q;

    logic unused_sig;
    assign unused_sig = m_unused_valid ^ l_unused_valid ^ (^m_age) ^ (^q_age);
  end

  // -----------------------------------------------------------------------------------------------
  // Lookup answer: found when every slot is valid; the oldest value
  // -----------------------------------------------------------------------------------------------
  logic [ValW-1:0] oldest;
  logic            oldest_wrap;

  always_comb begin
    oldest      = lkp_slot_val[0];
    oldest_wrap = lkp_slot_wrap[0];
    for (int h = 1; h < NumHashes; h++) begin
      if (older(lkp_slot_val[h], lkp_slot_wrap[h], oldest, oldest_wrap)) begin
        oldest      = lkp_slot_val[h];
        oldest_wrap = lkp_slot_wrap[h];
      end
    end
  end

  assign lkp_valid_o = lkp_q;
  assign lkp_found_o = lkp_q && (&lkp_slot_valid);
  assign lkp_val_o   = lkp_found_o ? oldest : '0;

  logic unused_hash;
  assign unused_hash = (SlotsPerHash == 1) ? ^{lkp_hash, ins_hash, scrub_idx_i} : 1'b0;

  `HTM_ASSERT(InsScrubExclusive_A, !(ins_valid_i && scrub_valid_i))
  `HTM_ASSERT(ScrubIdxInRange_A, !scrub_valid_i || 32'(scrub_idx_i) < SlotsPerHash)

endmodule
