// SPDX-License-Identifier: Apache-2.0
//
// htm_pag_check: the Pause-and-Go check of a SIMT core (Chen & Peng, HPCA 2016, section 4.4;
// docs/authors_simulator.md, sections 3.2 and 3.3).
//
// At each transactional load or store the warp's active lanes and their word addresses are
// looked up in the core's CAT (htm_cat's lookup port: a load hits a word written by committing
// transactions, a store a word they read or write). Lanes that hit pause, the others go on:
//   * go = lanes & ~hits, pause = lanes & hits;
//   * at least one lane always proceeds: when every lane hits, the lowest goes on (res_forced_o)
//     and the others pause (so a single active lane never pauses);
//   * with Pause-and-Go off (pg_en_i, taken with the request) or no lanes, nothing is looked
//     up and every lane goes on.
// The SIMT stack (htm_tx_simt_stack) turns a non-empty pause mask into a paused Trans entry.
//
// Timing: a request is taken when idle or in the cycle the previous result is out; the CAT
// request is made from a register in the next cycle; the result comes in the cycle after the
// CAT's answer (pg off: in the cycle after the request). A CAT answer with no request
// outstanding sets err_o and is ignored.

`include "htm_assert.svh"

module htm_pag_check #(
  parameter int unsigned AddrW    = 30,  // word address width, 1..62
  parameter int unsigned WarpSize = 32   // lanes, 1..64
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // A warp's transactional load or store.
  input  logic                      req_valid_i,
  output logic                      req_ready_o,
  input  logic [WarpSize-1:0]       req_mask_i,   // the active lanes
  input  logic [WarpSize*AddrW-1:0] req_addr_i,   // lane l's word at [l*AddrW +: AddrW]
  input  logic                      req_write_i,  // a store (else a load)
  input  logic                      pg_en_i,      // Pause-and-Go on for this request
  // The CAT's lookup port.
  output logic                      cat_req_valid_o,
  input  logic                      cat_req_ready_i,
  output logic [WarpSize-1:0]       cat_req_mask_o,
  output logic [WarpSize*AddrW-1:0] cat_req_addr_o,
  output logic                      cat_req_write_o,
  input  logic                      cat_rsp_valid_i,
  input  logic [WarpSize-1:0]       cat_rsp_hit_i,
  // The decision.
  output logic                      res_valid_o,
  output logic [WarpSize-1:0]       res_go_o,      // lanes that execute the instruction
  output logic [WarpSize-1:0]       res_pause_o,   // lanes that pause
  output logic [WarpSize-1:0]       res_forced_o,  // the lane that goes on although it hit
  output logic                      err_o          // sticky: a CAT answer without a request
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 62)
  `HTM_ASSERT_INIT(WarpSizeRange_A, WarpSize >= 1 && WarpSize <= 64)

  typedef enum logic [1:0] {
    StIdle = 2'd0,  // nothing in flight
    StReq  = 2'd1,  // the CAT request is offered
    StWait = 2'd2,  // waiting for the CAT's answer
    StDone = 2'd3   // the result is out
  } state_e;

  state_e                    state_q, state_d;
  logic [WarpSize-1:0]       mask_q, hits_q;
  logic [WarpSize*AddrW-1:0] addr_q;
  logic                      write_q, err_q;
  logic                      acc, rsp_ok;

  assign req_ready_o = state_q == StIdle || state_q == StDone;
  assign acc         = req_valid_i && req_ready_o;
  assign rsp_ok      = state_q == StWait && cat_rsp_valid_i;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StReq:   if (cat_req_ready_i) state_d = StWait;
      StWait:  if (cat_rsp_valid_i) state_d = StDone;
      default: state_d = StIdle;  // StIdle, StDone
    endcase
    if (acc) begin
      state_d = (pg_en_i && req_mask_i != '0) ? StReq : StDone;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      mask_q  <= '0;
      hits_q  <= '0;
      addr_q  <= '0;
      write_q <= 1'b0;
      err_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      if (acc) begin
        mask_q  <= req_mask_i;
        addr_q  <= req_addr_i;
        write_q <= req_write_i;
        hits_q  <= '0;
      end else if (rsp_ok) begin
        hits_q <= cat_rsp_hit_i & mask_q;
      end
      if (cat_rsp_valid_i && state_q != StWait) begin
        err_q <= 1'b1;
      end
    end
  end

  assign cat_req_valid_o = state_q == StReq;
  assign cat_req_mask_o  = state_q == StReq ? mask_q : '0;
  assign cat_req_addr_o  = addr_q;
  assign cat_req_write_o = write_q;

  // The decision: the lowest lane goes on when every lane hit.
  logic [WarpSize-1:0] lowest, forced;
  logic                done;
  assign done   = state_q == StDone;
  assign lowest = mask_q & (~mask_q + WarpSize'(1));
  assign forced = (mask_q != '0 && hits_q == mask_q) ? lowest : '0;

  assign res_valid_o  = done;
  assign res_forced_o = done ? forced : '0;
  assign res_pause_o  = done ? hits_q & ~forced : '0;
  assign res_go_o     = done ? mask_q & ~(hits_q & ~forced) : '0;
  assign err_o        = err_q;

  // At least one lane of a warp with lanes goes on; go and pause split the lanes.
  `HTM_ASSERT(OneGoes_A, !done || mask_q == '0 || res_go_o != '0)
  `HTM_ASSERT(Split_A, !done || ((res_go_o | res_pause_o) == mask_q &&
                                 (res_go_o & res_pause_o) == '0))

endmodule
