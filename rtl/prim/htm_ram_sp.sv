// SPDX-License-Identifier: Apache-2.0
//
// htm_ram_sp: a single-port RAM, written so that Yosys infers ECP5 block RAM for large sizes.
//
// Timing: an access (en_i) at the rising edge reads mem[addr_i] into rdata_o (valid the next
// cycle, rvalid_o high) and, when we_i, writes wdata_i; a write returns the old data
// (read-first). rdata_o keeps its value until the next access. The contents are not reset;
// reset clears rvalid_o only. An address at or above Depth is illegal (assertion).
`include "htm_assert.svh"

module htm_ram_sp #(
  parameter int unsigned Width = 32,   // word width, >= 1
  parameter int unsigned Depth = 512,  // words, >= 1
  // Derived, do not set.
  localparam int unsigned AddrW = htm_pkg::idx_width(Depth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] addr_i,
  input  logic [Width-1:0] wdata_i,
  output logic             rvalid_o,
  output logic [Width-1:0] rdata_o
);

  `HTM_ASSERT_INIT(DepthRange_A, Depth >= 1)

  logic [Width-1:0] mem [Depth];
  logic [Width-1:0] rdata_q;
  logic             rvalid_q;

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      if (we_i) begin
        mem[addr_i] <= wdata_i;
      end
      rdata_q <= mem[addr_i];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_q <= 1'b0;
    end else begin
      rvalid_q <= en_i;
    end
  end

  assign rdata_o  = rdata_q;
  assign rvalid_o = rvalid_q;

  `HTM_ASSERT(AddrInRange_A, !en_i || 32'(addr_i) < Depth)

endmodule
