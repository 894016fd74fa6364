// SPDX-License-Identifier: Apache-2.0
//
// htm_ram_1r1w: a simple dual-port RAM (one write port, one read port), written so that Yosys
// infers ECP5 block RAM (DP16KD/PDPW16KD) for large sizes and flip-flops or LUT RAM for small.
//
// Timing:
//   * write: at the rising edge when wr_en_i;
//   * read: rd_data_o holds mem[rd_addr_i] one cycle after rd_en_i (registered read, latency 1),
//     with rd_valid_o high in that cycle; rd_data_o keeps its value until the next read;
//   * a read of the address written in the same cycle returns the old data (read-first), or,
//     with WriteFirst = 1, the data written (write-first: a read-modify-write pipeline that
//     reads a word in the cycle the previous operation writes it back sees the new value).
// The contents are not reset (block RAM cannot be); reset clears rd_valid_o only. An address
// at or above Depth is illegal (assertion).
`include "htm_assert.svh"

module htm_ram_1r1w #(
  parameter int unsigned Width      = 32,   // word width, >= 1
  parameter int unsigned Depth      = 512,  // words, >= 1
  parameter int unsigned WriteFirst = 0,    // 1: a read during a write of its word sees the write
  // Derived, do not set.
  localparam int unsigned AddrW = htm_pkg::idx_width(Depth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             wr_en_i,
  input  logic [AddrW-1:0] wr_addr_i,
  input  logic [Width-1:0] wr_data_i,
  input  logic             rd_en_i,
  input  logic [AddrW-1:0] rd_addr_i,
  output logic             rd_valid_o,
  output logic [Width-1:0] rd_data_o
);

  `HTM_ASSERT_INIT(DepthRange_A, Depth >= 1)
  `HTM_ASSERT_INIT(WriteFirstRange_A, WriteFirst <= 1)

  logic [Width-1:0] mem [Depth];
  logic [Width-1:0] rd_data_q;
  logic             rd_valid_q;

  always_ff @(posedge clk_i) begin
    if (wr_en_i) begin
      mem[wr_addr_i] <= wr_data_i;
    end
    if (rd_en_i) begin
      if (WriteFirst != 0 && wr_en_i && wr_addr_i == rd_addr_i) begin
        rd_data_q <= wr_data_i;
      end else begin
        rd_data_q <= mem[rd_addr_i];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_valid_q <= 1'b0;
    end else begin
      rd_valid_q <= rd_en_i;
    end
  end

  assign rd_data_o  = rd_data_q;
  assign rd_valid_o = rd_valid_q;

  `HTM_ASSERT(WrAddrInRange_A, !wr_en_i || 32'(wr_addr_i) < Depth)
  `HTM_ASSERT(RdAddrInRange_A, !rd_en_i || 32'(rd_addr_i) < Depth)

endmodule
