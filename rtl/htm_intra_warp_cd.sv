// SPDX-License-Identifier: Apache-2.0
//
// htm_intra_warp_cd: WarpTM's two-phase intra-warp conflict detection with Early-Abort
// (Chen & Peng, HPCA 2016, section 4.3; docs/authors_simulator.md, sections 2.2 and 4.2).
//
// At a warp's commit the log walker sends, in order: Begin (the warp's lanes), every write-log
// row as Mark, every read- and write-log row as Check, then End. A row is one word address per
// lane (cmd_mask_i: the lanes with an entry in that row).
//   * Ownership table: Entries entries {valid, lane}, index (a mod N + (a div N) * 17) mod N for
//     N = Entries, kept in Banks banks (entry i in bank i mod Banks, block RAM) with the valid
//     bits in flip-flops, cleared at Begin.
//   * Mark: each lane of the row claims its entry when the entry is empty or held by a higher
//     lane, so that every entry ends with the lowest lane that wrote a word hashing to it.
//   * Check: a read aborts its lane when the entry is held by a lower lane (read after write
//     of an earlier lane); a write aborts its lane when the entry is held by another lane
//     (write after write). A write after a lower lane's read is allowed. Hash aliasing can only
//     add aborts.
//   * Early-Abort (ea_en_i, taken at Begin): every Check row is also looked up in the core's
//     CAT (cat_req_*: a read row hits words written by committing transactions, a write row
//     words they read or write), in parallel with the table; hitting lanes abort.
//   * End: abort = (intra-warp | early) & lanes; if that is every lane, the lowest is spared.
// Each bank takes the lowest pending lane of the row whose entry it holds, one per cycle
// (lanes of one bank are serialized); a row is accepted into a register and processed from the
// next cycle; the next row is accepted in the cycle the current one issues its last lanes and
// has its CAT answer. Begin and End are accepted when nothing is in flight; the result comes in
// the cycle after End. Commands out of order (Mark after Check, rows or End before Begin) set
// err_o and are otherwise ignored.
`include "htm_assert.svh"

module htm_intra_warp_cd #(
  parameter int unsigned AddrW    = 30,    // word address width, 1..62
  parameter int unsigned WarpSize = 32,    // lanes, 1..64
  parameter int unsigned Entries  = 4096,  // ownership table entries, a power of two
  parameter int unsigned Banks    = 4,     // table banks (lanes per cycle), a power of two
  // Derived, do not set.
  localparam int unsigned LaneW   = htm_pkg::idx_width(WarpSize)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // Commands of the log walker.
  input  logic                      cmd_valid_i,
  output logic                      cmd_ready_o,
  input  logic [1:0]                cmd_op_i,     // htm_pkg::iwcd_op_e
  input  logic [WarpSize-1:0]       cmd_mask_i,   // Begin: the warp's lanes; rows: their lanes
  input  logic [WarpSize*AddrW-1:0] cmd_addr_i,   // rows: lane l's word at [l*AddrW +: AddrW]
  input  logic                      cmd_write_i,  // Check: a write-log row (else a read row)
  input  logic                      ea_en_i,      // Begin: Early-Abort on for this warp
  // Early-Abort lookups in the core's CAT (htm_cat's lookup port).
  output logic                      cat_req_valid_o,
  input  logic                      cat_req_ready_i,
  output logic [WarpSize-1:0]       cat_req_mask_o,
  output logic [WarpSize*AddrW-1:0] cat_req_addr_o,
  output logic                      cat_req_write_o,
  input  logic                      cat_rsp_valid_i,
  input  logic [WarpSize-1:0]       cat_rsp_hit_i,
  // The outcome, one cycle after End.
  output logic                      res_valid_o,
  output logic [WarpSize-1:0]       res_abort_o,  // lanes to abort
  output logic [WarpSize-1:0]       res_iw_o,     // lanes the ownership table aborts
  output logic [WarpSize-1:0]       res_ea_o,     // lanes the CAT aborts
  output logic [WarpSize-1:0]       res_spared_o, // the lane spared because all would abort
  output logic                      busy_o,       // a row or a table access is in flight
  output logic                      err_o         // sticky: a command out of order
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 62)
  `HTM_ASSERT_INIT(WarpSizeRange_A, WarpSize >= 1 && WarpSize <= 64)
  `HTM_ASSERT_INIT(EntriesPow2_A, htm_pkg::is_pow2(Entries) && Entries >= 2)
  `HTM_ASSERT_INIT(BanksPow2_A, htm_pkg::is_pow2(Banks) && Banks <= Entries / 2)

  localparam int unsigned IdxW  = htm_pkg::idx_width(Entries);
  localparam int unsigned BankW = (Banks > 1) ? $clog2(Banks) : 0;
  localparam int unsigned WordN = Entries / Banks;  // entries per bank
  localparam int unsigned WordW = htm_pkg::idx_width(WordN);
  localparam int unsigned HiW   = (AddrW > IdxW) ? AddrW - IdxW : 1;
  // The valid-bit set decoder of a bank: word bits split in a low and a high half.
  localparam int unsigned LoDecW = WordW / 2;
  localparam int unsigned HiDecW = WordW - LoDecW;

  // -----------------------------------------------------------------------------------------------
  // Commands and the phase
  // -----------------------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    PhNone  = 2'd0,  // no Begin since the last End (or reset)
    PhMark  = 2'd1,
    PhCheck = 2'd2
  } phase_e;

  phase_e              phase_q, phase_d;
  logic [WarpSize-1:0] lanes_q;    // the warp's lanes (Begin)
  logic                ea_en_q;
  logic [WarpSize-1:0] iw_q, ea_q;  // lanes aborted so far
  logic                err_q;

  // The row being processed.
  logic                      row_q, row_check_q, row_write_q, cat_pend_q, cat_wait_q;
  logic [WarpSize-1:0]       row_pend_q, row_lanes_q;  // lanes still to issue; all its lanes
  logic [WarpSize*AddrW-1:0] row_addr_q;

  logic                s1_any;       // a table access in stage 1 (any bank)
  logic [WarpSize-1:0] issue_now;    // lanes issued to the banks this cycle
  logic [WarpSize-1:0] iw_now;       // lanes the table aborts this cycle
  logic                cat_done, row_done, idle;
  logic                is_begin, is_row, is_end, acc, acc_begin, acc_row, acc_end, bad;

  assign is_begin = cmd_op_i == htm_pkg::IwcdOpBegin;
  assign is_row   = cmd_op_i == htm_pkg::IwcdOpMark || cmd_op_i == htm_pkg::IwcdOpCheck;
  assign is_end   = cmd_op_i == htm_pkg::IwcdOpEnd;

  assign cat_done = !cat_pend_q && (!cat_wait_q || cat_rsp_valid_i);
  assign row_done = row_q && (row_pend_q & ~issue_now) == '0 && cat_done;
  assign idle     = !row_q && !s1_any;

  assign cmd_ready_o = is_row ? (!row_q || row_done) : idle;
  assign acc         = cmd_valid_i && cmd_ready_o;
  // Out of order: a row or End without Begin, a Mark after a Check.
  assign bad         = acc && (((is_row || is_end) && phase_q == PhNone) ||
                               (cmd_op_i == htm_pkg::IwcdOpMark && phase_q == PhCheck));
  assign acc_begin   = acc && is_begin;
  assign acc_row     = acc && is_row && !bad;
  assign acc_end     = acc && is_end && !bad;

  always_comb begin
    phase_d = phase_q;
    if (acc_begin) begin
      phase_d = PhMark;
    end else if (acc_end) begin
      phase_d = PhNone;
    end else if (acc_row && cmd_op_i == htm_pkg::IwcdOpCheck) begin
      phase_d = PhCheck;
    end
  end

  // The CAT sees the row's lanes of the warp, when Early-Abort is on and the row is a Check.
  assign cat_req_valid_o = row_q && cat_pend_q;
  assign cat_req_mask_o  = row_q ? row_lanes_q : '0;
  assign cat_req_addr_o  = row_addr_q;
  assign cat_req_write_o = row_write_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q     <= PhNone;
      lanes_q     <= '0;
      ea_en_q     <= 1'b0;
      iw_q        <= '0;
      ea_q        <= '0;
      err_q       <= 1'b0;
      row_q       <= 1'b0;
      row_check_q <= 1'b0;
      row_write_q <= 1'b0;
      row_pend_q  <= '0;
      row_lanes_q <= '0;
      row_addr_q  <= '0;
      cat_pend_q  <= 1'b0;
      cat_wait_q  <= 1'b0;
    end else begin
      phase_q <= phase_d;
      if (bad) begin
        err_q <= 1'b1;
      end
      // Lanes aborted by the table and by the CAT.
      if (acc_begin) begin
        lanes_q <= cmd_mask_i;
        ea_en_q <= ea_en_i;
        iw_q    <= '0;
        ea_q    <= '0;
      end else begin
        iw_q <= iw_q | iw_now;
        if (cat_wait_q && cat_rsp_valid_i) begin
          ea_q <= ea_q | (cat_rsp_hit_i & lanes_q);
        end
      end
      // The CAT request and its answer.
      if (cat_req_valid_o && cat_req_ready_i) begin
        cat_pend_q <= 1'b0;
        cat_wait_q <= 1'b1;
      end else if (cat_wait_q && cat_rsp_valid_i) begin
        cat_wait_q <= 1'b0;
      end
      // The row register.
      if (acc_row) begin
        row_q       <= 1'b1;
        row_check_q <= cmd_op_i == htm_pkg::IwcdOpCheck;
        row_write_q <= cmd_write_i;
        row_pend_q  <= cmd_mask_i & lanes_q;
        row_lanes_q <= cmd_mask_i & lanes_q;
        row_addr_q  <= cmd_addr_i;
        cat_pend_q  <= cmd_op_i == htm_pkg::IwcdOpCheck && ea_en_q;
      end else if (row_done) begin
        row_q      <= 1'b0;
        row_pend_q <= '0;
      end else begin
        row_pend_q <= row_pend_q & ~issue_now;
      end
    end
  end

  assign err_o = err_q;

  // -----------------------------------------------------------------------------------------------
  // Table index of every lane of the row: (a mod N + (a div N) * 17) mod N
  // -----------------------------------------------------------------------------------------------
  logic [IdxW-1:0] lane_idx [WarpSize];

  for (genvar l = 0; l < WarpSize; l++) begin : gen_idx
    logic [AddrW-1:0] a;
    logic [IdxW-1:0]  lo, hi;
    assign a = row_addr_q[l*AddrW +: AddrW];
    if (AddrW > IdxW) begin : gen_hi
      // (a div N) * 17 mod N depends on (a div N) mod N only: higher bits do not matter.
      logic [HiW-1:0] hi_full;
      logic           unused_hi;
      assign hi_full   = a[AddrW-1:IdxW];
      assign lo        = a[IdxW-1:0];
      assign hi        = IdxW'(hi_full);
      assign unused_hi = ^hi_full;
    end else begin : gen_no_hi
      assign lo = IdxW'(a);
      assign hi = '0;
    end
    assign lane_idx[l] = lo + (hi << 4) + hi;
  end

  // -----------------------------------------------------------------------------------------------
  // Banks: stage 0 picks a lane and reads its entry; stage 1 marks or checks
  // -----------------------------------------------------------------------------------------------
  logic [Banks-1:0]   s1_valid_q;
  logic [Banks*WarpSize-1:0] b_abort;    // per bank, one-hot lane aborted this cycle
  logic [Banks*WarpSize-1:0] b_issue;    // per bank, one-hot lane issued this cycle
  logic               s1_check_q, s1_write_q;

  for (genvar b = 0; b < Banks; b++) begin : gen_bank
    logic [WarpSize-1:0] mine, pick;
    logic                go;
    logic [LaneW-1:0]    lane, s1_lane_q;
    logic [IdxW-1:0]     idx, s1_idx_q;
    logic [WordW-1:0]    word;
    logic                rd_unused_valid, own_valid, wr, mark;
    logic [LaneW-1:0]    own_lane;
    logic [WordN-1:0]    valid_q, valid_d;
    logic [WordW-1:0]    s1_word;

    // Pending lanes of the row whose entry is in this bank; the lowest goes now.
    always_comb begin
      mine = '0;
      for (int l = 0; l < WarpSize; l++) begin
        if (Banks == 1 || 32'(lane_idx[l]) % Banks == b) begin
          mine[l] = row_pend_q[l];
        end
      end
    end
    assign pick = row_q ? mine & (~mine + WarpSize'(1)) : '0;
    assign go   = pick != '0;

    always_comb begin
      lane = '0;
      idx  = '0;
      for (int l = 0; l < WarpSize; l++) begin
        if (pick[l]) begin
          lane = LaneW'(l);
          idx  = lane_idx[l];
        end
      end
    end
    assign word    = WordW'(idx >> BankW);
    assign s1_word = WordW'(s1_idx_q >> BankW);
    assign b_issue[b*WarpSize +: WarpSize] = pick;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        s1_valid_q[b] <= 1'b0;
        s1_lane_q     <= '0;
        s1_idx_q      <= '0;
      end else begin
        s1_valid_q[b] <= go;
        s1_lane_q     <= lane;
        s1_idx_q      <= idx;
      end
    end

    // The entry: its valid bit (flip-flops, up to date) and its lane (write-first RAM).
    htm_ram_1r1w #(
      .Width     (LaneW),
      .Depth     (WordN),
      .WriteFirst(1)
    ) u_owner (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .wr_en_i   (wr),
      .wr_addr_i (s1_word),
      .wr_data_i (s1_lane_q),
      .rd_en_i   (go),
      .rd_addr_i (word),
      .rd_valid_o(rd_unused_valid),
      .rd_data_o (own_lane)
    );

    // Valid bits of the bank's entries (written since Begin), flip-flops: cleared at Begin,
    // set by the bank's marks.
    assign own_valid = valid_q[s1_word];
    // Mark: claim an empty entry or one held by a higher lane.
    assign mark = s1_valid_q[b] && !s1_check_q;
    assign wr   = mark && (!own_valid || own_lane > s1_lane_q);

    // The set decoder in two halves (one-hot high and low word bits), so that each valid bit
    // is one LUT of {itself, its high half, its low half}; a shift (valid_d[s1_word])
    // gave Yosys a barrel shifter per bank. A mark sets the bit whether or not it claims the
    // entry (an entry it does not claim is valid already), so that the decoder depends on
    // registers only and not on the table read (which synthesis duplicated into every bit).
    logic [(1<<HiDecW)-1:0] dec_hi;
    logic [(1<<LoDecW)-1:0] dec_lo;
    always_comb begin
      dec_hi = '0;
      dec_lo = '0;
      for (int j = 0; j < (1 << HiDecW); j++) begin
        dec_hi[j] = WordW'(s1_word >> LoDecW) == WordW'(j);
      end
      for (int k = 0; k < (1 << LoDecW); k++) begin
        dec_lo[k] = mark && WordW'(s1_word & WordW'((1 << LoDecW) - 1)) == WordW'(k);
      end
      for (int w = 0; w < WordN; w++) begin
        valid_d[w] = valid_q[w] || (dec_hi[w >> LoDecW] && dec_lo[w & ((1 << LoDecW) - 1)]);
      end
    end

    // Begin clears the bits in the flip-flops' own clear (a synchronous reset), so the decoder
    // above depends on registers only: a Verilated model computes it once per clock edge, not
    // at every change of the command inputs (the whole cost of this block in the machine).
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= '0;
      end else if (acc_begin) begin
        valid_q <= '0;
      end else begin
        valid_q <= valid_d;
      end
    end

    // Check: a read after a lower lane's write; a write after another lane's write.
    logic abort;
    assign abort = s1_valid_q[b] && s1_check_q && own_valid &&
                   (s1_write_q ? own_lane != s1_lane_q : own_lane < s1_lane_q);
    always_comb begin
      b_abort[b*WarpSize +: WarpSize] = '0;
      for (int l = 0; l < WarpSize; l++) begin
        if (abort && s1_lane_q == LaneW'(l)) begin
          b_abort[b*WarpSize+l] = 1'b1;
        end
      end
    end

    logic unused_bank;
    assign unused_bank = rd_unused_valid;
  end

  // The kind of the accesses in stage 1: the row that issued them (a new row's kind is in the
  // row register only from the cycle after the old row's last issue).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_check_q <= 1'b0;
      s1_write_q <= 1'b0;
    end else begin
      s1_check_q <= row_check_q;
      s1_write_q <= row_write_q;
    end
  end

  assign s1_any = s1_valid_q != '0;

  always_comb begin
    issue_now = '0;
    iw_now    = '0;
    for (int b = 0; b < Banks; b++) begin
      issue_now = issue_now | b_issue[b*WarpSize +: WarpSize];
      iw_now    = iw_now | b_abort[b*WarpSize +: WarpSize];
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The outcome
  // -----------------------------------------------------------------------------------------------
  logic [WarpSize-1:0] all_abort, lowest;
  assign all_abort = (iw_q | ea_q) & lanes_q;
  assign lowest    = lanes_q & (~lanes_q + WarpSize'(1));

  logic                res_q;
  logic [WarpSize-1:0] res_abort_q, res_iw_q, res_ea_q, res_spared_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_q        <= 1'b0;
      res_abort_q  <= '0;
      res_iw_q     <= '0;
      res_ea_q     <= '0;
      res_spared_q <= '0;
    end else begin
      res_q <= acc_end;
      if (acc_end) begin
        res_iw_q <= iw_q & lanes_q;
        res_ea_q <= ea_q & lanes_q;
        if (lanes_q != '0 && all_abort == lanes_q) begin
          res_abort_q  <= lanes_q & ~lowest;
          res_spared_q <= lowest;
        end else begin
          res_abort_q  <= all_abort;
          res_spared_q <= '0;
        end
      end
    end
  end

  assign res_valid_o  = res_q;
  assign res_abort_o  = res_q ? res_abort_q : '0;
  assign res_iw_o     = res_q ? res_iw_q : '0;
  assign res_ea_o     = res_q ? res_ea_q : '0;
  assign res_spared_o = res_q ? res_spared_q : '0;
  assign busy_o       = !idle;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // At least one lane survives a warp that has lanes.
  `HTM_ASSERT(OneSurvives_A, !res_q || res_abort_q != lanes_q || lanes_q == '0)
  // A CAT answer comes only while one is awaited.
  `HTM_ASSERT(CatAnswerAwaited_A, !cat_rsp_valid_i || cat_wait_q)

endmodule
