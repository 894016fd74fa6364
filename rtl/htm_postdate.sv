// SPDX-License-Identifier: Apache-2.0
//
// htm_postdate: the post-dating unit of snapshot isolation (Chen, Peng & Irving, ISCA 2017,
// section 4.1, Figures 7-9): the Logical Timestamp Table and the three update procedures of
// Figure 7 that detect dependency loops among transactions.
//
// Per transaction slot (NumTx): the current logical timestamp CTS, the post-dated timestamp
// PDTS (or unset, the paper's -1), PrevTS (the CTS at the last commit or abort), and whether the
// slot's transaction has committed and no new one has begun. After reset every slot holds
// CTS = 1, PDTS unset, PrevTS = 0.
//
// Operations (htm_pkg::pd_op_e on op_kind_i, slot a on op_a_i, slot b on op_b_i), one per cycle:
//   * Edge (a = predecessor, b = successor), Figure 7 procedures 1 and 2 in one step. With the
//     predecessor committed, the timestamp it passes is its PrevTS and it is left alone.
//     Otherwise (c = a's CTS, d = a's PDTS, s = b's PDTS):
//       - s unset, or c >= s: ts = d, or c + Inc when d is unset (and d becomes ts);
//       - c < s: m = (c + s - 1) / 2, the midpoint of the values that leave b room below s;
//         ts = min(d, m), an unset d counting as above every m (d becomes ts).
//     Loop declared (res_loop_o) when the predecessor is running and ts <= c (its promise is
//     broken: the midpoint has no room left, a precision loss), or when s is set and
//     ts + 1 >= s (the successor's CTS would reach its PDTS: the invariant CTS < PDTS of 4.1).
//     Without a loop the successor's CTS becomes max(CTS, ts + 1) (it never goes down).
//     A loop writes nothing: the system aborts a transaction of the edge.
//   * Commit, Abort (Figure 7 procedure 3 with ts = the transaction's own CTS): PrevTS = CTS,
//     CTS = CTS + 1, PDTS unset; Commit marks the slot committed (a later Edge from it passes
//     PrevTS), Abort clears the mark.
//   * Begin: slot a's next transaction begins (the committed mark is cleared).
//   * Query: reports slot a.
// Timestamp overflow: an operation that would write a value above 2^TsW - 1 writes nothing;
// res_ovf_o reports it (every transaction must abort, 4.3) and the table is reset to its
// initial contents, one slot per cycle (NumTx cycles, op_ready_o low). The operation taken in
// the cycle after the overflowing one is dropped the same way (res_ovf_o).
// Bad operations (a slot >= NumTx, an Edge with a = b, an unknown kind) write nothing and set
// res_err_o and the sticky err_o.
//
// Timing: an operation is taken when op_valid_i && op_ready_o; its result is out (res_valid_o,
// one cycle, no back-pressure) two cycles later. One operation per cycle: the table is block
// RAM read in the cycle an operation is taken and written back in the next; the RAMs are
// write-first, so an operation sees the one before it. CTS and PDTS have a copy per read port
// (a and b).
//
// Results: res_ts_o is the timestamp the predecessor passed (Edge); res_cts_o the successor's
// CTS after the Edge (on a loop the CTS the edge would have given it), else slot a's CTS;
// res_pdts_o / res_pdts_set_o the predecessor's PDTS as computed (Edge), else slot a's;
// res_prev_o and res_committed_o slot a's PrevTS and mark (Edge: before the Edge).
`include "htm_assert.svh"

module htm_postdate #(
  parameter int unsigned NumTx = 1024,  // transaction slots, 2..65536
  parameter int unsigned TsW   = 24,    // logical timestamp width, 3..48
  parameter int unsigned Inc   = 10,    // post-dating increment, 1..2^TsW - 2
  // Derived, do not set.
  localparam int unsigned TxW = htm_pkg::idx_width(NumTx)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Operations.
  input  logic                   op_valid_i,
  output logic                   op_ready_o,    // low while the table is (re)initialised
  input  htm_pkg::pd_op_e        op_kind_i,
  input  logic [TxW-1:0]         op_a_i,        // Edge: the predecessor; else the slot
  input  logic [TxW-1:0]         op_b_i,        // Edge: the successor
  // Results, two cycles after the operation was taken.
  output logic                   res_valid_o,
  output htm_pkg::pd_op_e        res_kind_o,
  output logic [TxW-1:0]         res_a_o,
  output logic [TxW-1:0]         res_b_o,
  output logic                   res_loop_o,    // Edge: a dependency loop is declared
  output logic                   res_ovf_o,     // a timestamp overflowed: every transaction aborts
  output logic                   res_err_o,     // a bad operation, not applied
  output logic [TsW:0]           res_ts_o,      // Edge: the timestamp a passed to b
  output logic [TsW:0]           res_cts_o,
  output logic [TsW:0]           res_pdts_o,
  output logic                   res_pdts_set_o,
  output logic [TsW-1:0]         res_prev_o,
  output logic                   res_committed_o,
  output logic                   err_o          // sticky: a bad operation was seen
);

  `HTM_ASSERT_INIT(NumTxRange_A, NumTx >= 2 && NumTx <= 65536)
  `HTM_ASSERT_INIT(TsWRange_A, TsW >= 3 && TsW <= 48)
  `HTM_ASSERT_INIT(IncRange_A, Inc >= 1 && 64'(Inc) <= (64'd1 << TsW) - 64'd2)

  localparam logic [TsW:0] TsMax = {1'b0, {TsW{1'b1}}};  // the largest timestamp
  localparam logic [TsW:0] IncW  = (TsW + 1)'(Inc);
  localparam int unsigned  PdW   = TsW + 1;  // {set, PDTS}
  localparam int unsigned  PvW   = TsW + 1;  // {committed, PrevTS}

  // -----------------------------------------------------------------------------------------------
  // Initialisation: after reset and after an overflow every slot is written with its initial
  // contents, one per cycle.
  // -----------------------------------------------------------------------------------------------
  logic           sweep_q, sweep_start;
  logic [TxW-1:0] sweep_idx_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sweep_q     <= 1'b1;
      sweep_idx_q <= '0;
    end else if (sweep_start) begin
      sweep_q     <= 1'b1;
      sweep_idx_q <= '0;
    end else if (sweep_q) begin
      sweep_idx_q <= sweep_idx_q + TxW'(1);
      if (sweep_idx_q == TxW'(NumTx - 1)) begin
        sweep_q <= 1'b0;
      end
    end
  end

  assign op_ready_o = !sweep_q;

  // -----------------------------------------------------------------------------------------------
  // Stage 0: take the operation, read slots a and b
  // -----------------------------------------------------------------------------------------------
  logic acc, a_ok, b_ok, kind_ok, bad;
  assign acc     = op_valid_i && op_ready_o;
  assign a_ok    = 32'(op_a_i) < NumTx;
  assign b_ok    = 32'(op_b_i) < NumTx;
  assign kind_ok = op_kind_i == htm_pkg::PdOpEdge || op_kind_i == htm_pkg::PdOpBegin ||
                   op_kind_i == htm_pkg::PdOpCommit || op_kind_i == htm_pkg::PdOpAbort ||
                   op_kind_i == htm_pkg::PdOpQuery;
  assign bad     = !kind_ok || !a_ok ||
                   (op_kind_i == htm_pkg::PdOpEdge && (!b_ok || op_a_i == op_b_i));

  logic            s1_q, s1_bad_q;
  htm_pkg::pd_op_e s1_kind_q;
  logic [TxW-1:0]  s1_a_q, s1_b_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q      <= 1'b0;
      s1_bad_q  <= 1'b0;
      s1_kind_q <= htm_pkg::PdOpEdge;
      s1_a_q    <= '0;
      s1_b_q    <= '0;
    end else begin
      s1_q <= acc;
      if (acc) begin
        s1_bad_q  <= bad;
        s1_kind_q <= op_kind_i;
        s1_a_q    <= op_a_i;
        s1_b_q    <= op_b_i;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The Logical Timestamp Table (write-first block RAM; CTS and PDTS once per read port)
  // -----------------------------------------------------------------------------------------------
  logic           rd_a, rd_b;
  logic [TxW-1:0] rd_a_idx, rd_b_idx;
  assign rd_a     = acc && a_ok;
  assign rd_b     = acc && b_ok;
  assign rd_a_idx = op_a_i;
  assign rd_b_idx = op_b_i;

  logic           cts_we, pd_we, pv_we;
  logic [TxW-1:0] cts_wa, pd_wa, pv_wa;
  logic [TsW-1:0] cts_wd;
  logic [PdW-1:0] pd_wd;
  logic [PvW-1:0] pv_wd;

  logic [TsW-1:0] cts_a, cts_b;
  logic [PdW-1:0] pd_a, pd_b;
  logic [PvW-1:0] pv_a;
  logic [4:0]     rd_unused_valid;

  htm_ram_1r1w #(.Width(TsW), .Depth(NumTx), .WriteFirst(1)) u_cts_a (
    .clk_i, .rst_ni, .wr_en_i(cts_we), .wr_addr_i(cts_wa), .wr_data_i(cts_wd),
    .rd_en_i(rd_a), .rd_addr_i(rd_a_idx), .rd_valid_o(rd_unused_valid[0]), .rd_data_o(cts_a));
  htm_ram_1r1w #(.Width(TsW), .Depth(NumTx), .WriteFirst(1)) u_cts_b (
    .clk_i, .rst_ni, .wr_en_i(cts_we), .wr_addr_i(cts_wa), .wr_data_i(cts_wd),
    .rd_en_i(rd_b), .rd_addr_i(rd_b_idx), .rd_valid_o(rd_unused_valid[1]), .rd_data_o(cts_b));
  htm_ram_1r1w #(.Width(PdW), .Depth(NumTx), .WriteFirst(1)) u_pd_a (
    .clk_i, .rst_ni, .wr_en_i(pd_we), .wr_addr_i(pd_wa), .wr_data_i(pd_wd),
    .rd_en_i(rd_a), .rd_addr_i(rd_a_idx), .rd_valid_o(rd_unused_valid[2]), .rd_data_o(pd_a));
  htm_ram_1r1w #(.Width(PdW), .Depth(NumTx), .WriteFirst(1)) u_pd_b (
    .clk_i, .rst_ni, .wr_en_i(pd_we), .wr_addr_i(pd_wa), .wr_data_i(pd_wd),
    .rd_en_i(rd_b), .rd_addr_i(rd_b_idx), .rd_valid_o(rd_unused_valid[3]), .rd_data_o(pd_b));
  htm_ram_1r1w #(.Width(PvW), .Depth(NumTx), .WriteFirst(1)) u_pv (
    .clk_i, .rst_ni, .wr_en_i(pv_we), .wr_addr_i(pv_wa), .wr_data_i(pv_wd),
    .rd_en_i(rd_a), .rd_addr_i(rd_a_idx), .rd_valid_o(rd_unused_valid[4]), .rd_data_o(pv_a));

  // -----------------------------------------------------------------------------------------------
  // Stage 1: Figure 7
  // -----------------------------------------------------------------------------------------------
  logic [TsW:0] c, d, s, sc, prev, ts, m, cand, nc, ncts, npdts, inc_cts;
  logic         d_set, s_set, committed, midpoint, pred_bad, succ_loop, loop;
  logic         is_edge, is_begin, is_cmt, is_abort, live;
  logic         edge_ovf, end_ovf, ovf, apply, kill;

  assign c         = {1'b0, cts_a};
  assign d         = {1'b0, pd_a[TsW-1:0]};
  assign d_set     = pd_a[TsW];
  assign sc        = {1'b0, cts_b};
  assign s         = {1'b0, pd_b[TsW-1:0]};
  assign s_set     = pd_b[TsW];
  assign prev      = {1'b0, pv_a[TsW-1:0]};
  assign committed = pv_a[TsW];

  // A slot's midpoint toward the successor's PDTS, and the predecessor's first promise.
  assign midpoint = s_set && c < s;
  assign m        = (c + s - (TsW + 1)'(1)) >> 1;
  assign cand     = c + IncW;
  always_comb begin
    if (committed) begin
      ts = prev;
    end else if (midpoint) begin
      ts = (d_set && d <= m) ? d : m;
    end else begin
      ts = d_set ? d : cand;
    end
  end
  assign npdts     = ts;
  assign nc        = ts + (TsW + 1)'(1);
  assign ncts      = (sc > nc) ? sc : nc;
  assign pred_bad  = !committed && ts <= c;
  assign succ_loop = s_set && nc >= s;
  assign loop      = pred_bad || succ_loop;

  assign kill     = sweep_q;  // an operation behind an overflow is dropped
  assign live     = s1_q && !s1_bad_q && !kill;
  assign is_edge  = live && s1_kind_q == htm_pkg::PdOpEdge;
  assign is_begin = live && s1_kind_q == htm_pkg::PdOpBegin;
  assign is_cmt   = live && s1_kind_q == htm_pkg::PdOpCommit;
  assign is_abort = live && s1_kind_q == htm_pkg::PdOpAbort;
  assign inc_cts  = c + (TsW + 1)'(1);

  // Overflow: a value to be written does not fit.
  assign edge_ovf = is_edge && !loop && (ncts > TsMax || (!committed && npdts > TsMax));
  assign end_ovf  = (is_cmt || is_abort) && inc_cts > TsMax;
  assign ovf      = edge_ovf || end_ovf;
  assign apply    = !ovf;
  assign sweep_start = ovf;

  always_comb begin
    cts_we = 1'b0;
    cts_wa = s1_a_q;
    cts_wd = TsW'(1);
    pd_we  = 1'b0;
    pd_wa  = s1_a_q;
    pd_wd  = '0;
    pv_we  = 1'b0;
    pv_wa  = s1_a_q;
    pv_wd  = '0;
    if (sweep_q) begin
      cts_we = 1'b1;
      cts_wa = sweep_idx_q;
      pd_we  = 1'b1;
      pd_wa  = sweep_idx_q;
      pv_we  = 1'b1;
      pv_wa  = sweep_idx_q;
    end else if (apply) begin
      if (is_edge && !loop) begin
        cts_we = 1'b1;
        cts_wa = s1_b_q;
        cts_wd = ncts[TsW-1:0];
        pd_we  = !committed && (!d_set || npdts != d);
        pd_wd  = {1'b1, npdts[TsW-1:0]};
      end
      if (is_cmt || is_abort) begin
        cts_we = 1'b1;
        cts_wd = inc_cts[TsW-1:0];
        pd_we  = 1'b1;
        pd_wd  = '0;
        pv_we  = 1'b1;
        pv_wd  = {is_cmt, cts_a};
      end
      if (is_begin) begin
        pv_we = 1'b1;
        pv_wd = {1'b0, pv_a[TsW-1:0]};
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Results
  // -----------------------------------------------------------------------------------------------
  logic            res_valid_q, res_loop_q, res_ovf_q, res_err_q, res_pdts_set_q;
  logic            res_committed_q, err_q;
  htm_pkg::pd_op_e res_kind_q;
  logic [TxW-1:0]  res_a_q, res_b_q;
  logic [TsW:0]    res_ts_q, res_cts_q, res_pdts_q;
  logic [TsW-1:0]  res_prev_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_valid_q     <= 1'b0;
      res_kind_q      <= htm_pkg::PdOpEdge;
      res_a_q         <= '0;
      res_b_q         <= '0;
      res_loop_q      <= 1'b0;
      res_ovf_q       <= 1'b0;
      res_err_q       <= 1'b0;
      res_ts_q        <= '0;
      res_cts_q       <= '0;
      res_pdts_q      <= '0;
      res_pdts_set_q  <= 1'b0;
      res_prev_q      <= '0;
      res_committed_q <= 1'b0;
      err_q           <= 1'b0;
    end else begin
      res_valid_q <= s1_q;
      if (s1_q) begin
        res_kind_q      <= s1_kind_q;
        res_a_q         <= s1_a_q;
        res_b_q         <= s1_b_q;
        res_err_q       <= s1_bad_q;
        res_ovf_q       <= !s1_bad_q && (kill || ovf);
        res_loop_q      <= is_edge && loop;
        res_ts_q        <= '0;
        res_cts_q       <= '0;
        res_pdts_q      <= '0;
        res_pdts_set_q  <= 1'b0;
        res_prev_q      <= '0;
        res_committed_q <= 1'b0;
        if (live) begin
          res_prev_q      <= pv_a[TsW-1:0];
          res_committed_q <= committed;
          res_cts_q       <= c;
          res_pdts_q      <= d_set ? d : '0;
          res_pdts_set_q  <= d_set;
          if (is_edge) begin
            res_ts_q       <= ts;
            res_cts_q      <= loop ? nc : ncts;
            res_pdts_q     <= committed ? (d_set ? d : '0) : npdts;
            res_pdts_set_q <= committed ? d_set : 1'b1;
          end
          if (is_begin) begin
            res_committed_q <= 1'b0;
          end
          if ((is_cmt || is_abort) && !ovf) begin
            res_cts_q       <= inc_cts;
            res_pdts_q      <= '0;
            res_pdts_set_q  <= 1'b0;
            res_prev_q      <= cts_a;
            res_committed_q <= is_cmt;
          end
        end
        if (s1_bad_q) begin
          err_q <= 1'b1;
        end
      end
    end
  end

  assign res_valid_o     = res_valid_q;
  assign res_kind_o      = res_kind_q;
  assign res_a_o         = res_a_q;
  assign res_b_o         = res_b_q;
  assign res_loop_o      = res_loop_q;
  assign res_ovf_o       = res_ovf_q;
  assign res_err_o       = res_err_q;
  assign res_ts_o        = res_ts_q;
  assign res_cts_o       = res_cts_q;
  assign res_pdts_o      = res_pdts_q;
  assign res_pdts_set_o  = res_pdts_set_q;
  assign res_prev_o      = res_prev_q;
  assign res_committed_o = res_committed_q;
  assign err_o           = err_q;

  // An Edge applied without a loop leaves the successor's CTS below its PDTS, and a running
  // predecessor's CTS below its PDTS.
  `HTM_ASSERT(SuccBelowPdts_A, !(is_edge && !loop && !ovf && s_set) || ncts < s)
  `HTM_ASSERT(PredBelowPdts_A, !(is_edge && !loop && !ovf && !committed) || c < npdts)

endmodule
