// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_ram_sp: an access returns the last word written to its address before
// the access (read-first). Every access is to the arbitrary address f_addr, half of them
// writes; the returned word equals the reference copy as it was at the access.
`include "htm_assert.svh"

module htm_ram_sp_ftop #(
  parameter int unsigned Width = 2,
  parameter int unsigned Depth = 3
) (
  input logic                                 clk_i,
  input logic                                 rst_ni,
  input logic                                 we_i,
  input logic [htm_pkg::idx_width(Depth)-1:0] addr_i,
  input logic [Width-1:0]                     wdata_i
);
  localparam int unsigned AddrW = htm_pkg::idx_width(Depth);

  logic             rvalid;
  logic [Width-1:0] rdata;

  htm_ram_sp #(
    .Width(Width),
    .Depth(Depth)
  ) u_dut (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (1'b1),
    .we_i    (we_i),
    .addr_i  (addr_i),
    .wdata_i (wdata_i),
    .rvalid_o(rvalid),
    .rdata_o (rdata)
  );

  (* anyconst *) logic [AddrW-1:0] f_addr;
  logic [Width-1:0] f_word_q, f_read_q;
  logic             f_known_q, f_read_known_q;

  always_ff @(posedge clk_i) begin
    f_read_q       <= f_word_q;
    f_read_known_q <= f_known_q;
    if (we_i) begin
      f_word_q  <= wdata_i;
      f_known_q <= 1'b1;
    end
  end

  `HTM_FORMAL_START_IN_RESET
  initial f_known_q = 1'b0;
  initial f_read_known_q = 1'b0;
  always_comb begin
    assume (32'(f_addr) < Depth);
    assume (addr_i == f_addr);
  end

  always_comb begin
    // Neither the contents nor the read register are reset: checked in and out of reset.
    if (f_past_valid_q && f_read_known_q) begin
      assert (rdata == f_read_q);
    end
    if (rst_ni) begin
      cover (f_read_known_q && rvalid && f_word_q != f_read_q);
    end
  end

endmodule
