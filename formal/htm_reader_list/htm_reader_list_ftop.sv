// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_reader_list. The environment issues any operation stream (any kind,
// address and transaction, bad kinds included, with or without gaps). For an arbitrary address
// and transaction the wrapper keeps what the results have established: whether the transaction
// reads the address (set by an inserting Insert, cleared by a removing Remove) and how many
// transactions read it. Bounded proof (the table is RAM that k-induction would need tied to the
// wrapper's view):
//   * enumeration returns exactly the inserted set: an Enumerate of the address streams the
//     transaction once if it reads the address and never otherwise, and as many readers as
//     were inserted and not removed;
//   * Insert and Remove report whether the transaction was a reader; an Insert of a new reader
//     is either inserted or refused as full, never both;
//   * readers stream only during an Enumerate, and the stream's length is its count;
//   * every result is the operation taken before it.
`include "htm_assert.svh"

module htm_reader_list_ftop #(
  parameter int unsigned AddrW = 2,
  parameter int unsigned TxW   = 3,
  parameter int unsigned LeafW = 4,
  parameter int unsigned Sets  = 2,
  parameter int unsigned Ways  = 2,
  localparam int unsigned UsedW = $clog2(Sets * Ways + 1),
  localparam int unsigned CntW  = TxW + 1
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             op_valid_i,
  input htm_pkg::rl_op_e  op_kind_i,
  input logic [AddrW-1:0] op_addr_i,
  input logic [TxW-1:0]   op_tx_i,
  // 0: the operation of this cycle has a known kind (assumed).
  input logic             illegal_i
);
  logic             op_ready, id_valid, res_valid, res_found, res_inserted, res_full, res_err;
  logic             full, err;
  logic [TxW-1:0]   id, res_tx;
  htm_pkg::rl_op_e  res_kind;
  logic [AddrW-1:0] res_addr;
  logic [CntW-1:0]  res_count;
  logic [1:0]       res_type;
  logic [UsedW-1:0] used;

  htm_reader_list #(
    .AddrW(AddrW),
    .TxW  (TxW),
    .LeafW(LeafW),
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
    .id_valid_o    (id_valid),
    .id_o          (id),
    .res_valid_o   (res_valid),
    .res_kind_o    (res_kind),
    .res_addr_o    (res_addr),
    .res_tx_o      (res_tx),
    .res_found_o   (res_found),
    .res_inserted_o(res_inserted),
    .res_full_o    (res_full),
    .res_count_o   (res_count),
    .res_type_o    (res_type),
    .res_err_o     (res_err),
    .full_o        (full),
    .used_o        (used),
    .err_o         (err)
  );

  `HTM_FORMAL_START_IN_RESET

  // The operation in flight, as the environment sees it.
  logic             acc, busy_q;
  htm_pkg::rl_op_e  kind_q;
  logic [AddrW-1:0] addr_q;
  logic [TxW-1:0]   tx_q;
  logic [CntW-1:0]  streamed_q, streamed;
  assign acc      = op_valid_i && op_ready;
  assign streamed = streamed_q + CntW'(id_valid);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      kind_q     <= htm_pkg::RlOpInsert;
      addr_q     <= '0;
      tx_q       <= '0;
      streamed_q <= '0;
    end else begin
      if (res_valid) begin
        busy_q     <= 1'b0;
        streamed_q <= '0;
      end else begin
        streamed_q <= streamed;
      end
      if (acc) begin
        busy_q <= 1'b1;
        kind_q <= op_kind_i;
        addr_q <= op_addr_i;
        tx_q   <= op_tx_i;
      end
    end
  end

  `HTM_ASSERT(OneAtATime_A, !acc || !busy_q || res_valid)
  `HTM_ASSERT(ResultIsTheOperation_A, !res_valid || (busy_q && res_kind == kind_q &&
                                                     res_addr == addr_q && res_tx == tx_q))
  `HTM_ASSERT(StreamOnlyInEnumerate_A, !id_valid || (busy_q &&
                                                     kind_q == htm_pkg::RlOpEnumerate))
  `HTM_ASSERT(StreamLengthIsCount_A, !(res_valid && !res_err &&
                                       res_kind == htm_pkg::RlOpEnumerate) ||
                                     res_count == streamed)

  // What the results established for an arbitrary address and transaction.
  (* anyconst *) logic [AddrW-1:0] f_addr;
  (* anyconst *) logic [TxW-1:0]   f_tx;
  logic            f_in_q, ok, mine, mine_tx;
  logic [CntW-1:0] f_cnt_q, f_seen_q, f_seen;
  assign ok      = res_valid && !res_err;
  assign mine    = ok && res_addr == f_addr;
  assign mine_tx = mine && res_tx == f_tx;
  assign f_seen  = f_seen_q + CntW'(id_valid && id == f_tx);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_in_q   <= 1'b0;
      f_cnt_q  <= '0;
      f_seen_q <= '0;
    end else begin
      if (mine_tx && res_kind == htm_pkg::RlOpInsert && res_inserted) begin
        f_in_q <= 1'b1;
      end
      if (mine_tx && res_kind == htm_pkg::RlOpRemove && res_found) begin
        f_in_q <= 1'b0;
      end
      if (mine && res_kind == htm_pkg::RlOpInsert && res_inserted) begin
        f_cnt_q <= f_cnt_q + CntW'(1);
      end
      if (mine && res_kind == htm_pkg::RlOpRemove && res_found) begin
        f_cnt_q <= f_cnt_q - CntW'(1);
      end
      f_seen_q <= res_valid ? '0 : f_seen;
    end
  end

  logic enum_mine;
  assign enum_mine = mine && res_kind == htm_pkg::RlOpEnumerate;

  `HTM_ASSERT(EnumeratesTheReader_A, !enum_mine || f_seen == CntW'(f_in_q))
  `HTM_ASSERT(EnumeratesAllReaders_A, !enum_mine || res_count == f_cnt_q)
  `HTM_ASSERT(InsertFound_A, !(mine_tx && res_kind == htm_pkg::RlOpInsert) ||
                             (res_found == f_in_q &&
                              (f_in_q ? (!res_inserted && !res_full)
                                      : (res_inserted != res_full))))
  `HTM_ASSERT(RemoveFound_A, !(mine_tx && res_kind == htm_pkg::RlOpRemove) ||
                             (res_found == f_in_q && !res_inserted && !res_full))
  // The address's entry type after the operation: none exactly when it has no reader left.
  logic [CntW-1:0] f_cnt_after;
  assign f_cnt_after = f_cnt_q + CntW'(res_kind == htm_pkg::RlOpInsert && res_inserted) -
                       CntW'(res_kind == htm_pkg::RlOpRemove && res_found);
  `HTM_ASSERT(TypeNoneWhenEmpty_A, !mine || ((res_type == 2'd0) == (f_cnt_after == '0)))

  `HTM_COVER(EnumerateRoot_C, enum_mine && res_type == 2'd2 && f_in_q)
  `HTM_COVER(BackToSharers_C, mine && res_kind == htm_pkg::RlOpRemove && res_found &&
                              res_type == 2'd1 && $past(f_cnt_q) == CntW'(4))
  `HTM_COVER(Full_C, mine && res_full)

  // The error outputs: res_err_o marks exactly the results of an operation of unknown kind,
  // err_o is exactly "such a result was given since reset" (rising with it), and with known
  // kinds only (illegal_i low in every cycle) err_o stays low.
  logic f_bad_res, f_err_seen;
  assign f_bad_res = 2'(kind_q) == 2'd3;
  `HTM_ASSERT(ResErrIsBad_A, !res_valid || res_err == f_bad_res)
  htm_err_check #(.Timing(1)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(op_valid_i && 2'(op_kind_i) == 2'd3),
    .set_i(res_valid && f_bad_res), .err_i(err), .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrUnknownKind_C, res_valid && res_err)

endmodule
