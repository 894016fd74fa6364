// SPDX-License-Identifier: Apache-2.0
//
// htm_sys_part: one memory partition of the FPGA prototype's subsystem (docs/proto.md,
// docs/htm_sys_part.md). It holds the partition's slice of global memory in block RAM and the
// KILO TM commit unit (htm_commit_unit) that owns those words.
//
// Global word a lives in partition (a >> IlvLog2) mod NumParts at local word
// {a[AddrW-1 : IlvLog2+PartBits], a[IlvLog2-1:0]}; part_idx_i says which partition this is
// (every instance has the same parameters). Requests (req_*, from the request crossbar, the core
// in req_src_i) and replies (rep_*, to the reply crossbar, the core in rep_dst_o) are flat
// vectors, most significant field first:
//   request  {kind (sys_req_e, 1), type (cu_msg_e, 3), cid, route, addr, data}
//   reply    {kind (sys_rep_e, 2), type (cu_rep_e, 3), cid, route, data}
// Intake, in the cycle the request is offered:
//   * a load, a ReadSet or a WriteSet whose address is another partition's is accepted and
//     dropped, and sets the sticky err_o from the next cycle;
//   * a load is accepted when it wins the memory port and a place in the load-reply queue is
//     free counting the loads in flight (LoadQDepth places);
//   * a commit-unit message goes to the commit unit (src = {core, route}, the global address)
//     while the Pass/Fail/DoneCommit queue holds fewer than CuQSlack replies (more than
//     RingSize free places: each ring entry owes at most one such reply without more intake, so
//     the queue cannot overflow) and, for an Alloc, while the Alloc-reply queue has room for its
//     reply counting the one the unit sends next cycle; it is accepted when the unit is ready
//     (a ReadSet needing a validation read only when that read wins the memory port).
// Memory: one htm_ram_sp of 2^AddrW / NumParts words and an output register (read latency 2).
// One access per cycle, round-robin (htm_rr_arb) among the commit unit's commit writes (0),
// its validation reads (1), loads (2) and the maintenance port (3). A validation response
// returns with its tag two cycles after the read; a commit write is acknowledged one cycle
// after it is written. Replies: three queues (loads, Alloc replies, Pass/Fail/DoneCommit),
// round-robin into one output register that holds its reply until rep_ready_i. Latencies
// with empty queues: a load's reply is valid 4 cycles after it is accepted, an Alloc's 3, the
// commit unit's Pass, Fail and DoneCommit 2 cycles after the unit emits them.
// Maintenance (mt_*): one word by global address, valid/ready, read data on mt_rvalid_o two
// cycles after acceptance; an address of another partition is accepted, dropped and flagged.
//
// Combinational paths through the commit unit (its RTL): in_ready_o depends on in_type_i,
// in_cid_i and vr_req_ready_i; vr_req_valid_o and its address on in_valid_i, in_type_i,
// in_cid_i and in_addr_i; cw_req_*, arep_*, rep_*, busy_o, err_o only on state; vr_rsp_* and
// cw_ack_valid_i reach no output in their cycle. Here the unit's in_valid_i comes from req_*
// and queue counts, never from its in_ready_o, and the memory arbiter's grants come from the
// requests only, so req_valid_i -> in_valid -> vr_req_valid -> grant -> vr_req_ready ->
// in_ready -> req_ready_o is acyclic: no register is needed to break a loop.
`include "htm_assert.svh"

module htm_sys_part #(
  parameter int unsigned NumParts         = 2,    // partitions, a power of two
  parameter int unsigned AddrW            = 13,   // global word address width
  parameter int unsigned DataW            = 32,   // data word width
  parameter int unsigned IlvLog2          = 6,    // interleaving: 2^IlvLog2 words per stripe
  parameter int unsigned CoreW            = 2,    // core index width
  parameter int unsigned RouteW           = 5,    // route {warp, lane} inside a core
  // The commit unit's (docs/htm_commit_unit.md); its SrcW is CoreW + RouteW.
  parameter int unsigned CidW             = 10,
  parameter int unsigned RingSize         = 32,
  parameter int unsigned BufWords         = 256,
  parameter int unsigned ValTags          = 4,
  parameter int unsigned LwhSets          = 64,
  parameter int unsigned LwhWays          = 2,
  parameter int unsigned LwhBfHashes      = 2,
  parameter int unsigned LwhBfSlots       = 64,
  parameter int unsigned LwhScrubInterval = 3,
  parameter bit          LwhPipe          = 1'b0, // 1: the LWH result registered (100 MHz)
  // Derived, do not set.
  localparam int unsigned PartW           = htm_pkg::idx_width(NumParts),
  localparam int unsigned ReqW            = 4 + CidW + RouteW + AddrW + DataW,
  localparam int unsigned RepW            = 5 + CidW + RouteW + DataW
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [PartW-1:0] part_idx_i,     // this partition's index (< NumParts)
  // requests from the cores
  input  logic             req_valid_i,
  output logic             req_ready_o,
  input  logic [CoreW-1:0] req_src_i,      // the core
  input  logic [ReqW-1:0]  req_data_i,
  // replies to the cores
  output logic             rep_valid_o,
  input  logic             rep_ready_i,
  output logic [CoreW-1:0] rep_dst_o,      // the core
  output logic [RepW-1:0]  rep_data_o,
  // maintenance port: initial memory and final-state check
  input  logic             mt_valid_i,
  output logic             mt_ready_o,
  input  logic             mt_we_i,
  input  logic [AddrW-1:0] mt_addr_i,      // global word address
  input  logic [DataW-1:0] mt_wdata_i,
  output logic             mt_rvalid_o,    // read data, two cycles after the read
  output logic [DataW-1:0] mt_rdata_o,
  // events (one-cycle pulses) and status
  output logic             ev_load_o,      // a load was accepted
  output logic             ev_cu_msg_o,    // a message was accepted by the commit unit
  output logic             ev_alloc_fail_o,  // the commit unit replied AllocFail
  output logic             cu_busy_o,      // the commit unit's busy_o
  output logic             rct_inc_valid_o,  // the commit unit's RCT events
  output logic [AddrW-1:0] rct_inc_addr_o,
  output logic             rct_inc_write_o,
  output logic             rct_dec_valid_o,
  output logic [AddrW-1:0] rct_dec_addr_o,
  output logic             rct_dec_write_o,
  output logic             busy_o,         // anything in flight
  output logic             err_o           // sticky: the unit's err_o, or another's address
);

  localparam int unsigned PartBits  = $clog2(NumParts);
  localparam int unsigned LocalW    = AddrW - PartBits;
  localparam int unsigned Words     = 1 << LocalW;
  localparam int unsigned MemAW     = htm_pkg::idx_width(Words);
  localparam int unsigned SrcW      = CoreW + RouteW;
  localparam int unsigned TagW      = htm_pkg::idx_width(ValTags);
  // Reply queues: a stream of one kind flows at one reply per cycle with these depths.
  localparam int unsigned LoadQDepth  = 4;  // accepted, RAM, output register, queue
  localparam int unsigned AllocQDepth = 3;  // accepted, the unit's reply, queue
  localparam int unsigned CuQSlack    = 4;
  localparam int unsigned CuQDepth    = RingSize + CuQSlack;
  localparam int unsigned LqW = CoreW + RouteW + CidW + DataW;  // {core, route, cid, data}
  localparam int unsigned AqW = 1 + CidW + SrcW;                // {pass, cid, src}
  localparam int unsigned CqW = 3 + CidW + SrcW;                // {type, cid, src}
  localparam int unsigned LqCntW = $clog2(LoadQDepth + 1);
  localparam int unsigned AqCntW = $clog2(AllocQDepth + 1);
  localparam int unsigned CqCntW = $clog2(CuQDepth + 1);

  `HTM_ASSERT_INIT(NumPartsPow2_A, htm_pkg::is_pow2(NumParts))
  `HTM_ASSERT_INIT(AddrWRange_A, AddrW > PartBits && LocalW <= 20)
  `HTM_ASSERT_INIT(IlvRange_A, IlvLog2 + PartBits <= AddrW)
  `HTM_ASSERT_INIT(DataWRange_A, DataW >= 1 && DataW <= 64)
  `HTM_ASSERT_INIT(CoreWRange_A, CoreW >= 1 && RouteW >= 1)

  localparam logic       KindLoad    = 1'(htm_pkg::SysReqLoad);
  localparam logic [1:0] RepLoad     = 2'(htm_pkg::SysRepLoad);
  localparam logic [1:0] RepAlloc    = 2'(htm_pkg::SysRepAlloc);
  localparam logic [1:0] RepCu       = 2'(htm_pkg::SysRepCu);
  localparam logic [2:0] MsgAlloc    = 3'(htm_pkg::CuMsgAlloc);
  localparam logic [2:0] MsgReadSet  = 3'(htm_pkg::CuMsgReadSet);
  localparam logic [2:0] MsgWriteSet = 3'(htm_pkg::CuMsgWriteSet);
  localparam logic [2:0] AllocPass   = 3'(htm_pkg::CuRepAllocPass);
  localparam logic [2:0] AllocFail   = 3'(htm_pkg::CuRepAllocFail);

  // Memory-port requesters (htm_rr_arb order) and what a read in flight is for.
  localparam int unsigned ReqCw   = 0;
  localparam int unsigned ReqVr   = 1;
  localparam int unsigned ReqLoad = 2;
  localparam int unsigned ReqMt   = 3;
  localparam logic [1:0]  RdNone  = 2'd0;
  localparam logic [1:0]  RdVr    = 2'd1;
  localparam logic [1:0]  RdLoad  = 2'd2;
  localparam logic [1:0]  RdMt    = 2'd3;

  // Whether a global address is this partition's, and its local word.
  function automatic logic is_mine(input logic [AddrW-1:0] a, input logic [PartW-1:0] idx);
    is_mine = (NumParts == 1) || (PartW'(a >> IlvLog2) == idx);
  endfunction

  function automatic logic [MemAW-1:0] local_word(input logic [AddrW-1:0] a);
    logic [AddrW-1:0] hi, lo;
    hi = (a >> (IlvLog2 + PartBits)) << IlvLog2;
    lo = a & ((AddrW'(1) << IlvLog2) - AddrW'(1));
    local_word = MemAW'(hi | lo);
  endfunction

  // -----------------------------------------------------------------------------------------------
  // Request fields
  // -----------------------------------------------------------------------------------------------
  logic             req_kind;
  logic [2:0]       req_type;
  logic [CidW-1:0]  req_cid;
  logic [RouteW-1:0] req_route;
  logic [AddrW-1:0] req_addr;
  logic [DataW-1:0] req_wdata;
  assign {req_kind, req_type, req_cid, req_route, req_addr, req_wdata} = req_data_i;

  logic is_load, has_addr, bad_addr, mt_ok;
  assign is_load  = req_kind == KindLoad;
  assign has_addr = is_load || req_type == MsgReadSet || req_type == MsgWriteSet;
  assign bad_addr = has_addr && !is_mine(req_addr, part_idx_i);
  assign mt_ok    = is_mine(mt_addr_i, part_idx_i);

  // -----------------------------------------------------------------------------------------------
  // State: the read pipeline, the acknowledgement, the output register, errors
  // -----------------------------------------------------------------------------------------------
  logic [1:0]       s1_kind_q, s2_kind_q;  // what the read of stage 1 (RAM) / 2 (register) is for
  logic [TagW-1:0]  s1_tag_q, s2_tag_q;
  logic [LqW-DataW-1:0] s1_meta_q, s2_meta_q;  // a load's {core, route, cid}
  logic [DataW-1:0] s2_data_q;
  logic             cw_ack_q;
  logic             rep_valid_q;
  logic [CoreW-1:0] rep_dst_q;
  logic [RepW-1:0]  rep_data_q;
  logic             bad_q;

  // -----------------------------------------------------------------------------------------------
  // Reply queues (their counts gate the intake)
  // -----------------------------------------------------------------------------------------------
  logic              lq_push, lq_in_ready, lq_valid, lq_pop;
  logic              aq_push, aq_in_ready, aq_valid, aq_pop;
  logic              cq_push, cq_in_ready, cq_valid, cq_pop;
  logic [LqW-1:0]    lq_wdata, lq_rdata;
  logic [AqW-1:0]    aq_wdata, aq_rdata;
  logic [CqW-1:0]    cq_wdata, cq_rdata;
  logic [LqCntW-1:0] lq_count;
  logic [AqCntW-1:0] aq_count;
  logic [CqCntW-1:0] cq_count;

  // Places of the load queue taken or reserved by loads in flight.
  logic [LqCntW:0] lq_reserved;
  assign lq_reserved = (LqCntW + 1)'(lq_count) + (LqCntW + 1)'(s1_kind_q == RdLoad)
                     + (LqCntW + 1)'(s2_kind_q == RdLoad);

  // -----------------------------------------------------------------------------------------------
  // The commit unit
  // -----------------------------------------------------------------------------------------------
  logic             cu_in_valid, cu_in_ready, cu_gate;
  logic             cu_arep_valid, cu_arep_pass, cu_rep_valid, cu_rep_cap;
  logic [CidW-1:0]  cu_arep_cid, cu_rep_cid;
  logic [SrcW-1:0]  cu_arep_src, cu_rep_src;
  logic [2:0]       cu_rep_type;
  logic             cu_vr_valid, cu_vr_ready, cu_cw_valid, cu_cw_ready;
  logic [AddrW-1:0] cu_vr_addr, cu_cw_addr;
  logic [TagW-1:0]  cu_vr_tag;
  logic [DataW-1:0] cu_cw_data;
  logic             cu_rsp_valid;
  logic [CidW-1:0]  cu_ptr_retire, cu_ptr_commit, cu_ptr_pass, cu_ptr_fcd;
  logic             cu_busy, cu_sweep, cu_err;
  logic [SrcW-1:0]  cu_src;

  // The gating rule: more than RingSize free places in the Pass/Fail/DoneCommit queue, and for
  // an Alloc a place for its reply (the unit's reply of last cycle's Alloc is pushed now).
  assign cu_gate     = 32'(cq_count) < CuQSlack &&
                       (req_type != MsgAlloc ||
                        32'(aq_count) + 32'(cu_arep_valid) < AllocQDepth);
  assign cu_in_valid = req_valid_i && !is_load && !bad_addr && cu_gate;
  assign cu_src      = {req_src_i, req_route};
  assign cu_rsp_valid = s2_kind_q == RdVr;

  htm_commit_unit #(
    .AddrW           (AddrW),
    .DataW           (DataW),
    .CidW            (CidW),
    .SrcW            (SrcW),
    .RingSize        (RingSize),
    .BufWords        (BufWords),
    .ValTags         (ValTags),
    .LwhSets         (LwhSets),
    .LwhWays         (LwhWays),
    .LwhBfHashes     (LwhBfHashes),
    .LwhBfSlots      (LwhBfSlots),
    .LwhScrubInterval(LwhScrubInterval),
    .LwhPipe         (LwhPipe)
  ) u_cu (
    .clk_i,
    .rst_ni,
    .in_valid_i     (cu_in_valid),
    .in_ready_o     (cu_in_ready),
    .in_type_i      (req_type),
    .in_cid_i       (req_cid),
    .in_src_i       (cu_src),
    .in_addr_i      (req_addr),
    .in_data_i      (req_wdata),
    .arep_valid_o   (cu_arep_valid),
    .arep_pass_o    (cu_arep_pass),
    .arep_cid_o     (cu_arep_cid),
    .arep_src_o     (cu_arep_src),
    .rep_valid_o    (cu_rep_valid),
    .rep_type_o     (cu_rep_type),
    .rep_cid_o      (cu_rep_cid),
    .rep_src_o      (cu_rep_src),
    .rep_cap_o      (cu_rep_cap),
    .vr_req_valid_o (cu_vr_valid),
    .vr_req_ready_i (cu_vr_ready),
    .vr_req_addr_o  (cu_vr_addr),
    .vr_req_tag_o   (cu_vr_tag),
    .vr_rsp_valid_i (cu_rsp_valid),
    .vr_rsp_tag_i   (s2_tag_q),
    .vr_rsp_data_i  (s2_data_q),
    .cw_req_valid_o (cu_cw_valid),
    .cw_req_ready_i (cu_cw_ready),
    .cw_req_addr_o  (cu_cw_addr),
    .cw_req_data_o  (cu_cw_data),
    .cw_ack_valid_i (cw_ack_q),
    .rct_inc_valid_o,
    .rct_inc_addr_o,
    .rct_inc_write_o,
    .rct_dec_valid_o,
    .rct_dec_addr_o,
    .rct_dec_write_o,
    .ptr_retire_o   (cu_ptr_retire),
    .ptr_commit_o   (cu_ptr_commit),
    .ptr_pass_o     (cu_ptr_pass),
    .ptr_fcd_o      (cu_ptr_fcd),
    .busy_o         (cu_busy),
    .sweep_o        (cu_sweep),
    .err_o          (cu_err)
  );

  // -----------------------------------------------------------------------------------------------
  // Memory port: round-robin among commit writes, validation reads, loads, maintenance
  // -----------------------------------------------------------------------------------------------
  logic [3:0] mem_req, mem_gnt;
  logic [1:0] mem_gnt_idx, mem_prio;
  logic       mem_en, mem_gnt_valid, mem_we, ld_req, mt_req, mem_rvalid_unused;
  logic [MemAW-1:0] mem_addr;
  logic [DataW-1:0] mem_wdata, mem_rdata;

  assign ld_req  = req_valid_i && is_load && !bad_addr && 32'(lq_reserved) < LoadQDepth;
  assign mt_req  = mt_valid_i && mt_ok;
  assign mem_req = {mt_req, ld_req, cu_vr_valid, cu_cw_valid};

  // Every grant is taken: each requester's valid is its acceptance condition but the grant.
  htm_rr_arb #(.NumReq(4)) u_mem_arb (
    .clk_i,
    .rst_ni,
    .req_i      (mem_req),
    .ack_i      (1'b1),
    .gnt_o      (mem_gnt),
    .gnt_idx_o  (mem_gnt_idx),
    .gnt_valid_o(mem_gnt_valid),
    .prio_o     (mem_prio)
  );

  assign cu_cw_ready = mem_gnt[ReqCw];

  // The memory's controls from the arbiter's choice, retimed (the same choice): the validation
  // read's request is the late one (it comes through the commit unit's intake decision), so the
  // address, enable and write enable are the round-robin choice among the other three
  // requesters (nv_*, from mem_prio and early requests), overridden by the validation read when
  // it is requested and no other requester comes before it in the round-robin order.
  logic [3:0] nv_req, nv_gnt;
  logic [1:0] nv_idx;
  logic       nv_found, vr_blocked, vr_win;
  assign nv_req = {mt_req, ld_req, 1'b0, cu_cw_valid};

  always_comb begin
    nv_found   = 1'b0;
    nv_idx     = '0;
    vr_blocked = 1'b0;
    for (int o = 0; o < 4; o++) begin
      if (!nv_found && nv_req[2'(32'(mem_prio) + o)]) begin
        nv_found = 1'b1;
        nv_idx   = 2'(32'(mem_prio) + o);
      end
      if (2'(32'(mem_prio) + o) == 2'(ReqVr)) begin
        vr_blocked = nv_found;
      end
    end
    nv_gnt = '0;
    if (nv_found) begin
      nv_gnt[nv_idx] = 1'b1;
    end
  end

  assign vr_win      = cu_vr_valid && !vr_blocked;
  assign cu_vr_ready = vr_win;
  assign mem_we    = !vr_win && (nv_gnt[ReqCw] || (nv_gnt[ReqMt] && mt_we_i));
  assign mem_wdata = nv_gnt[ReqCw] ? cu_cw_data : mt_wdata_i;

  always_comb begin
    unique case (nv_idx)
      2'd0:    mem_addr = local_word(cu_cw_addr);
      2'd2:    mem_addr = local_word(req_addr);
      default: mem_addr = local_word(mt_addr_i);
    endcase
    if (vr_win) begin
      mem_addr = local_word(cu_vr_addr);
    end
  end

  assign mem_en = nv_found || cu_vr_valid;

  htm_ram_sp #(.Width(DataW), .Depth(Words)) u_mem (
    .clk_i,
    .rst_ni,
    .en_i    (mem_en),
    .we_i    (mem_we),
    .addr_i  (mem_addr),
    .wdata_i (mem_wdata),
    .rvalid_o(mem_rvalid_unused),
    .rdata_o (mem_rdata)
  );

  // What the read granted now is for (writes need nothing back but a commit write's
  // acknowledgement).
  logic [1:0] s1_kind_d;
  always_comb begin
    s1_kind_d = RdNone;
    if (mem_gnt[ReqVr]) begin
      s1_kind_d = RdVr;
    end else if (mem_gnt[ReqLoad]) begin
      s1_kind_d = RdLoad;
    end else if (mem_gnt[ReqMt] && !mt_we_i) begin
      s1_kind_d = RdMt;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Acceptance and events
  // -----------------------------------------------------------------------------------------------
  assign req_ready_o     = bad_addr || (is_load ? mem_gnt[ReqLoad] : cu_gate && cu_in_ready);
  assign mt_ready_o      = !mt_ok || mem_gnt[ReqMt];
  assign ev_load_o       = mem_gnt[ReqLoad];
  assign ev_cu_msg_o     = cu_in_valid && cu_in_ready;
  assign ev_alloc_fail_o = cu_arep_valid && !cu_arep_pass;

  // -----------------------------------------------------------------------------------------------
  // Reply queues and the output register
  // -----------------------------------------------------------------------------------------------
  assign lq_push  = s2_kind_q == RdLoad;
  assign lq_wdata = {s2_meta_q, s2_data_q};
  assign aq_push  = cu_arep_valid;
  assign aq_wdata = {cu_arep_pass, cu_arep_cid, cu_arep_src};
  assign cq_push  = cu_rep_valid;
  assign cq_wdata = {cu_rep_type, cu_rep_cid, cu_rep_src};

  htm_fifo #(.Width(LqW), .Depth(LoadQDepth)) u_lq (
    .clk_i, .rst_ni, .clr_i(1'b0), .in_valid_i(lq_push), .in_ready_o(lq_in_ready),
    .in_data_i(lq_wdata), .out_valid_o(lq_valid), .out_ready_i(lq_pop), .out_data_o(lq_rdata),
    .count_o(lq_count));
  htm_fifo #(.Width(AqW), .Depth(AllocQDepth)) u_aq (
    .clk_i, .rst_ni, .clr_i(1'b0), .in_valid_i(aq_push), .in_ready_o(aq_in_ready),
    .in_data_i(aq_wdata), .out_valid_o(aq_valid), .out_ready_i(aq_pop), .out_data_o(aq_rdata),
    .count_o(aq_count));
  htm_fifo #(.Width(CqW), .Depth(CuQDepth)) u_cq (
    .clk_i, .rst_ni, .clr_i(1'b0), .in_valid_i(cq_push), .in_ready_o(cq_in_ready),
    .in_data_i(cq_wdata), .out_valid_o(cq_valid), .out_ready_i(cq_pop), .out_data_o(cq_rdata),
    .count_o(cq_count));

  // Round-robin among the queue heads (0 loads, 1 Alloc replies, 2 the unit's replies) into the
  // output register whenever it is empty or its reply leaves in this cycle.
  logic [2:0] rep_req, rep_gnt;
  logic [1:0] rep_gnt_idx, rep_prio;
  logic       rep_gnt_valid, rep_load;
  assign rep_req  = {cq_valid, aq_valid, lq_valid};
  assign rep_load = rep_gnt_valid && (!rep_valid_q || rep_ready_i);

  htm_rr_arb #(.NumReq(3)) u_rep_arb (
    .clk_i,
    .rst_ni,
    .req_i      (rep_req),
    .ack_i      (rep_load),
    .gnt_o      (rep_gnt),
    .gnt_idx_o  (rep_gnt_idx),
    .gnt_valid_o(rep_gnt_valid),
    .prio_o     (rep_prio)
  );

  assign lq_pop = rep_load && rep_gnt[0];
  assign aq_pop = rep_load && rep_gnt[1];
  assign cq_pop = rep_load && rep_gnt[2];

  // The granted head as a reply.
  logic [CoreW-1:0]  lq_core;
  logic [RouteW-1:0] lq_route;
  logic [CidW-1:0]   lq_cid, aq_cid, cq_cid;
  logic [DataW-1:0]  lq_data;
  logic              aq_pass;
  logic [SrcW-1:0]   aq_src, cq_src;
  logic [2:0]        cq_type;
  logic [CoreW-1:0]  rep_dst_d;
  logic [RepW-1:0]   rep_data_d;
  assign {lq_core, lq_route, lq_cid, lq_data} = lq_rdata;
  assign {aq_pass, aq_cid, aq_src}            = aq_rdata;
  assign {cq_type, cq_cid, cq_src}            = cq_rdata;

  always_comb begin
    unique case (rep_gnt_idx)
      2'd0: begin
        rep_dst_d  = lq_core;
        rep_data_d = {RepLoad, 3'd0, lq_cid, lq_route, lq_data};
      end
      2'd1: begin
        rep_dst_d  = aq_src[SrcW-1 -: CoreW];
        rep_data_d = {RepAlloc, aq_pass ? AllocPass : AllocFail, aq_cid, aq_src[RouteW-1:0],
                      DataW'(0)};
      end
      default: begin
        rep_dst_d  = cq_src[SrcW-1 -: CoreW];
        rep_data_d = {RepCu, cq_type, cq_cid, cq_src[RouteW-1:0], DataW'(0)};
      end
    endcase
  end

  // -----------------------------------------------------------------------------------------------
  // Registers
  // -----------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_kind_q   <= RdNone;
      s2_kind_q   <= RdNone;
      cw_ack_q    <= 1'b0;
      rep_valid_q <= 1'b0;
      bad_q       <= 1'b0;
    end else begin
      s1_kind_q <= s1_kind_d;
      s2_kind_q <= s1_kind_q;
      cw_ack_q  <= mem_gnt[ReqCw];
      if (rep_load) begin
        rep_valid_q <= 1'b1;
      end else if (rep_ready_i) begin
        rep_valid_q <= 1'b0;
      end
      if ((req_valid_i && bad_addr) || (mt_valid_i && !mt_ok)) begin
        bad_q <= 1'b1;
      end
    end
  end

  // Payloads: no reset, read only under their valid.
  always_ff @(posedge clk_i) begin
    if (s1_kind_d != RdNone) begin
      s1_tag_q  <= cu_vr_tag;
      s1_meta_q <= {req_src_i, req_route, req_cid};
    end
    if (s1_kind_q != RdNone) begin
      s2_tag_q  <= s1_tag_q;
      s2_meta_q <= s1_meta_q;
      s2_data_q <= mem_rdata;
    end
    if (rep_load) begin
      rep_dst_q  <= rep_dst_d;
      rep_data_q <= rep_data_d;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  assign rep_valid_o = rep_valid_q;
  assign rep_dst_o   = rep_dst_q;
  assign rep_data_o  = rep_data_q;
  assign mt_rvalid_o = s2_kind_q == RdMt;
  assign mt_rdata_o  = s2_data_q;
  assign cu_busy_o   = cu_busy;
  assign busy_o      = cu_busy || s1_kind_q != RdNone || s2_kind_q != RdNone || cw_ack_q ||
                       cu_arep_valid || lq_valid || aq_valid || cq_valid || rep_valid_q;
  assign err_o       = bad_q || cu_err;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  `HTM_ASSERT(PartIdxRange_A, 32'(part_idx_i) < NumParts)
  // No reply queue overflows (the gating rules above); nothing is ever dropped.
  `HTM_ASSERT(LoadQNoOverflow_A, `HTM_IMPLIES(lq_push, lq_in_ready))
  `HTM_ASSERT(AllocQNoOverflow_A, `HTM_IMPLIES(aq_push, aq_in_ready))
  `HTM_ASSERT(CuQNoOverflow_A, `HTM_IMPLIES(cq_push, cq_in_ready))
  // The commit unit reads and writes only this partition's words (it got no other address).
  `HTM_ASSERT(CuVrMine_A, `HTM_IMPLIES(cu_vr_valid, is_mine(cu_vr_addr, part_idx_i)))
  `HTM_ASSERT(CuCwMine_A, `HTM_IMPLIES(cu_cw_valid, is_mine(cu_cw_addr, part_idx_i)))
  // The memory's retimed controls follow the arbiter's grant.
  `HTM_ASSERT(MemRetimed_A, mem_gnt == (vr_win ? 4'(1 << ReqVr) : nv_gnt) &&
                            mem_en == mem_gnt_valid)
  // Formal covers: the Alloc and load gates hold a request (the Pass/Fail/DoneCommit gate needs
  // more replies than a proof's depth holds; the lockstep bench counts it, cu_gated).
  `HTM_COVER(AllocGated_C, req_valid_i && !is_load && !bad_addr && !cu_gate &&
                           32'(cq_count) < CuQSlack)
  `HTM_COVER(LoadGated_C, req_valid_i && is_load && !bad_addr && !ld_req)

  logic unused_sig;
  assign unused_sig = ^{mem_rvalid_unused, mem_gnt_idx, rep_prio, cu_rep_cap, cu_ptr_retire,
                        cu_ptr_commit, cu_ptr_pass, cu_ptr_fcd, cu_sweep};

endmodule
