// SPDX-License-Identifier: Apache-2.0
//
// htm_writer_table: the Writer Table of snapshot isolation (Chen, Peng & Irving, ISCA 2017,
// sections 4.2, 4.3 and 5): the one writer of every word written by a running transaction (the
// single-writer rule), at the L2 level, for the post-dating unit to find a read's writer.
//
// Sets x Ways entries (3000 = 1000 x 3 by default) of {block address, writer id} in block RAM;
// the set is the H3 hash of the address, folded into 0..Sets-1 when Sets is not a power of
// two (a hash h >= Sets takes set h - Sets). Operations (htm_pkg::wt_op_e), one per cycle:
//   * Write (address, tx): the address has no writer -> tx becomes its writer in the lowest free
//     way of its set (res_inserted_o); tx is already the writer -> nothing changes (res_found_o,
//     res_writer_o = tx); another transaction is -> nothing changes and the requester must
//     abort (res_found_o, res_writer_o = the writer: a second writer is never admitted); the set
//     is full -> nothing changes, the requester aborts and waits (res_full_o, 4.3).
//   * Read (address, tx): reports the writer, if any (res_found_o, res_writer_o).
//   * Remove (address, tx): the entry goes if tx is its writer (res_removed_o); otherwise
//     nothing changes (the address's writer, if any, is reported).
// full_o is set by a Write that found its set full and cleared when an entry is removed: the
// system's cue to hold new transactions back until space frees up (4.3). used_o counts the
// entries. Bad operations (an unknown kind) write nothing and set res_err_o and sticky err_o.
//
// Timing: an operation is taken when op_valid_i && op_ready_o; its result is out
// (res_valid_o, one cycle, no back-pressure) two cycles later. The set is read in the cycle
// the operation is taken and written back in the next; the RAM is write-first, so an
// operation sees the one before it. After reset the table is cleared, one set per cycle (Sets
// cycles, op_ready_o low).
`include "htm_assert.svh"

module htm_writer_table #(
  parameter int unsigned AddrW = 30,    // block address width, 1..62
  parameter int unsigned TxW   = 10,    // transaction id width, 1..16
  parameter int unsigned Sets  = 1000,  // sets, 1..65536 (any number)
  parameter int unsigned Ways  = 3,     // ways per set, 1..16
  // Derived, do not set.
  localparam int unsigned SetIdxW = htm_pkg::idx_width(Sets),
  localparam int unsigned UsedW   = $clog2(Sets * Ways + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Operations.
  input  logic             op_valid_i,
  output logic             op_ready_o,      // low while the table is cleared after reset
  input  htm_pkg::wt_op_e  op_kind_i,
  input  logic [AddrW-1:0] op_addr_i,
  input  logic [TxW-1:0]   op_tx_i,
  // Results, two cycles after the operation was taken.
  output logic             res_valid_o,
  output htm_pkg::wt_op_e  res_kind_o,
  output logic [AddrW-1:0] res_addr_o,
  output logic [TxW-1:0]   res_tx_o,
  output logic             res_found_o,     // the address had a writer (before the operation)
  output logic [TxW-1:0]   res_writer_o,    // that writer
  output logic             res_inserted_o,  // Write: tx became the writer
  output logic             res_full_o,      // Write: no writer, and the set is full
  output logic             res_removed_o,   // Remove: tx's entry went
  output logic             res_err_o,       // a bad operation, not applied
  // Status.
  output logic             full_o,          // a Write found its set full since the last removal
  output logic [UsedW-1:0] used_o,          // entries in use
  output logic             err_o            // sticky: a bad operation was seen
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 62)
  `HTM_ASSERT_INIT(TxWRange_A, TxW >= 1 && TxW <= 16)
  `HTM_ASSERT_INIT(SetsRange_A, Sets >= 1 && Sets <= 65536)
  `HTM_ASSERT_INIT(WaysRange_A, Ways >= 1 && Ways <= 16)

  localparam int unsigned WayW = 1 + TxW + AddrW;  // {valid, writer, address}
  localparam int unsigned SetW = Ways * WayW;

  // -----------------------------------------------------------------------------------------------
  // Clearing after reset
  // -----------------------------------------------------------------------------------------------
  logic               init_q;
  logic [SetIdxW-1:0] init_set_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q     <= 1'b1;
      init_set_q <= '0;
    end else if (init_q) begin
      init_set_q <= init_set_q + SetIdxW'(1);
      if (Sets == 1 || init_set_q == SetIdxW'(Sets - 1)) begin
        init_q <= 1'b0;
      end
    end
  end

  assign op_ready_o = !init_q;

  // -----------------------------------------------------------------------------------------------
  // Stage 0: take the operation, read its set
  // -----------------------------------------------------------------------------------------------
  logic               acc, bad;
  logic [SetIdxW-1:0] op_set;
  assign acc = op_valid_i && op_ready_o;
  assign bad = !(op_kind_i == htm_pkg::WtOpWrite || op_kind_i == htm_pkg::WtOpRead ||
                 op_kind_i == htm_pkg::WtOpRemove);

  htm_set_index #(
    .AddrW(AddrW),
    .Sets (Sets)
  ) u_set (
    .addr_i(op_addr_i),
    .set_o (op_set)
  );

  logic               s1_q, s1_bad_q;
  htm_pkg::wt_op_e    s1_kind_q;
  logic [AddrW-1:0]   s1_addr_q;
  logic [TxW-1:0]     s1_tx_q;
  logic [SetIdxW-1:0] s1_set_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q      <= 1'b0;
      s1_bad_q  <= 1'b0;
      s1_kind_q <= htm_pkg::WtOpWrite;
      s1_addr_q <= '0;
      s1_tx_q   <= '0;
      s1_set_q  <= '0;
    end else begin
      s1_q <= acc;
      if (acc) begin
        s1_bad_q  <= bad;
        s1_kind_q <= op_kind_i;
        s1_addr_q <= op_addr_i;
        s1_tx_q   <= op_tx_i;
        s1_set_q  <= op_set;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The table (write-first block RAM: a set read while stage 1 writes it back is read new)
  // -----------------------------------------------------------------------------------------------
  logic               wr_en, rd_unused_valid;
  logic [SetIdxW-1:0] wr_set;
  logic [SetW-1:0]    wr_data, set_data;

  htm_ram_1r1w #(
    .Width     (SetW),
    .Depth     (Sets),
    .WriteFirst(1)
  ) u_table (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wr_en_i   (wr_en),
    .wr_addr_i (wr_set),
    .wr_data_i (wr_data),
    .rd_en_i   (acc),
    .rd_addr_i (op_set),
    .rd_valid_o(rd_unused_valid),
    .rd_data_o (set_data)
  );

  // -----------------------------------------------------------------------------------------------
  // Stage 1: match, insert, remove
  // -----------------------------------------------------------------------------------------------
  logic [Ways-1:0]  way_valid, way_match, free_onehot;
  logic [TxW-1:0]   way_tx [Ways];
  logic [AddrW-1:0] way_addr [Ways];
  logic             found, any_free, live, do_insert, do_remove, own;
  logic [TxW-1:0]   writer;

  for (genvar w = 0; w < Ways; w++) begin : gen_way
    assign way_valid[w] = set_data[w*WayW+TxW+AddrW];
    assign way_tx[w]    = set_data[w*WayW+AddrW +: TxW];
    assign way_addr[w]  = set_data[w*WayW +: AddrW];
    assign way_match[w] = way_valid[w] && way_addr[w] == s1_addr_q;
  end

  assign found       = way_match != '0;
  assign any_free    = way_valid != {Ways{1'b1}};
  assign free_onehot = ~way_valid & (way_valid + Ways'(1));  // the lowest free way

  always_comb begin
    writer = '0;
    for (int w = 0; w < Ways; w++) begin
      if (way_match[w]) begin
        writer = way_tx[w];
      end
    end
  end

  assign live      = s1_q && !s1_bad_q;
  assign own       = found && writer == s1_tx_q;
  assign do_insert = live && s1_kind_q == htm_pkg::WtOpWrite && !found && any_free;
  assign do_remove = live && s1_kind_q == htm_pkg::WtOpRemove && own;

  always_comb begin
    wr_en   = 1'b0;
    wr_set  = s1_set_q;
    wr_data = set_data;
    if (init_q) begin
      wr_en   = 1'b1;
      wr_set  = init_set_q;
      wr_data = '0;
    end else if (do_insert) begin
      wr_en = 1'b1;
      for (int w = 0; w < Ways; w++) begin
        if (free_onehot[w]) begin
          wr_data[w*WayW +: WayW] = {1'b1, s1_tx_q, s1_addr_q};
        end
      end
    end else if (do_remove) begin
      wr_en = 1'b1;
      for (int w = 0; w < Ways; w++) begin
        if (way_match[w]) begin
          wr_data[w*WayW +: WayW] = '0;
        end
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Results and status
  // -----------------------------------------------------------------------------------------------
  logic             res_valid_q, res_found_q, res_inserted_q, res_full_q, res_removed_q;
  logic             res_err_q, full_q, err_q;
  htm_pkg::wt_op_e  res_kind_q;
  logic [AddrW-1:0] res_addr_q;
  logic [TxW-1:0]   res_tx_q, res_writer_q;
  logic [UsedW-1:0] used_q;
  logic             set_full;
  assign set_full = live && s1_kind_q == htm_pkg::WtOpWrite && !found && !any_free;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_valid_q    <= 1'b0;
      res_kind_q     <= htm_pkg::WtOpWrite;
      res_addr_q     <= '0;
      res_tx_q       <= '0;
      res_found_q    <= 1'b0;
      res_writer_q   <= '0;
      res_inserted_q <= 1'b0;
      res_full_q     <= 1'b0;
      res_removed_q  <= 1'b0;
      res_err_q      <= 1'b0;
      full_q         <= 1'b0;
      used_q         <= '0;
      err_q          <= 1'b0;
    end else begin
      res_valid_q <= s1_q;
      if (s1_q) begin
        res_kind_q     <= s1_kind_q;
        res_addr_q     <= s1_addr_q;
        res_tx_q       <= s1_tx_q;
        res_found_q    <= live && found;
        res_writer_q   <= (live && found) ? writer : '0;
        res_inserted_q <= do_insert;
        res_full_q     <= set_full;
        res_removed_q  <= do_remove;
        res_err_q      <= s1_bad_q;
      end
      if (s1_q && s1_bad_q) begin
        err_q <= 1'b1;
      end
      if (do_remove) begin
        full_q <= 1'b0;
      end else if (set_full) begin
        full_q <= 1'b1;
      end
      if (do_insert) begin
        used_q <= used_q + UsedW'(1);
      end else if (do_remove) begin
        used_q <= used_q - UsedW'(1);
      end
    end
  end

  assign res_valid_o    = res_valid_q;
  assign res_kind_o     = res_kind_q;
  assign res_addr_o     = res_addr_q;
  assign res_tx_o       = res_tx_q;
  assign res_found_o    = res_found_q;
  assign res_writer_o   = res_writer_q;
  assign res_inserted_o = res_inserted_q;
  assign res_full_o     = res_full_q;
  assign res_removed_o  = res_removed_q;
  assign res_err_o      = res_err_q;
  assign full_o         = full_q;
  assign used_o         = used_q;
  assign err_o          = err_q;

  // An address is in at most one way of its set (an insert happens only on a miss).
  `HTM_ASSERT(OneWayPerAddress_A, !live || $onehot0(way_match))
  `HTM_ASSERT(UsedInRange_A, 32'(used_q) <= Sets * Ways)

endmodule
