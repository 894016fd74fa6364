// SPDX-License-Identifier: Apache-2.0
//
// htm_tcd: WarpTM's temporal conflict detection table (last-written time of 128-byte chunks).
//
// A recency Bloom filter (htm_sig_recency_ram, NumHashes x SlotsPerHash, H3) keyed by the chunk
// address (word address >> ChunkShift) and holding the time of the chunk's last commit write,
// from a free-running TsW-bit cycle counter (now_o), which wraps.
//   * update (word address): the chunk's last-written time becomes now (one per cycle);
//   * check (word address, since): "conflict" when the chunk may have been written after
//     `since`, the transaction's first-read time (a value of now_o the core recorded). The
//     filter's answer is never earlier than the true last write, so a real conflict is never
//     missed; aliasing only adds false conflicts. A `since` at least StaleAge = 2**(TsW-2)
//     cycles old is always a conflict (too old to tell); a core must not present a `since`
//     older than 2**TsW - 1 cycles (it wraps).
// A scrubber keeps every stored time younger than 2**(TsW-1) so that modular age order is
// right: it visits one slot index per step, invalidating times at least StaleAge old, stepping
// in every cycle without an update and, after ScrubInterval-1 cycles without a step, taking the
// update port for a cycle (upd_ready_o low). Elaboration checks
//   StaleAge + SlotsPerHash * ScrubInterval + 2 < 2**(TsW-1).
//
// Timing: after reset the filter's sweep takes SlotsPerHash cycles (ready outputs low). A check
// accepted in cycle t answers in cycle t+1 and sees every update accepted up to cycle t; ages
// are taken against now_o of cycle t.
// Source: docs/authors_simulator.md, section 2.1.
`include "htm_assert.svh"

module htm_tcd #(
  parameter int unsigned AddrW         = 30,   // word address width
  parameter int unsigned ChunkShift    = 5,    // log2(chunk bytes / 4): 5 for 128-byte chunks
  parameter int unsigned TsW           = 20,   // timestamp width, 4..63
  parameter int unsigned NumHashes     = 4,    // H3 hash functions, 1..8
  parameter int unsigned SlotsPerHash  = 512,  // a power of two
  parameter int unsigned ScrubInterval = 256,  // forced scrub step at least this often, >= 2
  // Derived, do not set.
  localparam int unsigned ChunkW       = AddrW - ChunkShift
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  output logic [TsW-1:0]   now_o,           // current time (first-read times come from here)
  output logic             upd_ready_o,     // an update is accepted this cycle
  input  logic             upd_valid_i,     // a commit write to upd_addr_i completes
  input  logic [AddrW-1:0] upd_addr_i,
  output logic             chk_ready_o,     // a check is accepted this cycle
  input  logic             chk_valid_i,     // a transactional read of chk_addr_i ...
  input  logic [AddrW-1:0] chk_addr_i,
  input  logic [TsW-1:0]   chk_since_i,     // ... by a transaction that first read at this time
  output logic             res_valid_o,     // answer to the check accepted last cycle
  output logic             res_conflict_o,  // the chunk may have been written after `since`
  output logic             res_found_o,     // the filter knows a last-written time
  output logic [TsW-1:0]   res_time_o       // ... this one (0 when not found)
);

  `HTM_ASSERT_INIT(ChunkShiftRange_A, ChunkShift < AddrW)
  `HTM_ASSERT_INIT(TsWRange_A, TsW >= 4 && TsW <= 63)
  `HTM_ASSERT_INIT(ScrubIntervalRange_A, ScrubInterval >= 2)
  `HTM_ASSERT_INIT(AgeBound_A, (64'(1) << (TsW - 2)) + 64'(SlotsPerHash) * 64'(ScrubInterval) + 2
                               < (64'(1) << (TsW - 1)))

  localparam int unsigned IdxW = htm_pkg::idx_width(SlotsPerHash);
  localparam int unsigned CntW = htm_pkg::idx_width(ScrubInterval);

  // -----------------------------------------------------------------------------------------------
  // Time, scrub schedule, acceptance
  // -----------------------------------------------------------------------------------------------
  logic [TsW-1:0]  now_q;
  logic [IdxW-1:0] scrub_ptr_q;
  logic [CntW-1:0] scrub_cnt_q;
  logic            bf_ready, scrub_force, scrub_go, upd_acc, chk_acc;

  assign now_o       = now_q;
  assign scrub_force = scrub_cnt_q == CntW'(ScrubInterval - 1);
  assign upd_ready_o = bf_ready && !scrub_force;
  assign chk_ready_o = bf_ready;
  assign upd_acc     = upd_valid_i && upd_ready_o;
  assign chk_acc     = chk_valid_i && chk_ready_o;
  assign scrub_go    = bf_ready && (scrub_force || !upd_valid_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      now_q       <= '0;
      scrub_ptr_q <= '0;
      scrub_cnt_q <= '0;
    end else begin
      now_q <= now_q + TsW'(1);
      if (scrub_go) begin
        scrub_ptr_q <= (SlotsPerHash == 1) ? '0 : scrub_ptr_q + IdxW'(1);
        scrub_cnt_q <= '0;
      end else if (bf_ready) begin
        scrub_cnt_q <= scrub_cnt_q + CntW'(1);
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The last-written-time filter, keyed by chunk
  // -----------------------------------------------------------------------------------------------
  logic [ChunkW-1:0] upd_chunk, chk_chunk;
  logic              bf_lkp_valid, bf_found;
  logic [TsW-1:0]    bf_val;

  assign upd_chunk = upd_addr_i[AddrW-1:ChunkShift];
  assign chk_chunk = chk_addr_i[AddrW-1:ChunkShift];

  // The word offset within a chunk does not matter.
  if (ChunkShift > 0) begin : gen_unused_offset
    logic unused_offset;
    assign unused_offset = ^{upd_addr_i[ChunkShift-1:0], chk_addr_i[ChunkShift-1:0]};
  end

  htm_sig_recency_ram #(
    .AddrW       (ChunkW),
    .NumHashes   (NumHashes),
    .SlotsPerHash(SlotsPerHash),
    .ValW        (TsW),
    .HashKind    (htm_pkg::SigHashH3)
  ) u_bf (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ready_o      (bf_ready),
    .now_i        (now_q),
    .lkp_valid_i  (chk_acc),
    .lkp_addr_i   (chk_chunk),
    .lkp_valid_o  (bf_lkp_valid),
    .lkp_found_o  (bf_found),
    .lkp_val_o    (bf_val),
    .ins_valid_i  (upd_acc),
    .ins_addr_i   (upd_chunk),
    .ins_val_i    (now_q),
    .scrub_valid_i(scrub_go),
    .scrub_all_i  (1'b0),
    .scrub_idx_i  (scrub_ptr_q)
  );

  // -----------------------------------------------------------------------------------------------
  // Stage 1: the check accepted last cycle and its answer
  // -----------------------------------------------------------------------------------------------
  logic [TsW-1:0] since_q, chk_now_q, since_age, time_age;
  logic           since_stale;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      since_q   <= '0;
      chk_now_q <= '0;
    end else begin
      since_q   <= chk_since_i;
      chk_now_q <= now_q;
    end
  end

  assign since_age   = chk_now_q - since_q;
  assign time_age    = chk_now_q - bf_val;
  assign since_stale = since_age[TsW-1 -: 2] != 2'b00;

  assign res_valid_o    = bf_lkp_valid;
  assign res_found_o    = bf_found;
  assign res_time_o     = bf_val;
  assign res_conflict_o = bf_lkp_valid && (since_stale || (bf_found && time_age < since_age));

endmodule
