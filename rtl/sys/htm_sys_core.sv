// SPDX-License-Identifier: Apache-2.0
//
// htm_sys_core: a SIMT core of the FPGA prototype under KILO TM (docs/htm_sys_core.md, the
// cycle-level specification; docs/proto.md, "The SIMT core"). NumWarps warp slots of WarpSize
// lanes run the prototype's workloads (ATM-P, HT-P, EB-P) batch by batch:
//   * a batch's per-lane choices come from the draw unit (htm_sys_draw), which the sequencer
//     gives to one slot at a time (round-robin over the slots waiting for it);
//   * its transaction runs as steps on the slot's transactional SIMT stack (htm_tx_simt_stack):
//     a load step sends one request per active lane (lowest lane first, one per cycle through
//     the request port) and waits for every reply, whose value goes to the lane's register and
//     to the next read-log row; a store step writes the next write-log row of one lane per cycle;
//     an empty step (an EB-P loop with a count of zero) only moves the PC;
//   * at the commit step the log walker (one per core, round-robin over the committing slots)
//     commits the lanes through the partitions' commit units by KILO TM's protocol: per lane a
//     commit id and an Alloc to every partition (the alloc engine), then its read and write log
//     words and a DoneFill or Skip to every partition (the fill engine, after every AllocPass;
//     AllocFail is asked again after AllocRetry cycles), then the decision and the final Pass or
//     Fail to the partitions that replied Pass (the outcome engine); when every lane is decided
//     and the committed ones have every DoneCommit, the stack gets Commit with the failed lanes
//     and restarts them or ends the transaction.
//
// Request port: an output register loaded whenever it is empty or taken (req_ready_i), from the
// walker's message (outcome, then fill, then alloc engine) or else a slot's load (round-robin);
// a message is sent at the edge where the register loads it. Reply port: every reply is taken;
// one that fits nothing sets err_o and is dropped. Messages are flat vectors, most significant
// field first: request {kind, type, cid, {slot, lane}, addr, data}, reply {kind, type, cid,
// {slot, lane}, data} (docs/proto.md, "Messages").
//
// Every output is a register or a function of registers: cid_req_o is the alloc engine's state,
// running_o the slots' states; the log streams, the events and err_o are registered one cycle
// after the event that sets them (logw_* in the cycle its message appears on req_*).
//
// Storage: per slot the choices c0..c2 and registers r0..r2 of every lane and the read and write
// logs, unpacked arrays without reset (distributed RAM), written in always_ff; control is reset.
//
// Pipelining for the prototype (docs/htm_sys_core.md, "Pipelining for the prototype"): registers
// that keep the specified cycle timing. The walker's next log word is read a cycle ahead into a
// word register; a load step's next load (lane and address) waits in a per-slot load buffer,
// computed the cycle before the arbiter sees it; a store's log word is written a cycle late from
// a register; the buffer and the store register hold an address's and a value's operands, summed
// after them; the lane select is a register loaded a cycle ahead; EB-P's A + k T is a running
// sum; a power-of-two warp's thread ids need no adder.
//
// Where docs/htm_sys_core.md leaves a choice, the reading taken is marked "Choice:" below.
//
// Status: written to docs/htm_sys_core.md; lockstep with its golden model in default, small and
// one; Verilator-lint clean and synthesized (Yosys synth_ecp5, nextpnr) in the three.
`include "htm_assert.svh"

module htm_sys_core #(
  parameter int unsigned NumCores   = 4,   // cores of the subsystem (global warp numbering)
  parameter int unsigned NumWarps   = 4,   // warp slots
  parameter int unsigned WarpSize   = 8,   // lanes, 1..32
  parameter int unsigned NumParts   = 2,   // memory partitions, a power of two
  parameter int unsigned AddrW      = 13,  // global word address
  parameter int unsigned IlvLog2    = 6,   // partition interleave: 2^IlvLog2 words
  parameter int unsigned CidW       = 10,  // commit id
  parameter int unsigned MaxReads   = 8,   // read-log rows per slot, >= 1
  parameter int unsigned MaxWrites  = 4,   // write-log rows per slot, >= 1
  parameter int unsigned AllocRetry = 8,   // cycles before an AllocFail is asked again, >= 1
  // Derived, do not set.
  localparam int unsigned CoreW  = htm_pkg::idx_width(NumCores),
  localparam int unsigned SlotW  = htm_pkg::idx_width(NumWarps),
  localparam int unsigned LaneW  = htm_pkg::idx_width(WarpSize),
  localparam int unsigned PartW  = htm_pkg::idx_width(NumParts),
  localparam int unsigned RouteW = SlotW + LaneW,
  localparam int unsigned DataW  = 32,
  localparam int unsigned ThrW   = 24,
  localparam int unsigned ReqW   = 4 + CidW + RouteW + AddrW + DataW,
  localparam int unsigned RepW   = 5 + CidW + RouteW + DataW
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [CoreW-1:0]  core_idx_i,      // this core (< NumCores, constant)
  // The run: configuration (stable from start to the end of the run) and control.
  input  logic              start_i,         // begin a run; ignored while running_o
  input  logic [1:0]        cfg_wl_i,        // htm_pkg::sys_wl_e
  input  logic [ThrW-1:0]   cfg_threads_i,   // threads of the grid
  input  logic [4:0]        cfg_objlog2_i,   // accounts, buckets or hot words, log2
  input  logic [4:0]        cfg_reads_i,     // EB-P: R
  input  logic [4:0]        cfg_writes_i,    // EB-P: W
  input  logic [4:0]        cfg_cold_i,      // EB-P: C
  input  logic [DataW-1:0]  cfg_seed_hash_i, // SeedHash(seed)
  output logic              running_o,       // a slot has a batch left or in flight
  // Commit ids (the subsystem's allocator; a grant in the cycle of the request).
  output logic              cid_req_o,
  input  logic              cid_gnt_i,
  input  logic [CidW-1:0]   cid_i,
  // Requests to the partitions (the request crossbar), from an output register.
  output logic              req_valid_o,
  input  logic              req_ready_i,
  output logic [PartW-1:0]  req_dst_o,
  output logic [ReqW-1:0]   req_data_o,
  // Replies (the reply crossbar); always taken.
  input  logic              rep_valid_i,
  input  logic [PartW-1:0]  rep_src_i,
  input  logic [RepW-1:0]   rep_data_i,
  // Commit log (debug, no ready): the log words the walker sends, and the decisions.
  output logic              logw_valid_o,
  output logic [CidW-1:0]   logw_cid_o,
  output logic [ThrW-1:0]   logw_thread_o,
  output logic              logw_write_o,
  output logic [AddrW-1:0]  logw_addr_o,
  output logic [DataW-1:0]  logw_data_o,
  output logic              logd_valid_o,
  output logic [CidW-1:0]   logd_cid_o,
  output logic [ThrW-1:0]   logd_thread_o,
  output logic              logd_commit_o,
  // Events (one-cycle pulses) for the counters, and the sticky error.
  output logic              ev_commit_o,     // a lane was decided committed
  output logic              ev_abort_o,      // a lane was decided failed
  output logic              ev_alloc_fail_o, // an AllocFail was taken
  output logic              err_o            // a reply that fits nothing, a log row beyond
                                             // capacity, an unknown workload
);

  localparam int unsigned PartBits = $clog2(NumParts);
  localparam int unsigned PcW      = 4;
  localparam int unsigned BaseW    = 25;
  localparam int unsigned TagW     = 1 + LaneW + 2;  // the draw's {last, lane, k}
  localparam int unsigned RRowW    = $clog2(MaxReads + 1);
  localparam int unsigned WRowW    = $clog2(MaxWrites + 1);
  localparam int unsigned MaxRows  = MaxReads > MaxWrites ? MaxReads : MaxWrites;
  localparam int unsigned FeRowW   = htm_pkg::idx_width(MaxRows);
  localparam int unsigned TimerW   = htm_pkg::idx_width(AllocRetry);
  localparam int unsigned RlIdxW   = htm_pkg::idx_width(MaxReads * WarpSize);
  localparam int unsigned WlIdxW   = htm_pkg::idx_width(MaxWrites * WarpSize);
  localparam int unsigned Stride   = NumCores * NumWarps * WarpSize;
  localparam int unsigned LP       = WarpSize * NumParts;  // per lane and partition
  localparam bit          LaneCat  = WarpSize >= 2 && htm_pkg::is_pow2(WarpSize);

  `HTM_ASSERT_INIT(NumCoresRange_A, NumCores >= 1)
  `HTM_ASSERT_INIT(NumWarpsRange_A, NumWarps >= 1)
  `HTM_ASSERT_INIT(WarpSizeRange_A, WarpSize >= 1 && WarpSize <= 32)
  `HTM_ASSERT_INIT(NumPartsPow2_A, htm_pkg::is_pow2(NumParts))
  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 32 && IlvLog2 + PartBits <= AddrW)
  `HTM_ASSERT_INIT(CidWRange_A, CidW >= 1)
  `HTM_ASSERT_INIT(LogRowsRange_A, MaxReads >= 1 && MaxWrites >= 1)
  `HTM_ASSERT_INIT(AllocRetryRange_A, AllocRetry >= 1)
  `HTM_ASSERT_INIT(StrideRange_A, Stride < (1 << 24))
  `HTM_ASSERT_INIT(ReqWRange_A, ReqW <= 64)

  // Message kinds and types (htm_pkg).
  localparam logic       ReqLoad     = 1'(htm_pkg::SysReqLoad);
  localparam logic       ReqCu       = 1'(htm_pkg::SysReqCu);
  localparam logic [1:0] RepLoad     = 2'(htm_pkg::SysRepLoad);
  localparam logic [1:0] RepAlloc    = 2'(htm_pkg::SysRepAlloc);
  localparam logic [1:0] RepCu       = 2'(htm_pkg::SysRepCu);
  localparam logic [2:0] MsgAlloc    = 3'(htm_pkg::CuMsgAlloc);
  localparam logic [2:0] MsgReadSet  = 3'(htm_pkg::CuMsgReadSet);
  localparam logic [2:0] MsgWriteSet = 3'(htm_pkg::CuMsgWriteSet);
  localparam logic [2:0] MsgDoneFill = 3'(htm_pkg::CuMsgDoneFill);
  localparam logic [2:0] MsgSkip     = 3'(htm_pkg::CuMsgSkip);
  localparam logic [2:0] MsgPass     = 3'(htm_pkg::CuMsgPass);
  localparam logic [2:0] MsgFail     = 3'(htm_pkg::CuMsgFail);
  localparam logic [2:0] AllocPass   = 3'(htm_pkg::CuRepAllocPass);
  localparam logic [2:0] AllocFail   = 3'(htm_pkg::CuRepAllocFail);
  localparam logic [2:0] RepPass     = 3'(htm_pkg::CuRepPass);
  localparam logic [2:0] RepFail     = 3'(htm_pkg::CuRepFail);
  localparam logic [2:0] RepDoneCmt  = 3'(htm_pkg::CuRepDoneCommit);
  localparam logic [1:0] WlAtm       = 2'(htm_pkg::SysWlAtm);
  localparam logic [1:0] WlHt        = 2'(htm_pkg::SysWlHt);
  localparam logic [1:0] WlEb        = 2'(htm_pkg::SysWlEb);
  localparam logic [2:0] OpInit      = 3'(htm_pkg::SimtOpInit);
  localparam logic [2:0] OpNext      = 3'(htm_pkg::SimtOpNext);
  localparam logic [2:0] OpTxBegin   = 3'(htm_pkg::SimtOpTxBegin);
  localparam logic [2:0] OpCommit    = 3'(htm_pkg::SimtOpCommit);

  // Slot states (docs/htm_sys_core.md, "The slots").
  localparam logic [3:0] SIdle       = 4'd0;
  localparam logic [3:0] SBatch      = 4'd1;
  localparam logic [3:0] SSetupWait  = 4'd2;
  localparam logic [3:0] SSetup      = 4'd3;
  localparam logic [3:0] SInit       = 4'd4;
  localparam logic [3:0] STxBegin    = 4'd5;
  localparam logic [3:0] SExec       = 4'd6;
  localparam logic [3:0] SLoad       = 4'd7;
  localparam logic [3:0] SStore      = 4'd8;
  localparam logic [3:0] SCommitWait = 4'd9;
  localparam logic [3:0] SAfter      = 4'd10;
  localparam logic [3:0] SDone       = 4'd11;

  // What a step does.
  localparam logic [1:0] KEmpty  = 2'd0;
  localparam logic [1:0] KLoad   = 2'd1;
  localparam logic [1:0] KStore  = 2'd2;
  localparam logic [1:0] KCommit = 2'd3;

  // The walker's engines.
  localparam logic       AeCid       = 1'b0;
  localparam logic       AeAlloc     = 1'b1;
  localparam logic [2:0] FeWait      = 3'd0;
  localparam logic [2:0] FeRead      = 3'd1;
  localparam logic [2:0] FeWrite     = 3'd2;
  localparam logic [2:0] FeFill      = 3'd3;
  localparam logic [2:0] FeRetryWait = 3'd4;
  localparam logic [2:0] FeRetry     = 3'd5;

  // The lowest set lane / partition (0 when none).
  function automatic logic [LaneW-1:0] lowest_lane(input logic [WarpSize-1:0] v);
    lowest_lane = '0;
    for (int i = WarpSize - 1; i >= 0; i--) begin
      if (v[i]) begin
        lowest_lane = LaneW'(i);
      end
    end
  endfunction

  function automatic logic [PartW-1:0] lowest_part(input logic [NumParts-1:0] v);
    lowest_part = '0;
    for (int i = NumParts - 1; i >= 0; i--) begin
      if (v[i]) begin
        lowest_part = PartW'(i);
      end
    end
  endfunction

  // The partition of a global word address.
  function automatic logic [PartW-1:0] part_of(input logic [AddrW-1:0] a);
    part_of = (NumParts == 1) ? '0 : PartW'(a >> IlvLog2);
  endfunction

  // The log rows the walker's fill engine reads for its next word in fill state st at row r: the
  // read log's row 0 while it waits, else row r + 1; the write log's row r + 1 while it writes,
  // else row 0 (the word register below picks one of the two).
  function automatic logic [FeRowW:0] next_rl_row(input logic [2:0] st,
                                                  input logic [FeRowW-1:0] r);
    next_rl_row = st == FeWait ? '0 : (FeRowW + 1)'(r) + 1'b1;
  endfunction

  function automatic logic [FeRowW:0] next_wl_row(input logic [2:0] st,
                                                  input logic [FeRowW-1:0] r);
    next_wl_row = st == FeWrite ? (FeRowW + 1)'(r) + 1'b1 : '0;
  endfunction

  // A log entry (row r of lane l at r * WarpSize + l), and 0 for a row beyond the log.
  function automatic logic [RlIdxW-1:0] rl_index(input logic [FeRowW:0] r,
                                                 input logic [LaneW-1:0] l);
    rl_index = 32'(r) < MaxReads ? RlIdxW'(32'(r) * WarpSize + 32'(l)) : '0;
  endfunction

  function automatic logic [WlIdxW-1:0] wl_index(input logic [FeRowW:0] r,
                                                 input logic [LaneW-1:0] l);
    wl_index = 32'(r) < MaxWrites ? WlIdxW'(32'(r) * WarpSize + 32'(l)) : '0;
  endfunction

  // -----------------------------------------------------------------------------------------------
  // The run
  // -----------------------------------------------------------------------------------------------
  logic        start_go, wl_bad;
  logic [31:0] obj_a, obj_m;  // A = 2^objlog2 and m = A - 1
  assign start_go = start_i && !running_o;
  assign wl_bad   = cfg_wl_i != WlAtm && cfg_wl_i != WlHt && cfg_wl_i != WlEb;
  assign obj_a    = 32'd1 << cfg_objlog2_i;
  assign obj_m    = obj_a - 32'd1;

  // -----------------------------------------------------------------------------------------------
  // Signals between the slots and the shared logic (slot s at [s*W +: W])
  // -----------------------------------------------------------------------------------------------
  logic [NumWarps-1:0]          sl_active;      // neither SIdle nor SDone
  logic [NumWarps-1:0]          sl_setup_wait;  // SSetupWait
  logic [NumWarps-1:0]          sl_setup;       // SSetup
  logic [NumWarps-1:0]          sl_commit_wait; // SCommitWait
  logic [NumWarps-1:0]          sl_sload;       // SLoad
  logic [NumWarps-1:0]          sl_ld_req;      // SLoad with rem != 0
  logic [NumWarps-1:0]          sl_cap_err;     // a step's log row at capacity (decoded now)
  logic [NumWarps*WarpSize-1:0] sl_pend, sl_mask;
  logic [NumWarps*BaseW-1:0]    sl_base;
  logic [NumWarps*RRowW-1:0]    sl_rrow;
  logic [NumWarps*WRowW-1:0]    sl_wrow;
  logic [NumWarps*AddrW-1:0]    sl_ld_addr;     // the load of lane lowest(rem)
  logic [NumWarps*LaneW-1:0]    sl_ld_lane;
  logic [NumWarps*LaneW-1:0]    sl_lane;        // the lane select (in SCommitWait: lowest(mask))
  logic [NumWarps*DataW-1:0]    sl_key;         // c0 of lane ds_lane (HT-P's second draw)
  logic [NumWarps*AddrW-1:0]    sl_rl_addr, sl_wl_addr;  // the walker's log word
  logic [NumWarps*DataW-1:0]    sl_rl_val, sl_wl_val;

  // -----------------------------------------------------------------------------------------------
  // Draws: the sequencer and the draw unit
  // -----------------------------------------------------------------------------------------------
  logic             ds_busy_q, ds_busy_d, ds_phase_q, ds_phase_d, ds_issuing_q, ds_issuing_d;
  logic [SlotW-1:0] ds_slot_q, ds_slot_d;
  logic [LaneW-1:0] ds_lane_q, ds_lane_d;
  logic [1:0]       ds_k_q, ds_k_d, ds_klast;
  logic             ds_last, ds_fin;
  logic [NumWarps-1:0] da_req, da_gnt;
  logic [SlotW-1:0] da_idx, da_prio;
  logic             da_valid;
  logic [BaseW-1:0] ds_base;
  logic [ThrW-1:0]  ds_tid;
  logic [7:0]       ds_stream;
  logic [DataW-1:0] dr_a, dr_b, dr_value;
  logic [TagW-1:0]  dr_tag_in, dr_tag;
  logic             dr_valid, dr_last;
  logic [LaneW-1:0] dr_lane;
  logic [1:0]       dr_k;

  // The draw arbiter over the slots in SSetupWait; a grant needs !ds_busy (as registered) and is
  // always taken (gating the requests is the same as acknowledging only while idle).
  assign da_req = ds_busy_q ? '0 : sl_setup_wait;

  htm_rr_arb #(.NumReq(NumWarps)) u_draw_arb (
    .clk_i,
    .rst_ni,
    .req_i      (da_req),
    .ack_i      (1'b1),
    .gnt_o      (da_gnt),
    .gnt_idx_o  (da_idx),
    .gnt_valid_o(da_valid),
    .prio_o     (da_prio)
  );

  // K - 1 of the workload and phase (ATM-P 3, HT-P 1 and 1, EB-P 2 draws per lane).
  always_comb begin
    unique case (cfg_wl_i)
      WlAtm:   ds_klast = 2'd2;
      WlEb:    ds_klast = 2'd1;
      default: ds_klast = 2'd0;
    endcase
  end

  assign ds_last = ds_lane_q == LaneW'(WarpSize - 1) && ds_k_q == ds_klast;
  assign ds_base = sl_base[32'(ds_slot_q)*BaseW +: BaseW];
  assign ds_tid  = ThrW'(ds_base + BaseW'(ds_lane_q));

  // The draw's input: {stream, tid} and the seed hash, or HT-P's key and 32'h5BD1E995.
  always_comb begin
    ds_stream = 8'd0;
    unique case (cfg_wl_i)
      WlAtm:   ds_stream = {6'd0, ds_k_q};         // streams 0, 1, 2
      WlHt:    ds_stream = 8'd5;
      WlEb:    ds_stream = ds_k_q == 2'd0 ? 8'd7 : 8'd6;
      default: ds_stream = 8'd0;
    endcase
    if (cfg_wl_i == WlHt && ds_phase_q) begin
      dr_a = sl_key[32'(ds_slot_q)*DataW +: DataW];
      dr_b = 32'h5BD1E995;
    end else begin
      dr_a = {ds_stream, ds_tid};
      dr_b = cfg_seed_hash_i;
    end
  end
  assign dr_tag_in = {ds_last, ds_lane_q, ds_k_q};

  htm_sys_draw #(.TagW(TagW)) u_draw (
    .clk_i,
    .rst_ni,
    .in_valid_i (ds_issuing_q),
    .a_i        (dr_a),
    .b_i        (dr_b),
    .in_tag_i   (dr_tag_in),
    .out_valid_o(dr_valid),
    .out_value_o(dr_value),
    .out_tag_o  (dr_tag)
  );
  assign {dr_last, dr_lane, dr_k} = dr_tag;

  always_comb begin
    ds_busy_d    = ds_busy_q;
    ds_slot_d    = ds_slot_q;
    ds_phase_d   = ds_phase_q;
    ds_issuing_d = ds_issuing_q;
    ds_lane_d    = ds_lane_q;
    ds_k_d       = ds_k_q;
    ds_fin       = 1'b0;
    // Choice: an ack of the draw arbiter only while idle is the same as gating its requests.
    if (da_valid) begin
      ds_busy_d    = 1'b1;
      ds_issuing_d = 1'b1;
      ds_slot_d    = da_idx;
      ds_phase_d   = 1'b0;
      ds_lane_d    = '0;
      ds_k_d       = '0;
    end
    // One draw per cycle, every lane, k fastest.
    if (ds_issuing_q) begin
      if (ds_last) begin
        ds_issuing_d = 1'b0;
      end else if (ds_k_q == ds_klast) begin
        ds_k_d    = '0;
        ds_lane_d = ds_lane_q + 1'b1;
      end else begin
        ds_k_d = ds_k_q + 2'd1;
      end
    end
    // The last result: HT-P's second phase, or the slot's setup is done.
    if (dr_valid && dr_last) begin
      if (cfg_wl_i == WlHt && !ds_phase_q) begin
        ds_phase_d   = 1'b1;
        ds_issuing_d = 1'b1;
        ds_lane_d    = '0;
        ds_k_d       = '0;
      end else begin
        ds_busy_d = 1'b0;
        ds_fin    = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ds_busy_q    <= 1'b0;
      ds_slot_q    <= '0;
      ds_phase_q   <= 1'b0;
      ds_issuing_q <= 1'b0;
      ds_lane_q    <= '0;
      ds_k_q       <= '0;
    end else begin
      ds_busy_q    <= ds_busy_d;
      ds_slot_q    <= ds_slot_d;
      ds_phase_q   <= ds_phase_d;
      ds_issuing_q <= ds_issuing_d;
      ds_lane_q    <= ds_lane_d;
      ds_k_q       <= ds_k_d;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The request port's arbitration (the walker first, then the loads round-robin)
  // -----------------------------------------------------------------------------------------------
  logic                req_valid_q;
  logic                load_en, wk_has, oe_has, fe_has, ae_has;
  logic                send_oe, send_fe, send_ae, ld_ack, ld_take;
  logic [NumWarps-1:0] la_gnt;
  logic [SlotW-1:0]    la_idx, la_prio;
  logic                la_valid;

  assign load_en = !req_valid_q || req_ready_i;
  assign wk_has  = oe_has || fe_has || ae_has;
  assign send_oe = load_en && oe_has;
  assign send_fe = load_en && !oe_has && fe_has;
  assign send_ae = load_en && !oe_has && !fe_has && ae_has;
  assign ld_ack  = load_en && !wk_has;
  assign ld_take = ld_ack && la_valid;

  htm_rr_arb #(.NumReq(NumWarps)) u_load_arb (
    .clk_i,
    .rst_ni,
    .req_i      (sl_ld_req),
    .ack_i      (ld_ack),
    .gnt_o      (la_gnt),
    .gnt_idx_o  (la_idx),
    .gnt_valid_o(la_valid),
    .prio_o     (la_prio)
  );

  // -----------------------------------------------------------------------------------------------
  // Replies
  // -----------------------------------------------------------------------------------------------
  logic [1:0]        rep_kind;
  logic [2:0]        rep_type;
  logic [CidW-1:0]   rep_cid;
  logic [RouteW-1:0] rep_route;
  logic [DataW-1:0]  rep_val;
  logic [SlotW-1:0]  rep_s;
  logic [LaneW-1:0]  rep_l;
  logic              rep_ld_ok, rep_wk_ok, rep_alloc_type, rep_cu_type;
  logic              rep_take_ld, rep_take_alloc, rep_take_cu, rep_err;
  logic              wk_busy_q;
  logic [SlotW-1:0]  wslot_q;
  logic [WarpSize-1:0] lanes_q;

  assign {rep_kind, rep_type, rep_cid, rep_route, rep_val} = rep_data_i;
  assign rep_s = rep_route[RouteW-1 -: SlotW];
  assign rep_l = rep_route[LaneW-1:0];

  // The reply register: a load reply's value and lane, for the slot's register and read-log
  // writes a cycle late (below). No reset: written only under a slot's registered enables.
  logic [DataW-1:0] rw_val_q;
  logic [LaneW-1:0] rw_lane_q;
  always_ff @(posedge clk_i) begin
    rw_val_q  <= rep_val;
    rw_lane_q <= rep_l;
  end

  // A load reply needs its slot in SLoad and the lane's load pending; an Alloc or commit-unit
  // reply needs the walker busy on its slot and the lane among the walker's lanes. Choice: the
  // type field of a load reply, the cid of every reply and the source of a load reply are not
  // looked at; an Alloc or commit-unit reply from a source >= NumParts (possible only with
  // NumParts 1) is taken without error and sets no flag.
  always_comb begin
    rep_ld_ok = 1'b0;
    rep_wk_ok = 1'b0;
    for (int s = 0; s < NumWarps; s++) begin
      for (int l = 0; l < WarpSize; l++) begin
        if (rep_s == SlotW'(s) && rep_l == LaneW'(l)) begin
          rep_ld_ok = sl_sload[s] && sl_pend[s*WarpSize + l];
        end
      end
    end
    for (int l = 0; l < WarpSize; l++) begin
      if (rep_l == LaneW'(l)) begin
        rep_wk_ok = wk_busy_q && rep_s == wslot_q && lanes_q[l];
      end
    end
  end

  assign rep_alloc_type = rep_type == AllocPass || rep_type == AllocFail;
  assign rep_cu_type    = rep_type == RepPass || rep_type == RepFail || rep_type == RepDoneCmt;
  assign rep_take_ld    = rep_valid_i && rep_kind == RepLoad && rep_ld_ok;
  assign rep_take_alloc = rep_valid_i && rep_kind == RepAlloc && rep_alloc_type && rep_wk_ok;
  assign rep_take_cu    = rep_valid_i && rep_kind == RepCu && rep_cu_type && rep_wk_ok;
  assign rep_err        = rep_valid_i && !rep_take_ld && !rep_take_alloc && !rep_take_cu;

  // -----------------------------------------------------------------------------------------------
  // The walker's state (its logic below the slots)
  // -----------------------------------------------------------------------------------------------
  logic                wk_end;
  logic [WarpSize-1:0] committed_q, fe_rem_q, fe_rem_d;
  logic [2:0]          fe_state_q, fe_state_d;
  logic [FeRowW-1:0]   fe_row_q, fe_row_d;
  logic [SlotW-1:0]    wslot_d;
  // The fill engine's lane lowest(fe_rem) (FillLane_A), and the log entries of its next word
  // (next_rl_row, next_wl_row of that lane), both registers loaded a cycle ahead from the
  // engine's next state: the log RAMs' read address starts at a register (FillIdx_A).
  logic [LaneW-1:0]    lf, lf_q, lf_d, w_start_lane;
  logic [2:0]          fe_state_e;
  logic [FeRowW-1:0]   fe_row_e;
  logic                fe_lane_done;
  logic [NumWarps-1:0] wa_gnt;
  logic [FeRowW:0]     fe_rl_row_d, fe_wl_row_d;
  logic [RlIdxW-1:0]   fe_rl_idx_d;
  logic [WlIdxW-1:0]   fe_wl_idx_d;
  logic                fe_rl_ok_d, fe_wl_ok_d;

  // -----------------------------------------------------------------------------------------------
  // The slots
  // -----------------------------------------------------------------------------------------------
  for (genvar s = 0; s < NumWarps; s++) begin : g_slot
    logic [3:0]          state_q, state_d;
    logic [BaseW-1:0]    base_q, base_d;
    logic [WarpSize-1:0] amask_q, amask_d, rem_q, rem_d, pend_q, pend_d;
    // The load buffer: the next load of a load step (its lane and address), computed the cycle
    // before it is offered to the load arbiter; rem holds the lanes not yet in it.
    logic                lb_v_q, lb_v_d;
    logic [LaneW-1:0]    lb_lane_q, lb_lane_d;
    logic [AddrW-1:0]    lb_a_q, lb_a_d, lb_b_q, lb_b_d, lb_addr;  // lb_addr = lb_a + lb_b (& m)
    logic                lb_m_q, lb_m_d;
    logic                sw_v_q;  // a store's log word to write (below)
    logic [4:0]          k_q, k_d, nk;
    logic [AddrW-1:0]    akt_q, akt_d, aktn;  // A + k T modulo 2^AddrW, kept as k advances
    logic [RRowW-1:0]    rrow_q, rrow_d;
    logic [WRowW-1:0]    wrow_q, wrow_d;
    logic                cap_err;
    // The SIMT stack.
    logic                st_valid;
    logic [2:0]          st_op;
    logic [WarpSize-1:0] st_mask;
    logic [PcW-1:0]      st_pc, st_rpc;
    logic [PcW-1:0]      pc, npc, top_rpc, exit_pc;
    logic [WarpSize-1:0] mask;
    logic                top_valid, in_tx, resumed, restarted, tx_done, paused, st_err;
    logic [1:0]          top_type, kind;
    logic                top_log;
    logic [$clog2(3 + 1)-1:0] depth;
    logic [3*2-1:0]        stk_type;
    logic [3*PcW-1:0]      stk_pc, stk_rpc;
    logic [3*WarpSize-1:0] stk_mask;
    logic [2:0]            stk_log;
    // Per lane: choices and registers; the logs (row r of lane l at r * WarpSize + l).
    logic [DataW-1:0] c0_q [WarpSize];
    logic [DataW-1:0] c1_q [WarpSize];
    logic [DataW-1:0] c2_q [WarpSize];
    logic [DataW-1:0] r0_q [WarpSize];
    logic [DataW-1:0] r1_q [WarpSize];
    logic [DataW-1:0] r2_q [WarpSize];
    logic [AddrW-1:0] rl_addr_q [MaxReads*WarpSize];
    logic [DataW-1:0] rl_val_q [MaxReads*WarpSize];
    logic [AddrW-1:0] wl_addr_q [MaxWrites*WarpSize];
    logic [DataW-1:0] wl_val_q [MaxWrites*WarpSize];

    // The lane of the store now or of the next load (lowest(rem), or in SExec the lowest lane of
    // the step, which a load step puts in the load buffer), its choices, registers and thread.
    // The lane select is a register, l_q, loaded a cycle ahead from the next cycle's rem or, when
    // the slot enters or stays in SExec, from the stack's mask now: the commands given then (Next
    // inside a transaction, TxBegin) keep the top's mask, and in SAfter the mask is already the
    // restarted one (LaneSel_A).
    logic [LaneW-1:0]  l, l_q, l_d;
    logic              exec_d, cwait_d;  // state_d is SExec, SCommitWait (set with it)
    logic [DataW-1:0]  c0, c1, c2, r0, r1, r2, n_val;
    logic [ThrW-1:0]   tid;
    // A step's address is (addr_a + addr_b), masked by m when addr_m, and its stored value
    // st_a + st_b + st_ci: the operands go to the load buffer or the store register, and the sums
    // are taken after them, so that no adder follows the choice or register read.
    logic [AddrW-1:0]  addr_a, addr_b;
    logic              addr_m, st_ci;
    logic [DataW-1:0]  st_a, st_b;
    assign l   = l_q;
    assign c0  = c0_q[l];
    assign c1  = c1_q[l];
    assign c2  = c2_q[l];
    assign r0  = r0_q[l];
    assign r1  = r1_q[l];
    assign r2  = r2_q[l];
    // base is a multiple of WarpSize (also after wrapping at 2^25): with a power-of-two warp the
    // lane is the thread id's low bits, without an adder.
    assign tid = LaneCat ? ThrW'({base_q[BaseW-1:LaneW], l}) : ThrW'(base_q + BaseW'(l));
    // HT-P's node N = 2A + 2 tid; EB-P's A + k T, modulo 2^AddrW, is the running sum akt_q (A
    // when k is 0, plus T when k moves to k + 1), so that no multiplier lies on the address.
    assign n_val = (obj_a << 1) + (32'(tid) << 1);

    // The step at pc: what it does, its address and stored value, and NextPc.
    always_comb begin
      kind   = KEmpty;
      addr_a = '0;
      addr_b = '0;
      addr_m = 1'b0;
      st_a   = '0;
      st_b   = '0;
      st_ci  = 1'b0;
      npc    = pc + 1'b1;
      nk     = '0;
      aktn   = AddrW'(obj_a);
      unique case (cfg_wl_i)
        WlAtm: begin
          exit_pc = 4'd7;
          unique case (pc)
            4'd1: begin kind = KLoad;  addr_a = AddrW'(obj_a); addr_b = AddrW'(c2); end
            4'd2: begin kind = KLoad;  addr_a = AddrW'(c0); end
            4'd3: begin kind = KLoad;  addr_a = AddrW'(c1); end
            4'd4: begin  // r1 - r0
              kind   = KStore;
              addr_a = AddrW'(c0);
              st_a   = r1;
              st_b   = ~r0;
              st_ci  = 1'b1;
            end
            4'd5: begin kind = KStore; addr_a = AddrW'(c1); st_a = r2; st_b = r0; end
            4'd6: kind = KCommit;
            // Choice: a pc that is no step (not reached) decodes as an empty step.
            default: kind = KEmpty;
          endcase
        end
        WlHt: begin
          exit_pc = 4'd8;
          unique case (pc)
            4'd1: begin kind = KLoad;  addr_a = AddrW'(c1); end
            4'd2: begin kind = KLoad;  addr_a = AddrW'(obj_a); addr_b = AddrW'(c1); end
            4'd3: begin kind = KStore; addr_a = AddrW'(n_val); st_a = c0; end
            4'd4: begin kind = KStore; addr_a = AddrW'(n_val); addr_b = AddrW'(1); st_a = r0; end
            4'd5: begin kind = KStore; addr_a = AddrW'(c1); st_a = n_val; end
            4'd6: begin
              kind   = KStore;
              addr_a = AddrW'(obj_a);
              addr_b = AddrW'(c1);
              st_a   = r1;
              st_ci  = 1'b1;
            end
            4'd7: kind = KCommit;
            default: kind = KEmpty;  // not reached
          endcase
        end
        default: begin  // EB-P (an unknown workload never runs: it ends the run at start)
          exit_pc = 4'd7;
          unique case (pc)
            4'd1: begin
              kind = cfg_reads_i != '0 ? KLoad : KEmpty;
              addr_a = AddrW'(c0);
              addr_b = AddrW'(k_q);
              addr_m = 1'b1;
              if (6'(k_q) + 6'd1 < 6'(cfg_reads_i)) begin
                npc = 4'd1;
                nk  = k_q + 5'd1;
                aktn = akt_q + AddrW'(cfg_threads_i);
              end else begin
                npc = 4'd2;
              end
            end
            4'd2: begin
              kind = cfg_writes_i != '0 ? KLoad : KEmpty;
              addr_a = AddrW'(c1);
              addr_b = AddrW'(k_q);
              addr_m = 1'b1;
              npc  = 4'd3;
              nk   = k_q;
              aktn = akt_q;
            end
            4'd3: begin
              kind   = cfg_writes_i != '0 ? KStore : KEmpty;
              addr_a = AddrW'(c1);
              addr_b = AddrW'(k_q);
              addr_m = 1'b1;
              st_a   = r0;
              st_ci  = 1'b1;
              if (6'(k_q) + 6'd1 < 6'(cfg_writes_i)) begin
                npc = 4'd2;
                nk  = k_q + 5'd1;
                aktn = akt_q + AddrW'(cfg_threads_i);
              end else begin
                npc = 4'd4;
              end
            end
            4'd4: begin
              kind = cfg_cold_i != '0 ? KLoad : KEmpty;
              addr_a = akt_q;
              addr_b = AddrW'(tid);
              npc  = 4'd5;
              nk   = k_q;
              aktn = akt_q;
            end
            4'd5: begin
              kind   = cfg_cold_i != '0 ? KStore : KEmpty;
              addr_a = akt_q;
              addr_b = AddrW'(tid);
              st_a   = r0;
              st_ci  = 1'b1;
              if (6'(k_q) + 6'd1 < 6'(cfg_cold_i)) begin
                npc = 4'd4;
                nk  = k_q + 5'd1;
                aktn = akt_q + AddrW'(cfg_threads_i);
              end else begin
                npc = 4'd6;
              end
            end
            4'd6: kind = KCommit;
            default: kind = KEmpty;  // not reached
          endcase
        end
      endcase
    end

    // The slot's state machine and its stack command.
    logic ld_take_s, rep_ld_s, wk_end_s, ds_fin_s, st_we, rl_addr_we;
    assign ld_take_s = ld_take && la_idx == SlotW'(s);
    assign rep_ld_s  = rep_take_ld && rep_s == SlotW'(s);
    assign wk_end_s  = wk_end && wslot_q == SlotW'(s);
    assign ds_fin_s  = ds_fin && ds_slot_q == SlotW'(s);

    always_comb begin
      state_d   = state_q;
      base_d    = base_q;
      amask_d   = amask_q;
      rem_d     = rem_q;
      pend_d    = pend_q;
      lb_v_d    = lb_v_q;
      lb_lane_d = lb_lane_q;
      lb_a_d    = lb_a_q;
      lb_b_d    = lb_b_q;
      lb_m_d    = lb_m_q;
      k_d       = k_q;
      akt_d     = akt_q;
      rrow_d    = rrow_q;
      wrow_d    = wrow_q;
      cap_err   = 1'b0;
      exec_d    = 1'b0;
      cwait_d   = 1'b0;
      st_we     = 1'b0;
      rl_addr_we = 1'b0;
      st_valid  = 1'b0;
      st_op     = OpNext;
      st_mask   = '0;
      st_pc     = npc;
      st_rpc    = '0;
      unique case (state_q)
        SIdle, SDone: begin
          // base is 25 bits and wraps (also at base + Stride); a thread id is (base + lane) mod
          // 2^24 wherever it is used (draws, addresses, log records).
          if (start_go) begin
            base_d  = BaseW'((32'(core_idx_i) * NumWarps + s) * WarpSize);
            state_d = wl_bad ? SDone : SBatch;
          end
        end
        SBatch: begin
          if (26'(base_q) >= 26'(cfg_threads_i)) begin
            state_d = SDone;
          end else begin
            for (int i = 0; i < WarpSize; i++) begin
              amask_d[i] = 26'(base_q) + 26'(i) < 26'(cfg_threads_i);
            end
            state_d = SSetupWait;
          end
        end
        SSetupWait: begin
          if (da_gnt[s]) begin
            state_d = SSetup;
          end
        end
        SSetup: begin
          if (ds_fin_s) begin
            state_d = SInit;
          end
        end
        SInit: begin
          st_valid = 1'b1;
          st_op    = OpInit;
          st_mask  = amask_q;
          st_pc    = '0;
          state_d  = STxBegin;
        end
        STxBegin: begin
          st_valid = 1'b1;
          st_op    = OpTxBegin;
          st_mask  = amask_q;  // not looked at: TxBegin takes the top's lanes
          st_pc    = 4'd1;
          st_rpc   = exit_pc;
          k_d      = '0;
          akt_d    = AddrW'(obj_a);
          rrow_d   = '0;
          wrow_d   = '0;
          state_d  = SExec;
          exec_d   = 1'b1;
        end
        SExec: begin
          unique case (kind)
            KCommit: begin
              state_d = SCommitWait;
              cwait_d = 1'b1;
            end
            KLoad: begin
              // The lowest lane goes to the load buffer, the others wait in rem.
              rem_d     = mask;
              lb_v_d    = mask != '0;
              lb_lane_d = l;
              lb_a_d    = addr_a;
              lb_b_d    = addr_b;
              lb_m_d    = addr_m;
              for (int i = 0; i < WarpSize; i++) begin
                if (l == LaneW'(i)) begin
                  rem_d[i] = 1'b0;
                end
              end
              // Choice: a log row at capacity sets err when the step is decoded (the cycle
              // SExec leaves for SLoad or SStore); the step then runs without its log writes.
              cap_err = rrow_q == RRowW'(MaxReads);
              state_d = SLoad;
            end
            KStore: begin
              rem_d   = mask;
              cap_err = wrow_q == WRowW'(MaxWrites);
              state_d = SStore;
            end
            default: begin  // an empty step
              st_valid = 1'b1;
              st_op    = OpNext;
              k_d      = nk;
              akt_d    = aktn;
              exec_d   = 1'b1;
            end
          endcase
        end
        SLoad: begin
          if (lb_v_q) begin
            // The buffered load taken: the buffer loads the next lane, lowest(rem).
            if (ld_take_s) begin
              for (int i = 0; i < WarpSize; i++) begin
                if (lb_lane_q == LaneW'(i)) begin
                  pend_d[i] = 1'b1;
                end
                if (l == LaneW'(i)) begin
                  rem_d[i] = 1'b0;
                end
              end
              lb_v_d     = rem_q != '0;
              lb_lane_d  = l;
              lb_a_d     = addr_a;
              lb_b_d     = addr_b;
              lb_m_d     = addr_m;
              rl_addr_we = rrow_q != RRowW'(MaxReads);
            end
          end else if (pend_q == '0) begin
            st_valid = 1'b1;
            st_op    = OpNext;
            k_d      = nk;
            akt_d    = aktn;
            if (rrow_q != RRowW'(MaxReads)) begin
              rrow_d = rrow_q + 1'b1;
            end
            state_d = SExec;
            exec_d  = 1'b1;
          end
        end
        SStore: begin
          if (rem_q != '0) begin
            for (int i = 0; i < WarpSize; i++) begin
              if (l == LaneW'(i)) begin
                rem_d[i] = 1'b0;
              end
            end
            st_we = wrow_q != WRowW'(MaxWrites);
          end else begin
            st_valid = 1'b1;
            st_op    = OpNext;
            k_d      = nk;
            akt_d    = aktn;
            if (wrow_q != WRowW'(MaxWrites)) begin
              wrow_d = wrow_q + 1'b1;
            end
            state_d = SExec;
            exec_d  = 1'b1;
          end
        end
        SCommitWait: begin
          if (wk_end_s) begin
            st_valid = 1'b1;
            st_op    = OpCommit;
            st_mask  = lanes_q & ~committed_q;  // the failed lanes
            state_d  = SAfter;
          end else begin
            cwait_d = 1'b1;
          end
        end
        SAfter: begin
          // Neither restarted nor done (a stack error, asserted below) leaves the slot here.
          if (restarted) begin
            k_d     = '0;
            akt_d   = AddrW'(obj_a);
            rrow_d  = '0;
            wrow_d  = '0;
            state_d = SExec;
            exec_d  = 1'b1;
          end else if (tx_done) begin
            base_d  = base_q + BaseW'(Stride);
            state_d = SBatch;
          end
        end
        default: state_d = state_q;
      endcase
      l_d = lowest_lane(exec_d || cwait_d ? mask : rem_d);
      // A load reply clears its lane's pending bit.
      if (rep_ld_s) begin
        for (int i = 0; i < WarpSize; i++) begin
          if (rep_l == LaneW'(i)) begin
            pend_d[i] = 1'b0;
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        state_q <= SIdle;
        base_q  <= '0;
        amask_q <= '0;
        rem_q   <= '0;
        pend_q  <= '0;
        lb_v_q    <= 1'b0;
        sw_v_q    <= 1'b0;
        lb_lane_q <= '0;
        lb_a_q    <= '0;
        lb_b_q    <= '0;
        lb_m_q    <= 1'b0;
        l_q       <= '0;
        k_q     <= '0;
        akt_q   <= '0;
        rrow_q  <= '0;
        wrow_q  <= '0;
      end else begin
        state_q <= state_d;
        base_q  <= base_d;
        amask_q <= amask_d;
        rem_q   <= rem_d;
        pend_q  <= pend_d;
        lb_v_q    <= lb_v_d;
        sw_v_q    <= st_we;
        lb_lane_q <= lb_lane_d;
        lb_a_q    <= lb_a_d;
        lb_b_q    <= lb_b_d;
        lb_m_q    <= lb_m_d;
        l_q       <= l_d;
        k_q     <= k_d;
        akt_q   <= akt_d;
        rrow_q  <= rrow_d;
        wrow_q  <= wrow_d;
      end
    end

    htm_tx_simt_stack #(
      .WarpSize(WarpSize),
      .Depth   (3),
      .PcW     (PcW),
      .LogW    (1)
    ) u_stack (
      .clk_i,
      .rst_ni,
      .cmd_valid_i(st_valid),
      .cmd_op_i   (st_op),
      .cmd_mask_i (st_mask),
      .cmd_pc_i   (st_pc),
      .cmd_pc2_i  (PcW'(0)),
      .cmd_rpc_i  (st_rpc),
      .cmd_log_i  (1'b0),
      .top_valid_o(top_valid),
      .top_type_o (top_type),
      .top_pc_o   (pc),
      .top_rpc_o  (top_rpc),
      .top_mask_o (mask),
      .top_log_o  (top_log),
      .depth_o    (depth),
      .in_tx_o    (in_tx),
      .resumed_o  (resumed),
      .restarted_o(restarted),
      .tx_done_o  (tx_done),
      .paused_o   (paused),
      .err_o      (st_err),
      .stk_type_o (stk_type),
      .stk_pc_o   (stk_pc),
      .stk_rpc_o  (stk_rpc),
      .stk_mask_o (stk_mask),
      .stk_log_o  (stk_log)
    );

    // The choice words c0..c2: the draw's result for this slot, written the cycle it comes out.
    logic             c0_we, c1_we, c2_we;
    logic [DataW-1:0] c0_wd, c1_wd, c2_wd, dr_c0, dr_o;
    assign dr_c0 = c0_q[dr_lane];
    assign dr_o  = dr_value & obj_m;
    always_comb begin
      c0_we = 1'b0;
      c1_we = 1'b0;
      c2_we = 1'b0;
      c0_wd = dr_value;
      c1_wd = dr_value & obj_m;
      c2_wd = dr_value & 32'd15;
      if (dr_valid && ds_slot_q == SlotW'(s)) begin
        unique case (cfg_wl_i)
          WlAtm: begin
            c0_we = dr_k == 2'd0;
            c1_we = dr_k == 2'd1;
            c2_we = dr_k == 2'd2;
            c0_wd = dr_value & obj_m;
            c1_wd = dr_c0 ^ (dr_o == '0 ? 32'd1 : dr_o);
          end
          WlHt: begin
            c0_we = !ds_phase_q;
            c1_we = ds_phase_q;
          end
          WlEb: begin
            c0_we = dr_k == 2'd0;
            c1_we = dr_k == 2'd1;
            c0_wd = dr_value & obj_m;
          end
          default: c0_we = 1'b0;
        endcase
      end
    end

    // Registers: a load reply writes the step's register (EB-P's pc 1 has none). The writes of a
    // load reply (the register and the read log's value) take place a cycle late, from the reply
    // register and the enables and read-log entry registered here, so that the reply's decode
    // does not reach the LUT RAMs' write enables. Nothing reads them earlier: the registers are
    // read by a store step, three cycles after the last reply at the earliest (SLoad's Next,
    // SExec, SStore), the read log by the walker, later still.
    logic r0_we, r1_we, r2_we, r0_we_q, r1_we_q, r2_we_q, rl_val_we_q;
    always_comb begin
      r0_we = 1'b0;
      r1_we = 1'b0;
      r2_we = 1'b0;
      if (rep_ld_s) begin
        unique case (cfg_wl_i)
          WlAtm: begin
            r0_we = pc == 4'd1;
            r1_we = pc == 4'd2;
            r2_we = pc == 4'd3;
          end
          WlHt: begin
            r0_we = pc == 4'd1;
            r1_we = pc == 4'd2;
          end
          default: r0_we = pc == 4'd2 || pc == 4'd4;
        endcase
      end
    end

    // Log indices: the slot's row now, and the walker's next word (rows next_rl_row and
    // next_wl_row of lane lf, read into the walker's word register). The walker's are registers
    // of the slot, loaded while it is (or becomes) the walker's slot, so that each slot's log
    // RAMs have their own read address (FillIdx_A).
    logic [RlIdxW-1:0] rl_aidx, rl_vidx, rl_vidx_q, rl_ridx_q;
    logic [WlIdxW-1:0] wl_widx, wl_ridx_q, sw_idx_q;
    logic              rl_rok_q, wl_rok_q, rl_val_we;
    logic [AddrW-1:0]  sw_a_q, sw_b_q, sw_addr;
    logic              sw_m_q, sw_ci_q;
    logic [DataW-1:0]  sw_va_q, sw_vb_q, sw_val;
    assign lb_addr = (lb_a_q + lb_b_q) & (lb_m_q ? AddrW'(obj_m) : '1);
    assign sw_addr = (sw_a_q + sw_b_q) & (sw_m_q ? AddrW'(obj_m) : '1);
    assign sw_val  = sw_va_q + sw_vb_q + DataW'(sw_ci_q);
    assign rl_aidx   = RlIdxW'(32'(rrow_q) * WarpSize + 32'(lb_lane_q));
    assign rl_vidx   = RlIdxW'(32'(rrow_q) * WarpSize + 32'(rep_l));
    assign wl_widx   = WlIdxW'(32'(wrow_q) * WarpSize + 32'(l));
    assign rl_val_we = rep_ld_s && rrow_q != RRowW'(MaxReads);

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rl_ridx_q <= '0;
        wl_ridx_q <= '0;
        rl_rok_q  <= 1'b1;
        wl_rok_q  <= 1'b1;
      end else if (wa_gnt[s]) begin
        // The walker takes the slot: row 0 of its lowest lane.
        rl_ridx_q <= RlIdxW'(l_q);
        wl_ridx_q <= WlIdxW'(l_q);
        rl_rok_q  <= 1'b1;
        wl_rok_q  <= 1'b1;
      end else if (wslot_q == SlotW'(s)) begin
        rl_ridx_q <= fe_rl_idx_d;
        wl_ridx_q <= fe_wl_idx_d;
        rl_rok_q  <= fe_rl_ok_d;
        wl_rok_q  <= fe_wl_ok_d;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        r0_we_q     <= 1'b0;
        r1_we_q     <= 1'b0;
        r2_we_q     <= 1'b0;
        rl_val_we_q <= 1'b0;
      end else begin
        r0_we_q     <= r0_we;
        r1_we_q     <= r1_we;
        r2_we_q     <= r2_we;
        rl_val_we_q <= rl_val_we;
      end
    end

    // The data: no reset (read only where written).
    always_ff @(posedge clk_i) begin
      rl_vidx_q <= rl_vidx;
      if (c0_we) begin
        c0_q[dr_lane] <= c0_wd;
      end
      if (c1_we) begin
        c1_q[dr_lane] <= c1_wd;
      end
      if (c2_we) begin
        c2_q[dr_lane] <= c2_wd;
      end
      if (r0_we_q) begin
        r0_q[rw_lane_q] <= rw_val_q;
      end
      if (r1_we_q) begin
        r1_q[rw_lane_q] <= rw_val_q;
      end
      if (r2_we_q) begin
        r2_q[rw_lane_q] <= rw_val_q;
      end
      if (rl_addr_we) begin
        rl_addr_q[rl_aidx] <= lb_addr;
      end
      if (rl_val_we_q) begin
        rl_val_q[rl_vidx_q] <= rw_val_q;
      end
      if (sw_v_q) begin
        wl_addr_q[sw_idx_q] <= sw_addr;
        wl_val_q[sw_idx_q]  <= sw_val;
      end
      // A store's log word is written one cycle late, from a register: the write log is read
      // only by the walker, which takes the slot two cycles after its last store at the earliest.
      if (st_we) begin
        sw_idx_q  <= wl_widx;
        sw_a_q    <= addr_a;
        sw_b_q    <= addr_b;
        sw_m_q    <= addr_m;
        sw_va_q   <= st_a;
        sw_vb_q   <= st_b;
        sw_ci_q   <= st_ci;
      end
    end

    assign sl_active[s]                       = state_q != SIdle && state_q != SDone;
    assign sl_setup_wait[s]                   = state_q == SSetupWait;
    assign sl_setup[s]                        = state_q == SSetup;
    assign sl_commit_wait[s]                  = state_q == SCommitWait;
    assign sl_sload[s]                        = state_q == SLoad;
    assign sl_ld_req[s]                       = state_q == SLoad && lb_v_q;
    assign sl_cap_err[s]                      = cap_err;
    assign sl_pend[s*WarpSize +: WarpSize]    = pend_q;
    assign sl_mask[s*WarpSize +: WarpSize]    = mask;
    assign sl_base[s*BaseW +: BaseW]          = base_q;
    assign sl_rrow[s*RRowW +: RRowW]          = rrow_q;
    assign sl_wrow[s*WRowW +: WRowW]          = wrow_q;
    assign sl_ld_addr[s*AddrW +: AddrW]       = lb_addr;
    assign sl_ld_lane[s*LaneW +: LaneW]       = lb_lane_q;
    assign sl_lane[s*LaneW +: LaneW]          = l_q;
    assign sl_key[s*DataW +: DataW]           = c0_q[ds_lane_q];
    assign sl_rl_addr[s*AddrW +: AddrW]       = rl_rok_q ? rl_addr_q[rl_ridx_q] : '0;
    assign sl_rl_val[s*DataW +: DataW]        = rl_rok_q ? rl_val_q[rl_ridx_q] : '0;
    assign sl_wl_addr[s*AddrW +: AddrW]       = wl_rok_q ? wl_addr_q[wl_ridx_q] : '0;
    assign sl_wl_val[s*DataW +: DataW]        = wl_rok_q ? wl_val_q[wl_ridx_q] : '0;

    // The choice words' bits above AddrW take no part in an address.
    logic unused_cw;
    assign unused_cw = ^{c1, c2};

    logic unused_stack;
    assign unused_stack = ^{top_valid, top_type, top_rpc, top_log, depth, in_tx, resumed, paused,
                            stk_type, stk_pc, stk_rpc, stk_mask, stk_log};

    // The slot's stack gets only commands it accepts; a load step's lanes are its active lanes.
    `HTM_ASSERT(StackNoErr_A, !st_err)
    `HTM_ASSERT(PendOnlyInLoad_A, `HTM_IMPLIES(pend_q != '0, state_q == SLoad))
    `HTM_ASSERT(LoadBufFirst_A, `HTM_IMPLIES(state_q == SLoad && !lb_v_q, rem_q == '0))
    `HTM_ASSERT(LaneSel_A, l_q == lowest_lane(state_q == SExec || state_q == SCommitWait ? mask :
                                              rem_q))
    `HTM_ASSERT(NextState_A, exec_d == (state_d == SExec) && cwait_d == (state_d == SCommitWait))
    // The walker's read address, loaded a cycle ahead, is that of the engine's state now.
    `HTM_ASSERT(FillIdx_A, `HTM_IMPLIES(wslot_q == SlotW'(s),
                                        rl_rok_q == 32'(next_rl_row(fe_state_q, fe_row_q)) <
                                                    MaxReads &&
                                        wl_rok_q == 32'(next_wl_row(fe_state_q, fe_row_q)) <
                                                    MaxWrites &&
                                        rl_ridx_q == rl_index(next_rl_row(fe_state_q, fe_row_q),
                                                              lowest_lane(fe_rem_q)) &&
                                        wl_ridx_q == wl_index(next_wl_row(fe_state_q, fe_row_q),
                                                              lowest_lane(fe_rem_q))))
    `HTM_ASSERT(SlotStateRange_A, state_q <= SDone)
  end

  // -----------------------------------------------------------------------------------------------
  // The log walker
  // -----------------------------------------------------------------------------------------------
  logic                wk_busy_d;
  logic [WarpSize-1:0] lanes_d, filled_q, filled_d, decided_q, decided_d, committed_d;
  logic [LP-1:0]       arep_q, arep_d, aok_q, aok_d, touched_q, touched_d, written_q, written_d;
  logic [LP-1:0]       vrep_q, vrep_d, vok_q, vok_d, dc_q, dc_d;
  logic [WarpSize-1:0] ae_rem_q, ae_rem_d;
  logic                ae_state_q, ae_state_d;
  logic [PartW-1:0]    ae_p_q, ae_p_d, fe_p_q, fe_p_d;
  logic [TimerW-1:0]   fe_timer_q, fe_timer_d;
  logic [NumParts-1:0] fe_retry_q, fe_retry_d, oe_rem_q, oe_rem_d;
  logic [LaneW-1:0]    oe_lane_q, oe_lane_d;
  logic                oe_pass_q, oe_pass_d;
  logic [CidW-1:0]     cid_q [WarpSize];
  logic                wk_start, cid_we, decide, dec_commit;
  logic [LaneW-1:0]    la, dec_lane;
  logic [NumWarps-1:0] wa_req;
  logic [SlotW-1:0]    wa_idx, wa_prio;
  logic                wa_valid;

  // The walker arbiter over the slots in SCommitWait; a grant needs !busy and is always taken
  // (Choice: as for the draw arbiter, gating its requests while busy).
  assign wa_req = wk_busy_q ? '0 : sl_commit_wait;

  htm_rr_arb #(.NumReq(NumWarps)) u_walk_arb (
    .clk_i,
    .rst_ni,
    .req_i      (wa_req),
    .ack_i      (1'b1),
    .gnt_o      (wa_gnt),
    .gnt_idx_o  (wa_idx),
    .gnt_valid_o(wa_valid),
    .prio_o     (wa_prio)
  );
  assign wk_start = wa_valid;

  // The walker's slot: its rows, its thread base and the log words read for the word register.
  logic [RRowW-1:0]    w_rrow;
  logic [WRowW-1:0]    w_wrow;
  logic [BaseW-1:0]    w_base;
  logic [AddrW-1:0]    w_rl_addr, w_wl_addr;
  logic [DataW-1:0]    w_rl_val, w_wl_val;
  logic [WarpSize-1:0] w_start_mask;
  assign w_rrow       = sl_rrow[32'(wslot_q)*RRowW +: RRowW];
  assign w_wrow       = sl_wrow[32'(wslot_q)*WRowW +: WRowW];
  assign w_base       = sl_base[32'(wslot_q)*BaseW +: BaseW];
  assign w_rl_addr    = sl_rl_addr[32'(wslot_q)*AddrW +: AddrW];
  assign w_rl_val     = sl_rl_val[32'(wslot_q)*DataW +: DataW];
  assign w_wl_addr    = sl_wl_addr[32'(wslot_q)*AddrW +: AddrW];
  assign w_wl_val     = sl_wl_val[32'(wslot_q)*DataW +: DataW];
  assign w_start_mask = sl_mask[32'(wa_idx)*WarpSize +: WarpSize];
  assign w_start_lane = sl_lane[32'(wa_idx)*LaneW +: LaneW];

  assign la = lowest_lane(ae_rem_q);
  assign lf = lf_q;

  // The word register: the log word the fill engine sends next (lane lf of the walker's slot),
  // read one cycle ahead so that no log RAM lies between the engine's state and the request
  // register. It loads row 0 of the read log (or of the write log when the slot has no read
  // rows) while the engine waits, and the next row, or the write log's row 0 after the last
  // read row, when a ReadSet or WriteSet is sent; a word goes out the cycle after it is read,
  // so the engine's timing is the one of a direct read.
  logic             fw_en, fw_wl, fw_last_rl;
  logic [AddrW-1:0] fw_addr_q;
  logic [DataW-1:0] fw_val_q;
  logic [PartW-1:0] fw_part;
  assign fw_last_rl = 32'(fe_row_q) + 32'd1 == 32'(w_rrow);
  assign fw_en      = fe_state_q == FeWait ||
                      (send_fe && (fe_state_q == FeRead || fe_state_q == FeWrite));
  assign fw_wl      = fe_state_q == FeWait ? w_rrow == '0 :
                      fe_state_q == FeWrite || fw_last_rl;
  assign fw_part    = part_of(fw_addr_q);

  // No reset: the word is read only after the engine's wait that loads it.
  always_ff @(posedge clk_i) begin
    if (fw_en) begin
      fw_addr_q <= fw_wl ? w_wl_addr : w_rl_addr;
      fw_val_q  <= fw_wl ? w_wl_val : w_rl_val;
    end
  end

  // Lane lf's flags per partition.
  logic [NumParts-1:0] arep_lf, aok_lf, touched_lf;
  assign arep_lf    = arep_q[32'(lf)*NumParts +: NumParts];
  assign aok_lf     = aok_q[32'(lf)*NumParts +: NumParts];
  assign touched_lf = touched_q[32'(lf)*NumParts +: NumParts];

  // The message each engine has now.
  logic [2:0]       wk_type;
  logic [LaneW-1:0] wk_lane;
  logic [PartW-1:0] wk_dst;
  logic [AddrW-1:0] wk_addr;
  logic [DataW-1:0] wk_data;
  logic [CidW-1:0]  wk_cid;
  logic             fe_touched_p;
  always_comb begin
    fe_touched_p = 1'b0;
    for (int p = 0; p < NumParts; p++) begin
      if (fe_p_q == PartW'(p)) begin
        fe_touched_p = touched_lf[p];
      end
    end
    oe_has = wk_busy_q && oe_rem_q != '0;
    fe_has = wk_busy_q && fe_rem_q != '0 &&
             (fe_state_q == FeRead || fe_state_q == FeWrite || fe_state_q == FeFill ||
              (fe_state_q == FeRetry && fe_retry_q != '0));
    ae_has = wk_busy_q && ae_rem_q != '0 && ae_state_q == AeAlloc;
    wk_type = MsgAlloc;
    wk_lane = la;
    wk_dst  = ae_p_q;
    wk_addr = '0;
    wk_data = '0;
    if (oe_has) begin
      wk_type = oe_pass_q ? MsgPass : MsgFail;
      wk_lane = oe_lane_q;
      wk_dst  = lowest_part(oe_rem_q);
    end else if (fe_has) begin
      wk_lane = lf;
      unique case (fe_state_q)
        FeRead: begin
          wk_type = MsgReadSet;
          wk_dst  = fw_part;
          wk_addr = fw_addr_q;
          wk_data = fw_val_q;
        end
        FeWrite: begin
          wk_type = MsgWriteSet;
          wk_dst  = fw_part;
          wk_addr = fw_addr_q;
          wk_data = fw_val_q;
        end
        FeFill: begin
          wk_type = fe_touched_p ? MsgDoneFill : MsgSkip;
          wk_dst  = fe_p_q;
        end
        default: begin  // FeRetry
          wk_type = MsgAlloc;
          wk_dst  = lowest_part(fe_retry_q);
        end
      endcase
    end
  end
  assign wk_cid = cid_q[wk_lane];

  // The engines.
  logic [WarpSize-1:0] lane_done;
  logic                all_done;
  logic [PartW-1:0]    retry_p, oe_p;
  assign retry_p = lowest_part(fe_retry_q);
  assign oe_p    = lowest_part(oe_rem_q);

  always_comb begin
    for (int i = 0; i < WarpSize; i++) begin
      lane_done[i] = !lanes_q[i] ||
                     (decided_q[i] && (!committed_q[i] ||
                      (dc_q[i*NumParts +: NumParts] & written_q[i*NumParts +: NumParts]) ==
                      written_q[i*NumParts +: NumParts]));
    end
    all_done = &lane_done;
  end

  always_comb begin
    wk_busy_d   = wk_busy_q;
    wslot_d     = wslot_q;
    lanes_d     = lanes_q;
    filled_d    = filled_q;
    decided_d   = decided_q;
    committed_d = committed_q;
    arep_d      = arep_q;
    aok_d       = aok_q;
    touched_d   = touched_q;
    written_d   = written_q;
    vrep_d      = vrep_q;
    vok_d       = vok_q;
    dc_d        = dc_q;
    ae_rem_d    = ae_rem_q;
    ae_state_d  = ae_state_q;
    ae_p_d      = ae_p_q;
    fe_rem_d    = fe_rem_q;
    fe_state_d  = fe_state_q;
    fe_row_d    = fe_row_q;
    fe_p_d      = fe_p_q;
    fe_timer_d  = fe_timer_q;
    fe_retry_d  = fe_retry_q;
    oe_lane_d   = oe_lane_q;
    oe_rem_d    = oe_rem_q;
    oe_pass_d   = oe_pass_q;
    cid_we      = 1'b0;
    fe_lane_done = 1'b0;
    decide      = 1'b0;
    dec_lane    = '0;
    dec_commit  = 1'b0;
    wk_end      = 1'b0;

    if (wk_busy_q) begin
      // Alloc engine: a commit id, then an Alloc to every partition, lane by lane.
      if (ae_rem_q != '0) begin
        if (ae_state_q == AeCid) begin
          // Choice: cid_gnt_i is looked at only while cid_req_o is high (else ignored).
          if (cid_gnt_i) begin
            cid_we     = 1'b1;
            ae_p_d     = '0;
            ae_state_d = AeAlloc;
          end
        end else if (send_ae) begin
          if (32'(ae_p_q) == NumParts - 1) begin
            for (int i = 0; i < WarpSize; i++) begin
              if (la == LaneW'(i)) begin
                ae_rem_d[i] = 1'b0;
              end
            end
            ae_state_d = AeCid;
          end else begin
            ae_p_d = ae_p_q + 1'b1;
          end
        end
      end

      // Fill engine: lane by lane, after every AllocPass, the log words and DoneFill/Skip.
      if (fe_rem_q != '0) begin
        unique case (fe_state_q)
          FeWait: begin
            if (&arep_lf) begin
              if (&aok_lf) begin
                fe_row_d = '0;
                fe_p_d   = '0;
                if (w_rrow != '0) begin
                  fe_state_d = FeRead;
                end else if (w_wrow != '0) begin
                  fe_state_d = FeWrite;
                end else begin
                  fe_state_d = FeFill;
                end
              end else begin
                fe_timer_d = TimerW'(AllocRetry - 1);
                fe_state_d = FeRetryWait;
              end
            end
          end
          FeRead: begin
            if (send_fe) begin
              for (int i = 0; i < WarpSize; i++) begin
                for (int p = 0; p < NumParts; p++) begin
                  if (lf == LaneW'(i) && fw_part == PartW'(p)) begin
                    touched_d[i*NumParts + p] = 1'b1;
                  end
                end
              end
              if (fw_last_rl) begin
                fe_row_d = '0;
                fe_p_d   = '0;
                fe_state_d = w_wrow != '0 ? FeWrite : FeFill;
              end else begin
                fe_row_d = fe_row_q + 1'b1;
              end
            end
          end
          FeWrite: begin
            if (send_fe) begin
              for (int i = 0; i < WarpSize; i++) begin
                for (int p = 0; p < NumParts; p++) begin
                  if (lf == LaneW'(i) && fw_part == PartW'(p)) begin
                    touched_d[i*NumParts + p] = 1'b1;
                    written_d[i*NumParts + p] = 1'b1;
                  end
                end
              end
              if (32'(fe_row_q) + 32'd1 == 32'(w_wrow)) begin
                fe_p_d     = '0;
                fe_state_d = FeFill;
              end else begin
                fe_row_d = fe_row_q + 1'b1;
              end
            end
          end
          FeFill: begin
            if (send_fe) begin
              if (32'(fe_p_q) == NumParts - 1) begin
                for (int i = 0; i < WarpSize; i++) begin
                  if (lf == LaneW'(i)) begin
                    filled_d[i] = 1'b1;
                    fe_rem_d[i] = 1'b0;
                  end
                end
                fe_lane_done = 1'b1;
                fe_state_d   = FeWait;
              end else begin
                fe_p_d = fe_p_q + 1'b1;
              end
            end
          end
          FeRetryWait: begin
            if (fe_timer_q == '0) begin
              fe_retry_d = ~aok_lf;
              fe_state_d = FeRetry;
            end else begin
              fe_timer_d = fe_timer_q - 1'b1;
            end
          end
          default: begin  // FeRetry
            if (fe_retry_q == '0) begin
              fe_state_d = FeWait;
            end else if (send_fe) begin
              for (int p = 0; p < NumParts; p++) begin
                if (retry_p == PartW'(p)) begin
                  fe_retry_d[p] = 1'b0;
                end
              end
              for (int i = 0; i < WarpSize; i++) begin
                for (int p = 0; p < NumParts; p++) begin
                  if (lf == LaneW'(i) && retry_p == PartW'(p)) begin
                    arep_d[i*NumParts + p] = 1'b0;
                  end
                end
              end
            end
          end
        endcase
      end

      // Outcome engine: the lowest filled, undecided lane with a reply from every partition it
      // touched is decided (only while no final message is left), then its final messages.
      if (oe_rem_q == '0) begin
        for (int i = WarpSize - 1; i >= 0; i--) begin
          if (filled_q[i] && !decided_q[i] &&
              (vrep_q[i*NumParts +: NumParts] & touched_q[i*NumParts +: NumParts]) ==
              touched_q[i*NumParts +: NumParts]) begin
            decide     = 1'b1;
            dec_lane   = LaneW'(i);
            dec_commit = (vok_q[i*NumParts +: NumParts] & touched_q[i*NumParts +: NumParts]) ==
                         touched_q[i*NumParts +: NumParts];
            oe_rem_d   = vok_q[i*NumParts +: NumParts] & touched_q[i*NumParts +: NumParts];
          end
        end
        if (decide) begin
          for (int i = 0; i < WarpSize; i++) begin
            if (dec_lane == LaneW'(i)) begin
              decided_d[i]   = 1'b1;
              committed_d[i] = dec_commit;
            end
          end
          oe_lane_d = dec_lane;
          oe_pass_d = dec_commit;
        end
      end else if (send_oe) begin
        for (int p = 0; p < NumParts; p++) begin
          if (oe_p == PartW'(p)) begin
            oe_rem_d[p] = 1'b0;
          end
        end
      end

      // End: every lane decided and done; the slot's stack gets Commit with the failed lanes.
      if (ae_rem_q == '0 && fe_rem_q == '0 && oe_rem_q == '0 && all_done) begin
        wk_end    = 1'b1;
        wk_busy_d = 1'b0;
      end
    end

    // The fill engine's next state without a start (for its read address, below).
    fe_state_e = fe_state_d;
    fe_row_e   = fe_row_d;

    // Start: a slot at its commit step, when the walker is free (after the engines: they run
    // only while it is busy).
    if (wk_start) begin
      wk_busy_d   = 1'b1;
      wslot_d     = wa_idx;
      lanes_d     = w_start_mask;
      ae_rem_d    = w_start_mask;
      fe_rem_d    = w_start_mask;
      filled_d    = '0;
      decided_d   = '0;
      committed_d = '0;
      arep_d      = '0;
      aok_d       = '0;
      touched_d   = '0;
      written_d   = '0;
      vrep_d      = '0;
      vok_d       = '0;
      dc_d        = '0;
      ae_state_d  = AeCid;
      fe_state_d  = FeWait;
      oe_rem_d    = '0;
    end

    // Replies. Choice: written after the engines, so that a reply for (lf, p) in the cycle the
    // fill engine's Retry sends that Alloc again keeps arep set (only a duplicate reply can).
    for (int i = 0; i < WarpSize; i++) begin
      for (int p = 0; p < NumParts; p++) begin
        if (rep_l == LaneW'(i) && rep_src_i == PartW'(p)) begin
          if (rep_take_alloc) begin
            arep_d[i*NumParts + p] = 1'b1;
            aok_d[i*NumParts + p]  = rep_type == AllocPass;
          end
          if (rep_take_cu && rep_type != RepDoneCmt) begin
            vrep_d[i*NumParts + p] = 1'b1;
            vok_d[i*NumParts + p]  = rep_type == RepPass;
          end
          if (rep_take_cu && rep_type == RepDoneCmt) begin
            dc_d[i*NumParts + p] = 1'b1;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wk_busy_q   <= 1'b0;
      wslot_q     <= '0;
      lanes_q     <= '0;
      filled_q    <= '0;
      decided_q   <= '0;
      committed_q <= '0;
      arep_q      <= '0;
      aok_q       <= '0;
      touched_q   <= '0;
      written_q   <= '0;
      vrep_q      <= '0;
      vok_q       <= '0;
      dc_q        <= '0;
      ae_rem_q    <= '0;
      ae_state_q  <= AeCid;
      ae_p_q      <= '0;
      fe_rem_q    <= '0;
      fe_state_q  <= FeWait;
      fe_row_q    <= '0;
      fe_p_q      <= '0;
      fe_timer_q  <= '0;
      fe_retry_q  <= '0;
      oe_lane_q   <= '0;
      oe_rem_q    <= '0;
      oe_pass_q   <= 1'b0;
    end else begin
      wk_busy_q   <= wk_busy_d;
      wslot_q     <= wslot_d;
      lanes_q     <= lanes_d;
      filled_q    <= filled_d;
      decided_q   <= decided_d;
      committed_q <= committed_d;
      arep_q      <= arep_d;
      aok_q       <= aok_d;
      touched_q   <= touched_d;
      written_q   <= written_d;
      vrep_q      <= vrep_d;
      vok_q       <= vok_d;
      dc_q        <= dc_d;
      ae_rem_q    <= ae_rem_d;
      ae_state_q  <= ae_state_d;
      ae_p_q      <= ae_p_d;
      fe_rem_q    <= fe_rem_d;
      fe_state_q  <= fe_state_d;
      fe_row_q    <= fe_row_d;
      fe_p_q      <= fe_p_d;
      fe_timer_q  <= fe_timer_d;
      fe_retry_q  <= fe_retry_d;
      oe_lane_q   <= oe_lane_d;
      oe_rem_q    <= oe_rem_d;
      oe_pass_q   <= oe_pass_d;
    end
  end

  // The fill engine's lane for the next cycle: at a start, the lowest lane of the slot's mask
  // (its lane select, l_q, in SCommitWait: LaneSel_A); after a lane's last DoneFill or Skip, the
  // next lane of fe_rem (computed from the registers); else the same lane.
  logic [WarpSize-1:0] fe_rem_after;
  logic [LaneW-1:0]    lf_e, lf_after;
  always_comb begin
    fe_rem_after = fe_rem_q;
    for (int i = 0; i < WarpSize; i++) begin
      if (lf_q == LaneW'(i)) begin
        fe_rem_after[i] = 1'b0;
      end
    end
  end
  assign lf_after = lowest_lane(fe_rem_after);
  assign lf_e     = fe_lane_done ? lf_after : lf_q;
  assign lf_d     = wk_start ? w_start_lane : lf_e;

  // The log entries of the engine's next word, for the next cycle, without a start (a slot that
  // the walker takes loads those of its lowest lane's row 0 instead).
  assign fe_rl_row_d = next_rl_row(fe_state_e, fe_row_e);
  assign fe_wl_row_d = next_wl_row(fe_state_e, fe_row_e);
  assign fe_rl_ok_d  = 32'(fe_rl_row_d) < MaxReads;
  assign fe_wl_ok_d  = 32'(fe_wl_row_d) < MaxWrites;
  assign fe_rl_idx_d = rl_index(fe_rl_row_d, lf_e);
  assign fe_wl_idx_d = wl_index(fe_wl_row_d, lf_e);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lf_q <= '0;
    end else begin
      lf_q <= lf_d;
    end
  end

  // Commit ids: no reset (read only after the grant that writes them).
  always_ff @(posedge clk_i) begin
    if (cid_we) begin
      cid_q[la] <= cid_i;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The request register, the log streams, events and the error
  // -----------------------------------------------------------------------------------------------
  logic             req_valid_d, cand;
  logic [PartW-1:0] req_dst_q, req_dst_d;
  logic [ReqW-1:0]  req_data_q, req_data_d;
  logic [AddrW-1:0] ld_addr;
  logic [LaneW-1:0] ld_lane;
  assign ld_addr = sl_ld_addr[32'(la_idx)*AddrW +: AddrW];
  assign ld_lane = sl_ld_lane[32'(la_idx)*LaneW +: LaneW];
  assign cand    = wk_has || la_valid;

  // The register loads when empty or taken; with no candidate it empties (the payload holds).
  always_comb begin
    req_valid_d = req_valid_q;
    if (load_en) begin
      req_valid_d = cand;
    end
    if (wk_has) begin
      req_dst_d  = wk_dst;
      req_data_d = {ReqCu, wk_type, wk_cid, wslot_q, wk_lane, wk_addr, wk_data};
    end else begin
      req_dst_d  = part_of(ld_addr);
      req_data_d = {ReqLoad, 3'd0, CidW'(0), la_idx, ld_lane, ld_addr, DataW'(0)};
    end
  end

  logic            logw_valid_q, logw_write_q, logd_valid_q, logd_commit_q;
  logic [CidW-1:0] logw_cid_q, logd_cid_q, dec_cid;
  logic [ThrW-1:0] logw_thread_q, logd_thread_q;
  logic [AddrW-1:0] logw_addr_q;
  logic [DataW-1:0] logw_data_q;
  logic            logw_ev, ev_commit_q, ev_abort_q, ev_alloc_fail_q, err_q, err_ev;
  assign logw_ev = send_fe && (fe_state_q == FeRead || fe_state_q == FeWrite);
  assign dec_cid = cid_q[dec_lane];
  assign err_ev  = rep_err || (sl_cap_err != '0) || (start_go && wl_bad);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_valid_q     <= 1'b0;
      logw_valid_q    <= 1'b0;
      logd_valid_q    <= 1'b0;
      ev_commit_q     <= 1'b0;
      ev_abort_q      <= 1'b0;
      ev_alloc_fail_q <= 1'b0;
      err_q           <= 1'b0;
    end else begin
      req_valid_q     <= req_valid_d;
      logw_valid_q    <= logw_ev;
      logd_valid_q    <= decide;
      ev_commit_q     <= decide && dec_commit;
      ev_abort_q      <= decide && !dec_commit;
      ev_alloc_fail_q <= rep_take_alloc && rep_type == AllocFail;
      if (err_ev) begin
        err_q <= 1'b1;
      end
    end
  end

  // Payloads: no reset, compared only under their valid.
  always_ff @(posedge clk_i) begin
    if (load_en && cand) begin
      req_dst_q  <= req_dst_d;
      req_data_q <= req_data_d;
    end
    if (logw_ev) begin
      logw_cid_q    <= wk_cid;
      logw_thread_q <= ThrW'(w_base + BaseW'(lf));
      logw_write_q  <= fe_state_q == FeWrite;
      logw_addr_q   <= wk_addr;
      logw_data_q   <= wk_data;
    end
    if (decide) begin
      logd_cid_q    <= dec_cid;
      logd_thread_q <= ThrW'(w_base + BaseW'(dec_lane));
      logd_commit_q <= dec_commit;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  assign running_o       = sl_active != '0;
  assign cid_req_o       = wk_busy_q && ae_rem_q != '0 && ae_state_q == AeCid;
  assign req_valid_o     = req_valid_q;
  assign req_dst_o       = req_dst_q;
  assign req_data_o      = req_data_q;
  assign logw_valid_o    = logw_valid_q;
  assign logw_cid_o      = logw_cid_q;
  assign logw_thread_o   = logw_thread_q;
  assign logw_write_o    = logw_write_q;
  assign logw_addr_o     = logw_addr_q;
  assign logw_data_o     = logw_data_q;
  assign logd_valid_o    = logd_valid_q;
  assign logd_cid_o      = logd_cid_q;
  assign logd_thread_o   = logd_thread_q;
  assign logd_commit_o   = logd_commit_q;
  assign ev_commit_o     = ev_commit_q;
  assign ev_abort_o      = ev_abort_q;
  assign ev_alloc_fail_o = ev_alloc_fail_q;
  assign err_o           = err_q;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  `HTM_ASSERT(CoreIdxRange_A, 32'(core_idx_i) < NumCores)
  // The walker's slot waits for it; the sequencer's slot is being set up.
  `HTM_ASSERT(WalkerSlotWaits_A, `HTM_IMPLIES(wk_busy_q, sl_commit_wait[wslot_q]))
  `HTM_ASSERT(SequencerSlotSetup_A,
              `HTM_IMPLIES(ds_busy_q, 32'(ds_slot_q) < NumWarps && sl_setup[ds_slot_q]))
  // The walker's lanes: the engines' lanes and the decided ones are among them.
  `HTM_ASSERT(WalkerLanes_A, ((ae_rem_q | fe_rem_q | filled_q | decided_q) & ~lanes_q) == '0)
  `HTM_ASSERT(FillStateRange_A, fe_state_q <= FeRetry)
  // The fill engine's lane, a register, is the lowest of its lanes left.
  `HTM_ASSERT(FillLane_A, lf_q == lowest_lane(fe_rem_q))

  logic unused_sig;
  assign unused_sig = ^{da_gnt, da_prio, la_gnt, la_prio, wa_gnt, wa_prio, rep_cid,
                        sl_setup};

endmodule
