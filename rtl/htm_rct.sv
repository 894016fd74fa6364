// SPDX-License-Identifier: Apache-2.0
//
// htm_rct: the Reference Count Table of a commit unit (early conflict resolution:
// Chen & Peng, HPCA 2016, section 4.1).
//
// Per word address a reader count and a writer count of the log words the commit unit holds,
// kept in a Sets x Ways set-associative table in block RAM (set = H3 hash of the address, each
// way holds the full address and its two CountW-bit counts; a way is free when both counts are
// 0). Inputs are the commit unit's RCT event stream, at most one increment (a log word was
// stored) and one decrement (a log word was freed) per cycle, without back-pressure.
//
// One table operation per cycle, in a two-stage read-modify-write pipeline:
//   * a decrement is processed in the cycle it arrives; an increment waits in a queue of
//     IncQueue entries and is processed in the first cycle without a decrement (directly, when
//     the queue is empty); an increment that finds the queue full is lost;
//   * a decrement that matches (address and kind) an increment still in the queue, or one
//     arriving in the same cycle, cancels it (the oldest such), and neither is applied;
//   * increment: a hit counts up, unless the count is at its maximum (lost, saturated); a miss
//     takes the lowest free way of the set with count 1, unless the set is full (lost, full);
//   * decrement: a hit with a positive count counts down (a way whose counts both reach 0 is
//     free); a miss or a zero count is ignored.
// So for every address, at all times, the count is at most the number of live words whose
// increment is not queued: counts never underflow, and when the last word of an address is
// freed its count is 0 (docs/htm_rct.md).
//
// Deltas: a count going 0 -> 1 emits an add, 1 -> 0 a remove: {address, write, add}
// (dlt_o, in the cycle after the operation started). Deltas are collected into messages of up
// to Batch deltas: a message goes out (msg_valid_o, one cycle, no back-pressure) when it holds
// Batch deltas or when its first delta has waited FlushCycles cycles.
//
// After reset the table is cleared, one set per cycle (Sets cycles, ready_o low); events in
// that time are ignored.
`include "htm_assert.svh"

module htm_rct #(
  parameter int unsigned AddrW       = 30,    // word address width, 1..62
  parameter int unsigned Sets        = 1024,  // sets, a power of two
  parameter int unsigned Ways        = 3,     // ways per set, >= 1
  parameter int unsigned CountW      = 5,     // reader and writer count width, 1..16
  parameter int unsigned IncQueue    = 4,     // queued increments, >= 1
  parameter int unsigned Batch       = 8,     // deltas per message, 1..64
  parameter int unsigned FlushCycles = 16,    // longest wait of a delta for its message, >= 1
  // Derived, do not set.
  localparam int unsigned DltW       = AddrW + 2,
  localparam int unsigned BCntW      = $clog2(Batch + 1),
  localparam int unsigned UsedW      = $clog2(Sets * Ways + 1)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  output logic                  ready_o,        // the table is cleared; events are counted
  // The commit unit's RCT event stream.
  input  logic                  inc_valid_i,    // a log word was stored
  input  logic [AddrW-1:0]      inc_addr_i,
  input  logic                  inc_write_i,    // ... of the write set (else the read set)
  input  logic                  dec_valid_i,    // a log word was freed
  input  logic [AddrW-1:0]      dec_addr_i,
  input  logic                  dec_write_i,
  // Deltas, one per cycle at most, and their messages.
  output logic                  dlt_valid_o,
  output logic [DltW-1:0]       dlt_o,          // {address, write, add}
  output logic                  msg_valid_o,
  output logic [BCntW-1:0]      msg_count_o,    // deltas in the message, 1..Batch
  output logic [Batch*DltW-1:0] msg_dlt_o,      // delta i at [i*DltW +: DltW]; 0 past count
  // Events, for statistics and tests.
  output logic                  cancel_o,       // a decrement cancelled a queued increment
  output logic                  lost_queue_o,   // an increment found the queue full
  output logic                  lost_full_o,    // an increment found its set full
  output logic                  lost_sat_o,     // an increment found its count at the maximum
  output logic                  dec_ignored_o,  // a decrement found no count to lower
  output logic                  busy_o,         // an operation or a queued increment is pending
  output logic [UsedW-1:0]      used_o          // ways in use
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 62)
  `HTM_ASSERT_INIT(SetsPow2_A, htm_pkg::is_pow2(Sets))
  `HTM_ASSERT_INIT(WaysRange_A, Ways >= 1)
  `HTM_ASSERT_INIT(CountWRange_A, CountW >= 1 && CountW <= 16)
  `HTM_ASSERT_INIT(IncQueueRange_A, IncQueue >= 1)
  `HTM_ASSERT_INIT(BatchRange_A, Batch >= 1 && Batch <= 64)
  `HTM_ASSERT_INIT(FlushRange_A, FlushCycles >= 1)

  localparam int unsigned SetIdxW = htm_pkg::idx_width(Sets);
  localparam int unsigned WayW    = AddrW + 2 * CountW;  // {address, readers, writers}
  localparam int unsigned SetW    = Ways * WayW;
  localparam int unsigned QCntW   = $clog2(IncQueue + 1);
  localparam int unsigned AgeW    = htm_pkg::idx_width(FlushCycles);
  localparam logic [CountW-1:0] CountMax = {CountW{1'b1}};

  // -----------------------------------------------------------------------------------------------
  // Clearing after reset
  // -----------------------------------------------------------------------------------------------
  logic               init_q;
  logic [SetIdxW-1:0] init_set_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q     <= 1'b1;
      init_set_q <= '0;
    end else if (init_q) begin
      init_set_q <= init_set_q + SetIdxW'(1);
      if (Sets == 1 || init_set_q == SetIdxW'(Sets - 1)) begin
        init_q <= 1'b0;
      end
    end
  end

  assign ready_o = !init_q;

  // -----------------------------------------------------------------------------------------------
  // Stage 0: the increment queue, cancellation, the operation of this cycle
  // -----------------------------------------------------------------------------------------------
  // Queue entries 0..q_cnt_q-1 hold increments, oldest first: {address, write}.
  logic [AddrW:0]   q_ent_q [IncQueue];
  logic [AddrW:0]   q_ent_d [IncQueue];
  logic [QCntW-1:0] q_cnt_q, q_cnt_d;

  logic             dec_in, inc_in;
  logic [AddrW:0]   dec_key, inc_key;
  logic [IncQueue-1:0] q_match;
  logic             q_any_match, in_match;
  logic [QCntW-1:0] q_rm;         // index of the removed entry (popped or cancelled)
  logic             q_remove, cancel_in, pop, bypass, push, lost_queue;
  logic             op_valid, op_dec;
  logic [AddrW:0]   op_key;

  assign dec_in  = dec_valid_i && !init_q;
  assign inc_in  = inc_valid_i && !init_q;
  assign dec_key = {dec_addr_i, dec_write_i};
  assign inc_key = {inc_addr_i, inc_write_i};

  always_comb begin
    q_match     = '0;
    q_any_match = 1'b0;
    q_rm        = '0;
    for (int i = IncQueue - 1; i >= 0; i--) begin
      q_match[i] = QCntW'(i) < q_cnt_q && q_ent_q[i] == dec_key;
      if (q_match[i]) begin
        q_any_match = 1'b1;
        q_rm        = QCntW'(i);
      end
    end
  end

  assign in_match  = dec_in && inc_in && inc_key == dec_key;
  // A decrement cancels the oldest matching queued increment, else a matching one arriving now.
  assign cancel_in = in_match && !q_any_match;
  assign cancel_o  = dec_in && (q_any_match || in_match);
  // The operation: the decrement (unless cancelled); else the queue head; else the increment
  // arriving now.
  assign pop       = !dec_in && q_cnt_q != '0;
  assign bypass    = !dec_in && q_cnt_q == '0 && inc_in;
  assign q_remove  = pop || (dec_in && q_any_match);
  assign op_valid  = (dec_in && !cancel_o) || pop || bypass;
  assign op_dec    = dec_in;
  assign op_key    = dec_in ? dec_key : (pop ? q_ent_q[0] : inc_key);

  logic [QCntW-1:0] q_left, q_at;  // entries left after the removal; index removed
  always_comb begin
    q_at       = pop ? '0 : q_rm;
    q_left     = q_cnt_q - QCntW'(q_remove);
    push       = inc_in && !cancel_in && !bypass;
    lost_queue = push && 32'(q_left) >= IncQueue;
    for (int i = 0; i < IncQueue; i++) begin
      // Entries behind the removed one move up by one.
      if (q_remove && QCntW'(i) >= q_at && i + 1 < IncQueue) begin
        q_ent_d[i] = q_ent_q[(i + 1) % IncQueue];
      end else begin
        q_ent_d[i] = q_ent_q[i];
      end
      if (push && !lost_queue && QCntW'(i) == q_left) begin
        q_ent_d[i] = inc_key;
      end
    end
    q_cnt_d = q_left + QCntW'(push && !lost_queue);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_cnt_q <= '0;
      for (int i = 0; i < IncQueue; i++) begin
        q_ent_q[i] <= '0;
      end
    end else begin
      q_cnt_q <= q_cnt_d;
      for (int i = 0; i < IncQueue; i++) begin
        q_ent_q[i] <= q_ent_d[i];
      end
    end
  end

  assign lost_queue_o = lost_queue;

  // Set index: H3 hash of the address.
  logic [SetIdxW-1:0] op_set_hash, op_set;
  logic [AddrW-1:0]   op_addr;
  assign op_addr = op_key[AddrW:1];

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(1),
    .IdxW     (SetIdxW),
    .HashKind (htm_pkg::SigHashH3)
  ) u_set_hash (
    .addr_i(op_addr),
    .idx_o (op_set_hash)
  );

  assign op_set = (Sets == 1) ? '0 : op_set_hash;

  // Stage 1 registers.
  logic               op_q, dec_q, write_q;
  logic [AddrW-1:0]   addr_q;
  logic [SetIdxW-1:0] set_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      op_q    <= 1'b0;
      dec_q   <= 1'b0;
      write_q <= 1'b0;
      addr_q  <= '0;
      set_q   <= '0;
    end else begin
      op_q    <= op_valid;
      dec_q   <= op_dec;
      write_q <= op_key[0];
      addr_q  <= op_addr;
      set_q   <= op_set;
    end
  end

  assign busy_o = op_q || q_cnt_q != '0;

  // -----------------------------------------------------------------------------------------------
  // The table (write-first: a set read while stage 1 writes it back is read new)
  // -----------------------------------------------------------------------------------------------
  logic               wr_en, rd_unused_valid;
  logic [SetIdxW-1:0] wr_set;
  logic [SetW-1:0]    wr_data, set_data;

  htm_ram_1r1w #(
    .Width     (SetW),
    .Depth     (Sets),
    .WriteFirst(1)
  ) u_table (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wr_en_i   (wr_en),
    .wr_addr_i (wr_set),
    .wr_data_i (wr_data),
    .rd_en_i   (op_valid),
    .rd_addr_i (op_set),
    .rd_valid_o(rd_unused_valid),
    .rd_data_o (set_data)
  );

  // -----------------------------------------------------------------------------------------------
  // Stage 1: match, count update, delta
  // -----------------------------------------------------------------------------------------------
  logic [Ways-1:0]   way_used, way_match;
  logic [AddrW-1:0]  way_addr [Ways];
  logic [CountW-1:0] way_rd [Ways];
  logic [CountW-1:0] way_wr [Ways];

  for (genvar w = 0; w < Ways; w++) begin : gen_way
    assign way_addr[w]  = set_data[w*WayW+2*CountW +: AddrW];
    assign way_rd[w]    = set_data[w*WayW+CountW +: CountW];
    assign way_wr[w]    = set_data[w*WayW +: CountW];
    assign way_used[w]  = way_rd[w] != '0 || way_wr[w] != '0;
    assign way_match[w] = way_used[w] && way_addr[w] == addr_q;
  end

  logic              hit, any_free;
  logic [CountW-1:0] hit_rd, hit_wr, cnt_old;
  logic [Ways-1:0]   hit_oh, free_oh;

  // One-hot choices, lowest way first (no variable-index writes into the set word).
  always_comb begin
    hit      = 1'b0;
    any_free = 1'b0;
    hit_oh   = '0;
    free_oh  = '0;
    hit_rd   = '0;
    hit_wr   = '0;
    for (int w = 0; w < Ways; w++) begin
      if (way_match[w] && !hit) begin
        hit       = 1'b1;
        hit_oh[w] = 1'b1;
        hit_rd    = way_rd[w];
        hit_wr    = way_wr[w];
      end
      if (!way_used[w] && !any_free) begin
        any_free   = 1'b1;
        free_oh[w] = 1'b1;
      end
    end
  end

  assign cnt_old = write_q ? hit_wr : hit_rd;

  logic inc_op, dec_op, do_inc, do_alloc, do_dec, lost_full, lost_sat, dec_ignored, freed;
  assign inc_op      = op_q && !dec_q;
  assign dec_op      = op_q && dec_q;
  assign do_inc      = inc_op && hit && cnt_old != CountMax;
  assign do_alloc    = inc_op && !hit && any_free;
  assign lost_sat    = inc_op && hit && cnt_old == CountMax;
  assign lost_full   = inc_op && !hit && !any_free;
  assign do_dec      = dec_op && hit && cnt_old != '0;
  assign dec_ignored = dec_op && !(hit && cnt_old != '0);
  // The decrement empties the way: the count goes 1 -> 0 and the other count is 0.
  assign freed       = do_dec && cnt_old == CountW'(1) && (write_q ? hit_rd : hit_wr) == '0;

  logic [CountW-1:0] cnt_new;
  assign cnt_new = do_dec ? cnt_old - CountW'(1) : cnt_old + CountW'(1);

  always_comb begin
    wr_en   = 1'b0;
    wr_set  = set_q;
    wr_data = set_data;
    if (init_q) begin
      wr_en   = 1'b1;
      wr_set  = init_set_q;
      wr_data = '0;
    end else if (do_inc || do_dec) begin
      wr_en = 1'b1;
      for (int w = 0; w < Ways; w++) begin
        if (hit_oh[w]) begin
          if (write_q) begin
            wr_data[w*WayW +: CountW] = cnt_new;
          end else begin
            wr_data[w*WayW+CountW +: CountW] = cnt_new;
          end
        end
      end
    end else if (do_alloc) begin
      wr_en = 1'b1;
      for (int w = 0; w < Ways; w++) begin
        if (free_oh[w]) begin
          wr_data[w*WayW +: WayW] = {addr_q, write_q ? CountW'(0) : CountW'(1),
                                     write_q ? CountW'(1) : CountW'(0)};
        end
      end
    end
  end

  assign lost_full_o   = lost_full;
  assign lost_sat_o    = lost_sat;
  assign dec_ignored_o = dec_ignored;

  // A delta when a count leaves or reaches 0.
  logic           dlt_valid;
  logic [DltW-1:0] dlt;
  assign dlt_valid   = ((do_inc || do_alloc) && (do_alloc || cnt_old == '0)) ||
                       (do_dec && cnt_old == CountW'(1));
  assign dlt         = dlt_valid ? {addr_q, write_q, !dec_q} : '0;
  assign dlt_valid_o = dlt_valid;
  assign dlt_o       = dlt;

  // Ways in use.
  logic [UsedW-1:0] used_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q <= '0;
    end else if (do_alloc) begin
      used_q <= used_q + UsedW'(1);
    end else if (freed) begin
      used_q <= used_q - UsedW'(1);
    end
  end
  assign used_o = used_q;

  // -----------------------------------------------------------------------------------------------
  // Messages
  // -----------------------------------------------------------------------------------------------
  logic [DltW-1:0]  buf_q [Batch];
  logic [DltW-1:0]  buf_d [Batch];
  logic [BCntW-1:0] cnt_q, cnt_d;
  logic [AgeW-1:0]  age_q, age_d;
  logic             send;

  assign send = cnt_q != '0 && (32'(cnt_q) == Batch || 32'(age_q) == FlushCycles - 1);

  logic [BCntW-1:0] b_at;  // deltas kept this cycle: where the new one goes
  always_comb begin
    b_at  = send ? '0 : cnt_q;
    cnt_d = b_at + BCntW'(dlt_valid);
    age_d = (b_at == '0 || FlushCycles == 1) ? '0 : age_q + AgeW'(1);
    for (int i = 0; i < Batch; i++) begin
      buf_d[i] = send ? '0 : buf_q[i];
      if (dlt_valid && BCntW'(i) == b_at) begin
        buf_d[i] = dlt;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      age_q <= '0;
      for (int i = 0; i < Batch; i++) begin
        buf_q[i] <= '0;
      end
    end else begin
      cnt_q <= cnt_d;
      age_q <= age_d;
      for (int i = 0; i < Batch; i++) begin
        buf_q[i] <= buf_d[i];
      end
    end
  end

  assign msg_valid_o = send;
  assign msg_count_o = send ? cnt_q : '0;
  for (genvar i = 0; i < Batch; i++) begin : gen_msg
    assign msg_dlt_o[i*DltW +: DltW] = send ? buf_q[i] : '0;
  end

  logic unused_sig;
  assign unused_sig = rd_unused_valid;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // An address is in at most one way of its set.
  `HTM_ASSERT(OneMatch_A, !op_q || $onehot0(way_match))
  // Counts never underflow: a decrement lowers a positive count only.
  `HTM_ASSERT(NoUnderflow_A, !do_dec || cnt_old != '0)
  // Counts never overflow: an increment raises a count below the maximum only.
  `HTM_ASSERT(NoOverflow_A, !do_inc || cnt_old != CountMax)
  // The message buffer never overflows.
  `HTM_ASSERT(BatchBound_A, 32'(cnt_q) <= Batch)
  // The queue never overflows.
  `HTM_ASSERT(QueueBound_A, 32'(q_cnt_q) <= IncQueue)
  // The ways in use never exceed the table.
  `HTM_ASSERT(UsedBound_A, 32'(used_q) <= Sets * Ways)

endmodule
