// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_tcd: a check never misses a conflict. For an arbitrary fixed chunk,
// a reference keeps the true age of its last accepted update (a saturating counter, so that a
// wrapped time is not mistaken for a young one). A check of any word of that chunk must report
// a conflict when the chunk was written after `since` (its true write age is below the age of
// `since`) or when `since` is at least StaleAge old; a found time is never from the future.
// Proved by k-induction (k = 8, memories as registers): both properties depend only on the
// last StaleAge cycles (an older `since` is a conflict by rule, older times are scrubbed), so
// the filter's contents from before that window, reachable or not, do not matter.
`include "htm_assert.svh"

module htm_tcd_ftop #(
  parameter int unsigned AddrW         = 3,
  parameter int unsigned ChunkShift    = 1,
  parameter int unsigned TsW           = 5,
  parameter int unsigned NumHashes     = 1,
  parameter int unsigned SlotsPerHash  = 1,
  parameter int unsigned ScrubInterval = 2
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             upd_valid_i,
  input logic [AddrW-1:0] upd_addr_i,
  input logic             chk_valid_i,
  input logic [AddrW-1:0] chk_addr_i,
  input logic [TsW-1:0]   chk_since_i
);
  localparam int unsigned ChunkW   = AddrW - ChunkShift;
  localparam logic [TsW:0] StaleAge = (TsW + 1)'(1) << (TsW - 2);
  localparam logic [TsW:0] AgeBound = StaleAge + (TsW + 1)'(SlotsPerHash * ScrubInterval + 2);
  localparam logic [TsW:0] Saturate = (TsW + 1)'(1) << TsW;

  logic [TsW-1:0] now, res_time;
  logic           upd_ready, chk_ready, res_valid, res_conflict, res_found;

  htm_tcd #(
    .AddrW        (AddrW),
    .ChunkShift   (ChunkShift),
    .TsW          (TsW),
    .NumHashes    (NumHashes),
    .SlotsPerHash (SlotsPerHash),
    .ScrubInterval(ScrubInterval)
  ) u_dut (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .now_o         (now),
    .upd_ready_o   (upd_ready),
    .upd_valid_i   (upd_valid_i),
    .upd_addr_i    (upd_addr_i),
    .chk_ready_o   (chk_ready),
    .chk_valid_i   (chk_valid_i),
    .chk_addr_i    (chk_addr_i),
    .chk_since_i   (chk_since_i),
    .res_valid_o   (res_valid),
    .res_conflict_o(res_conflict),
    .res_found_o   (res_found),
    .res_time_o    (res_time)
  );

  `HTM_FORMAL_START_IN_RESET

  (* anyconst *) logic [ChunkW-1:0] f_chunk;
  logic          f_upd, f_chk, f_known_q, f_must_q, f_chk_q;
  logic [TsW:0]  f_age_q, f_age, f_since_age;
  logic [TsW-1:0] f_now_q, f_since_diff, f_time_diff;

  assign f_upd       = upd_valid_i && upd_ready && upd_addr_i[AddrW-1:ChunkShift] == f_chunk;
  assign f_chk       = chk_valid_i && chk_ready && chk_addr_i[AddrW-1:ChunkShift] == f_chunk;
  assign f_age       = (f_age_q >= Saturate) ? Saturate : f_age_q + (TsW + 1)'(1);
  assign f_since_diff = now - chk_since_i;  // modulo 2**TsW
  assign f_since_age  = {1'b0, f_since_diff};
  assign f_time_diff  = f_now_q - res_time;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_known_q <= 1'b0;
      f_age_q   <= '0;
      f_chk_q   <= 1'b0;
      f_must_q  <= 1'b0;
      f_now_q   <= '0;
    end else begin
      // The age of the last write as seen by a check in this cycle (an update of this cycle
      // counts, at age 0), then one cycle older.
      f_known_q <= f_known_q || f_upd;
      f_age_q   <= f_upd ? (TsW + 1)'(1) : f_age;
      f_chk_q   <= f_chk;
      f_must_q  <= (f_since_age >= StaleAge) ||
                   ((f_known_q || f_upd) && (f_upd ? '0 : f_age_q) < f_since_age);
      f_now_q   <= now;
    end
  end

  always_comb begin
    if (rst_ni && f_past_valid_q) begin
      if (f_chk_q && f_must_q) begin
        assert (res_valid && res_conflict);
      end
      if (res_found) begin
        assert ({1'b0, f_time_diff} < AgeBound);
      end
      cover (f_chk_q && res_conflict && !f_must_q);  // a false positive (aliasing)
      cover (f_chk_q && f_must_q && res_found);      // a conflict through the filter
    end
  end

endmodule
