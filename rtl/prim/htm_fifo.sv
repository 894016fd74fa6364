// SPDX-License-Identifier: Apache-2.0
//
// htm_fifo: a synchronous FIFO with valid/ready on both sides.
//
// Depth entries of Width bits in flip-flops (any Depth >= 1, not only powers of two).
// Timing:
//   * out_valid_o/out_data_o show the oldest entry (registered: no fall-through, an entry pushed
//     in cycle t can be popped from cycle t+1);
//   * in_ready_o = not full; a push into a full FIFO is not accepted even if a pop happens in
//     the same cycle (in_ready_o does not depend on out_ready_i: no combinational path);
//   * push and pop in the same cycle are both accepted (count unchanged);
//   * clr_i empties the FIFO at the rising edge and wins over a push or pop in that cycle.
// Full behaviour: back-pressure (in_ready_o low); nothing is dropped.
// OutReg = 1 gives the same cycle behaviour with every output driven by a flip-flop: the head
// entry is kept in a register (loaded from the input when the FIFO is empty or holds only the
// entry being popped, else from the storage at the next read pointer), and out_valid_o and
// in_ready_o are registered flags. A consumer's logic then starts at a register instead of the
// distributed RAM's read multiplexer (the prototype's crossbar, docs/prims.md).
`include "htm_assert.svh"

module htm_fifo #(
  parameter int unsigned Width = 32,  // entry width, >= 1
  parameter int unsigned Depth = 16,  // entries, >= 1
  parameter bit          OutReg = 1'b0, // 1: outputs from flip-flops (same cycle behaviour)
  // Derived, do not set.
  localparam int unsigned PtrW = htm_pkg::idx_width(Depth),
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,        // synchronous flush
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o,
  output logic [CntW-1:0]  count_o       // entries held
);

  `HTM_ASSERT_INIT(DepthRange_A, Depth >= 1)
  `HTM_ASSERT_INIT(WidthRange_A, Width >= 1)

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  wptr_d, wptr_q, rptr_d, rptr_q;
  logic [CntW-1:0]  count_d, count_q;
  logic             push, pop;

  logic             full, nonempty;
  assign in_ready_o  = !full;
  assign out_valid_o = nonempty;
  assign push        = in_valid_i && in_ready_o;
  assign pop         = out_valid_o && out_ready_i;

  // Next pointer, wrapping at Depth (which need not be a power of two).
  function automatic logic [PtrW-1:0] next_ptr(input logic [PtrW-1:0] p);
    next_ptr = (p == PtrW'(Depth - 1)) ? '0 : p + 1'b1;
  endfunction

  always_comb begin
    wptr_d  = wptr_q;
    rptr_d  = rptr_q;
    count_d = count_q;
    if (clr_i) begin
      wptr_d  = '0;
      rptr_d  = '0;
      count_d = '0;
    end else begin
      if (push) begin
        wptr_d = next_ptr(wptr_q);
      end
      if (pop) begin
        rptr_d = next_ptr(rptr_q);
      end
      if (push && !pop) begin
        count_d = count_q + 1'b1;
      end else if (pop && !push) begin
        count_d = count_q - 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      wptr_q  <= wptr_d;
      rptr_q  <= rptr_d;
      count_q <= count_d;
    end
  end

  // Storage: written only by a push, read asynchronously at the read pointer, so that Yosys
  // infers a memory (ECP5 distributed RAM). No reset: an entry is read only after a push.
  always_ff @(posedge clk_i) begin
    if (push && !clr_i) begin
      mem_q[wptr_q] <= in_data_i;
    end
  end

  assign count_o = count_q;

  if (OutReg) begin : g_out_reg
    // The head register holds mem_q[rptr_q] whenever the FIFO is not empty (asserted below).
    logic [Width-1:0] head_d, head_q;
    logic             full_q, nonempty_q;
    always_comb begin
      head_d = head_q;
      if (pop) begin
        // The next entry: already stored, or the one pushed now into an otherwise empty FIFO.
        head_d = (count_q == CntW'(1)) ? in_data_i : mem_q[next_ptr(rptr_q)];
      end else if (count_q == '0) begin
        head_d = in_data_i;
      end
    end
    always_ff @(posedge clk_i) begin
      head_q <= head_d;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        full_q     <= 1'b0;
        nonempty_q <= 1'b0;
      end else begin
        full_q     <= count_d == CntW'(Depth);
        nonempty_q <= count_d != '0;
      end
    end
    assign full       = full_q;
    assign nonempty   = nonempty_q;
    assign out_data_o = head_q;
    `HTM_ASSERT(HeadReg_A, !nonempty_q || head_q == mem_q[rptr_q])
    `HTM_ASSERT(FlagsReg_A, full_q == (count_q == CntW'(Depth)) && nonempty_q == (count_q != '0))
  end else begin : g_out_ram
    assign full       = count_q == CntW'(Depth);
    assign nonempty   = count_q != '0;
    assign out_data_o = mem_q[rptr_q];
  end

  // Invariants (simulation and formal).
  `HTM_ASSERT(CountInRange_A, count_q <= CntW'(Depth))
  `HTM_ASSERT(PtrInRange_A, 32'(wptr_q) < Depth && 32'(rptr_q) < Depth)
  // The write pointer is count entries ahead of the read pointer, modulo Depth.
  `HTM_ASSERT(PtrDistance_A,
              (32'(rptr_q) + 32'(count_q)) % Depth == 32'(wptr_q))

endmodule
