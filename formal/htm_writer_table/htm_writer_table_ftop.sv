// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_writer_table. The environment issues any operation stream (any kind,
// address and transaction, bad kinds included, with or without gaps). For an arbitrary address
// the wrapper keeps the writer the results have established (set by an inserting Write,
// cleared by a removing Remove). Bounded proof (the table is RAM that k-induction would need
// tied to the wrapper's view):
//   * a second writer is never admitted: a Write of the address inserts only when it has no
//     writer, and any result for the address reports exactly the established writer;
//   * only the writer removes its entry;
//   * a Write that finds no writer is either inserted or refused as full, never both;
//   * every operation has its result two cycles after it was taken, in order.
`include "htm_assert.svh"

module htm_writer_table_ftop #(
  parameter int unsigned AddrW = 3,
  parameter int unsigned TxW   = 2,
  parameter int unsigned Sets  = 3,
  parameter int unsigned Ways  = 2,
  localparam int unsigned UsedW = $clog2(Sets * Ways + 1)
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             op_valid_i,
  input htm_pkg::wt_op_e  op_kind_i,
  input logic [AddrW-1:0] op_addr_i,
  input logic [TxW-1:0]   op_tx_i,
  // 0: the operation of this cycle has a known kind (assumed).
  input logic             illegal_i
);
  logic             op_ready, res_valid, res_found, res_inserted, res_full, res_removed;
  logic             res_err, full, err;
  htm_pkg::wt_op_e  res_kind;
  logic [AddrW-1:0] res_addr;
  logic [TxW-1:0]   res_tx, res_writer;
  logic [UsedW-1:0] used;

  htm_writer_table #(
    .AddrW(AddrW),
    .TxW  (TxW),
    .Sets (Sets),
    .Ways (Ways)
  ) u_dut (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .op_valid_i    (op_valid_i),
    .op_ready_o    (op_ready),
    .op_kind_i     (op_kind_i),
    .op_addr_i     (op_addr_i),
    .op_tx_i       (op_tx_i),
    .res_valid_o   (res_valid),
    .res_kind_o    (res_kind),
    .res_addr_o    (res_addr),
    .res_tx_o      (res_tx),
    .res_found_o   (res_found),
    .res_writer_o  (res_writer),
    .res_inserted_o(res_inserted),
    .res_full_o    (res_full),
    .res_removed_o (res_removed),
    .res_err_o     (res_err),
    .full_o        (full),
    .used_o        (used),
    .err_o         (err)
  );

  `HTM_FORMAL_START_IN_RESET

  // The pipeline as the environment sees it.
  logic             acc, acc1_q, acc2_q;
  htm_pkg::wt_op_e  kind1_q, kind2_q;
  logic [AddrW-1:0] addr1_q, addr2_q;
  logic [TxW-1:0]   tx1_q, tx2_q;
  assign acc = op_valid_i && op_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc1_q  <= 1'b0;
      acc2_q  <= 1'b0;
      kind1_q <= htm_pkg::WtOpWrite;
      kind2_q <= htm_pkg::WtOpWrite;
      addr1_q <= '0;
      addr2_q <= '0;
      tx1_q   <= '0;
      tx2_q   <= '0;
    end else begin
      acc1_q  <= acc;
      acc2_q  <= acc1_q;
      kind1_q <= op_kind_i;
      kind2_q <= kind1_q;
      addr1_q <= op_addr_i;
      addr2_q <= addr1_q;
      tx1_q   <= op_tx_i;
      tx2_q   <= tx1_q;
    end
  end

  `HTM_ASSERT(ResultTwoCyclesLater_A, res_valid == acc2_q)
  `HTM_ASSERT(ResultIsTheOperation_A, !res_valid || (res_kind == kind2_q &&
                                                     res_addr == addr2_q && res_tx == tx2_q))

  // The established writer of an arbitrary address.
  (* anyconst *) logic [AddrW-1:0] f_addr;
  logic           f_has_q, mine, ok;
  logic [TxW-1:0] f_writer_q;
  assign ok   = res_valid && !res_err;
  assign mine = ok && res_addr == f_addr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_has_q    <= 1'b0;
      f_writer_q <= '0;
    end else if (mine && res_inserted) begin
      f_has_q    <= 1'b1;
      f_writer_q <= res_tx;
    end else if (mine && res_removed) begin
      f_has_q <= 1'b0;
    end
  end

  `HTM_ASSERT(NoSecondWriter_A, !(mine && res_inserted) || !f_has_q)
  `HTM_ASSERT(FoundIsTheWriter_A, !mine || (res_found == f_has_q &&
                                            (!f_has_q || res_writer == f_writer_q)))
  `HTM_ASSERT(OnlyTheWriterRemoves_A, !(mine && res_removed) ||
                                      (f_has_q && res_tx == f_writer_q))
  `HTM_ASSERT(InsertedOrFull_A, !(ok && res_kind == htm_pkg::WtOpWrite && !res_found) ||
                                (res_inserted != res_full))
  `HTM_ASSERT(NoWriteEffectsOnOthers_A, !(ok && res_kind != htm_pkg::WtOpWrite) ||
                                        (!res_inserted && !res_full))

  `HTM_COVER(SecondWriterRefused_C, mine && res_kind == htm_pkg::WtOpWrite && f_has_q &&
                                    res_tx != f_writer_q)
  `HTM_COVER(Full_C, mine && res_full)
  `HTM_COVER(Reinserted_C, mine && res_inserted && $past(f_has_q, 3))

  // The error outputs: res_err_o marks exactly the results of an operation of unknown kind,
  // err_o is exactly "such a result was given since reset" (rising with it), and with known
  // kinds only (illegal_i low in every cycle) err_o stays low.
  logic f_bad_res, f_err_seen;
  assign f_bad_res = 2'(kind2_q) == 2'd3;
  `HTM_ASSERT(ResErrIsBad_A, !res_valid || res_err == f_bad_res)
  htm_err_check #(.Timing(1)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(op_valid_i && 2'(op_kind_i) == 2'd3),
    .set_i(res_valid && f_bad_res), .err_i(err), .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrUnknownKind_C, res_valid && res_err)

endmodule
