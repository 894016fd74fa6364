// SPDX-License-Identifier: Apache-2.0
//
// htm_lds_tm: GPU-LocalTM's local data share of one work-group (thesis 5.2, paper 3): NumBanks
// htm_lds_bank banks (word-interleaved: word a in bank a % NumBanks, at a / NumBanks), one
// htm_lds_wf_ctrl per wavefront and the htm_lds_wgs_arb arbiter, behind one wavefront
// instruction port.
//
// Instructions (htm_pkg::lds_ins_e), at most one accepted per cycle:
//   Load, Store      one word per running work-item (EXEC & ~TCM at acceptance; inside a try
//                    only the try's work-items), transactional while the wavefront is in a try
//   AtomAdd, AtomCas non-transactional read-modify-write per running work-item (outside tries)
//   ExecWrite, TxBegin, TxCommit  to the wavefront's control; TxBegin and TxCommit wait until
//                    the wavefront has no memory instruction and no abort in flight
// A memory instruction goes to the issue slot and takes a response buffer (NumBuf of them, a
// ring). Each cycle every bank takes the lowest pending lane of the slot that maps to it (bank
// conflicts serialize; a non-transactional load answers every lane that reads the same word, a
// broadcast), as soon as the bank is ready; the slot takes the next instruction in the cycle its
// last lanes issue. An atomic holds its bank: read, then (the cycle after the read's
// response) the write of the new value. Responses return in order, one cycle after the last
// bank answered (rsp_*: lanes that accessed, lanes that conflicted, data: the value read, or
// the old value of a store or atomic). Instructions with a bad wavefront or op, lanes with an
// address outside the LDS, atomics and widened EXEC inside a try set the sticky err_o and do
// not access the LDS.
//
// Aborts: TCM bits a wavefront's control set at an edge while in a try (conflicts answered by
// any bank, or an abort by another wavefront's WgS) are broadcast to every bank (abt_*), one
// wavefront per cycle; while any waits, no bank request is issued, so every bank restores and
// clears an aborted work-item's records before it serves a later access. The pending lanes of
// an aborted work-item are dropped. Commits (cmt_*) go to every bank in the cycle after
// TX_Commit. See docs/htm_lds_tm.md.
`include "htm_assert.svh"

module htm_lds_tm #(
  // Configurations set these enum-typed parameters with numbers (-G), which is legal.
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::lds_cd_e  Mode      = htm_pkg::LdsCdDcdPrwSwo,
  parameter htm_pkg::lds_sel_e Sel       = htm_pkg::LdsSelSingleAsc,
  /* verilator lint_on ENUMVALUE */
  parameter int unsigned       NumBanks  = 32,   // a power of two, 1..32
  parameter int unsigned       BankWords = 128,  // user words per bank (htm_lds_bank)
  parameter int unsigned       WgSize    = 256,  // work-items of the work-group
  parameter int unsigned       WfSize    = 64,   // work-items per wavefront, a power of two
  parameter int unsigned       MaxDepth  = 15,   // nested TX_Begin levels
  parameter int unsigned       NumBuf    = 2,    // memory instructions in flight, 1..4
  // Derived, do not set.
  localparam int unsigned      NumWf     = WgSize / WfSize,
  localparam int unsigned      Words     = NumBanks * BankWords,
  localparam int unsigned      AddrW     = htm_pkg::idx_width(Words),
  localparam int unsigned      WfW       = htm_pkg::idx_width(NumWf)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // wavefront instructions
  input  logic                     ins_valid_i,
  output logic                     ins_ready_o,
  input  logic [2:0]               ins_op_i,     // htm_pkg::lds_ins_e
  input  logic [WfW-1:0]           ins_wf_i,
  input  logic [WfSize-1:0]        ins_exec_i,   // ExecWrite: the new EXEC
  input  logic [WfSize*AddrW-1:0]  ins_addr_i,   // lane l at [l*AddrW +: AddrW]: a word address
  input  logic [WfSize*32-1:0]     ins_data_i,   // store value, atomic operand
  input  logic [WfSize*32-1:0]     ins_cmp_i,    // AtomCas: the compare value
  // responses of memory instructions, in order
  output logic                     rsp_valid_o,
  output logic [WfW-1:0]           rsp_wf_o,
  output logic [WfSize-1:0]        rsp_lanes_o,  // the lanes that accessed the LDS
  output logic [WfSize-1:0]        rsp_conf_o,   // the lanes whose access conflicted
  output logic [WfSize*32-1:0]     rsp_data_o,
  // the wavefronts' transaction state
  output logic [NumWf*WfSize-1:0]  wf_exec_o,
  output logic [NumWf*WfSize-1:0]  wf_tcm_o,
  output logic [NumWf*2-1:0]       wf_mode_o,    // htm_pkg::lds_mode_e
  output logic [NumWf-1:0]         wf_in_try_o,
  output logic [NumWf-1:0]         wf_retry_o,
  output logic [NumWf-1:0]         wf_busy_o,    // memory instructions or aborts in flight
  output logic [NumWf-1:0]         wgs_grant_o,
  // the broadcasts to the banks
  output logic                     abt_valid_o,
  output logic [WfW-1:0]           abt_wf_o,
  output logic [WfSize-1:0]        abt_mask_o,
  output logic                     cmt_valid_o,
  output logic [WfW-1:0]           cmt_wf_o,
  output logic [WfSize-1:0]        cmt_mask_o,
  output logic                     busy_o,
  output logic                     err_o         // sticky: a protocol violation or bad input
);

  `HTM_ASSERT_INIT(NumBanksRange_A, NumBanks >= 1 && NumBanks <= 32 && htm_pkg::is_pow2(NumBanks))
  `HTM_ASSERT_INIT(NumWfRange_A, NumWf >= 1 && NumWf <= 16)
  `HTM_ASSERT_INIT(NumBufRange_A, NumBuf >= 1 && NumBuf <= 4)

  localparam int unsigned WiW   = htm_pkg::idx_width(WgSize);
  localparam int unsigned LaneW = htm_pkg::idx_width(WfSize);
  localparam int unsigned BufW  = htm_pkg::idx_width(NumBuf);
  localparam int unsigned CntW  = $clog2(NumBuf + 1);
  localparam int unsigned BDepth = 2 * BankWords + BankWords / 4;
  localparam int unsigned BAW   = htm_pkg::idx_width(BDepth);

  localparam logic [2:0] InsStore     = 3'(htm_pkg::LdsInsStore);
  localparam logic [2:0] InsAtomAdd   = 3'(htm_pkg::LdsInsAtomAdd);
  localparam logic [2:0] InsAtomCas   = 3'(htm_pkg::LdsInsAtomCas);
  localparam logic [2:0] InsExecWrite = 3'(htm_pkg::LdsInsExecWrite);
  localparam logic [2:0] InsTxBegin   = 3'(htm_pkg::LdsInsTxBegin);
  localparam logic [2:0] InsTxCommit  = 3'(htm_pkg::LdsInsTxCommit);

  // A bank's atomic in progress, and the kind of its outstanding access.
  localparam logic [1:0] AtIdle = 2'd0, AtReadOut = 2'd1, AtWritePend = 2'd2;
  localparam logic [1:0] ObNormal = 2'd0, ObAtomRead = 2'd1, ObAtomWrite = 2'd2;

  // -----------------------------------------------------------------------------------------------
  // Wavefront control and the WgS arbiter
  // -----------------------------------------------------------------------------------------------
  logic [1:0]              wf_op;
  logic [NumWf-1:0]        wf_op_valid, wf_op_ready, wf_wgs_req, wf_in_try, wf_retry;
  logic [NumWf-1:0]        wf_cmt_valid, wf_err, wf_prev_valid, wf_abort;
  logic [NumWf-1:0]        arb_grant, arb_other;
  logic [NumWf*WfSize-1:0] wf_exec, wf_tcm, wf_run, wf_part, wf_cmt_mask, wf_mcm, wf_prev;
  logic [NumWf*WfSize-1:0] wf_conf, wf_conf_lower, wf_conf_self;
  logic [NumWf*2-1:0]      wf_mode;

  assign wf_op = ins_op_i == InsTxBegin  ? 2'(htm_pkg::LdsOpTxBegin) :
                 ins_op_i == InsTxCommit ? 2'(htm_pkg::LdsOpTxCommit) :
                                           2'(htm_pkg::LdsOpExecWrite);

  for (genvar v = 0; v < NumWf; v++) begin : gen_wf
    htm_lds_wf_ctrl #(
      .WfSize  (WfSize),
      .Sel     (Sel),
      .MaxDepth(MaxDepth)
    ) u_wf (
      .clk_i,
      .rst_ni,
      .op_valid_i  (wf_op_valid[v]),
      .op_ready_o  (wf_op_ready[v]),
      .op_i        (wf_op),
      .op_exec_i   (ins_exec_i),
      .conf_i      (wf_conf[v*WfSize +: WfSize]),
      .conf_lower_i(wf_conf_lower[v*WfSize +: WfSize]),
      .conf_self_i (wf_conf_self[v*WfSize +: WfSize]),
      .wgs_req_o   (wf_wgs_req[v]),
      .wgs_grant_i (arb_grant[v]),
      .wgs_other_i (arb_other[v]),
      .exec_o      (wf_exec[v*WfSize +: WfSize]),
      .tcm_o       (wf_tcm[v*WfSize +: WfSize]),
      .run_o       (wf_run[v*WfSize +: WfSize]),
      .mcm_o       (wf_mcm[v*WfSize +: WfSize]),
      .prev_o      (wf_prev[v*WfSize +: WfSize]),
      .prev_valid_o(wf_prev_valid[v]),
      .mode_o      (wf_mode[v*2 +: 2]),
      .in_try_o    (wf_in_try[v]),
      .part_o      (wf_part[v*WfSize +: WfSize]),
      .retry_o     (wf_retry[v]),
      .cmt_valid_o (wf_cmt_valid[v]),
      .cmt_mask_o  (wf_cmt_mask[v*WfSize +: WfSize]),
      .abort_o     (wf_abort[v]),
      .err_o       (wf_err[v])
    );
  end

  htm_lds_wgs_arb #(.NumWf(NumWf)) u_arb (
    .clk_i,
    .rst_ni,
    .req_i  (wf_wgs_req),
    .grant_o(arb_grant),
    .other_o(arb_other)
  );

  // -----------------------------------------------------------------------------------------------
  // State of the top
  // -----------------------------------------------------------------------------------------------
  // The issue slot: the memory instruction whose lanes are being issued to the banks.
  logic                    slot_v_q, slot_v_d, slot_tx_q, slot_tx_d;
  logic [WfW-1:0]          slot_wf_q, slot_wf_d;
  logic [2:0]              slot_op_q, slot_op_d;
  logic [BufW-1:0]         slot_buf_q, slot_buf_d;
  logic [WfSize-1:0]       slot_pend_q, slot_pend_d;
  logic [WfSize*AddrW-1:0] slot_addr_q, slot_addr_d;
  logic [WfSize*32-1:0]    slot_data_q, slot_data_d, slot_cmp_q, slot_cmp_d;
  // Per bank: the outstanding access's buffer and kind, the atomic in progress.
  logic [NumBanks*BufW-1:0]  ob_buf_q, ob_buf_d;
  logic [NumBanks*WfSize-1:0] ob_lanes_q, ob_lanes_d;  // the lanes the access answers
  logic [NumBanks*2-1:0]     ob_kind_q, ob_kind_d, at_q, at_d;
  logic [NumBanks*LaneW-1:0] at_lane_q, at_lane_d;
  logic [NumBanks*32-1:0]    at_wdata_q, at_wdata_d;
  // The response buffers, a ring.
  logic [NumBuf-1:0]           bf_v_q, bf_v_d;
  logic [NumBuf*WfW-1:0]       bf_wf_q, bf_wf_d;
  logic [NumBuf*WfSize-1:0]    bf_lanes_q, bf_lanes_d, bf_out_q, bf_out_d, bf_conf_q, bf_conf_d;
  logic [NumBuf*WfSize*32-1:0] bf_data_q, bf_data_d;
  logic [BufW-1:0]             hd_q, hd_d, tl_q, tl_d;
  logic [CntW-1:0]             cnt_q, cnt_d;
  // Aborts waiting for the broadcast; each wavefront's TCM and try state in the cycle before.
  logic [NumWf*WfSize-1:0]     pa_q, pa_d, tcm_q;
  logic [NumWf-1:0]            in_try_q;
  logic                        err_q, err_d;

  // -----------------------------------------------------------------------------------------------
  // Aborts and commits to the banks
  // -----------------------------------------------------------------------------------------------
  logic [NumWf*WfSize-1:0] abt_all;
  logic [NumWf-1:0]        abt_any;
  logic                    stall;
  logic [WfW-1:0]          abt_wf;
  logic                    cmt_any;
  logic [WfW-1:0]          cmt_wf;
  logic [WfSize-1:0]       abt_mask, cmt_mask;
  logic [NumWf-1:0]        live_tx;  // in a try that is not a WgS try
  logic                    shr_clr;  // SMDCD: no reader can depend on a shared-read remnant

  always_comb begin
    for (int v = 0; v < NumWf; v++) begin
      live_tx[v] = wf_in_try[v] && wf_mode[v*2 +: 2] != 2'(htm_pkg::LdsModeWgS);
      abt_all[v*WfSize +: WfSize] = pa_q[v*WfSize +: WfSize] |
          (in_try_q[v] ? wf_tcm[v*WfSize +: WfSize] & ~tcm_q[v*WfSize +: WfSize] : '0);
      abt_any[v] = abt_all[v*WfSize +: WfSize] != '0;
    end
    abt_wf = '0;
    for (int v = NumWf - 1; v >= 0; v--) begin
      if (abt_any[v]) begin
        abt_wf = WfW'(v);
      end
    end
    cmt_wf = '0;
    for (int v = 0; v < NumWf; v++) begin
      if (wf_cmt_valid[v]) begin
        cmt_wf = WfW'(v);
      end
    end
  end

  assign shr_clr  = live_tx == '0;
  assign stall    = abt_any != '0;
  assign cmt_any  = wf_cmt_valid != '0;
  assign abt_mask = abt_all[32'(abt_wf)*WfSize +: WfSize];
  assign cmt_mask = wf_cmt_mask[32'(cmt_wf)*WfSize +: WfSize];

  // -----------------------------------------------------------------------------------------------
  // Banks
  // -----------------------------------------------------------------------------------------------
  logic [NumBanks-1:0]       bk_req_valid, bk_req_tx, bk_req_we, bk_ready;
  logic [NumBanks*WiW-1:0]   bk_req_wi, bk_rsp_wi;
  logic [NumBanks*BAW-1:0]   bk_req_addr;
  logic [NumBanks*32-1:0]    bk_req_data, bk_rsp_data;
  logic [NumBanks-1:0]       bk_rsp_valid, bk_rsp_conflict, bk_rsp_lower, bk_rsp_self;
  logic [NumBanks-1:0]       bk_busy, bk_err;
  logic [NumBanks*2-1:0]     bk_rsp_shadow;

  for (genvar b = 0; b < NumBanks; b++) begin : gen_bank
    htm_lds_bank #(
      .Mode     (Mode),
      .BankWords(BankWords),
      .WgSize   (WgSize),
      .WfSize   (WfSize)
    ) u_bank (
      .clk_i,
      .rst_ni,
      .req_valid_i   (bk_req_valid[b]),
      .req_ready_o   (bk_ready[b]),
      .req_tx_i      (bk_req_tx[b]),
      .req_we_i      (bk_req_we[b]),
      .req_wi_i      (bk_req_wi[b*WiW +: WiW]),
      .req_addr_i    (bk_req_addr[b*BAW +: BAW]),
      .req_data_i    (bk_req_data[b*32 +: 32]),
      .rsp_valid_o   (bk_rsp_valid[b]),
      .rsp_wi_o      (bk_rsp_wi[b*WiW +: WiW]),
      .rsp_data_o    (bk_rsp_data[b*32 +: 32]),
      .rsp_conflict_o(bk_rsp_conflict[b]),
      .rsp_lower_o   (bk_rsp_lower[b]),
      .rsp_self_o    (bk_rsp_self[b]),
      .rsp_shadow_o  (bk_rsp_shadow[b*2 +: 2]),
      .abt_valid_i   (stall),
      .abt_wf_i      (abt_wf),
      .abt_mask_i    (abt_mask),
      .cmt_valid_i   (cmt_any),
      .cmt_wf_i      (cmt_wf),
      .cmt_mask_i    (cmt_mask),
      .shr_clr_i     (shr_clr),
      .busy_o        (bk_busy[b]),
      .err_o         (bk_err[b])
    );
  end

  // -----------------------------------------------------------------------------------------------
  // Conflicts answered this cycle, to the wavefronts in a try
  // -----------------------------------------------------------------------------------------------
  logic [WgSize-1:0]          conf_all, lower_all, self_all;
  logic [NumBanks*WgSize-1:0] conf_dec;  // per bank: its answering work-item, if a conflict

  // Each bank's conflicting work-item, decoded; then ORed over the banks.
  for (genvar b = 0; b < NumBanks; b++) begin : gen_conf
    assign conf_dec[b*WgSize +: WgSize] = (bk_rsp_valid[b] && bk_rsp_conflict[b]) ?
        WgSize'(1) << bk_rsp_wi[b*WiW +: WiW] : '0;
  end
  always_comb begin
    conf_all  = '0;
    lower_all = '0;
    self_all  = '0;
    for (int b = 0; b < NumBanks; b++) begin
      conf_all  = conf_all | conf_dec[b*WgSize +: WgSize];
      lower_all = lower_all | (conf_dec[b*WgSize +: WgSize] & {WgSize{bk_rsp_lower[b]}});
      self_all  = self_all | (conf_dec[b*WgSize +: WgSize] & {WgSize{bk_rsp_self[b]}});
    end
  end
  for (genvar v = 0; v < NumWf; v++) begin : gen_conf_wf
    logic [WfSize-1:0] live;
    assign live                              = {WfSize{wf_in_try[v]}};
    assign wf_conf[v*WfSize +: WfSize]       = conf_all[v*WfSize +: WfSize] & live;
    assign wf_conf_lower[v*WfSize +: WfSize] = lower_all[v*WfSize +: WfSize] & live;
    assign wf_conf_self[v*WfSize +: WfSize]  = self_all[v*WfSize +: WfSize] & live;
  end

  // -----------------------------------------------------------------------------------------------
  // Issue: per bank, the lowest pending lane of the slot that maps to it
  // -----------------------------------------------------------------------------------------------
  logic                  slot_atom;
  logic [WfSize-1:0]     drop, elig, issued_final, first_issue, pend_next;
  logic [NumBanks-1:0]   cand_v, bk_wr, bk_acc;
  logic [NumBanks*LaneW-1:0] cand_lane, bk_lane;
  logic [NumBanks*WfSize-1:0] bk_lanes;  // the lanes each bank's request answers
  logic                  bcast;           // non-transactional loads answer same-word lanes

  assign slot_atom = slot_op_q == InsAtomAdd || slot_op_q == InsAtomCas;
  assign drop      = (slot_v_q && slot_tx_q) ? slot_pend_q & wf_tcm[32'(slot_wf_q)*WfSize +: WfSize]
                                             : '0;
  assign elig      = slot_pend_q & ~drop;
  assign bcast     = slot_op_q == 3'(htm_pkg::LdsInsLoad) && !slot_tx_q;

  for (genvar b = 0; b < NumBanks; b++) begin : gen_issue
    logic [WfSize-1:0] match, lowest, same;
    logic [LaneW-1:0]  lane;
    logic [AddrW-1:0]  lane_addr;
    always_comb begin
      for (int l = 0; l < WfSize; l++) begin
        match[l] = elig[l] && 32'(slot_addr_q[l*AddrW +: AddrW]) % NumBanks == b;
        same[l]  = elig[l] && slot_addr_q[l*AddrW +: AddrW] == lane_addr;
      end
    end
    // The lowest matching lane: isolate the lowest set bit, then encode it.
    assign lowest = match & (~match + WfSize'(1));
    always_comb begin
      cand_lane[b*LaneW +: LaneW] = '0;
      for (int l = 0; l < WfSize; l++) begin
        if (lowest[l]) begin
          cand_lane[b*LaneW +: LaneW] = cand_lane[b*LaneW +: LaneW] | LaneW'(l);
        end
      end
    end
    assign cand_v[b] = match != '0;

    // The bank's request: an atomic's write, or the lowest pending lane.
    assign bk_wr[b]        = at_q[b*2 +: 2] == AtWritePend;
    assign lane            = bk_wr[b] ? at_lane_q[b*LaneW +: LaneW] : cand_lane[b*LaneW +: LaneW];
    assign bk_lane[b*LaneW +: LaneW] = lane;
    assign lane_addr       = slot_addr_q[32'(lane)*AddrW +: AddrW];
    assign bk_req_valid[b] = slot_v_q && !stall &&
                             (bk_wr[b] || (at_q[b*2 +: 2] == AtIdle && cand_v[b]));
    assign bk_req_tx[b]    = slot_tx_q;
    assign bk_req_we[b]    = bk_wr[b] || slot_op_q == InsStore;
    assign bk_req_wi[b*WiW +: WiW]   = WiW'(32'(slot_wf_q) * WfSize + 32'(lane));
    assign bk_req_addr[b*BAW +: BAW] = BAW'(32'(lane_addr) / NumBanks);
    assign bk_req_data[b*32 +: 32]   = bk_wr[b] ? at_wdata_q[b*32 +: 32]
                                                : slot_data_q[32'(lane)*32 +: 32];
    assign bk_acc[b]       = bk_req_valid[b] && bk_ready[b];
    // The lanes the request answers: its lane, and for a non-transactional load every pending
    // lane that reads the same word (a broadcast).
    assign bk_lanes[b*WfSize +: WfSize] = (WfSize'(1) << lane) |
                                          ((!bk_wr[b] && bcast) ? same : '0);
  end

  // Per lane: issued this cycle by some bank (its last access), or its first access.
  logic [NumBanks-1:0] final_bank, first_bank;
  assign final_bank = bk_acc & (bk_wr | {NumBanks{!slot_atom}});
  assign first_bank = bk_acc & ~bk_wr;
  always_comb begin
    issued_final = '0;
    first_issue  = '0;
    for (int b = 0; b < NumBanks; b++) begin
      issued_final = issued_final | (bk_lanes[b*WfSize +: WfSize] & {WfSize{final_bank[b]}});
      first_issue  = first_issue | (bk_lanes[b*WfSize +: WfSize] & {WfSize{first_bank[b]}});
    end
  end
  assign pend_next = slot_pend_q & ~issued_final & ~drop;

  // -----------------------------------------------------------------------------------------------
  // Response buffers: completion, and the answers of this cycle
  // -----------------------------------------------------------------------------------------------
  logic [NumBuf-1:0] cpl;
  logic              head_cpl;

  always_comb begin
    for (int j = 0; j < NumBuf; j++) begin
      cpl[j] = bf_v_q[j] && !(slot_v_q && slot_buf_q == BufW'(j)) &&
               bf_out_q[j*WfSize +: WfSize] == '0;
    end
  end
  assign head_cpl = cnt_q != '0 && cpl[hd_q];

  // -----------------------------------------------------------------------------------------------
  // The instruction port
  // -----------------------------------------------------------------------------------------------
  logic              ins_ok, is_mem, is_atom, ready, accept, accept_mem, w_busy, bad_ins;
  logic [WfSize-1:0] w_run, w_part, lanes_try, lanes, addr_bad;
  logic              w_in_try, widen_err, atom_err, addr_err;
  logic [NumWf-1:0]  busy_wf;

  assign ins_ok  = 32'(ins_wf_i) < NumWf && ins_op_i <= InsTxCommit;
  assign is_mem  = ins_op_i <= InsAtomCas;
  assign is_atom = ins_op_i == InsAtomAdd || ins_op_i == InsAtomCas;

  always_comb begin
    for (int v = 0; v < NumWf; v++) begin
      busy_wf[v] = (slot_v_q && slot_wf_q == WfW'(v)) || abt_any[v];
      for (int j = 0; j < NumBuf; j++) begin
        if (bf_v_q[j] && bf_wf_q[j*WfW +: WfW] == WfW'(v)) begin
          busy_wf[v] = 1'b1;
        end
      end
    end
  end

  assign w_busy = busy_wf[ins_wf_i];
  always_comb begin
    if (!ins_ok) begin
      ready = 1'b1;
    end else if (is_mem) begin
      ready = (!slot_v_q || pend_next == '0) && (32'(cnt_q) < NumBuf || head_cpl);
    end else begin
      ready = wf_op_ready[ins_wf_i] && (ins_op_i == InsExecWrite || !w_busy);
    end
  end
  assign accept     = ins_valid_i && ready;
  assign accept_mem = accept && ins_ok && is_mem;
  assign bad_ins    = accept && !ins_ok;

  always_comb begin
    for (int v = 0; v < NumWf; v++) begin
      wf_op_valid[v] = accept && ins_ok && !is_mem && ins_wf_i == WfW'(v);
    end
  end

  // The lanes of a memory instruction.
  assign w_run     = wf_run[32'(ins_wf_i)*WfSize +: WfSize];
  assign w_part    = wf_part[32'(ins_wf_i)*WfSize +: WfSize];
  assign w_in_try  = wf_in_try[ins_wf_i];
  assign lanes_try = w_in_try ? (is_atom ? '0 : w_run & w_part) : w_run;
  always_comb begin
    for (int l = 0; l < WfSize; l++) begin
      addr_bad[l] = 32'(ins_addr_i[l*AddrW +: AddrW]) >= Words;
    end
  end
  assign lanes     = lanes_try & ~addr_bad;
  assign widen_err = w_in_try && (w_run & ~w_part) != '0;
  assign atom_err  = w_in_try && is_atom && (w_run & w_part) != '0;
  assign addr_err  = (lanes_try & addr_bad) != '0;

  assign err_d = err_q || bad_ins || (accept_mem && (widen_err || atom_err || addr_err)) ||
                 bk_err != '0 || wf_err != '0;

  // -----------------------------------------------------------------------------------------------
  // Next state
  // -----------------------------------------------------------------------------------------------
  // Per bank: the outstanding access (its buffer, lanes, kind) and the atomic in progress.
  for (genvar b = 0; b < NumBanks; b++) begin : gen_ob
    logic [31:0] old, opnd, cmp;
    assign old  = bk_rsp_data[b*32 +: 32];
    assign opnd = slot_data_q[32'(at_lane_q[b*LaneW +: LaneW])*32 +: 32];
    assign cmp  = slot_cmp_q[32'(at_lane_q[b*LaneW +: LaneW])*32 +: 32];
    always_comb begin
      ob_buf_d[b*BufW +: BufW]       = ob_buf_q[b*BufW +: BufW];
      ob_lanes_d[b*WfSize +: WfSize] = ob_lanes_q[b*WfSize +: WfSize];
      ob_kind_d[b*2 +: 2]            = ob_kind_q[b*2 +: 2];
      at_d[b*2 +: 2]                 = at_q[b*2 +: 2];
      at_lane_d[b*LaneW +: LaneW]    = at_lane_q[b*LaneW +: LaneW];
      at_wdata_d[b*32 +: 32]         = at_wdata_q[b*32 +: 32];
      // An atomic's read answered: the value to write.
      if (bk_rsp_valid[b] && ob_kind_q[b*2 +: 2] == ObAtomRead) begin
        at_d[b*2 +: 2]         = AtWritePend;
        at_wdata_d[b*32 +: 32] = slot_op_q == InsAtomAdd ? old + opnd :
                                 old == cmp              ? opnd : old;
      end
      // An access the bank accepts.
      if (bk_acc[b]) begin
        ob_buf_d[b*BufW +: BufW]       = slot_buf_q;
        ob_lanes_d[b*WfSize +: WfSize] = bk_lanes[b*WfSize +: WfSize];
        if (bk_wr[b]) begin
          ob_kind_d[b*2 +: 2] = ObAtomWrite;
          at_d[b*2 +: 2]      = AtIdle;
        end else if (slot_atom) begin
          ob_kind_d[b*2 +: 2]         = ObAtomRead;
          at_d[b*2 +: 2]              = AtReadOut;
          at_lane_d[b*LaneW +: LaneW] = bk_lane[b*LaneW +: LaneW];
        end else begin
          ob_kind_d[b*2 +: 2] = ObNormal;
        end
      end
    end
  end

  // Per bank: which buffer its answer of this cycle goes to, and what it brings.
  logic [NumBanks-1:0] ans_data, ans_out, ans_conf;
  for (genvar b = 0; b < NumBanks; b++) begin : gen_ans
    assign ans_data[b] = bk_rsp_valid[b] && ob_kind_q[b*2 +: 2] != ObAtomWrite;
    assign ans_out[b]  = bk_rsp_valid[b] && ob_kind_q[b*2 +: 2] != ObAtomRead;
    assign ans_conf[b] = bk_rsp_valid[b] && ob_kind_q[b*2 +: 2] == ObNormal && bk_rsp_conflict[b];
  end

  // Per buffer and lane: the answers of this cycle (at most one bank answers a lane of a buffer).
  for (genvar j = 0; j < NumBuf; j++) begin : gen_buf
    logic [NumBanks-1:0] to_buf;
    logic [WfSize-1:0]   got_out, got_conf;
    logic                is_slot, is_head, is_tail;
    always_comb begin
      got_out  = '0;
      got_conf = '0;
      for (int b = 0; b < NumBanks; b++) begin
        to_buf[b] = ob_buf_q[b*BufW +: BufW] == BufW'(j);
        got_out   = got_out | (ob_lanes_q[b*WfSize +: WfSize] & {WfSize{to_buf[b] && ans_out[b]}});
        got_conf  = got_conf | (ob_lanes_q[b*WfSize +: WfSize] &
                                {WfSize{to_buf[b] && ans_conf[b]}});
      end
    end
    for (genvar l = 0; l < WfSize; l++) begin : gen_lane
      logic [31:0] data;
      always_comb begin
        data = bf_data_q[(j*WfSize+l)*32 +: 32];
        for (int b = 0; b < NumBanks; b++) begin
          if (to_buf[b] && ans_data[b] && ob_lanes_q[b*WfSize + l]) begin
            data = bk_rsp_data[b*32 +: 32];
          end
        end
      end
      assign bf_data_d[(j*WfSize+l)*32 +: 32] = data;
    end
    assign is_slot = slot_v_q && slot_buf_q == BufW'(j);
    assign is_head = head_cpl && hd_q == BufW'(j);
    assign is_tail = accept_mem && tl_q == BufW'(j);
    always_comb begin
      bf_v_d[j]                      = bf_v_q[j];
      bf_wf_d[j*WfW +: WfW]          = bf_wf_q[j*WfW +: WfW];
      bf_lanes_d[j*WfSize +: WfSize] = bf_lanes_q[j*WfSize +: WfSize] |
                                       (is_slot ? first_issue : '0);
      bf_out_d[j*WfSize +: WfSize]   = bf_out_q[j*WfSize +: WfSize] & ~got_out &
                                       ~(is_slot ? drop : '0);
      bf_conf_d[j*WfSize +: WfSize]  = bf_conf_q[j*WfSize +: WfSize] | got_conf;
      // The head buffer answers; a memory instruction takes the tail buffer.
      if (is_head) begin
        bf_v_d[j] = 1'b0;
      end
      if (is_tail) begin
        bf_v_d[j]                      = 1'b1;
        bf_wf_d[j*WfW +: WfW]          = ins_wf_i;
        bf_lanes_d[j*WfSize +: WfSize] = '0;
        bf_out_d[j*WfSize +: WfSize]   = lanes;
        bf_conf_d[j*WfSize +: WfSize]  = '0;
      end
    end
  end

  assign hd_d  = !head_cpl ? hd_q : 32'(hd_q) == NumBuf - 1 ? '0 : hd_q + BufW'(1);
  assign tl_d  = !accept_mem ? tl_q : 32'(tl_q) == NumBuf - 1 ? '0 : tl_q + BufW'(1);
  assign cnt_d = cnt_q + CntW'(accept_mem) - CntW'(head_cpl);

  always_comb begin
    slot_v_d    = slot_v_q && pend_next != '0;
    slot_pend_d = slot_v_q ? pend_next : slot_pend_q;
    slot_wf_d   = slot_wf_q;
    slot_op_d   = slot_op_q;
    slot_tx_d   = slot_tx_q;
    slot_buf_d  = slot_buf_q;
    slot_addr_d = slot_addr_q;
    slot_data_d = slot_data_q;
    slot_cmp_d  = slot_cmp_q;
    if (accept_mem && lanes != '0) begin
      slot_v_d    = 1'b1;
      slot_wf_d   = ins_wf_i;
      slot_op_d   = ins_op_i;
      slot_tx_d   = w_in_try;
      slot_buf_d  = tl_q;
      slot_pend_d = lanes;
      slot_addr_d = ins_addr_i;
      slot_data_d = ins_data_i;
      slot_cmp_d  = ins_cmp_i;
    end
  end

  always_comb begin
    for (int v = 0; v < NumWf; v++) begin
      pa_d[v*WfSize +: WfSize] = (stall && abt_wf == WfW'(v)) ? '0 : abt_all[v*WfSize +: WfSize];
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Registers
  // -----------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slot_v_q    <= 1'b0;
      slot_tx_q   <= 1'b0;
      slot_wf_q   <= '0;
      slot_op_q   <= '0;
      slot_buf_q  <= '0;
      slot_pend_q <= '0;
      slot_addr_q <= '0;
      slot_data_q <= '0;
      slot_cmp_q  <= '0;
      ob_buf_q    <= '0;
      ob_lanes_q  <= '0;
      ob_kind_q   <= '0;
      at_q        <= '0;
      at_lane_q   <= '0;
      at_wdata_q  <= '0;
      bf_v_q      <= '0;
      bf_wf_q     <= '0;
      bf_lanes_q  <= '0;
      bf_out_q    <= '0;
      bf_conf_q   <= '0;
      bf_data_q   <= '0;
      hd_q        <= '0;
      tl_q        <= '0;
      cnt_q       <= '0;
      pa_q        <= '0;
      tcm_q       <= '0;
      in_try_q    <= '0;
      err_q       <= 1'b0;
    end else begin
      slot_v_q    <= slot_v_d;
      slot_tx_q   <= slot_tx_d;
      slot_wf_q   <= slot_wf_d;
      slot_op_q   <= slot_op_d;
      slot_buf_q  <= slot_buf_d;
      slot_pend_q <= slot_pend_d;
      slot_addr_q <= slot_addr_d;
      slot_data_q <= slot_data_d;
      slot_cmp_q  <= slot_cmp_d;
      ob_buf_q    <= ob_buf_d;
      ob_lanes_q  <= ob_lanes_d;
      ob_kind_q   <= ob_kind_d;
      at_q        <= at_d;
      at_lane_q   <= at_lane_d;
      at_wdata_q  <= at_wdata_d;
      bf_v_q      <= bf_v_d;
      bf_wf_q     <= bf_wf_d;
      bf_lanes_q  <= bf_lanes_d;
      bf_out_q    <= bf_out_d;
      bf_conf_q   <= bf_conf_d;
      bf_data_q   <= bf_data_d;
      hd_q        <= hd_d;
      tl_q        <= tl_d;
      cnt_q       <= cnt_d;
      pa_q        <= pa_d;
      tcm_q       <= wf_tcm;
      in_try_q    <= wf_in_try;
      err_q       <= err_d;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  assign ins_ready_o = ready;
  assign rsp_valid_o = head_cpl;
  assign rsp_wf_o    = bf_wf_q[32'(hd_q)*WfW +: WfW];
  assign rsp_lanes_o = bf_lanes_q[32'(hd_q)*WfSize +: WfSize];
  assign rsp_conf_o  = bf_conf_q[32'(hd_q)*WfSize +: WfSize];
  assign rsp_data_o  = bf_data_q[32'(hd_q)*WfSize*32 +: WfSize*32];
  assign wf_exec_o   = wf_exec;
  assign wf_tcm_o    = wf_tcm;
  assign wf_mode_o   = wf_mode;
  assign wf_in_try_o = wf_in_try;
  assign wf_retry_o  = wf_retry;
  assign wf_busy_o   = busy_wf;
  assign wgs_grant_o = arb_grant;
  assign abt_valid_o = stall;
  assign abt_wf_o    = abt_wf;
  assign abt_mask_o  = abt_mask;
  assign cmt_valid_o = cmt_any;
  assign cmt_wf_o    = cmt_wf;
  assign cmt_mask_o  = cmt_mask;
  assign busy_o      = slot_v_q || cnt_q != '0 || stall || bk_busy != '0 || at_q != '0;
  assign err_o       = err_q;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // At most one commit per cycle (one TX_Commit is accepted per cycle).
  `HTM_ASSERT(OneCommit_A, $onehot0(wf_cmt_valid))
  // No transactional access reaches a bank for a work-item whose TCM bit is set.
  `HTM_ASSERT(NoAccessWithTcm_A, !(slot_v_q && slot_tx_q && (elig & wf_tcm[32'(slot_wf_q)*WfSize
                                   +: WfSize]) != '0))

  logic unused;
  assign unused = ^{wf_mcm, wf_prev, wf_prev_valid, wf_abort, bk_rsp_shadow, wf_part};

endmodule
