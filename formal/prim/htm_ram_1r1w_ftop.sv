// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_ram_1r1w: a read returns the last word written to its address before
// the read (read-first). For an arbitrary address f_addr, read every cycle (reads do not change
// the contents, so this loses no generality), the read data equals the reference copy of the
// word as it was when the read was issued.
`include "htm_assert.svh"

module htm_ram_1r1w_ftop #(
  parameter int unsigned Width = 2,
  parameter int unsigned Depth = 3
) (
  input logic                                 clk_i,
  input logic                                 rst_ni,
  input logic                                 wr_en_i,
  input logic [htm_pkg::idx_width(Depth)-1:0] wr_addr_i,
  input logic [Width-1:0]                     wr_data_i,
  input logic [htm_pkg::idx_width(Depth)-1:0] rd_addr_i
);
  localparam int unsigned AddrW = htm_pkg::idx_width(Depth);

  logic             rd_valid;
  logic [Width-1:0] rd_data;

  htm_ram_1r1w #(
    .Width(Width),
    .Depth(Depth)
  ) u_dut (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wr_en_i  (wr_en_i),
    .wr_addr_i(wr_addr_i),
    .wr_data_i(wr_data_i),
    .rd_en_i  (1'b1),
    .rd_addr_i(rd_addr_i),
    .rd_valid_o(rd_valid),
    .rd_data_o(rd_data)
  );

  (* anyconst *) logic [AddrW-1:0] f_addr;
  logic [Width-1:0] f_word_q, f_read_q;  // reference word; the word as of the last read
  logic             f_known_q, f_read_known_q;

  always_ff @(posedge clk_i) begin
    f_read_q       <= f_word_q;
    f_read_known_q <= f_known_q;
    if (wr_en_i && wr_addr_i == f_addr) begin
      f_word_q  <= wr_data_i;
      f_known_q <= 1'b1;
    end
  end

  `HTM_FORMAL_START_IN_RESET
  initial f_known_q = 1'b0;
  initial f_read_known_q = 1'b0;
  always_comb begin
    assume (32'(f_addr) < Depth);
    assume (32'(wr_addr_i) < Depth);
    assume (rd_addr_i == f_addr);
  end

  always_comb begin
    // Neither the contents nor the read register are reset: checked in and out of reset.
    if (f_past_valid_q && f_read_known_q) begin
      assert (rd_data == f_read_q);
    end
    if (rst_ni) begin
      cover (f_read_known_q && rd_valid && f_known_q && f_word_q != f_read_q);
    end
  end

endmodule
