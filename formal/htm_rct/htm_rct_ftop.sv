// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_rct. For an arbitrary fixed address f_addr the wrapper counts the live
// words of each kind (increments minus decrements it has seen) and rebuilds the CAT's view of
// the address from the deltas. The environment is the commit unit: a word of f_addr is freed
// only while one is live (other addresses get any events, spurious decrements included).
//   * Alternation: an add delta of f_addr comes only while its bit is clear, a remove only while
//     it is set (the deltas describe a count crossing 0, nothing else).
//   * No address left behind: whenever the RCT is idle (nothing queued, nothing in stage 1) and
//     no word of a kind of f_addr is live, the CAT's bit of that kind is clear: the count went
//     1 -> 0 and its remove was emitted.
//   * The RTL's own assertions: counts never underflow or overflow, one match per set, the
//     queue and the message buffer within bounds.
// Bounded proof (the table is RAM).
`include "htm_assert.svh"

module htm_rct_ftop #(
  parameter int unsigned AddrW       = 2,
  parameter int unsigned Sets        = 2,
  parameter int unsigned Ways        = 1,
  parameter int unsigned CountW      = 2,
  parameter int unsigned IncQueue    = 2,
  parameter int unsigned Batch       = 2,
  parameter int unsigned FlushCycles = 2
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             inc_valid_i,
  input logic [AddrW-1:0] inc_addr_i,
  input logic             inc_write_i,
  input logic             dec_valid_i,
  input logic [AddrW-1:0] dec_addr_i,
  input logic             dec_write_i
);
  localparam int unsigned DltW  = AddrW + 2;
  localparam int unsigned BCntW = $clog2(Batch + 1);
  localparam int unsigned UsedW = $clog2(Sets * Ways + 1);

  logic                  ready, dlt_valid, msg_valid, busy;
  logic                  cancel, lost_queue, lost_full, lost_sat, dec_ignored;
  logic [DltW-1:0]       dlt;
  logic [BCntW-1:0]      msg_count;
  logic [Batch*DltW-1:0] msg_dlt;
  logic [UsedW-1:0]      used;

  htm_rct #(
    .AddrW      (AddrW),
    .Sets       (Sets),
    .Ways       (Ways),
    .CountW     (CountW),
    .IncQueue   (IncQueue),
    .Batch      (Batch),
    .FlushCycles(FlushCycles)
  ) u_dut (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ready_o      (ready),
    .inc_valid_i  (inc_valid_i),
    .inc_addr_i   (inc_addr_i),
    .inc_write_i  (inc_write_i),
    .dec_valid_i  (dec_valid_i),
    .dec_addr_i   (dec_addr_i),
    .dec_write_i  (dec_write_i),
    .dlt_valid_o  (dlt_valid),
    .dlt_o        (dlt),
    .msg_valid_o  (msg_valid),
    .msg_count_o  (msg_count),
    .msg_dlt_o    (msg_dlt),
    .cancel_o     (cancel),
    .lost_queue_o (lost_queue),
    .lost_full_o  (lost_full),
    .lost_sat_o   (lost_sat),
    .dec_ignored_o(dec_ignored),
    .busy_o       (busy),
    .used_o       (used)
  );

  `HTM_FORMAL_START_IN_RESET

  (* anyconst *) logic [AddrW-1:0] f_addr;
  logic [2:0] f_live_r_q, f_live_w_q;  // live words of f_addr (reads, writes)
  logic       f_bit_r_q, f_bit_w_q;    // the CAT's view of f_addr from the deltas
  logic       f_inc_r, f_inc_w, f_dec_r, f_dec_w, f_dlt_f;

  assign f_inc_r = inc_valid_i && inc_addr_i == f_addr && !inc_write_i;
  assign f_inc_w = inc_valid_i && inc_addr_i == f_addr && inc_write_i;
  assign f_dec_r = dec_valid_i && dec_addr_i == f_addr && !dec_write_i;
  assign f_dec_w = dec_valid_i && dec_addr_i == f_addr && dec_write_i;
  assign f_dlt_f = dlt_valid && dlt[DltW-1:2] == f_addr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_live_r_q <= '0;
      f_live_w_q <= '0;
      f_bit_r_q  <= 1'b0;
      f_bit_w_q  <= 1'b0;
    end else begin
      f_live_r_q <= f_live_r_q + 3'(f_inc_r) - 3'(f_dec_r);
      f_live_w_q <= f_live_w_q + 3'(f_inc_w) - 3'(f_dec_w);
      if (f_dlt_f && !dlt[1]) begin
        f_bit_r_q <= dlt[0];
      end
      if (f_dlt_f && dlt[1]) begin
        f_bit_w_q <= dlt[0];
      end
    end
  end

  // The commit unit frees only words it holds, and holds at most seven of f_addr per kind.
  `HTM_ASSUME(DecLive_M, `HTM_IMPLIES(f_dec_r, f_live_r_q != '0) &&
                         `HTM_IMPLIES(f_dec_w, f_live_w_q != '0))
  `HTM_ASSUME(LiveBound_M, `HTM_IMPLIES(f_inc_r, f_live_r_q != 3'd7) &&
                           `HTM_IMPLIES(f_inc_w, f_live_w_q != 3'd7))

  // Deltas alternate: add only over a clear bit, remove only over a set one.
  `HTM_ASSERT(AlternateR_A, `HTM_IMPLIES(f_dlt_f && !dlt[1], dlt[0] != f_bit_r_q))
  `HTM_ASSERT(AlternateW_A, `HTM_IMPLIES(f_dlt_f && dlt[1], dlt[0] != f_bit_w_q))
  // Idle with no live word of a kind: its bit is clear (the 1 -> 0 remove was emitted).
  `HTM_ASSERT(NoStaleR_A, `HTM_IMPLIES(!busy && f_live_r_q == '0, !f_bit_r_q))
  `HTM_ASSERT(NoStaleW_A, `HTM_IMPLIES(!busy && f_live_w_q == '0, !f_bit_w_q))
  // A message carries 1..Batch deltas.
  `HTM_ASSERT(MsgCount_A, `HTM_IMPLIES(msg_valid, msg_count != '0 && 32'(msg_count) <= Batch))

  `HTM_COVER(RemoveF_C, f_dlt_f && !dlt[0])
  `HTM_COVER(Cancel_C, cancel)
  `HTM_COVER(LostFull_C, lost_full)
  `HTM_COVER(LostSat_C, lost_sat)
  `HTM_COVER(LostQueue_C, lost_queue)
  `HTM_COVER(FullMessage_C, msg_valid && 32'(msg_count) == Batch)

  logic unused_sig;
  assign unused_sig = ready ^ dec_ignored ^ (^msg_dlt) ^ (^used);

endmodule
