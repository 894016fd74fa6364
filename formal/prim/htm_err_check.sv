// SPDX-License-Identifier: Apache-2.0
//
// Error-output checker for the formal wrappers. The wrapper names the illegal inputs offered
// in a cycle (bad_i) and the events that must set the block's error output (set_i: usually
// the illegal inputs the block took). With illegal_i low the environment keeps the protocol in
// that cycle (assumed: no bad_i). Asserted:
//   * err_i is exactly what set_i implies (Timing 0: sticky, from the cycle after an event;
//     1: sticky, from the event's own cycle, for a flag that rises with a registered result;
//     2: a one-cycle pulse in the cycle after the event);
//   * while illegal_i has been low in every cycle since reset, err_i stays low.
// seen_o: an event came in an earlier cycle since reset (for the wrapper's covers).
`include "htm_assert.svh"

module htm_err_check #(
  parameter int unsigned Timing = 0
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic illegal_i,
  input  logic bad_i,
  input  logic set_i,
  input  logic err_i,
  output logic seen_o
);
  logic seen_q, last_q, clean_q, expect;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seen_q  <= 1'b0;
      last_q  <= 1'b0;
      clean_q <= 1'b1;
    end else begin
      seen_q  <= seen_q || set_i;
      last_q  <= set_i;
      clean_q <= clean_q && !illegal_i;
    end
  end

  assign expect = Timing == 0 ? seen_q : Timing == 1 ? (seen_q || set_i) : last_q;
  assign seen_o = seen_q;

  `HTM_ASSUME(Legal_M, illegal_i || !bad_i)
  `HTM_ASSERT(ErrExact_A, err_i == expect)
  `HTM_ASSERT(NoErrWhenLegal_A, !clean_q || !err_i)

endmodule
