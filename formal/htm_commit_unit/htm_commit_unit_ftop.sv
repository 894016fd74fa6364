// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_commit_unit. Every input is free: cores and memory may do anything,
// protocol violations included, except that in a cycle with illegal_i low the environment
// keeps the protocol (below). Besides the RTL's own assertions (pointer order, a commit
// write only for an entry with both Passes, free-list bound), end-to-end properties for an
// arbitrary commit id f_cid, observed only at the ports:
//   * a commit write of f_cid only after the unit replied Pass to f_cid and then accepted a
//     Pass message for f_cid (no commit write without TX_PASS);
//   * DoneCommit for f_cid only after such a Pass and at least one commit write of f_cid;
//   * Pass/Fail replies in cid order: a reply's cid is later (relative to the retire pointer)
//     than the previous reply's while that one is still in the window;
//   * no Pass/Fail reply for a cid outside the window;
//   * f_cid gets at most one Pass/Fail reply and at most one DoneCommit per use of the id;
//   * the capacity flag only on a Fail reply;
//   * the error output: the wrapper keeps its own model of the protocol, from the ports only
//     (per ring entry: started, filled, skipped, this unit replied Pass, the core's Pass/Fail
//     taken; the validation tags and commit writes in flight) and err_o is exactly "a message,
//     acknowledgement or validation response the model calls illegal was seen since reset":
//     it rises for every illegal class (a cid outside the window, a word or DoneFill after
//     DoneFill or Skip, a Skip after the first word, a core's Pass/Fail before this unit's
//     Pass, for an entry the unit failed, or twice, an undefined type, a stray
//     acknowledgement, a response for a tag not in flight) and never otherwise; while
//     illegal_i has been low since reset (legal environment), err_o stays low. Each class is
//     covered.
// (The LWH's own property, never a last writer older than the true one, is proved on htm_lwh:
// formal/htm_lwh/htm_lwh_ftop.sv.)
// Bounded: the word buffer and the LWH live in RAM, whose unreachable contents defeat
// induction. Tracking restarts when the retire pointer passes f_cid (the id is reused).
`include "htm_assert.svh"

module htm_commit_unit_ftop #(
  parameter int unsigned AddrW            = 2,
  parameter int unsigned DataW            = 1,
  parameter int unsigned CidW             = 5,
  parameter int unsigned SrcW             = 1,
  parameter int unsigned RingSize         = 2,
  parameter int unsigned BufWords         = 2,
  parameter int unsigned ValTags          = 1,
  parameter int unsigned LwhSets          = 1,
  parameter int unsigned LwhWays          = 1,
  parameter int unsigned LwhBfHashes      = 1,
  parameter int unsigned LwhBfSlots       = 1,
  parameter int unsigned LwhScrubInterval = 2,
  parameter bit          LwhPipe          = 1'b0,
  // 0: the end-to-end properties above and their covers; 1: the error output's properties and
  // covers (a separate proof: together they take z3 three times as long).
  parameter bit          ErrCheck         = 1'b0,
  localparam int unsigned TagW            = htm_pkg::idx_width(ValTags)
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             in_valid_i,
  input logic [2:0]       in_type_i,
  input logic [CidW-1:0]  in_cid_i,
  input logic [SrcW-1:0]  in_src_i,
  input logic [AddrW-1:0] in_addr_i,
  input logic [DataW-1:0] in_data_i,
  input logic             vr_req_ready_i,
  input logic             vr_rsp_valid_i,
  input logic [TagW-1:0]  vr_rsp_tag_i,
  input logic [DataW-1:0] vr_rsp_data_i,
  input logic             cw_req_ready_i,
  input logic             cw_ack_valid_i,
  // 0: the inputs of this cycle keep the protocol (assumed); 1: anything goes.
  input logic             illegal_i
);
  logic             in_ready, arep_valid, arep_pass, rep_valid, vr_req_valid, cw_req_valid;
  logic             rct_inc_valid, rct_inc_write, rct_dec_valid, rct_dec_write, busy, err;
  logic             rep_cap, sweep;
  logic [CidW-1:0]  arep_cid, rep_cid, ptr_retire, ptr_commit, ptr_pass, ptr_fcd;
  logic [SrcW-1:0]  arep_src, rep_src;
  logic [2:0]       rep_type;
  logic [AddrW-1:0] vr_req_addr, cw_req_addr, rct_inc_addr, rct_dec_addr;
  logic [TagW-1:0]  vr_req_tag;
  logic [DataW-1:0] cw_req_data;

  htm_commit_unit #(
    .AddrW(AddrW), .DataW(DataW), .CidW(CidW), .SrcW(SrcW), .RingSize(RingSize),
    .BufWords(BufWords), .ValTags(ValTags), .LwhSets(LwhSets), .LwhWays(LwhWays),
    .LwhBfHashes(LwhBfHashes), .LwhBfSlots(LwhBfSlots), .LwhScrubInterval(LwhScrubInterval),
    .LwhPipe(LwhPipe)
  ) u_dut (
    .clk_i, .rst_ni, .in_valid_i, .in_ready_o(in_ready), .in_type_i, .in_cid_i, .in_src_i,
    .in_addr_i, .in_data_i, .arep_valid_o(arep_valid), .arep_pass_o(arep_pass),
    .arep_cid_o(arep_cid), .arep_src_o(arep_src), .rep_valid_o(rep_valid),
    .rep_type_o(rep_type), .rep_cid_o(rep_cid), .rep_src_o(rep_src), .rep_cap_o(rep_cap),
    .vr_req_valid_o(vr_req_valid), .vr_req_ready_i, .vr_req_addr_o(vr_req_addr),
    .vr_req_tag_o(vr_req_tag), .vr_rsp_valid_i, .vr_rsp_tag_i, .vr_rsp_data_i,
    .cw_req_valid_o(cw_req_valid), .cw_req_ready_i, .cw_req_addr_o(cw_req_addr),
    .cw_req_data_o(cw_req_data), .cw_ack_valid_i, .rct_inc_valid_o(rct_inc_valid),
    .rct_inc_addr_o(rct_inc_addr), .rct_inc_write_o(rct_inc_write),
    .rct_dec_valid_o(rct_dec_valid), .rct_dec_addr_o(rct_dec_addr),
    .rct_dec_write_o(rct_dec_write), .ptr_retire_o(ptr_retire), .ptr_commit_o(ptr_commit),
    .ptr_pass_o(ptr_pass), .ptr_fcd_o(ptr_fcd), .busy_o(busy), .sweep_o(sweep), .err_o(err)
  );

  `HTM_FORMAL_START_IN_RESET

  localparam logic [2:0] RepPass       = 3'(htm_pkg::CuRepPass);
  localparam logic [2:0] RepFail       = 3'(htm_pkg::CuRepFail);
  localparam logic [2:0] RepDoneCommit = 3'(htm_pkg::CuRepDoneCommit);
  localparam logic [2:0] MsgAlloc      = 3'(htm_pkg::CuMsgAlloc);
  localparam logic [2:0] MsgReadSet    = 3'(htm_pkg::CuMsgReadSet);
  localparam logic [2:0] MsgWriteSet   = 3'(htm_pkg::CuMsgWriteSet);
  localparam logic [2:0] MsgDoneFill   = 3'(htm_pkg::CuMsgDoneFill);
  localparam logic [2:0] MsgSkip       = 3'(htm_pkg::CuMsgSkip);
  localparam logic [2:0] MsgPass       = 3'(htm_pkg::CuMsgPass);
  localparam logic [2:0] MsgFail       = 3'(htm_pkg::CuMsgFail);

  (* anyconst *) logic [CidW-1:0] f_cid;
  logic            f_rep_pass_q, f_core_pass_q, f_wrote_q, f_any_rep_q, f_retired;
  logic            f_replied_q, f_done_q;
  logic [CidW-1:0] f_last_rep_q, f_last_dist, f_rep_dist, f_prev_retire_q;

  // f_cid has retired when the retire pointer has just moved off it.
  assign f_retired  = f_prev_retire_q == f_cid && ptr_retire != f_cid;
  assign f_last_dist = f_last_rep_q - ptr_retire;
  assign f_rep_dist = rep_cid - ptr_retire;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_rep_pass_q  <= 1'b0;
      f_core_pass_q <= 1'b0;
      f_wrote_q     <= 1'b0;
      f_any_rep_q   <= 1'b0;
      f_replied_q   <= 1'b0;
      f_done_q      <= 1'b0;
      f_last_rep_q  <= '0;
      f_prev_retire_q <= '0;
    end else begin
      f_prev_retire_q <= ptr_retire;
      if (rep_valid && rep_type == RepPass && rep_cid == f_cid) begin
        f_rep_pass_q <= 1'b1;
      end
      if (f_rep_pass_q && in_valid_i && in_ready && in_type_i == MsgPass && in_cid_i == f_cid) begin
        f_core_pass_q <= 1'b1;
      end
      if (cw_req_valid && cw_req_ready_i && ptr_commit == f_cid) begin
        f_wrote_q <= 1'b1;
      end
      if (rep_valid && rep_cid == f_cid) begin
        if (rep_type == RepDoneCommit) begin
          f_done_q <= 1'b1;
        end else begin
          f_replied_q <= 1'b1;
        end
      end
      if (f_retired) begin
        f_replied_q   <= 1'b0;
        f_done_q      <= 1'b0;
        f_rep_pass_q  <= 1'b0;
        f_core_pass_q <= 1'b0;
        f_wrote_q     <= 1'b0;
      end
      if (rep_valid && rep_type != RepDoneCommit) begin
        f_any_rep_q  <= 1'b1;
        f_last_rep_q <= rep_cid;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The protocol, modelled from the ports (docs/htm_commit_unit.md, "Rules the unit checks")
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned IdxW = htm_pkg::idx_width(RingSize);
  localparam int unsigned NTag = ValTags;

  logic [RingSize-1:0] m_started_q, m_filled_q, m_skip_q, m_rep_pass_q, m_out_q;
  logic [RingSize-1:0] m_keep, m_started, m_filled, m_skip, m_rep_pass, m_out;
  logic [NTag-1:0]     m_tag_q;
  logic [7:0]          m_cw_out_q;
  logic                m_err_q, m_f_failed;
  logic [CidW-1:0]     m_dist;
  logic [IdxW-1:0]     m_idx, m_rep_idx, m_ret_idx;
  logic                m_win, m_open, m_msg_ok, m_ack_ok, m_rsp_ok;
  logic                m_bad_msg, m_bad_ack, m_bad_rsp, m_bad;

  assign m_dist    = in_cid_i - ptr_retire;
  assign m_win     = 64'(m_dist) < 64'(RingSize);
  assign m_idx     = IdxW'(64'(in_cid_i) % 64'(RingSize));
  assign m_rep_idx = IdxW'(64'(rep_cid) % 64'(RingSize));
  assign m_ret_idx = IdxW'(64'(f_prev_retire_q) % 64'(RingSize));
  // The entry the retire pointer has just left belongs to its next cid from this cycle on.
  always_comb begin
    m_keep = '1;
    if (ptr_retire != f_prev_retire_q) begin
      m_keep[m_ret_idx] = 1'b0;
    end
  end
  assign m_started  = m_started_q & m_keep;
  assign m_filled   = m_filled_q & m_keep;
  assign m_skip     = m_skip_q & m_keep;
  assign m_rep_pass = m_rep_pass_q & m_keep;
  assign m_out      = m_out_q & m_keep;
  assign m_open     = m_win && !m_filled[m_idx] && !m_skip[m_idx];

  always_comb begin
    unique case (in_type_i)
      MsgAlloc:                             m_msg_ok = 1'b1;
      MsgReadSet, MsgWriteSet, MsgDoneFill: m_msg_ok = m_open;
      MsgSkip:                              m_msg_ok = m_open && !m_started[m_idx];
      MsgPass, MsgFail:                     m_msg_ok = m_win && m_rep_pass[m_idx] &&
                                                       !m_out[m_idx];
      default:                              m_msg_ok = 1'b0;
    endcase
  end
  assign m_ack_ok  = m_cw_out_q != '0;
  assign m_rsp_ok  = 64'(vr_rsp_tag_i) < 64'(NTag) && m_tag_q[vr_rsp_tag_i];
  assign m_bad_msg = in_valid_i && in_ready && !m_msg_ok;
  assign m_bad_ack = cw_ack_valid_i && !m_ack_ok;
  assign m_bad_rsp = vr_rsp_valid_i && !m_rsp_ok;
  assign m_bad     = m_bad_msg || m_bad_ack || m_bad_rsp;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_started_q  <= '0;
      m_filled_q   <= '0;
      m_skip_q     <= '0;
      m_rep_pass_q <= '0;
      m_out_q      <= '0;
      m_tag_q      <= '0;
      m_cw_out_q   <= '0;
      m_f_failed   <= 1'b0;
    end else begin
      // This unit replied Fail to f_cid (until it replies Pass to that id again).
      if (rep_valid && rep_cid == f_cid && rep_type == RepFail) begin
        m_f_failed <= 1'b1;
      end else if (rep_valid && rep_cid == f_cid && rep_type == RepPass) begin
        m_f_failed <= 1'b0;
      end
      m_started_q  <= m_started;
      m_filled_q   <= m_filled;
      m_skip_q     <= m_skip;
      m_rep_pass_q <= m_rep_pass;
      m_out_q      <= m_out;
      if (in_valid_i && in_ready && m_msg_ok) begin
        unique case (in_type_i)
          MsgReadSet, MsgWriteSet: m_started_q[m_idx] <= 1'b1;
          MsgDoneFill: begin
            m_started_q[m_idx] <= 1'b1;
            m_filled_q[m_idx]  <= 1'b1;
          end
          MsgSkip:          m_skip_q[m_idx] <= 1'b1;
          MsgPass, MsgFail: m_out_q[m_idx]  <= 1'b1;
          default: ;
        endcase
      end
      if (rep_valid && rep_type == RepPass) begin
        m_rep_pass_q[m_rep_idx] <= 1'b1;
      end
      if (vr_rsp_valid_i && m_rsp_ok) begin
        m_tag_q[vr_rsp_tag_i] <= 1'b0;
      end
      if (vr_req_valid && vr_req_ready_i) begin
        m_tag_q[vr_req_tag] <= 1'b1;
      end
      m_cw_out_q <= m_cw_out_q + 8'(cw_req_valid && cw_req_ready_i) -
                    8'(cw_ack_valid_i && m_ack_ok);
    end
  end

  if (ErrCheck) begin : gen_err
  // err_o is exactly "an illegal input was taken since reset"; with illegal_i low in every
  // cycle (the inputs keep the protocol, assumed) it stays low.
  htm_err_check #(.Timing(0)) u_err_check (
    .clk_i, .rst_ni, .illegal_i,
    .bad_i((in_valid_i && !m_msg_ok) || (cw_ack_valid_i && !m_ack_ok) ||
           (vr_rsp_valid_i && !m_rsp_ok)),
    .set_i(m_bad), .err_i(err), .seen_o(m_err_q)
  );
  always_comb begin
    if (rst_ni && f_past_valid_q) begin
      // The retire pointer advances by at most one entry per cycle (the model relies on it).
      assert (ptr_retire == f_prev_retire_q || ptr_retire == f_prev_retire_q + CidW'(1));
      // Every class of illegal input, first error.
      cover (!m_err_q && in_valid_i && in_ready && !m_win && in_type_i != MsgAlloc);
      cover (!m_err_q && in_valid_i && in_ready && m_win && in_type_i == MsgReadSet &&
             m_filled[m_idx]);
      cover (!m_err_q && in_valid_i && in_ready && m_win && in_type_i == MsgSkip &&
             m_started[m_idx] && !m_filled[m_idx]);
      cover (!m_err_q && in_valid_i && in_ready && m_win && in_type_i == MsgPass &&
             !m_rep_pass[m_idx] && m_filled[m_idx]);
      cover (!m_err_q && in_valid_i && in_ready && m_win && in_type_i == MsgFail &&
             m_out[m_idx]);
      cover (!m_err_q && in_valid_i && in_ready && in_type_i == 3'd7);
      cover (!m_err_q && m_bad_ack);
      cover (!m_err_q && m_bad_rsp);
      // A core's Pass for an entry this unit failed.
      cover (!m_err_q && m_f_failed && in_valid_i && in_ready && in_type_i == MsgPass &&
             in_cid_i == f_cid);
    end
  end
  end else begin : gen_ends

  always_comb begin
    if (rst_ni && f_past_valid_q) begin
      // No commit write without the unit's Pass followed by the core's Pass.
      if (cw_req_valid && ptr_commit == f_cid) begin
        assert (f_rep_pass_q && f_core_pass_q);
      end
      // One Pass/Fail and one DoneCommit per use of the id.
      if (rep_valid && rep_cid == f_cid) begin
        assert (rep_type == RepDoneCommit ? !f_done_q : !f_replied_q);
      end
      // DoneCommit only after the core's Pass and a commit write.
      if (rep_valid && rep_type == RepDoneCommit && rep_cid == f_cid) begin
        assert (f_core_pass_q && f_wrote_q);
      end
      // Pass/Fail replies in cid order, inside the window.
      if (rep_valid && (rep_type == RepPass || rep_type == RepFail)) begin
        assert (64'(f_rep_dist) < 64'(RingSize));
        // Later than the previous reply while that one is still in the window.
        if (f_any_rep_q && 64'(f_last_dist) < 64'(RingSize)) begin
          assert (f_rep_dist > f_last_dist);
        end
      end
      // The capacity flag only on a Fail reply.
      if (rep_cap) begin
        assert (rep_valid && rep_type == RepFail);
      end
      cover (rep_valid && rep_cap);                       // a capacity Fail
      cover (sweep);                                      // the history sweeping
      cover (cw_req_valid && cw_req_ready_i);             // a commit write
      cover (rep_valid && rep_type == RepDoneCommit);     // a DoneCommit
      cover (rep_valid && rep_type == RepFail);           // a Fail reply
    end
  end

  end

endmodule
