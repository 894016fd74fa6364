// SPDX-License-Identifier: Apache-2.0
//
// htm_sys_run: the FPGA prototype subsystem's run control (docs/htm_sys.md, "htm_sys_run").
//
// Phases Idle -> Seed -> Init -> Start -> Run -> Check -> Done. A start in Idle or Done registers
// the configuration and either refuses it (Done with cfg_err_o and its code) or draws the seed's
// hash (Seed), writes the workload's initial memory through the partitions' maintenance ports, a
// word per cycle, from the draw unit through an init queue (Init), starts the cores for one cycle
// (Start), waits until the subsystem has been busy and is quiet again (Run), then reads the final
// memory back one word at a time and checks it (Check): ATM-P's balances and EB-P's words by
// their sums, HT-P's lists by their counts, lengths, pointers and keys' buckets. Seven 64-bit
// counters count cycles and the cores' and partitions' events in Start and Run.
//
// Composed of htm_sys_draw (TagW = AddrW + 1: {last, addr}) and htm_fifo (the init queue,
// depth 8). Every output but ctr_o is a register or a function of registers.
`include "htm_assert.svh"

module htm_sys_run #(
  parameter int unsigned NumCores  = 4,   // cores of the subsystem
  parameter int unsigned NumParts  = 2,   // memory partitions, a power of two
  parameter int unsigned AddrW     = 13,  // global word address
  parameter int unsigned IlvLog2   = 6,   // partition interleave: 2^IlvLog2 words
  parameter int unsigned MaxReads  = 8,   // the cores' read-log rows per slot
  parameter int unsigned MaxWrites = 4,   // the cores' write-log rows per slot
  // Derived, do not set.
  localparam int unsigned DataW = 32,
  localparam int unsigned ThrW  = 24
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // Run control and configuration (taken with start_i in Idle and Done).
  input  logic                      start_i,
  input  logic [1:0]                cfg_wl_i,        // htm_pkg::sys_wl_e
  input  logic [ThrW-1:0]           cfg_threads_i,
  input  logic [4:0]                cfg_objlog2_i,
  input  logic [4:0]                cfg_reads_i,
  input  logic [4:0]                cfg_writes_i,
  input  logic [4:0]                cfg_cold_i,
  input  logic [DataW-1:0]          cfg_seed_i,
  output logic                      busy_o,
  output logic                      done_o,
  output logic                      cfg_err_o,
  output logic [2:0]                cfg_err_code_o,
  output logic                      check_ok_o,
  output logic [2:0]                check_code_o,
  output logic [AddrW-1:0]          check_idx_o,
  // The registered configuration, to every core.
  output logic [1:0]                run_wl_o,
  output logic [ThrW-1:0]           run_threads_o,
  output logic [4:0]                run_objlog2_o,
  output logic [4:0]                run_reads_o,
  output logic [4:0]                run_writes_o,
  output logic [4:0]                run_cold_o,
  output logic [DataW-1:0]          run_seed_hash_o,
  output logic                      core_start_o,
  input  logic                      quiet_i,
  // Maintenance ports: partition p is bit p, element p.
  output logic [NumParts-1:0]       mt_valid_o,
  output logic [NumParts-1:0]       mt_we_o,
  output logic [NumParts*AddrW-1:0] mt_addr_o,
  output logic [NumParts*DataW-1:0] mt_wdata_o,
  input  logic [NumParts-1:0]       mt_ready_i,
  input  logic [NumParts-1:0]       mt_rvalid_i,
  input  logic [NumParts*DataW-1:0] mt_rdata_i,
  // Events for the counters.
  input  logic [NumCores-1:0]       ev_commit_i,
  input  logic [NumCores-1:0]       ev_abort_i,
  input  logic [NumCores-1:0]       ev_alloc_fail_i,
  input  logic [NumParts-1:0]       ev_load_i,
  input  logic [NumParts-1:0]       ev_cu_msg_i,
  input  logic [NumParts-1:0]       cu_busy_i,
  input  logic [2:0]                ctr_sel_i,
  output logic [63:0]               ctr_o
);

  localparam int unsigned PartBits = $clog2(NumParts);
  localparam int unsigned PartW    = htm_pkg::idx_width(NumParts);
  localparam int unsigned TagW     = AddrW + 1;
  localparam int unsigned QW       = AddrW + DataW;  // the init queue's {value, addr}
  localparam int unsigned QDepth   = 8;
  localparam int unsigned QCntW    = $clog2(QDepth + 1);
  // Memory sizes without wrapping: 3A + 2T < 2^(AddrW+2) + 2^25, A + C*T < 2^AddrW + 2^29.
  localparam int unsigned SW       = (AddrW + 2 > 29 ? AddrW + 2 : 29) + 1;
  localparam int unsigned NW       = (SW > DataW ? SW : DataW) + 1;
  localparam int unsigned CtrW     = 64;

  `HTM_ASSERT_INIT(NumCoresRange_A, NumCores >= 1 && NumCores <= 64)
  `HTM_ASSERT_INIT(NumPartsPow2_A, htm_pkg::is_pow2(NumParts) && NumParts <= 64)
  `HTM_ASSERT_INIT(AddrWRange_A, AddrW > PartBits && AddrW <= 32 && IlvLog2 + PartBits <= AddrW)
  `HTM_ASSERT_INIT(LogRowsRange_A, MaxReads >= 1 && MaxReads <= 64 && MaxWrites >= 1 &&
                   MaxWrites <= 64)

  localparam logic [1:0] WlAtm = 2'(htm_pkg::SysWlAtm);
  localparam logic [1:0] WlHt  = 2'(htm_pkg::SysWlHt);
  localparam logic [1:0] WlEb  = 2'(htm_pkg::SysWlEb);

  localparam logic [DataW-1:0] SeedSalt   = 32'hA5A5A5A5;
  localparam logic [DataW-1:0] BucketSalt = 32'h5BD1E995;
  localparam logic [DataW-1:0] Nil        = 32'hFFFFFFFF;

  // Phases.
  localparam logic [2:0] PIdle  = 3'd0;
  localparam logic [2:0] PSeed  = 3'd1;
  localparam logic [2:0] PInit  = 3'd2;
  localparam logic [2:0] PStart = 3'd3;
  localparam logic [2:0] PRun   = 3'd4;
  localparam logic [2:0] PCheck = 3'd5;
  localparam logic [2:0] PDone  = 3'd6;

  // The check engine's states.
  localparam logic [3:0] CStart   = 4'd0;
  localparam logic [3:0] CRd      = 4'd1;
  localparam logic [3:0] CWt      = 4'd2;
  localparam logic [3:0] KSum     = 4'd3;
  localparam logic [3:0] KEnd     = 4'd4;
  localparam logic [3:0] HCnt     = 4'd5;
  localparam logic [3:0] HCntEnd  = 4'd6;
  localparam logic [3:0] HLen     = 4'd7;
  localparam logic [3:0] HPtr     = 4'd8;
  localparam logic [3:0] HNode    = 4'd9;
  localparam logic [3:0] HKey     = 4'd10;
  localparam logic [3:0] HHash    = 4'd11;

  // Check codes.
  localparam logic [2:0] CodeAtmSum  = 3'd1;
  localparam logic [2:0] CodeEbSum   = 3'd2;
  localparam logic [2:0] CodeHtCount = 3'd3;
  localparam logic [2:0] CodeHtLen   = 3'd4;
  localparam logic [2:0] CodeHtKey   = 3'd5;
  localparam logic [2:0] CodeHtPtr   = 3'd6;

  // The partition of a global word address.
  function automatic logic [PartW-1:0] part_of(input logic [AddrW-1:0] a);
    part_of = PartW'((a >> IlvLog2) & AddrW'(NumParts - 1));
  endfunction

  // The workload's memory in words.
  function automatic logic [SW-1:0] mem_words(input logic [1:0] wl, input logic [ThrW-1:0] t,
                                              input logic [4:0] objlog2, input logic [4:0] c);
    logic [SW-1:0] a;
    a = SW'(1) << objlog2;
    case (wl)
      WlAtm:   mem_words = (a << 1) + SW'(16);
      WlHt:    mem_words = (a << 1) + a + (SW'(t) << 1);
      WlEb:    mem_words = a + SW'(c) * SW'(t);
      default: mem_words = '0;
    endcase
  endfunction

  // ---- Registers ------------------------------------------------------------------------------
  logic [2:0]       phase_d, phase_q;
  logic [1:0]       wl_d, wl_q;
  logic [ThrW-1:0]  thr_d, thr_q;
  logic [4:0]       objlog2_d, objlog2_q, reads_d, reads_q, writes_d, writes_q, cold_d, cold_q;
  logic [DataW-1:0] seed_d, seed_q, seed_hash_d, seed_hash_q;
  logic             seed_sent_d, seed_sent_q;
  logic [SW-1:0]    s_d, s_q;
  logic             cfg_err_d, cfg_err_q;
  logic [2:0]       cfg_err_code_d, cfg_err_code_q;
  logic [2:0]       check_code_d, check_code_q;
  logic [AddrW-1:0] check_idx_d, check_idx_q;
  logic [SW-1:0]    ia_d, ia_q;
  logic [3:0]       cnt_d, cnt_q;
  logic [DataW-1:0] init_sum_d, init_sum_q;
  logic             seen_busy_d, seen_busy_q;
  logic [3:0]       cs_d, cs_q, ret_d, ret_q;
  logic [AddrW-1:0] raddr_d, raddr_q, b_d, b_q;
  logic [DataW-1:0] w_d, w_q, sum_d, sum_q, cnt_b_d, cnt_b_q, len_d, len_q, n_d, n_q;
  logic [CtrW-1:0]  ctr_d [7];
  logic [CtrW-1:0]  ctr_q [7];

  // ---- The draw unit and the init queue -------------------------------------------------------
  logic             dr_in_valid;
  logic [DataW-1:0] dr_a, dr_b;
  logic [TagW-1:0]  dr_tag_in;
  logic             dr_valid;
  logic [DataW-1:0] dr_value;
  logic [TagW-1:0]  dr_tag;

  htm_sys_draw #(.TagW(TagW)) u_draw (
    .clk_i,
    .rst_ni,
    .in_valid_i (dr_in_valid),
    .a_i        (dr_a),
    .b_i        (dr_b),
    .in_tag_i   (dr_tag_in),
    .out_valid_o(dr_valid),
    .out_value_o(dr_value),
    .out_tag_o  (dr_tag)
  );

  logic             q_push, q_pop_ready, q_valid;
  logic [QW-1:0]    q_in, q_out;
  /* verilator lint_off UNUSEDSIGNAL */
  logic             q_in_ready;  // never full: cnt_q bounds the words in the unit and the queue
  logic [QCntW-1:0] q_count;
  logic             dr_tag_last;  // the tag's {last} bit: carried, not needed by the engine
  /* verilator lint_on UNUSEDSIGNAL */

  // Registered head (OutReg): the init words leave from flip-flops toward the partitions.
  htm_fifo #(.Width(QW), .Depth(QDepth), .OutReg(1'b1)) u_queue (
    .clk_i,
    .rst_ni,
    .clr_i      (1'b0),
    .in_valid_i (q_push),
    .in_ready_o (q_in_ready),
    .in_data_i  (q_in),
    .out_valid_o(q_valid),
    .out_ready_i(q_pop_ready),
    .out_data_o (q_out),
    .count_o    (q_count)
  );

  // ---- Derived values of the registered configuration ---------------------------------------
  logic [SW-1:0]    acc;        // A
  logic [SW-1:0]    nodes_end;  // 2A + 2T
  logic [AddrW-1:0] q_addr, dr_addr;
  logic [DataW-1:0] q_value, init_value;
  logic [PartW-1:0] q_part, rd_part;

  assign acc         = SW'(1) << objlog2_q;
  assign nodes_end   = (acc << 1) + (SW'(thr_q) << 1);
  assign q_addr      = q_out[AddrW-1:0];
  assign q_value     = q_out[QW-1:AddrW];
  assign q_part      = part_of(q_addr);
  assign rd_part     = part_of(raddr_q);
  assign dr_addr     = dr_tag[AddrW-1:0];
  assign dr_tag_last = dr_tag[TagW-1];

  // A word's initial value from its address and its draw.
  always_comb begin
    init_value = '0;
    case (wl_q)
      WlAtm: begin
        if (SW'(dr_addr) < acc) begin
          init_value = 32'd1000 + {16'd0, dr_value[15:0]};
        end else if (SW'(dr_addr) < acc + SW'(16)) begin
          init_value = 32'd1 + {24'd0, dr_value[7:0]};
        end
      end
      WlHt: begin
        if (SW'(dr_addr) < acc ||
            (SW'(dr_addr) >= (acc << 1) && SW'(dr_addr) < nodes_end && dr_addr[0])) begin
          init_value = Nil;
        end
      end
      WlEb: begin
        if (SW'(dr_addr) < acc) begin
          init_value = dr_value;
        end
      end
      default: init_value = '0;
    endcase
  end

  // The operand a of address ia's draw: {stream, index}, or 0 for a word that is not drawn.
  logic [DataW-1:0] init_a;
  always_comb begin
    init_a = '0;
    if (wl_q == WlAtm && ia_q < acc) begin
      init_a = {8'd3, ia_q[ThrW-1:0]};
    end else if (wl_q == WlAtm && ia_q < acc + SW'(16)) begin
      init_a = {8'd4, 24'(ia_q - acc)};
    end else if (wl_q == WlEb && ia_q < acc) begin
      init_a = {8'd8, ia_q[ThrW-1:0]};
    end
  end

  // ---- The start's refusal --------------------------------------------------------------------
  logic [SW-1:0] s_in, a_in;
  logic [6:0]    rows_r;
  logic [5:0]    rows_w;
  logic [2:0]    refusal;

  assign s_in = mem_words(cfg_wl_i, cfg_threads_i, cfg_objlog2_i, cfg_cold_i);
  assign a_in = SW'(1) << cfg_objlog2_i;

  always_comb begin
    case (cfg_wl_i)
      WlAtm: begin
        rows_r = 7'd3;
        rows_w = 6'd2;
      end
      WlHt: begin
        rows_r = 7'd2;
        rows_w = 6'd4;
      end
      default: begin
        rows_r = 7'(cfg_reads_i) + 7'(cfg_writes_i) + 7'(cfg_cold_i);
        rows_w = 6'(cfg_writes_i) + 6'(cfg_cold_i);
      end
    endcase
    if (cfg_wl_i == 2'd3) begin
      refusal = 3'd1;
    end else if (cfg_threads_i == '0) begin
      refusal = 3'd2;
    end else if (cfg_objlog2_i == '0 || 32'(cfg_objlog2_i) > AddrW) begin
      refusal = 3'd3;
    end else if (s_in > (SW'(1) << AddrW)) begin
      refusal = 3'd4;
    end else if (32'(rows_r) > MaxReads || 32'(rows_w) > MaxWrites) begin
      refusal = 3'd5;
    end else if (cfg_wl_i == WlEb &&
                 (rows_r == '0 || SW'(cfg_writes_i) > a_in || cfg_reads_i > 5'd16 ||
                  cfg_writes_i > 5'd16 || cfg_cold_i > 5'd16)) begin
      refusal = 3'd6;
    end else begin
      refusal = 3'd0;
    end
  end

  // ---- Next state -----------------------------------------------------------------------------
  logic          issue, pop, leaving;
  logic [SW-1:0] k_last;
  logic [NW-1:0] n_wide;
  logic [DataW-1:0] eb_want;

  assign n_wide  = NW'(n_q);
  assign k_last  = wl_q == WlAtm ? acc - SW'(1) : s_q - SW'(1);
  assign eb_want = init_sum_q + DataW'(thr_q) * DataW'(6'(writes_q) + 6'(cold_q));

  always_comb begin
    phase_d        = phase_q;
    wl_d           = wl_q;
    thr_d          = thr_q;
    objlog2_d      = objlog2_q;
    reads_d        = reads_q;
    writes_d       = writes_q;
    cold_d         = cold_q;
    seed_d         = seed_q;
    seed_hash_d    = seed_hash_q;
    seed_sent_d    = seed_sent_q;
    s_d            = s_q;
    cfg_err_d      = cfg_err_q;
    cfg_err_code_d = cfg_err_code_q;
    check_code_d   = check_code_q;
    check_idx_d    = check_idx_q;
    ia_d           = ia_q;
    cnt_d          = cnt_q;
    init_sum_d     = init_sum_q;
    seen_busy_d    = seen_busy_q;
    cs_d           = cs_q;
    ret_d          = ret_q;
    raddr_d        = raddr_q;
    b_d            = b_q;
    w_d            = w_q;
    sum_d          = sum_q;
    cnt_b_d        = cnt_b_q;
    len_d          = len_q;
    n_d            = n_q;
    for (int i = 0; i < 7; i++) begin
      ctr_d[i] = ctr_q[i];
    end
    dr_in_valid = 1'b0;
    dr_a        = seed_hash_q;
    dr_b        = seed_hash_q;
    dr_tag_in   = '0;
    q_push      = 1'b0;
    q_in        = {init_value, dr_addr};
    q_pop_ready = 1'b0;
    issue       = 1'b0;
    pop         = 1'b0;
    leaving     = phase_q == PRun && quiet_i && seen_busy_q;

    // Counters: every cycle of Start and Run; the cycle counter not in Run's quiet cycle.
    // Choice: "that cycle is not counted" (Run) applies to the cycle counter only; the events of
    // the quiet cycle are counted ("events in every cycle of Start and Run").
    if (phase_q == PStart || phase_q == PRun) begin
      ctr_d[0] = ctr_q[0] + CtrW'(!leaving);
      ctr_d[1] = ctr_q[1] + CtrW'($countones(ev_commit_i));
      ctr_d[2] = ctr_q[2] + CtrW'($countones(ev_abort_i));
      ctr_d[3] = ctr_q[3] + CtrW'($countones(ev_alloc_fail_i));
      ctr_d[4] = ctr_q[4] + CtrW'($countones(ev_load_i));
      ctr_d[5] = ctr_q[5] + CtrW'($countones(ev_cu_msg_i));
      ctr_d[6] = ctr_q[6] + CtrW'($countones(cu_busy_i));
    end

    case (phase_q)
      PIdle, PDone: begin
        if (start_i) begin
          // Choice: the configuration and seed are registered also when the start is refused
          // (run_*_o show them); run_seed_hash_o keeps its value until the next Seed.
          wl_d           = cfg_wl_i;
          thr_d          = cfg_threads_i;
          objlog2_d      = cfg_objlog2_i;
          reads_d        = cfg_reads_i;
          writes_d       = cfg_writes_i;
          cold_d         = cfg_cold_i;
          seed_d         = cfg_seed_i;
          s_d            = s_in;
          cfg_err_d      = refusal != 3'd0;
          cfg_err_code_d = refusal;
          check_code_d   = '0;
          check_idx_d    = '0;
          for (int i = 0; i < 7; i++) begin
            ctr_d[i] = '0;
          end
          // Choice: Init's and Run's registers (ia, cnt, init_sum, seen_busy) are cleared at a
          // taken start.
          seed_sent_d = 1'b0;
          ia_d        = '0;
          cnt_d       = '0;
          init_sum_d  = '0;
          seen_busy_d = 1'b0;
          phase_d     = refusal != 3'd0 ? PDone : PSeed;
        end
      end
      PSeed: begin
        // Choice: the draws of Seed and of HKey carry tag 0 (only Init's results are told apart
        // by their tags); a word that is not drawn enters with a = 0 and b = seed_hash.
        if (!seed_sent_q) begin
          dr_in_valid = 1'b1;
          dr_a        = seed_q;
          dr_b        = SeedSalt;
          seed_sent_d = 1'b1;
        end
        if (dr_valid) begin
          seed_hash_d = dr_value;
          phase_d     = PInit;
        end
      end
      PInit: begin
        if (ia_q == s_q && cnt_q == '0) begin
          phase_d = PStart;
        end else begin
          issue = ia_q < s_q && cnt_q < 4'(QDepth);
          if (issue) begin
            dr_in_valid = 1'b1;
            dr_a        = init_a;
            dr_b        = seed_hash_q;
            dr_tag_in   = {ia_q == s_q - SW'(1), ia_q[AddrW-1:0]};
            ia_d        = ia_q + SW'(1);
          end
          if (dr_valid) begin
            q_push = 1'b1;
            if ((wl_q == WlAtm && SW'(dr_addr) < acc) || wl_q == WlEb) begin
              init_sum_d = init_sum_q + init_value;
            end
          end
          if (q_valid) begin
            pop         = mt_ready_i[q_part];
            q_pop_ready = pop;
          end
          cnt_d = cnt_q + 4'(issue) - 4'(pop);
        end
      end
      PStart: begin
        phase_d = PRun;
      end
      PRun: begin
        if (!quiet_i) begin
          seen_busy_d = 1'b1;
        end else if (seen_busy_q) begin
          phase_d = PCheck;
          cs_d    = CStart;
        end
      end
      PCheck: begin
        case (cs_q)
          CStart: begin
            sum_d = '0;
            b_d   = '0;
            cs_d  = CRd;
            if (wl_q == WlHt) begin
              raddr_d = acc[AddrW-1:0];
              ret_d   = HCnt;
            end else begin
              raddr_d = '0;
              ret_d   = KSum;
            end
          end
          CRd: begin
            if (mt_ready_i[rd_part]) begin
              cs_d = CWt;
            end
          end
          CWt: begin
            if (mt_rvalid_i[rd_part]) begin
              w_d  = mt_rdata_i[rd_part*DataW +: DataW];
              cs_d = ret_q;
            end
          end
          KSum: begin
            sum_d = sum_q + w_q;
            if (SW'(raddr_q) == k_last) begin
              cs_d = KEnd;
            end else begin
              raddr_d = raddr_q + AddrW'(1);
              ret_d   = KSum;
              cs_d    = CRd;
            end
          end
          KEnd: begin
            phase_d = PDone;
            if (wl_q == WlAtm) begin
              if (sum_q != init_sum_q) begin
                check_code_d = CodeAtmSum;
              end
            end else if (sum_q != eb_want) begin
              check_code_d = CodeEbSum;
            end
          end
          HCnt: begin
            sum_d = sum_q + w_q;
            if (SW'(raddr_q) == (acc << 1) - SW'(1)) begin
              cs_d = HCntEnd;
            end else begin
              raddr_d = raddr_q + AddrW'(1);
              ret_d   = HCnt;
              cs_d    = CRd;
            end
          end
          HCntEnd: begin
            // Choice: a wrong count sum is the check's first failure and ends it (Done), as
            // every other failure does; only a right one goes on to bucket 0.
            if (sum_q != DataW'(thr_q)) begin
              check_code_d = CodeHtCount;
              phase_d      = PDone;
            end else begin
              raddr_d = acc[AddrW-1:0];
              ret_d   = HLen;
              cs_d    = CRd;
            end
          end
          HLen: begin
            cnt_b_d = w_q;
            len_d   = '0;
            raddr_d = b_q;
            ret_d   = HPtr;
            cs_d    = CRd;
          end
          HPtr: begin
            n_d  = w_q;
            cs_d = HNode;
          end
          HNode: begin
            if (n_q == Nil) begin
              if (len_q != cnt_b_q) begin
                check_code_d = CodeHtLen;
                check_idx_d  = b_q;
                phase_d      = PDone;
              end else if (SW'(b_q) == acc - SW'(1)) begin
                phase_d = PDone;
              end else begin
                b_d     = b_q + AddrW'(1);
                raddr_d = AddrW'(acc) + b_q + AddrW'(1);
                ret_d   = HLen;
                cs_d    = CRd;
              end
            end else if (n_wide < NW'(acc << 1) || n_wide >= NW'(nodes_end) || n_q[0]) begin
              check_code_d = CodeHtPtr;
              check_idx_d  = b_q;
              phase_d      = PDone;
            end else if (len_q >= cnt_b_q) begin
              check_code_d = CodeHtLen;
              check_idx_d  = b_q;
              phase_d      = PDone;
            end else begin
              raddr_d = n_q[AddrW-1:0];
              ret_d   = HKey;
              cs_d    = CRd;
            end
          end
          HKey: begin
            dr_in_valid = 1'b1;
            dr_a        = w_q;
            dr_b        = BucketSalt;
            cs_d        = HHash;
          end
          HHash: begin
            if (dr_valid) begin
              if (NW'(dr_value & DataW'(acc - SW'(1))) != NW'(b_q)) begin
                check_code_d = CodeHtKey;
                check_idx_d  = n_q[AddrW-1:0];
                phase_d      = PDone;
              end else begin
                len_d   = len_q + 32'd1;
                raddr_d = n_q[AddrW-1:0] + AddrW'(1);
                ret_d   = HPtr;
                cs_d    = CRd;
              end
            end
          end
          default: cs_d = CStart;
        endcase
      end
      default: phase_d = PIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q        <= PIdle;
      wl_q           <= '0;
      thr_q          <= '0;
      objlog2_q      <= '0;
      reads_q        <= '0;
      writes_q       <= '0;
      cold_q         <= '0;
      seed_q         <= '0;
      seed_hash_q    <= '0;
      seed_sent_q    <= 1'b0;
      s_q            <= '0;
      cfg_err_q      <= 1'b0;
      cfg_err_code_q <= '0;
      check_code_q   <= '0;
      check_idx_q    <= '0;
      ia_q           <= '0;
      cnt_q          <= '0;
      init_sum_q     <= '0;
      seen_busy_q    <= 1'b0;
      cs_q           <= CStart;
      ret_q          <= CStart;
      raddr_q        <= '0;
      b_q            <= '0;
      w_q            <= '0;
      sum_q          <= '0;
      cnt_b_q        <= '0;
      len_q          <= '0;
      n_q            <= '0;
      for (int i = 0; i < 7; i++) begin
        ctr_q[i] <= '0;
      end
    end else begin
      phase_q        <= phase_d;
      wl_q           <= wl_d;
      thr_q          <= thr_d;
      objlog2_q      <= objlog2_d;
      reads_q        <= reads_d;
      writes_q       <= writes_d;
      cold_q         <= cold_d;
      seed_q         <= seed_d;
      seed_hash_q    <= seed_hash_d;
      seed_sent_q    <= seed_sent_d;
      s_q            <= s_d;
      cfg_err_q      <= cfg_err_d;
      cfg_err_code_q <= cfg_err_code_d;
      check_code_q   <= check_code_d;
      check_idx_q    <= check_idx_d;
      ia_q           <= ia_d;
      cnt_q          <= cnt_d;
      init_sum_q     <= init_sum_d;
      seen_busy_q    <= seen_busy_d;
      cs_q           <= cs_d;
      ret_q          <= ret_d;
      raddr_q        <= raddr_d;
      b_q            <= b_d;
      w_q            <= w_d;
      sum_q          <= sum_d;
      cnt_b_q        <= cnt_b_d;
      len_q          <= len_d;
      n_q            <= n_d;
      for (int i = 0; i < 7; i++) begin
        ctr_q[i] <= ctr_d[i];
      end
    end
  end

  // ---- Outputs --------------------------------------------------------------------------------
  logic             mt_any, mt_write;
  logic [PartW-1:0] mt_part;
  logic [AddrW-1:0] mt_addr;

  // Choice: every partition's mt_addr_o and mt_wdata_o element carries the offered access's
  // address and data (only the valid partition's are meaningful); mt_we_o is set for the
  // partition of an Init write, clear for a Check read.
  assign mt_write   = phase_q == PInit;
  assign mt_any     = mt_write ? q_valid : (phase_q == PCheck && cs_q == CRd);
  assign mt_part    = mt_write ? q_part : rd_part;
  assign mt_addr    = mt_write ? q_addr : raddr_q;
  assign mt_valid_o = mt_any ? NumParts'(1) << mt_part : '0;
  assign mt_we_o    = mt_write ? mt_valid_o : '0;
  assign mt_addr_o  = {NumParts{mt_addr}};
  assign mt_wdata_o = {NumParts{mt_write ? q_value : DataW'(0)}};

  assign busy_o         = phase_q != PIdle && phase_q != PDone;
  assign done_o         = phase_q == PDone;
  assign cfg_err_o      = cfg_err_q;
  assign cfg_err_code_o = cfg_err_code_q;
  // Choice: check_ok_o is high only in Done after an accepted start whose check passed.
  assign check_ok_o     = phase_q == PDone && !cfg_err_q && check_code_q == '0;
  assign check_code_o   = check_code_q;
  assign check_idx_o    = check_idx_q;
  assign run_wl_o       = wl_q;
  assign run_threads_o  = thr_q;
  assign run_objlog2_o  = objlog2_q;
  assign run_reads_o    = reads_q;
  assign run_writes_o   = writes_q;
  assign run_cold_o     = cold_q;
  assign run_seed_hash_o = seed_hash_q;
  assign core_start_o   = phase_q == PStart;

  always_comb begin
    case (ctr_sel_i)
      3'd0:    ctr_o = ctr_q[0];
      3'd1:    ctr_o = ctr_q[1];
      3'd2:    ctr_o = ctr_q[2];
      3'd3:    ctr_o = ctr_q[3];
      3'd4:    ctr_o = ctr_q[4];
      3'd5:    ctr_o = ctr_q[5];
      3'd6:    ctr_o = ctr_q[6];
      default: ctr_o = '0;  // 7: reserved
    endcase
  end

  // Invariants (simulation and formal).
  `HTM_ASSERT(CntInRange_A, cnt_q <= 4'(QDepth))
  `HTM_ASSERT(QueueNeverFull_A, !(q_push && !q_in_ready))

endmodule
