// SPDX-License-Identifier: Apache-2.0
//
// htm_commit_unit: the KILO TM commit unit of one memory partition. It validates transactions
// lazily, by value, and commits them in global commit-id (cid) order.
//
// Messages from the cores (in_*, cu_msg_e) carry a cid; the entry of cid c is ring entry
// c mod RingSize. Alloc is answered on arep_* one cycle later: pass when c is inside the window
// [retire pointer, retire pointer + RingSize). Every other message must carry a cid inside the
// window and respect the protocol (docs/htm_commit_unit.md); one that does not is dropped and
// sets err_o (sticky). Read-set and write-set words go into a shared word buffer of BufWords
// slots, one list per entry and kind; a word that finds no free slot fails its transaction
// (capacity), which then replies Fail in its turn. Each read-set word is validated against
// memory as it arrives (vr_*, ValTags requests in flight).
//
// Four pointers walk the ring in cid order, each behind the previous one:
//   hazard detection (ptr_fcd_o): when an entry is filled, looks up each of its reads in the
//     Last Writer History (htm_lwh), then inserts each of its writes; a read whose last writer
//     is at or after the retire pointer seen at the entry's first message flags the entry (the
//     result one cycle after the lookup, two with LwhPipe);
//   pass (ptr_pass_o): replies Pass or Fail in cid order once the entry's validations are done;
//     a flagged entry first waits for its youngest conflicting writer to retire and revalidates
//     every read;
//   commit (ptr_commit_o): after the core's Pass, writes the entry's write set to memory (cw_*),
//     one word per cycle; a core's Fail or this unit's Fail skips it;
//   retire (ptr_retire_o): frees the entry's words (one per cycle, with an RCT decrement event),
//     waits for the commit writes' acknowledgements (in order), replies DoneCommit for an entry
//     that wrote here, and clears the entry.
// RCT events: rct_inc_* when a word is stored, rct_dec_* when it is freed.
//
// Timing and rates: docs/htm_commit_unit.md.
`include "htm_assert.svh"

module htm_commit_unit #(
  parameter int unsigned AddrW            = 30,    // word address width
  parameter int unsigned DataW            = 32,    // data word width
  parameter int unsigned CidW             = 16,    // commit id width (wraps)
  parameter int unsigned SrcW             = 8,     // reply route width
  parameter int unsigned RingSize         = 1024,  // ring entries, a power of two
  parameter int unsigned BufWords         = 4096,  // word buffer slots
  parameter int unsigned ValTags          = 16,    // validation reads in flight
  parameter int unsigned LwhSets          = 256,
  parameter int unsigned LwhWays          = 4,
  parameter int unsigned LwhBfHashes      = 4,
  parameter int unsigned LwhBfSlots       = 256,
  parameter int unsigned LwhScrubInterval = 32,
  // 1: the LWH's lookup result is registered and the hazard stage takes one more cycle (the
  // prototype's clock; docs/htm_commit_unit.md "Pipelining for the prototype").
  parameter bit          LwhPipe          = 1'b0,
  // Derived, do not set.
  localparam int unsigned TagW            = htm_pkg::idx_width(ValTags)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // intake
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [2:0]       in_type_i,      // htm_pkg::cu_msg_e
  input  logic [CidW-1:0]  in_cid_i,
  input  logic [SrcW-1:0]  in_src_i,
  input  logic [AddrW-1:0] in_addr_i,
  input  logic [DataW-1:0] in_data_i,
  // allocation replies (always accepted)
  output logic             arep_valid_o,
  output logic             arep_pass_o,
  output logic [CidW-1:0]  arep_cid_o,
  output logic [SrcW-1:0]  arep_src_o,
  // outcome replies (always accepted)
  output logic             rep_valid_o,
  output logic [2:0]       rep_type_o,     // htm_pkg::cu_rep_e
  output logic [CidW-1:0]  rep_cid_o,
  output logic [SrcW-1:0]  rep_src_o,
  output logic             rep_cap_o,      // a Fail because a word found the buffer full
  // validation reads
  output logic             vr_req_valid_o,
  input  logic             vr_req_ready_i,
  output logic [AddrW-1:0] vr_req_addr_o,
  output logic [TagW-1:0]  vr_req_tag_o,
  input  logic             vr_rsp_valid_i,
  input  logic [TagW-1:0]  vr_rsp_tag_i,
  input  logic [DataW-1:0] vr_rsp_data_i,
  // commit writes (acknowledged in order)
  output logic             cw_req_valid_o,
  input  logic             cw_req_ready_i,
  output logic [AddrW-1:0] cw_req_addr_o,
  output logic [DataW-1:0] cw_req_data_o,
  input  logic             cw_ack_valid_i,
  // Reference Count Table events
  output logic             rct_inc_valid_o,
  output logic [AddrW-1:0] rct_inc_addr_o,
  output logic             rct_inc_write_o,
  output logic             rct_dec_valid_o,
  output logic [AddrW-1:0] rct_dec_addr_o,
  output logic             rct_dec_write_o,
  // status
  output logic [CidW-1:0]  ptr_retire_o,
  output logic [CidW-1:0]  ptr_commit_o,
  output logic [CidW-1:0]  ptr_pass_o,
  output logic [CidW-1:0]  ptr_fcd_o,
  output logic             busy_o,
  output logic             sweep_o,        // the history sweeps or scrubs: work without input
  output logic             err_o
);

  `HTM_ASSERT_INIT(RingSizePow2_A, htm_pkg::is_pow2(RingSize) && RingSize >= 2)
  `HTM_ASSERT_INIT(CidWRange_A, CidW >= 4 && CidW <= 63)
  `HTM_ASSERT_INIT(RingWindow_A, 64'(RingSize) <= (64'(1) << (CidW - 2)))
  `HTM_ASSERT_INIT(BufWordsRange_A, BufWords >= 2 && BufWords <= (1 << 20))
  `HTM_ASSERT_INIT(ValTagsRange_A, ValTags >= 1 && ValTags <= 256)

  localparam int unsigned IdxW  = htm_pkg::idx_width(RingSize);
  localparam int unsigned SlotW = htm_pkg::idx_width(BufWords);
  localparam int unsigned WordW = 1 + SlotW + AddrW + DataW;  // {last, next, addr, data}
  localparam int unsigned CntW  = $clog2(BufWords + 1);
  localparam int unsigned OpenW = $clog2(RingSize + 1);

  // The entry word: the flags that only the intake sets.
  localparam int unsigned EwW       = 8;
  localparam int unsigned EwStarted = 0;  // a word or DoneFill arrived
  localparam int unsigned EwFilled  = 1;  // DoneFill arrived
  localparam int unsigned EwSkip    = 2;  // Skip arrived
  localparam int unsigned EwCapFail = 3;  // a word found the buffer full
  localparam int unsigned EwRdHas   = 4;  // a read-set word is stored
  localparam int unsigned EwWrHas   = 5;  // a write-set word is stored
  localparam int unsigned EwOutPass = 6;  // the core's Pass arrived
  localparam int unsigned EwOutFail = 7;  // the core's Fail arrived
  // Readers of the block-RAM copies of the entry words (one copy each).
  localparam int unsigned EwRdR     = 0;  // retire pointer's entry
  localparam int unsigned EwRdRn    = 1;  // the next one
  localparam int unsigned EwRdC     = 2;  // commit
  localparam int unsigned EwRdCn    = 3;
  localparam int unsigned EwRdP     = 4;  // pass
  localparam int unsigned EwRdF     = 5;  // hazard detection
  localparam int unsigned EwRdFn    = 6;
  localparam int unsigned EwRd      = 7;

  localparam logic [2:0] MsgAlloc    = 3'(htm_pkg::CuMsgAlloc);
  localparam logic [2:0] MsgReadSet  = 3'(htm_pkg::CuMsgReadSet);
  localparam logic [2:0] MsgWriteSet = 3'(htm_pkg::CuMsgWriteSet);
  localparam logic [2:0] MsgDoneFill = 3'(htm_pkg::CuMsgDoneFill);
  localparam logic [2:0] MsgSkip     = 3'(htm_pkg::CuMsgSkip);
  localparam logic [2:0] MsgPass     = 3'(htm_pkg::CuMsgPass);
  localparam logic [2:0] MsgFail     = 3'(htm_pkg::CuMsgFail);

  typedef enum logic [1:0] {
    RetIdle,
    RetWalk,
    RetDone
  } ret_state_e;

  // -----------------------------------------------------------------------------------------------
  // State
  // -----------------------------------------------------------------------------------------------
  // Ring entries (see "Per-entry state" below): lap stamps and validation failures in
  // flip-flops, the intake's entry word and the list heads in RAM.
  logic [RingSize-1:0] stamp_q, vfail_q, vfail_d;
  logic [EwW-1:0]      ew_q [RingSize];       // the intake's copy of the entry words
  logic [SlotW-1:0]    rd_head_q [RingSize];  // the intake's copy of the list heads
  logic [SlotW-1:0]    wr_head_q [RingSize];
  // List heads of the walkers' entries (current and next), from block-RAM copies read ahead.
  logic [SlotW-1:0]    r_rdh, r_wrh, rn_rdh, rn_wrh, c_wrh, cn_wrh, p_rdh;
  logic [SlotW-1:0]    f_rdh, f_wrh, fn_rdh, fn_wrh;
  // Pointers.
  logic [CidW-1:0]     ptr_r_q, ptr_c_q, ptr_p_q, ptr_f_q;
  logic [IdxW-1:0]     r_idx, c_idx, p_idx, f_idx, in_idx;
  // Validation tags.
  logic [ValTags-1:0]  tag_valid_q;
  logic [IdxW-1:0]     tag_idx_q [ValTags];
  logic [DataW-1:0]    tag_val_q [ValTags];
  // Walkers.
  logic                f_active_q, f_kind_q, p_active_q, c_rdy_q, r_kind_q;
  logic [SlotW-1:0]    r_slot_q;
  ret_state_e          r_state_q, r_state_d;
  logic [CntW-1:0]     r_wcount_q;
  // Hazard lookup in flight (lk_first_q: the first of its entry's walk), and the lookup whose
  // result is evaluated in this cycle (hz_*: the same one, or with LwhPipe the one before).
  logic                lk_valid_q, lk_first_q, f_looked_q;
  logic [IdxW-1:0]     lk_idx_q;
  logic [CidW-1:0]     lk_own_q, lk_raf;
  logic                hz_valid, hz_first;
  logic [IdxW-1:0]     hz_idx;
  logic [CidW-1:0]     hz_raf, hz_d_own;
  // Entry fields read from block RAM for the pointers' entries.
  logic [CidW-1:0]     p_conf;                 // youngest conflicting writer of the pass entry
  logic [SrcW-1:0]     p_src, r_src;           // reply routes of the pass and retire entries
  // Free list: fresh slots, then a RAM FIFO with a two-word output buffer.
  logic [CntW-1:0]     fresh_q;
  logic [SlotW-1:0]    fl_w_q, fl_r_q;
  logic [CntW-1:0]     fl_cnt_q;
  logic                fl_inflight_q;
  logic [SlotW-1:0]    ob_q [2];
  logic [1:0]          ob_cnt_q;
  // Acknowledgements, alloc reply, error.
  logic [CntW-1:0]     cw_out_q, ack_pool_q;
  logic                arep_valid_q, arep_pass_q;
  logic [CidW-1:0]     arep_cid_q;
  logic [SrcW-1:0]     arep_src_q;
  logic                err_q;

  assign r_idx  = IdxW'(ptr_r_q);
  assign c_idx  = IdxW'(ptr_c_q);
  assign p_idx  = IdxW'(ptr_p_q);
  assign f_idx  = IdxW'(ptr_f_q);
  assign in_idx = IdxW'(in_cid_i);

  // The pointers' next values.
  logic [CidW-1:0] r_nxt, c_nxt, f_nxt;
  logic [IdxW-1:0] r_nidx, c_nidx, f_nidx;
  assign r_nxt  = ptr_r_q + CidW'(1);
  assign c_nxt  = ptr_c_q + CidW'(1);
  assign f_nxt  = ptr_f_q + CidW'(1);
  assign r_nidx = IdxW'(r_nxt);
  assign c_nidx = IdxW'(c_nxt);
  assign f_nidx = IdxW'(f_nxt);

  // -----------------------------------------------------------------------------------------------
  // Word buffer: one RAM copy per walker, written together by the intake
  // -----------------------------------------------------------------------------------------------
  logic             buf_we;
  logic [SlotW-1:0] buf_waddr;
  logic [WordW-1:0] buf_wdata;
  logic             f_rd_en, p_rd_en, c_rd_en, r_rd_en;
  logic [SlotW-1:0] f_raddr, p_raddr, c_raddr, r_raddr;
  logic [WordW-1:0] f_word, p_word, c_word, r_word;
  logic [3:0]       buf_unused_valid;

  htm_ram_1r1w #(.Width(WordW), .Depth(BufWords)) u_buf_f (
    .clk_i, .rst_ni, .wr_en_i(buf_we), .wr_addr_i(buf_waddr), .wr_data_i(buf_wdata),
    .rd_en_i(f_rd_en), .rd_addr_i(f_raddr), .rd_valid_o(buf_unused_valid[0]), .rd_data_o(f_word));
  htm_ram_1r1w #(.Width(WordW), .Depth(BufWords)) u_buf_p (
    .clk_i, .rst_ni, .wr_en_i(buf_we), .wr_addr_i(buf_waddr), .wr_data_i(buf_wdata),
    .rd_en_i(p_rd_en), .rd_addr_i(p_raddr), .rd_valid_o(buf_unused_valid[1]), .rd_data_o(p_word));
  htm_ram_1r1w #(.Width(WordW), .Depth(BufWords)) u_buf_c (
    .clk_i, .rst_ni, .wr_en_i(buf_we), .wr_addr_i(buf_waddr), .wr_data_i(buf_wdata),
    .rd_en_i(c_rd_en), .rd_addr_i(c_raddr), .rd_valid_o(buf_unused_valid[2]), .rd_data_o(c_word));
  htm_ram_1r1w #(.Width(WordW), .Depth(BufWords)) u_buf_r (
    .clk_i, .rst_ni, .wr_en_i(buf_we), .wr_addr_i(buf_waddr), .wr_data_i(buf_wdata),
    .rd_en_i(r_rd_en), .rd_addr_i(r_raddr), .rd_valid_o(buf_unused_valid[3]), .rd_data_o(r_word));

  // Word fields.
  logic             f_last, p_last, c_last, r_last;
  logic [SlotW-1:0] f_next, p_next, c_next, r_next;
  logic [AddrW-1:0] f_addr, p_addr, c_addr, r_addr;
  logic [DataW-1:0] p_data, c_data;
  logic [DataW-1:0] f_unused_data, r_unused_data;
  assign {f_last, f_next, f_addr, f_unused_data} = f_word;
  assign {p_last, p_next, p_addr, p_data}        = p_word;
  assign {c_last, c_next, c_addr, c_data}        = c_word;
  assign {r_last, r_next, r_addr, r_unused_data} = r_word;

  // -----------------------------------------------------------------------------------------------
  // Per-entry state
  // -----------------------------------------------------------------------------------------------
  // The entry word holds the flags that only the intake sets. Every legal message but Alloc
  // writes its entry's word whole (read-modify-write at in_idx), and every cid reaches the unit
  // (a word, DoneFill or Skip) before the retire pointer can pass it, so each entry's word is
  // rewritten in every lap of the ring. stamp_q[i] holds bit IdxW (the lap's parity) of the cid
  // that last wrote entry i: the word belongs to cid c iff stamp_q[c mod RingSize] == c[IdxW].
  // The retire pointer's clear is therefore implicit (the entry's next cid has the other parity);
  // reset sets the stamps to 1 (cids 0 .. RingSize-1 have parity 0) and leaves the RAM alone.
  //
  // The intake reads its copy (LUT RAM) at in_idx. The walkers read block-RAM copies ahead
  // (address = their index in the next cycle) and bypass the intake's write of the last cycle,
  // so each copy's output is the intake copy's contents at that index. The retire, commit and
  // pass pointers read only entries behind the hazard pointer, which were written in this lap;
  // the hazard pointer checks the stamp.
  //
  // Validation failures (vfail_q) are set by validation responses and cleared by the retire
  // pointer: flip-flops. "This unit replied Pass" is not stored: behind the pass pointer it is
  // !skip && !fail, and no message can change skip or fail of an entry that has been replied
  // (words, DoneFill and Skip need an open entry, and the pass pointer waits for the entry's
  // validations before it replies). The conflict flag is kept with conf_cid (below).
  logic [EwRd*IdxW-1:0] ew_rd_addr;  // each copy's read address (its index in the next cycle)
  logic [EwRd*IdxW-1:0] ew_rd_idx;   // the index each copy serves in this cycle
  logic [EwRd*EwW-1:0]  ew_ram, ew_rd;
  logic [EwRd-1:0]      ew_unused_valid;
  logic                 ew_we, ew_we_q;
  logic [EwW-1:0]       ew_wdata, ew_wdata_q;
  logic [IdxW-1:0]      ew_widx_q;

  for (genvar k = 0; k < EwRd; k++) begin : g_ew
    htm_ram_1r1w #(.Width(EwW), .Depth(RingSize)) u_ew (
      .clk_i, .rst_ni, .wr_en_i(ew_we), .wr_addr_i(in_idx), .wr_data_i(ew_wdata),
      .rd_en_i(1'b1), .rd_addr_i(ew_rd_addr[k*IdxW +: IdxW]), .rd_valid_o(ew_unused_valid[k]),
      .rd_data_o(ew_ram[k*EwW +: EwW]));
    assign ew_rd[k*EwW +: EwW] = (ew_we_q && ew_widx_q == ew_rd_idx[k*IdxW +: IdxW])
                               ? ew_wdata_q : ew_ram[k*EwW +: EwW];
  end
  assign ew_rd_idx = {f_nidx, f_idx, p_idx, c_nidx, c_idx, r_nidx, r_idx};

  logic           in_own, f_own, fn_own;
  logic [EwW-1:0] in_ew, r_ew, rn_ew, c_ew, cn_ew, p_ew, f_ew, fn_ew;
  assign in_own = stamp_q[in_idx] == in_cid_i[IdxW];
  assign f_own  = stamp_q[f_idx] == ptr_f_q[IdxW];
  assign fn_own = stamp_q[f_nidx] == f_nxt[IdxW];
  assign in_ew  = in_own ? ew_q[in_idx] : '0;
  assign r_ew   = ew_rd[EwRdR*EwW +: EwW];
  assign rn_ew  = ew_rd[EwRdRn*EwW +: EwW];
  assign c_ew   = ew_rd[EwRdC*EwW +: EwW];
  assign cn_ew  = ew_rd[EwRdCn*EwW +: EwW];
  assign p_ew   = ew_rd[EwRdP*EwW +: EwW];
  assign f_ew   = f_own ? ew_rd[EwRdF*EwW +: EwW] : '0;
  assign fn_ew  = fn_own ? ew_rd[EwRdFn*EwW +: EwW] : '0;

  // The flags each reader uses.
  logic in_started, in_filled, in_skip, in_fail, in_rd_has, in_wr_has, in_out_pass, in_out_fail;
  logic r_rd_has, r_wr_has, r_out_pass, rn_rd_has, rn_wr_has;
  logic c_rep_pass, c_wr_has, c_out_pass, c_out_fail, cn_rep_pass, cn_wr_has, cn_out_fail;
  logic p_skip, p_fail, p_rd_has;
  logic f_filled, f_skip, f_fail, f_rd_has, f_wr_has;
  logic fn_filled, fn_skip, fn_fail, fn_rd_has, fn_wr_has;

  assign in_started  = in_ew[EwStarted];
  assign in_filled   = in_ew[EwFilled];
  assign in_skip     = in_ew[EwSkip];
  assign in_fail     = in_ew[EwCapFail] || vfail_q[in_idx];
  assign in_rd_has   = in_ew[EwRdHas];
  assign in_wr_has   = in_ew[EwWrHas];
  assign in_out_pass = in_ew[EwOutPass];
  assign in_out_fail = in_ew[EwOutFail];
  assign r_rd_has    = r_ew[EwRdHas];
  assign r_wr_has    = r_ew[EwWrHas];
  assign r_out_pass  = r_ew[EwOutPass];
  assign rn_rd_has   = rn_ew[EwRdHas];
  assign rn_wr_has   = rn_ew[EwWrHas];
  assign c_rep_pass  = !c_ew[EwSkip] && !c_ew[EwCapFail] && !vfail_q[c_idx];
  assign c_wr_has    = c_ew[EwWrHas];
  assign c_out_pass  = c_ew[EwOutPass];
  assign c_out_fail  = c_ew[EwOutFail];
  assign cn_rep_pass = !cn_ew[EwSkip] && !cn_ew[EwCapFail] && !vfail_q[c_nidx];
  assign cn_wr_has   = cn_ew[EwWrHas];
  assign cn_out_fail = cn_ew[EwOutFail];
  assign p_skip      = p_ew[EwSkip];
  assign p_fail      = p_ew[EwCapFail] || vfail_q[p_idx];
  assign p_rd_has    = p_ew[EwRdHas];
  assign f_filled    = f_ew[EwFilled];
  assign f_skip      = f_ew[EwSkip];
  assign f_fail      = f_ew[EwCapFail] || vfail_q[f_idx];
  assign f_rd_has    = f_ew[EwRdHas];
  assign f_wr_has    = f_ew[EwWrHas];
  assign fn_filled   = fn_ew[EwFilled];
  assign fn_skip     = fn_ew[EwSkip];
  assign fn_fail     = fn_ew[EwCapFail] || vfail_q[f_nidx];
  assign fn_rd_has   = fn_ew[EwRdHas];
  assign fn_wr_has   = fn_ew[EwWrHas];

  // -----------------------------------------------------------------------------------------------
  // Validation tags: the lowest free one; pending validations of the pass pointer's entry
  // -----------------------------------------------------------------------------------------------
  logic            tag_free, p_pending;
  logic [TagW-1:0] tag_sel;

  always_comb begin
    tag_free = 1'b0;
    tag_sel  = '0;
    for (int t = ValTags - 1; t >= 0; t--) begin
      if (!tag_valid_q[t]) begin
        tag_free = 1'b1;
        tag_sel  = TagW'(t);
      end
    end
  end

  always_comb begin
    p_pending = 1'b0;
    for (int t = 0; t < ValTags; t++) begin
      if (tag_valid_q[t] && tag_idx_q[t] == p_idx) begin
        p_pending = 1'b1;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Retire pointer (its DoneCommit reply has priority on the reply port)
  // -----------------------------------------------------------------------------------------------
  // The finish test and the word buffer's read are kept off each other's path (the same cycles):
  // the commit writes of a finishing entry (r_wc) and their test against the acknowledgements
  // come from registers only, and the read of the next entry's first word is issued whenever
  // that entry is eligible, finished or not (an unused read while the walker waits: its output
  // is read only in RetWalk, which is entered only with the read of that cycle).
  logic            r_start, r_consume, r_finish, r_rep, r_kind_d, r_try_finish, r_need_ack;
  logic            r_ack_in, rn_go;
  logic [CntW-1:0] r_wc;      // the finishing entry's commit writes
  logic [SlotW-1:0] rn_head;

  assign r_wc     = r_wcount_q + CntW'(r_state_q == RetWalk && r_kind_q);
  assign r_ack_in = ack_pool_q >= r_wc;
  assign rn_go    = r_nxt != ptr_c_q && (rn_rd_has || rn_wr_has);
  assign rn_head  = rn_rd_has ? rn_rdh : rn_wrh;

  always_comb begin
    r_start      = 1'b0;
    r_consume    = 1'b0;
    r_rd_en      = 1'b0;
    r_raddr      = rn_head;
    r_kind_d     = r_kind_q;
    r_try_finish = 1'b0;
    r_state_d    = r_state_q;
    unique case (r_state_q)
      RetIdle: begin
        if (ptr_r_q != ptr_c_q) begin
          if (r_rd_has || r_wr_has) begin
            r_start   = 1'b1;
            r_rd_en   = 1'b1;
            r_kind_d  = !r_rd_has;
            r_raddr   = r_rd_has ? r_rdh : r_wrh;
            r_state_d = RetWalk;
          end else begin
            r_try_finish = 1'b1;
            r_rd_en      = rn_go;
          end
        end
      end
      RetWalk: begin
        r_consume = 1'b1;
        if (!r_last) begin
          r_rd_en = 1'b1;
          r_raddr = r_next;
        end else if (!r_kind_q && r_wr_has) begin
          r_rd_en  = 1'b1;
          r_kind_d = 1'b1;
          r_raddr  = r_wrh;
        end else begin
          // The last word: finish in this cycle when no acknowledgement is missing.
          r_try_finish = 1'b1;
          r_rd_en      = rn_go;
          r_state_d    = RetDone;
        end
      end
      default: begin
        r_try_finish = 1'b1;
        r_rd_en      = rn_go;
      end
    endcase
    // The core's Pass is legal only after this unit's Pass: out_pass implies rep_pass. An entry
    // that finishes from RetIdle has no words (r_wc is 0 there).
    r_need_ack = r_out_pass && r_wc != '0 && r_state_q != RetIdle;
    r_finish   = r_try_finish && (!r_need_ack || r_ack_in);
    r_rep      = r_finish && r_need_ack;
    if (r_finish) begin
      r_state_d = RetIdle;
      // Start the next entry's walk in the same cycle when it is already eligible.
      if (rn_go) begin
        r_start   = 1'b1;
        r_kind_d  = !rn_rd_has;
        r_state_d = RetWalk;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Commit pointer
  // -----------------------------------------------------------------------------------------------
  // c_rdy_q: the RAM copy's output holds the next write-set word of the entry at the pointer
  // (its head is fetched as soon as the entry is eligible, before the core's outcome arrives).
  logic            c_adv, c_valid, c_fire;

  always_comb begin
    c_adv   = 1'b0;
    c_valid = 1'b0;
    c_fire  = 1'b0;
    c_rd_en = 1'b0;
    c_raddr = '0;
    if (ptr_c_q != ptr_p_q) begin
      if (!c_rep_pass || c_out_fail) begin
        c_adv = 1'b1;
      end else if (!c_wr_has) begin
        c_adv = c_out_pass;
      end else if (!c_rdy_q) begin
        c_rd_en = 1'b1;
        c_raddr = c_wrh;
      end else if (c_out_pass) begin
        c_valid = 1'b1;
        c_fire  = cw_req_ready_i;
        if (c_fire) begin
          if (!c_last) begin
            c_rd_en = 1'b1;
            c_raddr = c_next;
          end else begin
            c_adv = 1'b1;
          end
        end
      end
    end
    // Fetch the next entry's head in the same cycle when it is already eligible.
    if (c_adv && c_nxt != ptr_p_q && cn_rep_pass && !cn_out_fail && cn_wr_has) begin
      c_rd_en = 1'b1;
      c_raddr = cn_wrh;
    end
  end

  assign cw_req_valid_o = c_valid;
  assign cw_req_addr_o  = c_addr;
  assign cw_req_data_o  = c_data;

  // -----------------------------------------------------------------------------------------------
  // Pass pointer
  // -----------------------------------------------------------------------------------------------
  logic            p_elig, p_adv, p_rep, p_rep_pass, p_start, p_end, p_clear_conflict;
  logic            p_conflict, p_conf_flag, p_cleared_q;
  logic [CidW-1:0] conf_dist;

  // The entry's conflict flag is valid for an entry with reads that were looked up (below); a
  // cleared conflict (the writer retired, revalidation started) is remembered until p moves on.
  assign p_conflict = p_conf_flag && p_rd_has && !p_cleared_q;

  // Not while a lookup of the entry is in flight (its conflict flag is not written yet).
  assign p_elig    = ptr_p_q != ptr_f_q && !(lk_valid_q && lk_idx_q == p_idx) &&
                     !(LwhPipe && hz_valid && hz_idx == p_idx);
  assign conf_dist = p_conf - ptr_r_q;

  always_comb begin
    p_adv            = 1'b0;
    p_rep            = 1'b0;
    p_rep_pass       = 1'b0;
    p_start          = 1'b0;
    p_clear_conflict = 1'b0;
    if (!p_active_q && p_elig) begin
      if (p_skip) begin
        p_adv = 1'b1;
      end else if (p_pending) begin
        // wait for the validations in flight
      end else if (p_fail) begin
        if (!r_rep) begin
          p_rep = 1'b1;
          p_adv = 1'b1;
        end
      end else if (p_conflict) begin
        if (64'(conf_dist) >= 64'(RingSize)) begin  // the writer has retired
          p_clear_conflict = 1'b1;
          p_start          = 1'b1;
        end
      end else if (!r_rep) begin
        p_rep      = 1'b1;
        p_rep_pass = 1'b1;
        p_adv      = 1'b1;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Intake and the validation request port (revalidation first)
  // -----------------------------------------------------------------------------------------------
  logic            in_win, in_open, legal, is_word, store_try, slot_avail, need_vr;
  logic            vr_fire, accept, store, from_fifo, in_rep_pass;
  logic [CidW-1:0] in_dist;
  logic [SlotW-1:0] slot;
  logic [IdxW-1:0] vr_idx;
  logic [DataW-1:0] vr_value;

  assign in_dist    = in_cid_i - ptr_r_q;
  assign in_win     = 64'(in_dist) < 64'(RingSize);
  assign in_open    = in_win && !in_filled && !in_skip;
  // This unit replied Pass: the cid is behind the pass pointer and neither skipped nor failed.
  assign in_rep_pass = 64'(in_dist) < 64'(CidW'(ptr_p_q - ptr_r_q)) && !in_skip && !in_fail;
  assign slot_avail = fresh_q < CntW'(BufWords) || ob_cnt_q != 2'd0;
  assign is_word    = in_type_i == MsgReadSet || in_type_i == MsgWriteSet;

  always_comb begin
    unique case (in_type_i)
      MsgAlloc:                           legal = 1'b1;
      MsgReadSet, MsgWriteSet, MsgDoneFill: legal = in_open;
      MsgSkip:                            legal = in_open && !in_started;
      MsgPass, MsgFail:                   legal = in_rep_pass && !in_out_pass && !in_out_fail;
      default:                            legal = 1'b0;
    endcase
  end

  assign store_try = legal && is_word && !in_fail;
  assign need_vr   = store_try && slot_avail && in_type_i == MsgReadSet;

  always_comb begin
    if (p_active_q) begin
      vr_req_valid_o = tag_free;
      vr_req_addr_o  = p_addr;
      vr_value       = p_data;
      vr_idx         = p_idx;
      in_ready_o     = !need_vr;
    end else begin
      vr_req_valid_o = in_valid_i && need_vr && tag_free;
      vr_req_addr_o  = in_addr_i;
      vr_value       = in_data_i;
      vr_idx         = in_idx;
      in_ready_o     = !need_vr || (tag_free && vr_req_ready_i);
    end
  end
  assign vr_req_tag_o = tag_sel;
  assign vr_fire      = vr_req_valid_o && vr_req_ready_i;

  always_comb begin
    p_rd_en = p_start;
    p_raddr = p_rdh;
    p_end   = 1'b0;
    if (p_active_q && vr_fire) begin
      if (!p_last) begin
        p_rd_en = 1'b1;
        p_raddr = p_next;
      end else begin
        p_end = 1'b1;
      end
    end
  end

  assign accept    = in_valid_i && in_ready_o;
  assign store     = accept && store_try && slot_avail;
  assign from_fifo = store && fresh_q >= CntW'(BufWords);
  assign slot      = (fresh_q < CntW'(BufWords)) ? SlotW'(fresh_q) : ob_q[0];

  assign buf_we    = store;
  assign buf_waddr = slot;
  assign buf_wdata = (in_type_i == MsgWriteSet)
                   ? {!in_wr_has, wr_head_q[in_idx], in_addr_i, in_data_i}
                   : {!in_rd_has, rd_head_q[in_idx], in_addr_i, in_data_i};

  assign rct_inc_valid_o = store;
  assign rct_inc_addr_o  = in_addr_i;
  assign rct_inc_write_o = in_type_i == MsgWriteSet;
  assign rct_dec_valid_o = r_consume;
  assign rct_dec_addr_o  = r_addr;
  assign rct_dec_write_o = r_kind_q;

  // -----------------------------------------------------------------------------------------------
  // Hazard detection pointer and the Last Writer History
  // -----------------------------------------------------------------------------------------------
  logic             f_adv, f_start, f_consume, f_lookup, f_kind_d, lwh_ready;
  logic             lwh_op_valid;
  logic [CidW-1:0]  f_dist;
  logic             lwh_res_valid, lwh_res_found, lwh_res_hit, lwh_ev_valid;
  logic [CidW-1:0]  lwh_res_cid, lwh_ev_cid;
  logic [AddrW-1:0] lwh_ev_addr;

  logic [CidW-1:0]  f_ndist;

  assign f_dist  = ptr_f_q - ptr_r_q;
  assign f_ndist = f_nxt - ptr_r_q;

  always_comb begin
    f_adv     = 1'b0;
    f_start   = 1'b0;
    f_consume = 1'b0;
    f_lookup  = 1'b0;
    f_rd_en   = 1'b0;
    f_raddr   = '0;
    f_kind_d  = f_kind_q;
    if (!f_active_q) begin
      if (64'(f_dist) < 64'(RingSize) && (f_filled || f_skip)) begin
        if (f_skip || f_fail || (!f_rd_has && !f_wr_has)) begin
          f_adv = 1'b1;
        end else begin
          f_start  = 1'b1;
          f_rd_en  = 1'b1;
          f_kind_d = !f_rd_has;
          f_raddr  = f_rd_has ? f_rdh : f_wrh;
        end
      end
    end else begin
      f_consume = lwh_ready;
      if (f_consume) begin
        f_lookup = !f_kind_q;
        if (!f_last) begin
          f_rd_en = 1'b1;
          f_raddr = f_next;
        end else if (!f_kind_q && f_wr_has) begin
          f_rd_en  = 1'b1;
          f_kind_d = 1'b1;
          f_raddr  = f_wrh;
        end else begin
          f_adv = 1'b1;
          // Chain: start the next entry's walk in the same cycle when it is ready.
          if (64'(f_ndist) < 64'(RingSize) && fn_filled && !fn_skip && !fn_fail &&
              (fn_rd_has || fn_wr_has)) begin
            f_start  = 1'b1;
            f_rd_en  = 1'b1;
            f_kind_d = !fn_rd_has;
            f_raddr  = fn_rd_has ? fn_rdh : fn_wrh;
          end
        end
      end
    end
  end

  assign lwh_op_valid = f_active_q;

  htm_lwh #(
    .AddrW        (AddrW),
    .CidW         (CidW),
    .Sets         (LwhSets),
    .Ways         (LwhWays),
    .BfHashes     (LwhBfHashes),
    .BfSlots      (LwhBfSlots),
    .ScrubInterval(LwhScrubInterval),
    .ResPipe      (LwhPipe)
  ) u_lwh (
    .clk_i,
    .rst_ni,
    .ready_o      (lwh_ready),
    .now_i        (ptr_f_q),
    .op_valid_i   (lwh_op_valid),
    .op_write_i   (f_kind_q),
    .op_addr_i    (f_addr),
    .op_cid_i     (ptr_f_q),
    .res_valid_o  (lwh_res_valid),
    .res_found_o  (lwh_res_found),
    .res_hit_o    (lwh_res_hit),
    .res_cid_o    (lwh_res_cid),
    .evict_valid_o(lwh_ev_valid),
    .evict_addr_o (lwh_ev_addr),
    .evict_cid_o  (lwh_ev_cid)
  );

  // The lookup stage: with LwhPipe its fields wait one cycle for the registered result (the
  // distance of the lookup's own cid from raf computed before).
  if (LwhPipe) begin : g_hz_pipe
    logic            hz_valid_q, hz_first_q;
    logic [IdxW-1:0] hz_idx_q;
    logic [CidW-1:0] hz_raf_q, hz_d_own_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        hz_valid_q <= 1'b0;
        hz_first_q <= 1'b0;
        hz_idx_q   <= '0;
        hz_raf_q   <= '0;
        hz_d_own_q <= '0;
      end else begin
        hz_valid_q <= lk_valid_q;
        if (lk_valid_q) begin
          hz_first_q <= lk_first_q;
          hz_idx_q   <= lk_idx_q;
          hz_raf_q   <= lk_raf;
          hz_d_own_q <= lk_own_q - lk_raf;
        end
      end
    end
    assign hz_valid = hz_valid_q;
    assign hz_first = hz_first_q;
    assign hz_idx   = hz_idx_q;
    assign hz_raf   = hz_raf_q;
    assign hz_d_own = hz_d_own_q;
  end else begin : g_hz_comb
    assign hz_valid = lk_valid_q;
    assign hz_first = lk_first_q;
    assign hz_idx   = lk_idx_q;
    assign hz_raf   = lk_raf;
    assign hz_d_own = lk_own_q - lk_raf;
  end

  // A lookup result flags the entry when its last writer is at or after retire-at-fill. The
  // entry's conflict flag and youngest conflicting writer so far are kept in cf_flag_q and
  // cf_cid_q (restarted with the first result of each walk) and written through to u_conf.
  logic            lk_conflict, lk_younger, cf_base, cf_flag_d, cf_flag_q;
  logic [CidW-1:0] lk_d_found, lk_d_old, cf_cid_d, cf_cid_q;

  assign cf_base     = cf_flag_q && !hz_first;
  assign lk_d_found  = lwh_res_cid - hz_raf;
  assign lk_d_old    = cf_cid_q - hz_raf;
  assign lk_conflict = hz_valid && lwh_res_valid && lwh_res_found && lk_d_found < hz_d_own;
  assign lk_younger  = !cf_base || lk_d_old < lk_d_found;
  assign cf_flag_d   = cf_base || lk_conflict;
  assign cf_cid_d    = (lk_conflict && lk_younger) ? lwh_res_cid : cf_cid_q;

  // -----------------------------------------------------------------------------------------------
  // Free list: keep the two-word output buffer of the RAM FIFO full
  // -----------------------------------------------------------------------------------------------
  logic             fl_pop, fl_push, fl_issue, fl_unused_valid;
  logic [SlotW-1:0] fl_rdata;
  logic [2:0]       ob_after;

  assign fl_pop   = from_fifo;
  assign fl_push  = r_consume;
  assign ob_after = 3'(ob_cnt_q) - 3'(fl_pop) + 3'(fl_inflight_q);
  assign fl_issue = fl_cnt_q != '0 && ob_after < 3'd2;

  htm_ram_1r1w #(.Width(SlotW), .Depth(BufWords)) u_free (
    .clk_i, .rst_ni, .wr_en_i(fl_push), .wr_addr_i(fl_w_q), .wr_data_i(r_slot_q),
    .rd_en_i(fl_issue), .rd_addr_i(fl_r_q), .rd_valid_o(fl_unused_valid), .rd_data_o(fl_rdata));

  // -----------------------------------------------------------------------------------------------
  // Acknowledgements
  // -----------------------------------------------------------------------------------------------
  logic ack_ok, ack_err, rsp_ok, rsp_err;

  assign ack_ok  = cw_ack_valid_i && cw_out_q != '0;
  assign ack_err = cw_ack_valid_i && cw_out_q == '0;
  assign rsp_ok  = vr_rsp_valid_i && 32'(vr_rsp_tag_i) < ValTags && tag_valid_q[vr_rsp_tag_i];
  assign rsp_err = vr_rsp_valid_i && !rsp_ok;

  // -----------------------------------------------------------------------------------------------
  // Per-entry state updates
  // -----------------------------------------------------------------------------------------------
  // The intake's entry word: the message's flags on top of the entry's word in this lap.
  assign ew_we = accept && legal && in_type_i != MsgAlloc;

  always_comb begin
    ew_wdata = in_ew;
    unique case (in_type_i)
      MsgReadSet, MsgWriteSet: ew_wdata[EwStarted] = 1'b1;
      MsgDoneFill: begin
        ew_wdata[EwStarted] = 1'b1;
        ew_wdata[EwFilled]  = 1'b1;
      end
      MsgSkip: ew_wdata[EwSkip] = 1'b1;
      MsgPass: ew_wdata[EwOutPass] = 1'b1;
      MsgFail: ew_wdata[EwOutFail] = 1'b1;
      default: ;
    endcase
    // A word is stored, or fails its entry for want of a slot, when it is accepted; the word is
    // written only then, so the acceptance itself stays off the data's path.
    if (store_try && !slot_avail) begin
      ew_wdata[EwCapFail] = 1'b1;  // word buffer full
    end
    if (store_try && slot_avail) begin
      if (in_type_i == MsgWriteSet) begin
        ew_wdata[EwWrHas] = 1'b1;
      end else begin
        ew_wdata[EwRdHas] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (ew_we) begin
      ew_q[in_idx] <= ew_wdata;
    end
  end

  // Validation failures: set by a mismatching response, cleared by the retire pointer.
  always_comb begin
    vfail_d = vfail_q;
    if (rsp_ok && vr_rsp_data_i != tag_val_q[vr_rsp_tag_i]) begin
      vfail_d[tag_idx_q[vr_rsp_tag_i]] = 1'b1;
    end
    if (r_finish) begin
      vfail_d[r_idx] = 1'b0;
    end
  end

  // Open entries (written in this lap and not retired), for busy_o.
  logic [OpenW-1:0] open_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stamp_q    <= '1;
      vfail_q    <= '0;
      ew_we_q    <= 1'b0;
      ew_widx_q  <= '0;
      ew_wdata_q <= '0;
      open_q     <= '0;
    end else begin
      if (ew_we) begin
        stamp_q[in_idx] <= in_cid_i[IdxW];
      end
      vfail_q <= vfail_d;
      ew_we_q <= ew_we;
      if (ew_we) begin
        ew_widx_q  <= in_idx;
        ew_wdata_q <= ew_wdata;
      end
      open_q <= open_q + OpenW'(ew_we && !in_own) - OpenW'(r_finish);
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Entry fields in block RAM (no reset; read only where their flags are set)
  // -----------------------------------------------------------------------------------------------
  // raf: the retire pointer at the entry's first message, read with each hazard lookup so that
  // the RAM output is the lookup's raf when its result arrives.
  logic raf_we, raf_unused_valid;
  assign raf_we = accept && legal && !in_started && (is_word || in_type_i == MsgDoneFill);
  htm_ram_1r1w #(.Width(CidW), .Depth(RingSize)) u_raf (
    .clk_i, .rst_ni, .wr_en_i(raf_we), .wr_addr_i(in_idx), .wr_data_i(ptr_r_q),
    .rd_en_i(f_lookup), .rd_addr_i(f_idx), .rd_valid_o(raf_unused_valid), .rd_data_o(lk_raf));

  // src: written at DoneFill; two copies read ahead for the pass and retire pointers (address =
  // the pointer's value in the next cycle). DoneFill precedes any reply by two cycles or more.
  logic            src_we, src_p_unused_valid, src_r_unused_valid;
  logic [IdxW-1:0] p_idx_next, r_idx_next;
  assign src_we     = accept && legal && in_type_i == MsgDoneFill;
  assign p_idx_next = p_adv ? IdxW'(ptr_p_q + CidW'(1)) : p_idx;
  assign r_idx_next = r_finish ? r_nidx : r_idx;
  htm_ram_1r1w #(.Width(SrcW), .Depth(RingSize)) u_src_p (
    .clk_i, .rst_ni, .wr_en_i(src_we), .wr_addr_i(in_idx), .wr_data_i(in_src_i),
    .rd_en_i(1'b1), .rd_addr_i(p_idx_next), .rd_valid_o(src_p_unused_valid), .rd_data_o(p_src));
  htm_ram_1r1w #(.Width(SrcW), .Depth(RingSize)) u_src_r (
    .clk_i, .rst_ni, .wr_en_i(src_we), .wr_addr_i(in_idx), .wr_data_i(in_src_i),
    .rd_en_i(1'b1), .rd_addr_i(r_idx_next), .rd_valid_o(src_r_unused_valid), .rd_data_o(r_src));

  // conflict and conf_cid: whether a read of the entry found an older unretired writer, and the
  // youngest such writer. Every lookup result writes the entry's running value, so the value of
  // an entry whose reads were looked up belongs to this lap; the pass pointer consults it only
  // for such entries (with reads, and not failed, hence walked). The pass pointer reads ahead,
  // bypassing last cycle's write.
  logic            conf_wr_q, conf_unused_valid, p_conf_ram_flag;
  logic [IdxW-1:0] conf_wr_idx_q;
  logic [CidW-1:0] p_conf_ram;
  htm_ram_1r1w #(.Width(CidW + 1), .Depth(RingSize)) u_conf (
    .clk_i, .rst_ni, .wr_en_i(hz_valid), .wr_addr_i(hz_idx),
    .wr_data_i({cf_flag_d, cf_cid_d}), .rd_en_i(1'b1), .rd_addr_i(p_idx_next),
    .rd_valid_o(conf_unused_valid), .rd_data_o({p_conf_ram_flag, p_conf_ram}));
  assign {p_conf_flag, p_conf} = (conf_wr_q && conf_wr_idx_q == p_idx)
                               ? {cf_flag_q, cf_cid_q} : {p_conf_ram_flag, p_conf_ram};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      conf_wr_q     <= 1'b0;
      conf_wr_idx_q <= '0;
      cf_flag_q     <= 1'b0;
      cf_cid_q      <= '0;
    end else begin
      conf_wr_q <= hz_valid;
      if (hz_valid) begin
        conf_wr_idx_q <= hz_idx;
        cf_flag_q     <= cf_flag_d;
        cf_cid_q      <= cf_cid_d;
      end
    end
  end

  // List heads. The intake read-modify-writes them at in_idx within a cycle: its copy is in
  // flip-flops without reset (LUT RAM on ECP5). Every walker reads the heads of its pointer's
  // entry and of the next one from block-RAM copies written together with the intake's copy.
  // Each copy is read ahead (address = that index's value in the next cycle), so the walkers see
  // exactly the intake copy's contents (see below for why no write bypass is needed).
  logic hd_rd_we, hd_wr_we;
  assign hd_rd_we = store && in_type_i == MsgReadSet;
  assign hd_wr_we = store && in_type_i == MsgWriteSet;

  always_ff @(posedge clk_i) begin
    if (hd_wr_we) begin
      wr_head_q[in_idx] <= slot;
    end
    if (hd_rd_we) begin
      rd_head_q[in_idx] <= slot;
    end
  end

  // Read copies: read-list heads at r, r+1, p, f, f+1; write-list heads at r, r+1, c, c+1, f,
  // f+1. Each reads at the address its index will have in the next cycle. No bypass of the
  // intake's write is needed: a head is written only while its entry is open (HeadOpen_A), the
  // walkers read only heads of filled entries (f walks filled entries, p <= f, c <= p, r <= c),
  // and an entry is filled by its DoneFill message, which takes an intake cycle of its own after
  // the entry's last word. So a walker's first use of a head is at least two cycles after it was
  // written, and the read issued one cycle before that use already sees it.
  logic [IdxW-1:0]  c_idx_next, f_idx_next, r_nidx_next, c_nidx_next, f_nidx_next;
  logic [10:0]      hd_unused_valid;

  assign c_idx_next  = c_adv ? c_nidx : c_idx;
  assign f_idx_next  = f_adv ? f_nidx : f_idx;
  assign r_nidx_next = r_idx_next + IdxW'(1);
  assign c_nidx_next = c_idx_next + IdxW'(1);
  assign f_nidx_next = f_idx_next + IdxW'(1);
  assign ew_rd_addr  = {f_nidx_next, f_idx_next, p_idx_next, c_nidx_next, c_idx_next,
                        r_nidx_next, r_idx_next};

  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_rdh_r (
    .clk_i, .rst_ni, .wr_en_i(hd_rd_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(r_idx_next), .rd_valid_o(hd_unused_valid[0]), .rd_data_o(r_rdh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_rdh_rn (
    .clk_i, .rst_ni, .wr_en_i(hd_rd_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(r_nidx_next), .rd_valid_o(hd_unused_valid[1]), .rd_data_o(rn_rdh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_rdh_p (
    .clk_i, .rst_ni, .wr_en_i(hd_rd_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(p_idx_next), .rd_valid_o(hd_unused_valid[2]), .rd_data_o(p_rdh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_rdh_f (
    .clk_i, .rst_ni, .wr_en_i(hd_rd_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(f_idx_next), .rd_valid_o(hd_unused_valid[3]), .rd_data_o(f_rdh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_rdh_fn (
    .clk_i, .rst_ni, .wr_en_i(hd_rd_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(f_nidx_next), .rd_valid_o(hd_unused_valid[4]), .rd_data_o(fn_rdh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_wrh_r (
    .clk_i, .rst_ni, .wr_en_i(hd_wr_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(r_idx_next), .rd_valid_o(hd_unused_valid[5]), .rd_data_o(r_wrh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_wrh_rn (
    .clk_i, .rst_ni, .wr_en_i(hd_wr_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(r_nidx_next), .rd_valid_o(hd_unused_valid[6]), .rd_data_o(rn_wrh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_wrh_c (
    .clk_i, .rst_ni, .wr_en_i(hd_wr_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(c_idx_next), .rd_valid_o(hd_unused_valid[7]), .rd_data_o(c_wrh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_wrh_cn (
    .clk_i, .rst_ni, .wr_en_i(hd_wr_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(c_nidx_next), .rd_valid_o(hd_unused_valid[8]), .rd_data_o(cn_wrh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_wrh_f (
    .clk_i, .rst_ni, .wr_en_i(hd_wr_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(f_idx_next), .rd_valid_o(hd_unused_valid[9]), .rd_data_o(f_wrh));
  htm_ram_1r1w #(.Width(SlotW), .Depth(RingSize)) u_wrh_fn (
    .clk_i, .rst_ni, .wr_en_i(hd_wr_we), .wr_addr_i(in_idx), .wr_data_i(slot), .rd_en_i(1'b1),
    .rd_addr_i(f_nidx_next), .rd_valid_o(hd_unused_valid[10]), .rd_data_o(fn_wrh));


  // -----------------------------------------------------------------------------------------------
  // Pointers, walkers, tags, free list, counters
  // -----------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_r_q       <= '0;
      ptr_c_q       <= '0;
      ptr_p_q       <= '0;
      ptr_f_q       <= '0;
      f_active_q    <= 1'b0;
      f_kind_q      <= 1'b0;
      p_active_q    <= 1'b0;
      c_rdy_q    <= 1'b0;
      r_kind_q      <= 1'b0;
      r_slot_q      <= '0;
      r_state_q     <= RetIdle;
      r_wcount_q    <= '0;
      lk_valid_q    <= 1'b0;
      lk_first_q    <= 1'b0;
      f_looked_q    <= 1'b0;
      p_cleared_q   <= 1'b0;
      lk_idx_q      <= '0;
      lk_own_q      <= '0;
      tag_valid_q   <= '0;
      fresh_q       <= '0;
      fl_w_q        <= '0;
      fl_r_q        <= '0;
      fl_cnt_q      <= '0;
      fl_inflight_q <= 1'b0;
      ob_q[0]       <= '0;
      ob_q[1]       <= '0;
      ob_cnt_q      <= '0;
      cw_out_q      <= '0;
      ack_pool_q    <= '0;
      arep_valid_q  <= 1'b0;
      arep_pass_q   <= 1'b0;
      arep_cid_q    <= '0;
      arep_src_q    <= '0;
      err_q         <= 1'b0;
    end else begin
      // hazard detection
      lk_valid_q <= f_lookup;
      if (f_lookup) begin
        lk_idx_q   <= f_idx;
        lk_own_q   <= ptr_f_q;
        lk_first_q <= !f_looked_q;
      end
      if (f_start) begin
        f_looked_q <= 1'b0;  // a new walk (wins over the chained entry's last lookup)
      end else if (f_lookup) begin
        f_looked_q <= 1'b1;
      end
      if (f_start || f_consume) begin
        f_kind_q <= f_kind_d;
      end
      if (f_adv) begin
        f_active_q <= 1'b0;
        ptr_f_q    <= f_nxt;
      end
      if (f_start) begin
        f_active_q <= 1'b1;  // wins over f_adv: the next entry's walk starts (chain)
      end
      // validation tags
      if (rsp_ok) begin
        tag_valid_q[vr_rsp_tag_i] <= 1'b0;
      end
      if (vr_fire) begin
        tag_valid_q[tag_sel] <= 1'b1;
      end
      // alloc replies and errors
      arep_valid_q <= accept && in_type_i == MsgAlloc;
      if (accept && in_type_i == MsgAlloc) begin
        arep_pass_q <= in_win;
        arep_cid_q  <= in_cid_i;
        arep_src_q  <= in_src_i;
      end
      if ((accept && !legal) || ack_err || rsp_err) begin
        err_q <= 1'b1;
      end
      // free list
      unique case ({fl_pop, fl_inflight_q})
        2'b10: begin
          ob_q[0]  <= ob_q[1];
          ob_cnt_q <= ob_cnt_q - 2'd1;
        end
        2'b01: begin
          ob_q[ob_cnt_q[0]] <= fl_rdata;
          ob_cnt_q          <= ob_cnt_q + 2'd1;
        end
        2'b11: begin
          if (ob_cnt_q == 2'd2) begin
            ob_q[0] <= ob_q[1];
            ob_q[1] <= fl_rdata;
          end else begin
            ob_q[0] <= fl_rdata;
          end
        end
        default: ;
      endcase
      fl_inflight_q <= fl_issue;
      if (fl_issue) begin
        fl_r_q <= (32'(fl_r_q) == BufWords - 1) ? '0 : fl_r_q + SlotW'(1);
      end
      if (fl_push) begin
        fl_w_q <= (32'(fl_w_q) == BufWords - 1) ? '0 : fl_w_q + SlotW'(1);
      end
      fl_cnt_q <= fl_cnt_q + CntW'(fl_push) - CntW'(fl_issue);
      if (store && !from_fifo) begin
        fresh_q <= fresh_q + CntW'(1);
      end
      // pass
      if (p_start) begin
        p_active_q <= 1'b1;
      end
      if (p_end) begin
        p_active_q <= 1'b0;
      end
      if (p_adv) begin
        ptr_p_q     <= ptr_p_q + CidW'(1);
        p_cleared_q <= 1'b0;
      end
      if (p_clear_conflict) begin
        p_cleared_q <= 1'b1;
      end
      // commit
      c_rdy_q <= c_rd_en || (c_rdy_q && !c_adv);
      if (c_adv) begin
        ptr_c_q <= c_nxt;
      end
      cw_out_q   <= cw_out_q + CntW'(c_fire) - CntW'(ack_ok);
      ack_pool_q <= ack_pool_q + CntW'(ack_ok) - (r_rep ? r_wc : '0);
      // retire
      if (r_rd_en) begin
        r_slot_q <= r_raddr;
      end
      if (r_start) begin
        r_wcount_q <= '0;
      end else if (r_consume && r_kind_q) begin
        r_wcount_q <= r_wcount_q + CntW'(1);
      end
      if (r_start || r_consume) begin
        r_kind_q <= r_kind_d;
      end
      if (r_finish) begin
        ptr_r_q <= r_nxt;
      end
      r_state_q <= r_state_d;
    end
  end

  // Tag table payloads: no reset, read only while tag_valid_q is set. The lowest free tag takes
  // the payload of this cycle's request whether or not the request is sent (a tag not taken
  // stays free and is written again), so the intake's decision does not reach these registers.
  always_ff @(posedge clk_i) begin
    if (tag_free) begin
      tag_idx_q[tag_sel] <= vr_idx;
      tag_val_q[tag_sel] <= vr_value;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  assign arep_valid_o = arep_valid_q;
  assign arep_pass_o  = arep_pass_q;
  assign arep_cid_o   = arep_cid_q;
  assign arep_src_o   = arep_src_q;

  always_comb begin
    rep_valid_o = r_rep || p_rep;
    if (r_rep) begin
      rep_type_o = 3'(htm_pkg::CuRepDoneCommit);
      rep_cid_o  = ptr_r_q;
      rep_src_o  = r_src;
    end else begin
      rep_type_o = p_rep_pass ? 3'(htm_pkg::CuRepPass) : 3'(htm_pkg::CuRepFail);
      rep_cid_o  = ptr_p_q;
      rep_src_o  = p_src;
    end
  end
  // A Fail of the pass pointer whose entry found the word buffer full (it may also have failed
  // validation): the core counts a capacity abort.
  assign rep_cap_o = !r_rep && p_rep && !p_rep_pass && p_ew[EwCapFail];

  assign ptr_retire_o = ptr_r_q;
  assign ptr_commit_o = ptr_c_q;
  assign ptr_pass_o   = ptr_p_q;
  assign ptr_fcd_o    = ptr_f_q;
  assign busy_o       = open_q != '0 || (|tag_valid_q) || cw_out_q != '0;
  assign sweep_o      = !lwh_ready;
  assign err_o        = err_q;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // Pointer order: retire <= commit <= pass <= fcd <= retire + RingSize (serially).
  `HTM_ASSERT(PtrCommit_A, 64'(CidW'(ptr_c_q - ptr_r_q)) <= 64'(CidW'(ptr_p_q - ptr_r_q)))
  `HTM_ASSERT(PtrPass_A, 64'(CidW'(ptr_p_q - ptr_r_q)) <= 64'(f_dist))
  `HTM_ASSERT(PtrFcd_A, 64'(f_dist) <= 64'(RingSize))
  // A commit write only for an entry whose core sent Pass after this unit replied Pass.
  `HTM_ASSERT(CommitOnPass_A, `HTM_IMPLIES(cw_req_valid_o, c_rep_pass && c_out_pass))
  // The free list never holds more than the buffer.
  `HTM_ASSERT(FreeCount_A, 64'(fl_cnt_q) + 64'(ob_cnt_q) + 64'(fl_inflight_q) +
                           64'(BufWords) - 64'(fresh_q) <= 64'(BufWords))
  `HTM_ASSERT(RevalHasReads_A, `HTM_IMPLIES(p_start, p_rd_has))
  // List heads are written only for open entries; the walkers' head reads rely on it.
  `HTM_ASSERT(HeadOpen_A, `HTM_IMPLIES(hd_rd_we || hd_wr_we,
                                       !in_filled && !in_skip))

  logic unused_sig;
  assign unused_sig = ^{buf_unused_valid, f_unused_data, r_unused_data, lwh_res_hit,
                        lwh_ev_valid, lwh_ev_addr, lwh_ev_cid, fl_unused_valid, raf_unused_valid,
                        src_p_unused_valid, src_r_unused_valid, conf_unused_valid,
                        hd_unused_valid, ew_unused_valid};

endmodule
