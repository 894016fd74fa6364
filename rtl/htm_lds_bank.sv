// SPDX-License-Identifier: Apache-2.0
//
// htm_lds_bank: one bank of GPU-LocalTM's local data share (thesis 5.2.3, 5.2.4): the bank's
// RAM with its shadow area, transactional conflict detection in one of four modes, and the
// restore (abort) and clear (commit) of the work-items' records.
//
// RAM layout (thesis Figure 5.4), BankWords = N words of user data:
//   word k (0..N-1)        user data
//   word N + k             backup of word k
//   word 2N + k/4, byte k%4 the owner (work-item id) of word k
// The RAM is single-ported (one access per cycle, read-first, byte-lane writes): every shadow
// access is one more cycle of the bank. The state bits live in flip-flops: V per word (DCD and
// the signature modes) or S and M (SMDCD, S = M = 1 is "not set"). pRWsig: an 8-bit signature
// per work-item (hash k mod 8), stored bit-sliced; sWOsig: one 32-bit htm_sig per wavefront
// (hash k mod 32).
//
// A transactional access to word k follows thesis Table 5.3(a) (Dcd), 5.3(b) (Smdcd), 5.4
// (DcdPrw) or 5.5 (DcdPrwSwo); where a table is silent or would lose a backup, the choice made
// is in docs/htm_lds_bank.md. Its RAM accesses, one per cycle from the accept cycle on:
//   plain (a signature or V says the word is the work-item's or needs no record): data
//   first access (a record is made): owner byte, data, backup (no backup for an SMDCD read)
//   owner check (the directory decides): owner word, then data (SMDCD first write: backup)
//   conflict found by the signatures: none; found by the owner: the owner word only
// The response comes the cycle after the last access (latency 1..3, see the doc), and the next
// request can be accepted in that cycle: one plain access per cycle.
//
// Each work-item's records form a list through the words it owns (a word has one owner).
// abt_* (TCM bits newly set, from any bank's conflict or a WgS abort) and cmt_* (a wavefront's
// committing work-items) clear the work-items' signatures at once and queue them; the walk then
// takes one record per cycle (lowest work-item first), restoring a backed-up word on an abort
// (two cycles: backup read, data write). Requests wait while anything is queued or arrives.
// SMDCD keeps a word's S bit beyond its owner: when the owner's record goes while others have
// read the word (S = 1), the word becomes a shared-read remnant (shr_q) that lets reads through
// and makes writes conflict, until shr_clr_i says no reader can still be live (thesis Table
// 5.3b would forget the readers, and a later writer would overwrite what they read).
// Non-transactional accesses (and transactional ones outside the user data) read or write any
// word with no detection. A request with a work-item id or an address out of range, or an
// abort/commit of a wavefront out of range, sets err_o (the request answers 0, no access).
`include "htm_assert.svh"

module htm_lds_bank #(
  // A configuration sets this enum-typed parameter with a number (-G), which is legal.
  /* verilator lint_off ENUMVALUE */
  parameter htm_pkg::lds_cd_e Mode      = htm_pkg::LdsCdDcdPrwSwo,
  /* verilator lint_on ENUMVALUE */
  parameter int unsigned      BankWords = 128,  // N, user data words: a multiple of 4, 4..4096
  parameter int unsigned      WgSize    = 256,  // work-items in the work-group, WfSize..256
  parameter int unsigned      WfSize    = 64,   // work-items per wavefront, a power of two <= 64
  // Derived, do not set.
  localparam int unsigned     NumWf     = WgSize / WfSize,
  localparam int unsigned     Depth     = 2 * BankWords + BankWords / 4,
  localparam int unsigned     AddrW     = htm_pkg::idx_width(Depth),
  localparam int unsigned     WiW       = htm_pkg::idx_width(WgSize),
  localparam int unsigned     WfW       = htm_pkg::idx_width(NumWf)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // accesses
  input  logic              req_valid_i,
  output logic              req_ready_o,
  input  logic              req_tx_i,      // transactional
  input  logic              req_we_i,
  input  logic [WiW-1:0]    req_wi_i,      // work-item id in the work-group
  input  logic [AddrW-1:0]  req_addr_i,    // word in the bank (user data, or any word if !tx)
  input  logic [31:0]       req_data_i,
  output logic              rsp_valid_o,
  output logic [WiW-1:0]    rsp_wi_o,
  output logic [31:0]       rsp_data_o,    // the word's value before the access (0: conflict)
  output logic              rsp_conflict_o,
  output logic              rsp_lower_o,   // a party of the conflict has a lower id than wi
  output logic              rsp_self_o,    // wi owns the word itself (SMDCD R->W)
  output logic [1:0]        rsp_shadow_o,  // shadow-area accesses the access made, 0..2
  // TCM bits newly set (aborts) and committing work-items, per wavefront
  input  logic              abt_valid_i,
  input  logic [WfW-1:0]    abt_wf_i,
  input  logic [WfSize-1:0] abt_mask_i,
  input  logic              cmt_valid_i,
  input  logic [WfW-1:0]    cmt_wf_i,
  input  logic [WfSize-1:0] cmt_mask_i,
  // SMDCD: no reader can depend on a shared-read remnant (no try is live but a WgS one)
  input  logic              shr_clr_i,
  output logic              busy_o,        // an access, a walk or a queued work-item
  output logic              err_o
);

  `HTM_ASSERT_INIT(BankWordsRange_A, BankWords >= 4 && BankWords <= 4096 && BankWords % 4 == 0)
  `HTM_ASSERT_INIT(WfSizeRange_A, WfSize >= 1 && WfSize <= 64 && htm_pkg::is_pow2(WfSize))
  `HTM_ASSERT_INIT(WgSizeRange_A, WgSize >= WfSize && WgSize <= 256 && WgSize % WfSize == 0)

  localparam int unsigned KW        = htm_pkg::idx_width(BankWords);
  localparam int unsigned SigAddrW  = KW < 5 ? 5 : KW;
  localparam bit          Smdcd     = Mode == htm_pkg::LdsCdSmdcd;
  localparam bit          UsePrw    = Mode == htm_pkg::LdsCdDcdPrw ||
                                      Mode == htm_pkg::LdsCdDcdPrwSwo;
  localparam bit          UseSwo    = Mode == htm_pkg::LdsCdDcdPrwSwo;
  localparam logic [AddrW-1:0] DataEnd   = AddrW'(BankWords);
  localparam logic [AddrW-1:0] OwnerBase = AddrW'(2 * BankWords);

  typedef enum logic [2:0] {
    StIdle,     // accept a request, or take one step of the walk
    StData,     // first access: the data access after the owner byte
    StBackup,   // write the backup of the word read in the cycle before
    StOwnChk,   // the owner word read in the cycle before decides
    StRestore   // write back the backup read in the cycle before
  } state_e;

  typedef enum logic [1:0] {
    SrcZero,
    SrcRam,
    SrcDataQ
  } src_e;

  // -----------------------------------------------------------------------------------------------
  // State
  // -----------------------------------------------------------------------------------------------
  state_e                 state_q, state_d;
  logic [BankWords-1:0]   v_q, v_d, s_q, s_d, m_q, m_d;
  logic [BankWords-1:0]   shr_q, shr_d;  // SMDCD: other readers outlived the owner record
  logic [BankWords*KW-1:0] nxt_q, nxt_d;       // list link of word k at [k*KW +: KW]
  logic [BankWords-1:0]   nxt_v_q, nxt_v_d;
  logic [WgSize*KW-1:0]   head_q, head_d;      // first record of work-item i
  logic [WgSize-1:0]      head_v_q, head_v_d;
  logic [WgSize-1:0]      pend_abt_q, pend_abt_d, pend_cmt_q, pend_cmt_d;
  logic [WiW-1:0]         wi_q, wi_d;
  logic [AddrW-1:0]       k_q, k_d;
  logic                   we_q, we_d, bk_q, bk_d;
  logic [31:0]            wdata_q, wdata_d, data_q, data_d;
  logic [1:0]             shadow_q, shadow_d;
  logic                   rsp_valid_q, rsp_valid_d, rsp_conflict_q, rsp_conflict_d;
  logic                   rsp_lower_q, rsp_lower_d, rsp_self_q, rsp_self_d;
  logic [WiW-1:0]         rsp_wi_q, rsp_wi_d;
  logic [1:0]             rsp_shadow_q, rsp_shadow_d;
  src_e                   rsp_src_q, rsp_src_d;
  logic                   err_q, err_d;

  // RAM access of this cycle
  logic                   op_en, op_we;
  logic [AddrW-1:0]       op_addr;
  logic [31:0]            op_wdata;
  logic [3:0]             op_be;
  logic [31:0]            ram_rdata;

  // -----------------------------------------------------------------------------------------------
  // Signatures
  // -----------------------------------------------------------------------------------------------
  logic [SigAddrW-1:0] sig_addr;
  logic [WgSize-1:0]   prw_hit, prw_ins, prw_clr;
  logic [NumWf-1:0]    swo_hit, swo_ins, swo_clr;

  assign sig_addr = SigAddrW'(req_addr_i[KW-1:0]);

  if (UsePrw) begin : gen_prw
    // The work-group's pRWsigs, bit-sliced: slot s of every work-item's 8-bit signature is
    // prw_q[s*WgSize +: WgSize]. A conflict check tests every work-item's signature at once,
    // so a slice is what it reads; the behaviour is htm_sig's (mod-8 hash by htm_sig_hash, a
    // test sees the state before the cycle's clear and insert, clear before insert). One
    // htm_sig per work-item would be the same logic, but 256 instances per bank make the
    // Verilated model of 32 banks about 30 times larger.
    logic [8*WgSize-1:0] prw_q, prw_d;
    logic [2:0]          prw_idx;

    htm_sig_hash #(
      .AddrW    (SigAddrW),
      .NumHashes(1),
      .IdxW     (3),
      .HashKind (htm_pkg::SigHashMod)
    ) u_prw_hash (
      .addr_i(sig_addr),
      .idx_o (prw_idx)
    );

    assign prw_hit = prw_q[prw_idx*WgSize +: WgSize];

    always_comb begin
      for (int s = 0; s < 8; s++) begin
        prw_d[s*WgSize +: WgSize] = prw_q[s*WgSize +: WgSize] & ~prw_clr;
        if (prw_idx == 3'(s)) begin
          prw_d[s*WgSize +: WgSize] = prw_d[s*WgSize +: WgSize] | prw_ins;
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        prw_q <= '0;
      end else begin
        prw_q <= prw_d;
      end
    end
  end else begin : gen_no_prw
    // No pRWsig in this mode: its control signals are not used.
    logic unused_prw;
    assign unused_prw = ^{sig_addr, prw_ins, prw_clr};
    assign prw_hit    = '0;
  end

  if (UseSwo) begin : gen_swo
    for (genvar f = 0; f < NumWf; f++) begin : gen_wf
      logic [31:0] bits_unused;
      logic        empty_unused;
      htm_sig #(
        .AddrW       (SigAddrW),
        .NumHashes   (1),
        .SlotsPerHash(32),
        .HashKind    (htm_pkg::SigHashMod)
      ) u_swo (
        .clk_i,
        .rst_ni,
        .clr_i      (swo_clr[f]),
        .ins_valid_i(swo_ins[f]),
        .ins_addr_i (sig_addr),
        .tst_addr_i (sig_addr),
        .tst_hit_o  (swo_hit[f]),
        .empty_o    (empty_unused),
        .bits_o     (bits_unused)
      );
    end
  end else begin : gen_no_swo
    // No sWOsig in this mode: its control signals are not used.
    logic unused_swo;
    assign unused_swo = ^{swo_ins, swo_clr};
    assign swo_hit    = '0;
  end

  // -----------------------------------------------------------------------------------------------
  // Decoded request
  // -----------------------------------------------------------------------------------------------
  logic              ready, accept, req_bad, req_txd;
  logic [KW-1:0]     rk;
  logic [WfW-1:0]    rwf;
  logic              r_set;
  logic              wi_hit, oth_hit, oth_lower, wf_hit, owf_hit;
  logic              any_pend;
  logic [WgSize-1:0] pend_any;     // queued work-items, for an abort or a commit

  assign pend_any = pend_abt_q | pend_cmt_q;
  assign any_pend = pend_any != '0;
  assign ready    = state_q == StIdle && !any_pend && !abt_valid_i && !cmt_valid_i;
  assign accept   = ready && req_valid_i;
  assign req_bad  = 32'(req_wi_i) >= WgSize || 32'(req_addr_i) >= Depth;
  assign req_txd  = req_tx_i && req_addr_i < DataEnd;
  assign rk       = req_addr_i[KW-1:0];
  assign rwf      = WfW'(32'(req_wi_i) / WfSize);
  assign r_set    = Smdcd ? !(s_q[rk] && m_q[rk]) : v_q[rk];

  // Other work-items' pRWsig hits, as reductions (no chain across the work-group).
  logic [WgSize-1:0] wi_onehot, wi_below, oth;

  always_comb begin
    for (int j = 0; j < WgSize; j++) begin
      wi_onehot[j] = req_wi_i == WiW'(j);
      wi_below[j]  = WiW'(j) < req_wi_i;
    end
  end

  assign oth       = prw_hit & ~wi_onehot;
  assign wi_hit    = |(prw_hit & wi_onehot);
  assign oth_hit   = |oth;
  assign oth_lower = |(oth & wi_below);

  always_comb begin
    wf_hit  = 1'b0;
    owf_hit = 1'b0;
    for (int f = 0; f < NumWf; f++) begin
      if (WfW'(f) == rwf) begin
        wf_hit = swo_hit[f];
      end else if (swo_hit[f]) begin
        owf_hit = 1'b1;
      end
    end
  end

  // What a transactional access does on acceptance (thesis Tables 5.3-5.5).
  typedef enum logic [1:0] {
    ActPlain,
    ActFresh,
    ActOwnChk,
    ActConflict
  } act_e;

  act_e act;
  logic act_backup, act_ins_prw, act_ins_swo;

  always_comb begin
    act         = ActPlain;
    act_backup  = 1'b1;
    act_ins_prw = 1'b0;
    act_ins_swo = 1'b0;
    if (Mode == htm_pkg::LdsCdDcd) begin
      act = r_set ? ActOwnChk : ActFresh;
    end else if (Mode == htm_pkg::LdsCdSmdcd) begin
      act        = r_set ? ActOwnChk : ActFresh;
      act_backup = req_we_i;
      if (!r_set && shr_q[rk] && !shr_clr_i) begin
        // Readers outlived the owner: reads proceed (no record), writes conflict.
        act = req_we_i ? ActConflict : ActPlain;
      end
    end else if (Mode == htm_pkg::LdsCdDcdPrw) begin
      if (oth_hit) begin
        act = ActConflict;
      end else begin
        act_ins_prw = 1'b1;
        act         = r_set ? ActPlain : ActFresh;
      end
    end else begin  // DcdPrwSwo
      if (!oth_hit) begin
        act_ins_prw = 1'b1;
        if (req_we_i) begin
          act_ins_swo = 1'b1;
          act         = r_set ? ActPlain : ActFresh;
        end
      end else if (!wf_hit && !owf_hit && !req_we_i) begin
        act_ins_prw = 1'b1;  // read-read, filtered (Table 5.5 rows 6 and 12)
      end else if (wf_hit && wi_hit) begin
        act = r_set ? ActOwnChk : ActConflict;  // rows 16, 17: the owner decides
      end else begin
        act = ActConflict;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Walk: the lowest queued work-item's first record
  // -----------------------------------------------------------------------------------------------
  logic [WiW-1:0] w_wi;
  logic [KW-1:0]  w_k;
  logic           w_restore;

  // Lowest queued work-item in two steps of 16 (short logic chains for large work-groups).
  localparam int unsigned NumGrp = (WgSize + 15) / 16;
  logic [NumGrp*16-1:0] pend_pad;
  logic [NumGrp-1:0]    grp_any;
  logic [15:0]          grp_sel;
  logic [8:0]           w_grp, w_lane;

  assign pend_pad = (NumGrp*16)'(pend_any);

  always_comb begin
    for (int g = 0; g < NumGrp; g++) begin
      grp_any[g] = |pend_pad[g*16 +: 16];
    end
    w_grp = '0;
    for (int g = NumGrp - 1; g >= 0; g--) begin
      if (grp_any[g]) begin
        w_grp = 9'(g);
      end
    end
    grp_sel = pend_pad[32'(w_grp)*16 +: 16];
    w_lane  = '0;
    for (int l = 15; l >= 0; l--) begin
      if (grp_sel[l]) begin
        w_lane = 9'(l);
      end
    end
  end

  assign w_wi = WiW'(32'(w_grp) * 16 + 32'(w_lane));

  assign w_k       = head_q[32'(w_wi)*KW +: KW];
  assign w_restore = pend_abt_q[w_wi] && (Smdcd ? m_q[w_k] : 1'b1);

  // -----------------------------------------------------------------------------------------------
  // Next state
  // -----------------------------------------------------------------------------------------------
  logic [KW-1:0] ck;       // k_q as a data word index
  logic [7:0]    owner;
  logic          mine;
  logic          rs, rs_conf, rs_lower, rs_self;  // respond, and the response's fields
  src_e          rs_src;
  // Updates of the per-word and per-work-item state, applied element by element below
  // (constant indices only: no variable-index writes for the synthesis flow to get wrong).
  logic          rec;      // a new record of req_wi_i for word rk
  logic          walk;     // the walk unlinks w_wi's first record w_k
  logic          oc_m, oc_s;  // the owner check sets M / S of word ck
  logic          ins_prw, ins_swo;  // insert rk in req_wi_i's pRWsig / rwf's sWOsig
  logic          abt_ok, cmt_ok;
  logic [WgSize-1:0] abt_hit, cmt_hit;  // work-items aborted / committed this cycle
  logic [KW-1:0] rec_next, w_next;
  logic          rec_next_v, w_next_v;

  assign abt_ok     = 32'(abt_wf_i) < NumWf;
  assign cmt_ok     = 32'(cmt_wf_i) < NumWf;
  assign rec_next   = head_q[32'(req_wi_i)*KW +: KW];
  assign rec_next_v = head_v_q[req_wi_i];
  assign w_next     = nxt_q[32'(w_k)*KW +: KW];
  assign w_next_v   = nxt_v_q[w_k];

  assign ck    = k_q[KW-1:0];
  assign owner = ram_rdata[8*32'(k_q[1:0]) +: 8];
  assign mine  = owner == 8'(wi_q);

  always_comb begin
    state_d        = state_q;
    wi_d           = wi_q;
    k_d            = k_q;
    we_d           = we_q;
    bk_d           = bk_q;
    wdata_d        = wdata_q;
    data_d         = data_q;
    shadow_d       = shadow_q;
    rsp_valid_d    = 1'b0;
    rsp_conflict_d = rsp_conflict_q;
    rsp_lower_d    = rsp_lower_q;
    rsp_self_d     = rsp_self_q;
    rsp_wi_d       = rsp_wi_q;
    rsp_shadow_d   = rsp_shadow_q;
    rsp_src_d      = rsp_src_q;
    err_d          = 1'b0;
    rec            = 1'b0;
    walk           = 1'b0;
    oc_m           = 1'b0;
    oc_s           = 1'b0;
    ins_prw        = 1'b0;
    ins_swo        = 1'b0;
    op_en          = 1'b0;
    op_we          = 1'b0;
    op_addr        = '0;
    op_wdata       = '0;
    op_be          = 4'b1111;  // all lanes of a write, but for an owner byte
    rs             = 1'b0;
    rs_conf        = 1'b0;
    rs_lower       = 1'b0;
    rs_self        = 1'b0;
    rs_src         = SrcZero;

    unique case (state_q)
      StIdle: begin
        if (accept) begin
          wi_d     = req_wi_i;
          k_d      = req_addr_i;
          we_d     = req_we_i;
          wdata_d  = req_data_i;
          shadow_d = 2'd0;
          bk_d     = 1'b0;
          if (req_bad) begin
            err_d = 1'b1;
            rs       = 1'b1;
            rs_conf  = 1'b0;
            rs_lower = 1'b0;
            rs_self  = 1'b0;
            rs_src   = SrcZero;
          end else if (!req_txd) begin
            op_en    = 1'b1;
            op_we    = req_we_i;
            op_addr  = req_addr_i;
            op_wdata = req_data_i;
            rs       = 1'b1;
            rs_conf  = 1'b0;
            rs_lower = 1'b0;
            rs_self  = 1'b0;
            rs_src   = SrcRam;
          end else begin
            ins_prw = act_ins_prw;
            ins_swo = act_ins_swo;
            unique case (act)
              ActFresh: begin
                // A record: state bits, pushed on the work-item's list, owner byte written.
                rec      = 1'b1;
                op_en    = 1'b1;
                op_we    = 1'b1;
                op_addr  = OwnerBase + (AddrW'(rk) >> 2);
                op_wdata = {4{8'(req_wi_i)}};
                op_be    = 4'b0001 << rk[1:0];
                bk_d     = act_backup;
                shadow_d = act_backup ? 2'd2 : 2'd1;
                state_d  = StData;
              end
              ActOwnChk: begin
                op_en    = 1'b1;
                op_we    = 1'b0;
                op_addr  = OwnerBase + (AddrW'(rk) >> 2);
                op_wdata = 32'h0;
                shadow_d = 2'd1;
                state_d  = StOwnChk;
              end
              ActPlain: begin
                op_en    = 1'b1;
                op_we    = req_we_i;
                op_addr  = req_addr_i;
                op_wdata = req_data_i;
                rs       = 1'b1;
                rs_conf  = 1'b0;
                rs_lower = 1'b0;
                rs_self  = 1'b0;
                rs_src   = SrcRam;
              end
              default: begin
                rs       = 1'b1;
                rs_conf  = 1'b1;
                rs_lower = oth_lower;
                rs_self  = 1'b0;
                rs_src   = SrcZero;
              end
            endcase
          end
        end else if (any_pend) begin
          // One record of the walk: state bits cleared, unlinked, restored on an abort.
          walk = 1'b1;
          if (w_restore) begin
            op_en    = 1'b1;
            op_we    = 1'b0;
            op_addr  = DataEnd + AddrW'(w_k);
            op_wdata = 32'h0;
            k_d     = AddrW'(w_k);
            state_d = StRestore;
          end
        end
      end
      StData: begin
        op_en    = 1'b1;
        op_we    = we_q;
        op_addr  = k_q;
        op_wdata = wdata_q;
        if (bk_q) begin
          state_d = StBackup;
        end else begin
          rs       = 1'b1;
          rs_conf  = 1'b0;
          rs_lower = 1'b0;
          rs_self  = 1'b0;
          rs_src   = SrcRam;
        end
      end
      StBackup: begin
        op_en    = 1'b1;
        op_we    = 1'b1;
        op_addr  = DataEnd + k_q;
        op_wdata = ram_rdata;
        data_d = ram_rdata;
        rs       = 1'b1;
        rs_conf  = 1'b0;
        rs_lower = 1'b0;
        rs_self  = 1'b0;
        rs_src   = SrcDataQ;
      end
      StOwnChk: begin
        if (!Smdcd) begin
          if (mine) begin
            op_en    = 1'b1;
            op_we    = we_q;
            op_addr  = k_q;
            op_wdata = wdata_q;
            rs       = 1'b1;
            rs_conf  = 1'b0;
            rs_lower = 1'b0;
            rs_self  = 1'b0;
            rs_src   = SrcRam;
          end else begin
            rs       = 1'b1;
            rs_conf  = 1'b1;
            rs_lower = owner < 8'(wi_q);
            rs_self  = 1'b0;
            rs_src   = SrcZero;
          end
        end else if (mine && !s_q[ck]) begin
          op_en    = 1'b1;
          op_we    = we_q;
          op_addr  = k_q;
          op_wdata = wdata_q;
          if (we_q && !m_q[ck]) begin
            oc_m     = 1'b1;  // first write of a word the owner read: back it up now
            shadow_d = 2'd2;
            state_d  = StBackup;
          end else begin
            rs       = 1'b1;
            rs_conf  = 1'b0;
            rs_lower = 1'b0;
            rs_self  = 1'b0;
            rs_src   = SrcRam;
          end
        end else if (!we_q && !m_q[ck]) begin
          if (!mine) begin
            oc_s = 1'b1;
          end
          op_en    = 1'b1;
          op_we    = 1'b0;
          op_addr  = k_q;
          op_wdata = 32'h0;
          rs       = 1'b1;
          rs_conf  = 1'b0;
          rs_lower = 1'b0;
          rs_self  = 1'b0;
          rs_src   = SrcRam;
        end else begin
          rs       = 1'b1;
          rs_conf  = 1'b1;
          rs_lower = !mine && owner < 8'(wi_q);
          rs_self  = mine;
          rs_src   = SrcZero;
        end
      end
      StRestore: begin
        op_en    = 1'b1;
        op_we    = 1'b1;
        op_addr  = k_q;
        op_wdata = ram_rdata;
        state_d = StIdle;
      end
      default: begin
        state_d = StIdle;
      end
    endcase

    // A response ends the access.
    if (rs) begin
      state_d        = StIdle;
      rsp_valid_d    = 1'b1;
      rsp_wi_d       = wi_d;
      rsp_conflict_d = rs_conf;
      rsp_lower_d    = rs_lower;
      rsp_self_d     = rs_self;
      rsp_shadow_d   = shadow_d;
      rsp_src_d      = rs_src;
    end

    // An abort or commit of a wavefront out of range is dropped.
    if ((abt_valid_i && !abt_ok) || (cmt_valid_i && !cmt_ok)) begin
      err_d = 1'b1;
    end
  end

  // Per-element next state.
  always_comb begin
    for (int k = 0; k < BankWords; k++) begin
      v_d[k]              = v_q[k];
      s_d[k]              = s_q[k];
      m_d[k]              = m_q[k];
      shr_d[k]            = shr_q[k];
      nxt_d[k*KW +: KW]   = nxt_q[k*KW +: KW];
      nxt_v_d[k]          = nxt_v_q[k];
      if (rec && rk == KW'(k)) begin
        if (Smdcd) begin
          s_d[k] = 1'b0;
          m_d[k] = req_we_i;
        end else begin
          v_d[k] = 1'b1;
        end
        nxt_d[k*KW +: KW] = rec_next;
        nxt_v_d[k]        = rec_next_v;
      end
      if (walk && w_k == KW'(k)) begin
        if (Smdcd) begin
          shr_d[k] = shr_q[k] || (s_q[k] && !m_q[k]);  // read by others too: keep them safe
          s_d[k] = 1'b1;
          m_d[k] = 1'b1;
        end else begin
          v_d[k] = 1'b0;
        end
      end
      if (oc_m && ck == KW'(k)) begin
        m_d[k] = 1'b1;
      end
      if (oc_s && ck == KW'(k)) begin
        s_d[k] = 1'b1;
      end
      if (shr_clr_i || !Smdcd) begin
        shr_d[k] = 1'b0;
      end
    end
    for (int i = 0; i < WgSize; i++) begin
      head_d[i*KW +: KW] = head_q[i*KW +: KW];
      head_v_d[i]        = head_v_q[i];
      if (rec && req_wi_i == WiW'(i)) begin
        head_d[i*KW +: KW] = rk;
        head_v_d[i]        = 1'b1;
      end
      if (walk && w_wi == WiW'(i)) begin
        head_d[i*KW +: KW] = w_next;
        head_v_d[i]        = w_next_v;
      end
      prw_ins[i] = ins_prw && req_wi_i == WiW'(i);
      // Aborts and commits arriving: signatures cleared, work-items with records queued.
      abt_hit[i]    = abt_valid_i && abt_ok && abt_wf_i == WfW'(i / WfSize) &&
                      abt_mask_i[i % WfSize];
      cmt_hit[i]    = cmt_valid_i && cmt_ok && cmt_wf_i == WfW'(i / WfSize) &&
                      cmt_mask_i[i % WfSize];
      prw_clr[i]    = abt_hit[i] || cmt_hit[i];
      pend_abt_d[i] = (pend_abt_q[i] || abt_hit[i]) && head_v_d[i];
      pend_cmt_d[i] = (pend_cmt_q[i] || cmt_hit[i]) && head_v_d[i];
    end
    for (int f = 0; f < NumWf; f++) begin
      swo_ins[f] = ins_swo && rwf == WfW'(f);
      swo_clr[f] = cmt_valid_i && cmt_ok && cmt_wf_i == WfW'(f);
    end
  end

  // -----------------------------------------------------------------------------------------------
  // RAM: four byte lanes of one single-port RAM
  // -----------------------------------------------------------------------------------------------
  for (genvar b = 0; b < 4; b++) begin : gen_lane
    logic rvalid_unused;
    htm_ram_sp #(
      .Width(8),
      .Depth(Depth)
    ) u_ram (
      .clk_i,
      .rst_ni,
      .en_i    (op_en),
      .we_i    (op_we && op_be[b]),
      .addr_i  (op_addr),
      .wdata_i (op_wdata[8*b +: 8]),
      .rvalid_o(rvalid_unused),
      .rdata_o (ram_rdata[8*b +: 8])
    );
  end

  // -----------------------------------------------------------------------------------------------
  // Registers
  // -----------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q        <= StIdle;
      v_q            <= '0;
      s_q            <= {BankWords{Smdcd}};
      shr_q          <= '0;
      m_q            <= {BankWords{Smdcd}};
      nxt_q          <= '0;
      nxt_v_q        <= '0;
      head_q         <= '0;
      head_v_q       <= '0;
      pend_abt_q     <= '0;
      pend_cmt_q     <= '0;
      wi_q           <= '0;
      k_q            <= '0;
      we_q           <= 1'b0;
      bk_q           <= 1'b0;
      wdata_q        <= '0;
      data_q         <= '0;
      shadow_q       <= 2'd0;
      rsp_valid_q    <= 1'b0;
      rsp_conflict_q <= 1'b0;
      rsp_lower_q    <= 1'b0;
      rsp_self_q     <= 1'b0;
      rsp_wi_q       <= '0;
      rsp_shadow_q   <= 2'd0;
      rsp_src_q      <= SrcZero;
      err_q          <= 1'b0;
    end else begin
      state_q        <= state_d;
      v_q            <= v_d;
      s_q            <= s_d;
      m_q            <= m_d;
      shr_q          <= shr_d;
      nxt_q          <= nxt_d;
      nxt_v_q        <= nxt_v_d;
      head_q         <= head_d;
      head_v_q       <= head_v_d;
      pend_abt_q     <= pend_abt_d;
      pend_cmt_q     <= pend_cmt_d;
      wi_q           <= wi_d;
      k_q            <= k_d;
      we_q           <= we_d;
      bk_q           <= bk_d;
      wdata_q        <= wdata_d;
      data_q         <= data_d;
      shadow_q       <= shadow_d;
      rsp_valid_q    <= rsp_valid_d;
      rsp_conflict_q <= rsp_conflict_d;
      rsp_lower_q    <= rsp_lower_d;
      rsp_self_q     <= rsp_self_d;
      rsp_wi_q       <= rsp_wi_d;
      rsp_shadow_q   <= rsp_shadow_d;
      rsp_src_q      <= rsp_src_d;
      err_q          <= err_d;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  assign req_ready_o    = ready;
  assign rsp_valid_o    = rsp_valid_q;
  assign rsp_wi_o       = rsp_wi_q;
  assign rsp_data_o     = rsp_src_q == SrcRam   ? ram_rdata :
                          rsp_src_q == SrcDataQ ? data_q : 32'h0;
  assign rsp_conflict_o = rsp_conflict_q;
  assign rsp_lower_o    = rsp_lower_q;
  assign rsp_self_o     = rsp_self_q;
  assign rsp_shadow_o   = rsp_shadow_q;
  assign busy_o         = state_q != StIdle || any_pend;
  assign err_o          = err_q;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // Only work-items with records are queued; a queued work-item's walk starts at a record.
  `HTM_ASSERT(PendHasRecords_A, ((pend_abt_q | pend_cmt_q) & ~head_v_q) == '0)

  // The work-item of each word's record, in flip-flops for the assertion below only (they drive
  // no output: synthesis removes them). Every word with a record belongs to a work-item whose
  // list is not empty: once an abort's (or a commit's) walk has emptied a work-item's list (its
  // queue bit falls only then), no ownership record of it remains in the bank.
  logic [BankWords*WiW-1:0] vown_q, vown_d;
  logic [BankWords-1:0]     orphan;

  always_comb begin
    vown_d = vown_q;
    for (int k = 0; k < BankWords; k++) begin
      if (rec && rk == KW'(k)) begin
        vown_d[k*WiW +: WiW] = req_wi_i;
      end
      orphan[k] = (Smdcd ? !(s_q[k] && m_q[k]) : v_q[k]) && !head_v_q[vown_q[k*WiW +: WiW]];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vown_q <= '0;
    end else begin
      vown_q <= vown_d;
    end
  end

  `HTM_ASSERT(NoOrphanRecord_A, orphan == '0)

endmodule
