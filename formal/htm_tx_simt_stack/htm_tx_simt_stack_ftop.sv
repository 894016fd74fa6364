// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_tx_simt_stack. The environment sends any command in any cycle. The
// wrapper reads the whole stack from the block's outputs and tracks the lanes a transaction
// began with and the lanes that committed (a Commit is applied when the top was a Trans entry
// inside a transaction). Inside a transaction:
//   * exactly one Retry entry, below the top, and nothing but Normal entries below it;
//   * the Trans entries above Retry hold disjoint lanes, none of them in the Retry mask;
//   * a Normal entry above Retry holds lanes of the Trans entry below it;
//   * no lane lost or duplicated: the Trans lanes, the Retry mask and the committed lanes
//     together are the lanes the transaction began with, and the committed ones are apart.
// Outside a transaction only Normal entries. Entries above the depth read zero.
// The error output (htm_err_check): err_o rises, from the next cycle and for good, exactly on
// the commands the block's header calls errors, stated from the outputs (the top, the depth,
// in_tx): a command other than Init before Init, a Branch, TxBegin or Pause that would push
// past Depth, Commit without a Trans top inside a transaction, Abort outside one, a Pause
// naming every lane of a Trans top, an unknown opcode. illegal_i: the environment may offer
// such commands in this cycle.
`include "htm_assert.svh"

module htm_tx_simt_stack_ftop #(
  parameter int unsigned WarpSize = 3,
  parameter int unsigned Depth    = 4,
  parameter int unsigned PcW      = 2,
  parameter int unsigned LogW     = 1
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic                cmd_valid_i,
  input logic [2:0]          cmd_op_i,
  input logic [WarpSize-1:0] cmd_mask_i,
  input logic [PcW-1:0]      cmd_pc_i,
  input logic [PcW-1:0]      cmd_pc2_i,
  input logic [PcW-1:0]      cmd_rpc_i,
  input logic [LogW-1:0]     cmd_log_i,
  input logic                illegal_i
);
  localparam int unsigned CntW = $clog2(Depth + 1);

  logic                      top_valid, in_tx, resumed, restarted, tx_done, paused, err;
  logic [1:0]                top_type;
  logic [PcW-1:0]            top_pc, top_rpc;
  logic [WarpSize-1:0]       top_mask;
  logic [LogW-1:0]           top_log;
  logic [CntW-1:0]           depth;
  logic [Depth*2-1:0]        stk_type;
  logic [Depth*PcW-1:0]      stk_pc, stk_rpc;
  logic [Depth*WarpSize-1:0] stk_mask;
  logic [Depth*LogW-1:0]     stk_log;

  htm_tx_simt_stack #(
    .WarpSize(WarpSize),
    .Depth   (Depth),
    .PcW     (PcW),
    .LogW    (LogW)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .cmd_valid_i(cmd_valid_i),
    .cmd_op_i   (cmd_op_i),
    .cmd_mask_i (cmd_mask_i),
    .cmd_pc_i   (cmd_pc_i),
    .cmd_pc2_i  (cmd_pc2_i),
    .cmd_rpc_i  (cmd_rpc_i),
    .cmd_log_i  (cmd_log_i),
    .top_valid_o(top_valid),
    .top_type_o (top_type),
    .top_pc_o   (top_pc),
    .top_rpc_o  (top_rpc),
    .top_mask_o (top_mask),
    .top_log_o  (top_log),
    .depth_o    (depth),
    .in_tx_o    (in_tx),
    .resumed_o  (resumed),
    .restarted_o(restarted),
    .tx_done_o  (tx_done),
    .paused_o   (paused),
    .err_o      (err),
    .stk_type_o (stk_type),
    .stk_pc_o   (stk_pc),
    .stk_rpc_o  (stk_rpc),
    .stk_mask_o (stk_mask),
    .stk_log_o  (stk_log)
  );

  `HTM_FORMAL_START_IN_RESET

  localparam logic [1:0] TNormal = 2'(htm_pkg::SimtTypeNormal);
  localparam logic [1:0] TRetry  = 2'(htm_pkg::SimtTypeRetry);
  localparam logic [1:0] TTrans  = 2'(htm_pkg::SimtTypeTrans);

  // The transaction's lanes and the committed ones.
  logic [WarpSize-1:0] f_lanes_q, f_done_q, f_lanes_d, f_done_d;
  logic                f_tx_q;
  assign f_lanes_d = (!f_tx_q && in_tx) ? top_mask : f_lanes_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_lanes_q <= '0;
      f_done_q  <= '0;
      f_tx_q    <= 1'b0;
    end else begin
      f_tx_q    <= in_tx;
      f_lanes_q <= f_lanes_d;
      f_done_q  <= f_done_d;
    end
  end
  // A Commit this cycle is applied when the top is a Trans entry inside a transaction; an Init
  // ends everything.
  always_comb begin
    f_done_d = (!f_tx_q && in_tx) ? '0 : f_done_q;
    if (cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpCommit) && in_tx && top_valid &&
        top_type == TTrans) begin
      f_done_d = f_done_d | (top_mask & ~cmd_mask_i);
    end
    if (cmd_valid_i && cmd_op_i == 3'(htm_pkg::SimtOpInit)) begin
      f_done_d = '0;
    end
  end

  // The stack as the outputs show it.
  logic [WarpSize-1:0] u, retry_mask, trans_below;
  logic                one_retry, disjoint, nested_ok, zero_above, only_normal, retry_low;
  logic [31:0]         nretry;
  always_comb begin
    u           = '0;
    retry_mask  = '0;
    trans_below = '0;
    nretry      = '0;
    disjoint    = 1'b1;
    nested_ok   = 1'b1;
    zero_above  = 1'b1;
    only_normal = 1'b1;
    retry_low   = 1'b1;
    for (int i = 0; i < Depth; i++) begin
      if (32'(i) >= 32'(depth)) begin
        if (stk_type[i*2 +: 2] != '0 || stk_mask[i*WarpSize +: WarpSize] != '0 ||
            stk_pc[i*PcW +: PcW] != '0 || stk_log[i*LogW +: LogW] != '0) begin
          zero_above = 1'b0;
        end
      end else begin
        if (stk_type[i*2 +: 2] != TNormal) begin
          only_normal = 1'b0;
        end
        if (stk_type[i*2 +: 2] == TRetry) begin
          nretry     = nretry + 32'd1;
          retry_mask = stk_mask[i*WarpSize +: WarpSize];
          if (32'(i) + 32'd1 >= 32'(depth)) begin
            retry_low = 1'b0;  // Retry on top
          end
        end else if (nretry != '0 && stk_type[i*2 +: 2] == TTrans) begin
          if ((u & stk_mask[i*WarpSize +: WarpSize]) != '0) begin
            disjoint = 1'b0;
          end
          u           = u | stk_mask[i*WarpSize +: WarpSize];
          trans_below = stk_mask[i*WarpSize +: WarpSize];
        end else if (nretry != '0) begin
          if ((stk_mask[i*WarpSize +: WarpSize] & ~trans_below) != '0) begin
            nested_ok = 1'b0;
          end
        end else if (stk_type[i*2 +: 2] != TNormal) begin
          retry_low = 1'b0;  // a Trans entry below Retry
        end
      end
    end
    one_retry = nretry == 32'd1;
  end

  `HTM_ASSERT(ZeroAboveDepth_A, zero_above)
  `HTM_ASSERT(OutsideOnlyNormal_A, in_tx || only_normal)
  `HTM_ASSERT(OneRetryBelowTop_A, !in_tx || (one_retry && retry_low))
  `HTM_ASSERT(TransDisjoint_A, !in_tx || disjoint)
  `HTM_ASSERT(NormalInsideTrans_A, !in_tx || nested_ok)
  // (In the cycle a transaction starts, its lanes are the top's and none has committed.)
  logic [WarpSize-1:0] done_now;
  assign done_now = (!f_tx_q && in_tx) ? '0 : f_done_q;
  `HTM_ASSERT(NoLaneLost_A, !in_tx || (u | retry_mask | done_now) == f_lanes_d)
  `HTM_ASSERT(NoLaneTwice_A, !in_tx || ((u & retry_mask) == '0 &&
                                        (done_now & (u | retry_mask)) == '0))
  `HTM_ASSERT(TopIsTheLast_A, !top_valid ||
                              (top_mask == stk_mask[(32'(depth) - 32'd1) * WarpSize +: WarpSize]))

  `HTM_COVER(Paused_C, paused)
  `HTM_COVER(Resumed_C, resumed)
  `HTM_COVER(Restarted_C, restarted)
  `HTM_COVER(Done_C, tx_done)

  // The error output. Branch pushes one entry per path whose PC is not the reconvergence
  // point, less one when a Normal top above the bottom already waits there (it is reused).
  logic [WarpSize-1:0] f_taken, f_fall;
  logic                f_same, f_bad, f_err_seen;
  logic [31:0]         f_pushes;
  assign f_taken  = cmd_mask_i & top_mask;
  assign f_fall   = top_mask & ~f_taken;
  assign f_same   = top_type == TNormal && 32'(depth) > 32'd1 && cmd_rpc_i == top_rpc;
  assign f_pushes = f_same ? 32'(cmd_pc2_i != cmd_rpc_i && cmd_pc_i != cmd_rpc_i)
                           : 32'(cmd_pc2_i != cmd_rpc_i) + 32'(cmd_pc_i != cmd_rpc_i);
  always_comb begin
    f_bad = 1'b0;
    if (cmd_valid_i) begin
      unique case (cmd_op_i)
        3'(htm_pkg::SimtOpInit):    f_bad = 1'b0;
        3'(htm_pkg::SimtOpNext):    f_bad = !top_valid;
        3'(htm_pkg::SimtOpBranch):  f_bad = !top_valid || (f_taken != '0 && f_fall != '0 &&
                                            32'(depth) + f_pushes > Depth);
        3'(htm_pkg::SimtOpTxBegin): f_bad = !top_valid || (!in_tx && 32'(depth) + 32'd2 > Depth);
        3'(htm_pkg::SimtOpPause):   f_bad = !top_valid || (top_type == TTrans && f_taken != '0 &&
                                            (f_taken == top_mask || 32'(depth) + 32'd1 > Depth));
        3'(htm_pkg::SimtOpCommit):  f_bad = !top_valid || !in_tx || top_type != TTrans;
        3'(htm_pkg::SimtOpAbort):   f_bad = !in_tx;
        default:                    f_bad = 1'b1;
      endcase
    end
  end
  htm_err_check #(.Timing(0)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(f_bad), .set_i(f_bad), .err_i(err),
    .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrOverflow_C, !f_err_seen && f_bad && top_valid && cmd_valid_i &&
                            cmd_op_i == 3'(htm_pkg::SimtOpTxBegin))
  `HTM_COVER(ErrPauseAll_C, !f_err_seen && f_bad && top_valid && in_tx && cmd_valid_i &&
                            cmd_op_i == 3'(htm_pkg::SimtOpPause) && f_taken == top_mask)

  logic unused;
  assign unused = ^{top_pc, top_log, stk_rpc};

endmodule
