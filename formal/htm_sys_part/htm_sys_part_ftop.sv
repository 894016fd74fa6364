// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_sys_part. The environment is any sequence of requests (loads and
// commit-unit messages of any kind, cid, route and address, protocol violations included,
// withdrawn or changed at will), any rep_ready and any maintenance access; the partition index
// is an arbitrary constant below NumParts. Besides the RTL's own assertions (no reply queue
// overflows: LoadQNoOverflow_A, AllocQNoOverflow_A, CuQNoOverflow_A, and those of the commit
// unit, the FIFOs and the arbiters), proved from the ports:
//   * no load reply without a load accepted and not yet answered, and never more than
//     LoadQDepth + 1 loads outstanding (the reserved places and the output register);
//   * a load the wrapper tags at its acceptance (f_pick_i) is answered after exactly the loads
//     accepted before it and still unanswered, to its core, route and cid: with the first
//     property, every accepted load is answered once, in order;
//   * while rep_ready_i stays high from its acceptance, the tagged load is answered within
//     6 + 3 A cycles, A the loads ahead of it (the pipeline and the queue's push take four
//     cycles, the three-queue round robin serves the load queue at least every third cycle);
//   * ErrCheck 1: with the commit unit receiving only Allocs (its own error classes are proved
//     on htm_commit_unit), err_o is exactly "a request or maintenance access with another
//     partition's address was taken" (htm_err_check), from the cycle after, for good.
// Covers: the tagged load answered behind another, the error; and the RTL's own (an Alloc held
// for its reply's place, a load held for a reply place).
// Bounded: the memory, the commit unit's buffer and its LWH are RAM, whose unreachable contents
// defeat induction.
`include "htm_assert.svh"

module htm_sys_part_ftop #(
  parameter int unsigned NumParts         = 1,
  parameter int unsigned AddrW            = 2,
  parameter int unsigned DataW            = 1,
  parameter int unsigned IlvLog2          = 0,
  parameter int unsigned CoreW            = 1,
  parameter int unsigned RouteW           = 1,
  parameter int unsigned CidW             = 5,
  parameter int unsigned RingSize         = 2,
  parameter int unsigned BufWords         = 2,
  parameter int unsigned ValTags          = 1,
  parameter int unsigned LwhSets          = 1,
  parameter int unsigned LwhWays          = 1,
  parameter int unsigned LwhBfHashes      = 1,
  parameter int unsigned LwhBfSlots       = 1,
  parameter int unsigned LwhScrubInterval = 2,
  parameter bit          LwhPipe          = 1'b0,
  // 0: the load properties and their covers; 1: the error output.
  parameter bit          ErrCheck         = 1'b0,
  localparam int unsigned PartW           = htm_pkg::idx_width(NumParts),
  localparam int unsigned ReqW            = 4 + CidW + RouteW + AddrW + DataW,
  localparam int unsigned RepW            = 5 + CidW + RouteW + DataW
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic [PartW-1:0] part_idx_i,
  input logic             req_valid_i,
  input logic [CoreW-1:0] req_src_i,
  input logic [ReqW-1:0]  req_data_i,
  input logic             rep_ready_i,
  input logic             mt_valid_i,
  input logic             mt_we_i,
  input logic [AddrW-1:0] mt_addr_i,
  input logic [DataW-1:0] mt_wdata_i,
  // The load to tag (the first one taken while this is high).
  input logic             f_pick_i,
  // ErrCheck: 0 in a cycle whose request and maintenance access are this partition's.
  input logic             illegal_i
);
  localparam int unsigned LoadQDepth = 4;
  localparam int unsigned CntW       = 4;
  localparam int unsigned AgeW       = 6;

  logic             req_ready, rep_valid, mt_ready, mt_rvalid, ev_load, ev_cu_msg;
  logic             ev_alloc_fail, cu_busy, rct_inc_valid, rct_inc_write, rct_dec_valid;
  logic             rct_dec_write, busy, err;
  logic [CoreW-1:0] rep_dst;
  logic [RepW-1:0]  rep_data;
  logic [DataW-1:0] mt_rdata;
  logic [AddrW-1:0] rct_inc_addr, rct_dec_addr;

  htm_sys_part #(
    .NumParts        (NumParts),
    .AddrW           (AddrW),
    .DataW           (DataW),
    .IlvLog2         (IlvLog2),
    .CoreW           (CoreW),
    .RouteW          (RouteW),
    .CidW            (CidW),
    .RingSize        (RingSize),
    .BufWords        (BufWords),
    .ValTags         (ValTags),
    .LwhSets         (LwhSets),
    .LwhWays         (LwhWays),
    .LwhBfHashes     (LwhBfHashes),
    .LwhBfSlots      (LwhBfSlots),
    .LwhScrubInterval(LwhScrubInterval),
    .LwhPipe         (LwhPipe)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .part_idx_i,
    .req_valid_i,
    .req_ready_o    (req_ready),
    .req_src_i,
    .req_data_i,
    .rep_valid_o    (rep_valid),
    .rep_ready_i,
    .rep_dst_o      (rep_dst),
    .rep_data_o     (rep_data),
    .mt_valid_i,
    .mt_ready_o     (mt_ready),
    .mt_we_i,
    .mt_addr_i,
    .mt_wdata_i,
    .mt_rvalid_o    (mt_rvalid),
    .mt_rdata_o     (mt_rdata),
    .ev_load_o      (ev_load),
    .ev_cu_msg_o    (ev_cu_msg),
    .ev_alloc_fail_o(ev_alloc_fail),
    .cu_busy_o      (cu_busy),
    .rct_inc_valid_o(rct_inc_valid),
    .rct_inc_addr_o (rct_inc_addr),
    .rct_inc_write_o(rct_inc_write),
    .rct_dec_valid_o(rct_dec_valid),
    .rct_dec_addr_o (rct_dec_addr),
    .rct_dec_write_o(rct_dec_write),
    .busy_o         (busy),
    .err_o          (err)
  );

  `HTM_FORMAL_START_IN_RESET

  localparam logic       KindLoad    = 1'(htm_pkg::SysReqLoad);
  localparam logic [1:0] RepLoad     = 2'(htm_pkg::SysRepLoad);
  localparam logic [2:0] MsgAlloc    = 3'(htm_pkg::CuMsgAlloc);
  localparam logic [2:0] MsgReadSet  = 3'(htm_pkg::CuMsgReadSet);
  localparam logic [2:0] MsgWriteSet = 3'(htm_pkg::CuMsgWriteSet);

  // The partition's index: an arbitrary constant of range.
  (* anyconst *) logic [PartW-1:0] f_part;
  `HTM_ASSUME(PartConst_M, part_idx_i == f_part && 32'(f_part) < NumParts)

  // Request fields.
  logic              q_kind;
  logic [2:0]        q_type;
  logic [CidW-1:0]   q_cid;
  logic [RouteW-1:0] q_route;
  logic [AddrW-1:0]  q_addr;
  logic [DataW-1:0]  q_data;
  assign {q_kind, q_type, q_cid, q_route, q_addr, q_data} = req_data_i;

  // Reply fields.
  logic [1:0]        r_kind;
  logic [2:0]        r_type;
  logic [CidW-1:0]   r_cid;
  logic [RouteW-1:0] r_route;
  logic [DataW-1:0]  r_data;
  assign {r_kind, r_type, r_cid, r_route, r_data} = rep_data;

  logic load_acc, load_rep;
  assign load_acc = req_valid_i && req_ready && q_kind == KindLoad &&
                    (NumParts == 1 || PartW'(q_addr >> IlvLog2) == part_idx_i);
  assign load_rep = rep_valid && rep_ready_i && r_kind == RepLoad;

  // ---------------------------------------------------------------------------------------------
  // Loads: counted, and one tagged
  // ---------------------------------------------------------------------------------------------
  logic [CntW-1:0]   f_out_q, f_ahead_q, f_ahead0_q;
  logic              f_trk_q, f_done_q, f_rdy_q, f_behind_q;
  logic [CoreW-1:0]  f_core_q;
  logic [RouteW-1:0] f_route_q;
  logic [CidW-1:0]   f_cid_q;
  logic [AgeW-1:0]   f_age_q;
  logic              f_tag, f_match;

  assign f_tag   = !f_trk_q && load_acc && f_pick_i;
  assign f_match = rep_dst == f_core_q && r_route == f_route_q && r_cid == f_cid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_out_q    <= '0;
      f_trk_q    <= 1'b0;
      f_done_q   <= 1'b0;
      f_ahead_q  <= '0;
      f_ahead0_q <= '0;
      f_rdy_q    <= 1'b0;
      f_age_q    <= '0;
      f_behind_q <= 1'b0;
      f_core_q   <= '0;
      f_route_q  <= '0;
      f_cid_q    <= '0;
    end else begin
      f_out_q <= f_out_q + CntW'(load_acc) - CntW'(load_rep);
      if (f_tag) begin
        f_trk_q    <= 1'b1;
        f_ahead_q  <= f_out_q - CntW'(load_rep);
        f_ahead0_q <= f_out_q - CntW'(load_rep);
        f_behind_q <= f_out_q != CntW'(load_rep);
        f_core_q   <= req_src_i;
        f_route_q  <= q_route;
        f_cid_q    <= q_cid;
        f_rdy_q    <= 1'b1;
        f_age_q    <= '0;
      end else if (f_trk_q && !f_done_q) begin
        if (load_rep) begin
          if (f_ahead_q != '0) begin
            f_ahead_q <= f_ahead_q - CntW'(1);
          end else begin
            f_done_q <= 1'b1;
          end
        end
        f_rdy_q <= f_rdy_q && rep_ready_i;
        if (f_age_q != {AgeW{1'b1}}) begin
          f_age_q <= f_age_q + AgeW'(1);
        end
      end
    end
  end

  if (!ErrCheck) begin : g_loads
    // Never a load reply without a load owed; never more owed than the places and the register.
    `HTM_ASSERT(LoadReplyOwed_A, `HTM_IMPLIES(load_rep, f_out_q != '0))
    `HTM_ASSERT(LoadsBounded_A, 32'(f_out_q) <= LoadQDepth + 1)
    // The tagged load: answered behind exactly the loads ahead of it, to its core, route, cid.
    `HTM_ASSERT(TaggedInOrder_A,
                `HTM_IMPLIES(f_trk_q && !f_done_q && load_rep && f_ahead_q == '0, f_match))
    // Answered within 6 + 3 A cycles of its acceptance while rep_ready has stayed high (f_age_q
    // is 0 in the cycle after the acceptance).
    `HTM_ASSERT(TaggedAnswered_A,
                `HTM_IMPLIES(f_trk_q && !f_done_q && f_rdy_q,
                             32'(f_age_q) <= 5 + 3 * 32'(f_ahead0_q)))
    `HTM_COVER(TaggedBehindAnother_C, f_done_q && f_behind_q)
  end else begin : g_err
    // Another partition's address taken (a load, ReadSet or WriteSet, or maintenance).
    logic bad_req, bad_mt, bad;
    assign bad_req = req_valid_i && (q_kind == KindLoad || q_type == MsgReadSet ||
                                     q_type == MsgWriteSet) &&
                     NumParts != 1 && PartW'(q_addr >> IlvLog2) != part_idx_i;
    assign bad_mt  = mt_valid_i && NumParts != 1 && PartW'(mt_addr_i >> IlvLog2) != part_idx_i;
    assign bad     = bad_req || bad_mt;
    // The commit unit gets nothing but Allocs (its error classes are proved on it).
    `HTM_ASSUME(OnlyAllocs_M, `HTM_IMPLIES(req_valid_i && q_kind != KindLoad && !bad_req,
                                           q_type == MsgAlloc))
    logic seen;
    htm_err_check #(.Timing(0)) u_err (
      .clk_i, .rst_ni, .illegal_i, .bad_i(bad), .set_i(bad),
      .err_i(err), .seen_o(seen));
    `HTM_ASSERT(BadIsTakenAtOnce_A, `HTM_IMPLIES(bad_req, req_ready))
    `HTM_COVER(ErrRaised_C, seen && err)
  end

  logic unused_sig;
  assign unused_sig = ^{mt_ready, mt_rvalid, mt_rdata, ev_load, ev_cu_msg, ev_alloc_fail,
                        cu_busy, rct_inc_valid, rct_inc_write, rct_dec_valid, rct_dec_write,
                        rct_inc_addr, rct_dec_addr, busy, r_type, r_data, q_data, f_rdy_q,
                        illegal_i};

endmodule
