// SPDX-License-Identifier: Apache-2.0
//
// htm_lwh: the Last Writer History of a commit unit (KILO TM hazard detection).
//
// A Sets x Ways set-associative table of (word address, last writer commit id) in block RAM,
// backed by a recency Bloom filter (htm_sig_recency_ram, BfHashes x BfSlots) that keeps the
// commit ids of evicted entries. One operation per cycle:
//   * insert (address, cid): a hit overwrites the way's cid; a miss fills the lowest invalid way
//     or evicts the oldest way (largest age, lowest way on a tie), whose (address, cid) goes into
//     the Bloom filter;
//   * lookup (address): a hit returns the way's cid (exact: the last insert of the address);
//     otherwise the Bloom filter's conservative cid when every slot is valid; else not found.
//
// Commit ids wrap. Ages are taken against now_i, the commit unit's hazard-detection pointer,
// which no stored cid is newer than and which advances by at most one per cycle. A scrubber
// visits one set and one Bloom slot index per step and invalidates every cid whose age has
// reached StaleAge = 2**(CidW-2); it steps in every cycle without an operation and, when
// ScrubInterval-1 cycles have passed without a step, takes a cycle from the operations
// (ready_o low). Hence every valid stored cid is younger than
//   AgeBound = StaleAge + ScrubSteps * ScrubInterval + 2,  ScrubSteps = max(Sets, BfSlots),
// which must stay below 2**(CidW-1) so that age order is right; the commit unit adds its ring
// size to this bound (docs/htm_lwh.md).
//
// Timing:
//   * after reset the table and the filter are invalidated (max(Sets, BfSlots) cycles,
//     ready_o low);
//   * an operation accepted in cycle t (op_valid_i && ready_o) is applied in cycle t+1; a
//     lookup answers in cycle t+1 (res_valid_o) and sees every operation accepted before it;
//   * evict_valid_o reports, in cycle t+1, the entry an insert accepted in cycle t evicted;
//   * with ResPipe the lookup's answer is registered: it answers in cycle t+2 (res_*_o), with
//     the same contents (the prototype's clock; docs/htm_lwh.md), and an evicted entry and a
//     scrub step reach the filter a cycle later (stage 2); a lookup accepted in the cycle after
//     the eviction of its address answers the evicted cid (found, not a hit), and does not see
//     that cycle's eviction in the filter slots it shares with the victim.
`include "htm_assert.svh"

module htm_lwh #(
  parameter int unsigned AddrW         = 30,   // word address width, 1..64
  parameter int unsigned CidW          = 16,   // commit id width, 4..63
  parameter int unsigned Sets          = 256,  // hash-table sets, a power of two
  parameter int unsigned Ways          = 4,    // ways per set, >= 1
  parameter int unsigned BfHashes      = 4,    // Bloom filter hash functions, 1..7
  parameter int unsigned BfSlots       = 256,  // Bloom filter slots per hash, a power of two
  parameter int unsigned ScrubInterval = 32,   // forced scrub step at least this often, >= 2
  parameter bit          ResPipe       = 1'b0, // 1: the lookup answer one cycle later, registered
  // Derived, do not set.
  localparam int unsigned ScrubSteps   = (Sets > BfSlots) ? Sets : BfSlots
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  output logic             ready_o,        // an operation is accepted this cycle
  input  logic [CidW-1:0]  now_i,          // age reference: the hazard-detection pointer
  input  logic             op_valid_i,
  input  logic             op_write_i,     // 1: insert (op_addr_i, op_cid_i); 0: lookup
  input  logic [AddrW-1:0] op_addr_i,
  input  logic [CidW-1:0]  op_cid_i,
  output logic             res_valid_o,    // answer to the lookup accepted last cycle
  output logic             res_found_o,    // a last writer is known
  output logic             res_hit_o,      // ... from the table (exact), else from the filter
  output logic [CidW-1:0]  res_cid_o,      // its commit id (0 when not found)
  output logic             evict_valid_o,  // the insert accepted last cycle evicted an entry
  output logic [AddrW-1:0] evict_addr_o,
  output logic [CidW-1:0]  evict_cid_o
);

  `HTM_ASSERT_INIT(SetsPow2_A, htm_pkg::is_pow2(Sets))
  `HTM_ASSERT_INIT(BfSlotsPow2_A, htm_pkg::is_pow2(BfSlots))
  `HTM_ASSERT_INIT(WaysRange_A, Ways >= 1)
  `HTM_ASSERT_INIT(BfHashesRange_A, BfHashes >= 1 && BfHashes < htm_pkg::SIG_MAX_HASHES)
  `HTM_ASSERT_INIT(CidWRange_A, CidW >= 4 && CidW <= 63)
  `HTM_ASSERT_INIT(ScrubIntervalRange_A, ScrubInterval >= 2)
  `HTM_ASSERT_INIT(AgeBound_A, (64'(1) << (CidW - 2)) + 64'(ScrubSteps) * 64'(ScrubInterval) + 2
                               < (64'(1) << (CidW - 1)))

  localparam int unsigned SetIdxW  = htm_pkg::idx_width(Sets);
  localparam int unsigned BfIdxW   = htm_pkg::idx_width(BfSlots);
  localparam int unsigned ScrubW   = htm_pkg::idx_width(ScrubSteps);
  localparam int unsigned WayW     = 1 + AddrW + CidW;  // {valid, address, cid}
  localparam int unsigned SetW     = Ways * WayW;
  localparam int unsigned WayIdxW  = htm_pkg::idx_width(Ways);
  localparam int unsigned CntW     = htm_pkg::idx_width(ScrubInterval);

  // -----------------------------------------------------------------------------------------------
  // Initial sweep, scrub schedule, acceptance
  // -----------------------------------------------------------------------------------------------
  logic               init_q, bf_ready;
  logic [SetIdxW-1:0] init_set_q;
  logic [ScrubW-1:0]  scrub_ptr_q;
  logic [CntW-1:0]    scrub_cnt_q;
  logic               scrub_force, scrub_go, op_acc;

  assign scrub_force = scrub_cnt_q == CntW'(ScrubInterval - 1);
  assign ready_o     = !init_q && bf_ready && !scrub_force;
  assign op_acc      = op_valid_i && ready_o;
  assign scrub_go    = !init_q && bf_ready && (scrub_force || !op_valid_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q      <= 1'b1;
      init_set_q  <= '0;
      scrub_ptr_q <= '0;
      scrub_cnt_q <= '0;
    end else begin
      if (init_q) begin
        init_set_q <= init_set_q + SetIdxW'(1);
        if (Sets == 1 || init_set_q == SetIdxW'(Sets - 1)) begin
          init_q <= 1'b0;
        end
      end
      if (scrub_go) begin
        scrub_ptr_q <= (ScrubSteps == 1) ? '0 : scrub_ptr_q + ScrubW'(1);
        scrub_cnt_q <= '0;
      end else if (!init_q && bf_ready && !scrub_force) begin
        scrub_cnt_q <= scrub_cnt_q + CntW'(1);
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Set index: H3 hash number BfHashes (the filter uses numbers 0..BfHashes-1)
  // -----------------------------------------------------------------------------------------------
  logic [(BfHashes+1)*SetIdxW-1:0] set_hashes;
  logic [SetIdxW-1:0]              op_set, rd_set;

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(BfHashes + 1),
    .IdxW     (SetIdxW),
    .HashKind (htm_pkg::SigHashH3)
  ) u_set_hash (
    .addr_i(op_addr_i),
    .idx_o (set_hashes)
  );

  assign op_set = (Sets == 1) ? '0 : set_hashes[BfHashes*SetIdxW +: SetIdxW];
  assign rd_set = op_acc ? op_set : (Sets == 1) ? '0 : scrub_ptr_q[SetIdxW-1:0];

  // -----------------------------------------------------------------------------------------------
  // Stage 1 registers
  // -----------------------------------------------------------------------------------------------
  logic               op_q, write_q, scrub_q;
  logic [AddrW-1:0]   addr_q;
  logic [CidW-1:0]    cid_q, now_q;
  logic [SetIdxW-1:0] set_q;
  logic [BfIdxW-1:0]  bf_scrub_idx_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      op_q           <= 1'b0;
      write_q        <= 1'b0;
      scrub_q        <= 1'b0;
      addr_q         <= '0;
      cid_q          <= '0;
      now_q          <= '0;
      set_q          <= '0;
      bf_scrub_idx_q <= '0;
    end else begin
      op_q           <= op_acc;
      write_q        <= op_acc && op_write_i;
      scrub_q        <= scrub_go;
      addr_q         <= op_addr_i;
      cid_q          <= op_cid_i;
      now_q          <= now_i;
      set_q          <= rd_set;
      bf_scrub_idx_q <= (BfSlots == 1) ? '0 : BfIdxW'(scrub_ptr_q);
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Hash table RAM (write-first: a set read while stage 1 writes it back is read new)
  // -----------------------------------------------------------------------------------------------
  logic               wr_en, rd_en, rd_unused_valid;
  logic [SetIdxW-1:0] wr_set;
  logic [SetW-1:0]    wr_data, set_data;

  assign rd_en = op_acc || scrub_go;

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
    .rd_en_i   (rd_en),
    .rd_addr_i (rd_set),
    .rd_valid_o(rd_unused_valid),
    .rd_data_o (set_data)
  );

  // -----------------------------------------------------------------------------------------------
  // Stage 1: match, victim choice, new set contents
  // -----------------------------------------------------------------------------------------------
  logic [Ways-1:0]    way_valid, way_match, way_stale;
  logic [AddrW-1:0]   way_addr [Ways];
  logic [CidW-1:0]    way_cid [Ways];
  logic [CidW-1:0]    way_age [Ways];

  for (genvar w = 0; w < Ways; w++) begin : gen_way
    assign way_valid[w] = set_data[w*WayW+AddrW+CidW];
    assign way_addr[w]  = set_data[w*WayW+CidW +: AddrW];
    assign way_cid[w]   = set_data[w*WayW +: CidW];
    assign way_age[w]   = now_q - way_cid[w];
    assign way_match[w] = way_valid[w] && way_addr[w] == addr_q;
    assign way_stale[w] = way_valid[w] && way_age[w][CidW-1 -: 2] != 2'b00;
  end

  logic               hit, any_free;
  logic [CidW-1:0]    hit_cid;
  logic [WayIdxW-1:0] hit_way, free_way, old_way, ins_way;

  always_comb begin
    hit      = 1'b0;
    hit_cid  = '0;
    hit_way  = '0;
    any_free = 1'b0;
    free_way = '0;
    for (int w = Ways - 1; w >= 0; w--) begin
      if (way_match[w]) begin
        hit     = 1'b1;
        hit_cid = way_cid[w];
        hit_way = WayIdxW'(w);
      end
      if (!way_valid[w]) begin
        any_free = 1'b1;
        free_way = WayIdxW'(w);
      end
    end
  end

  // The victim: the oldest way, the lowest on a tie. It is used only when every way is valid,
  // and valid ages are below 2**(CidW-1) (the age bound), so way i is older than way j exactly
  // when cid_j - cid_i (mod 2**CidW) is nonzero with its top bit clear: one subtraction per
  // pair of ways instead of the ages and their comparison chain.
  logic [Ways*Ways-1:0] older;  // bit i*Ways+j: way i is strictly older than way j
  logic [Ways-1:0]      old_sel;

  for (genvar i = 0; i < Ways; i++) begin : gen_older
    for (genvar j = 0; j < Ways; j++) begin : gen_pair
      logic [CidW-1:0] diff;
      assign diff              = way_cid[j] - way_cid[i];
      assign older[i*Ways + j] = (i != j) && diff != '0 && !diff[CidW-1];
    end
  end

  always_comb begin
    for (int i = 0; i < Ways; i++) begin
      old_sel[i] = 1'b1;
      for (int j = 0; j < Ways; j++) begin
        if (j < i && !older[i*Ways + j]) begin
          old_sel[i] = 1'b0;
        end
        if (j > i && older[j*Ways + i]) begin
          old_sel[i] = 1'b0;
        end
      end
    end
    old_way = '0;
    for (int i = 0; i < Ways; i++) begin
      if (old_sel[i]) begin
        old_way = old_way | WayIdxW'(i);
      end
    end
  end

  assign ins_way = hit ? hit_way : (any_free ? free_way : old_way);

  logic evict;
  assign evict = op_q && write_q && !hit && !any_free;

  always_comb begin
    wr_en   = 1'b0;
    wr_set  = set_q;
    wr_data = set_data;
    if (init_q) begin
      wr_en   = 1'b1;
      wr_set  = init_set_q;
      wr_data = '0;
    end else if (scrub_q) begin
      wr_en = 1'b1;
      for (int w = 0; w < Ways; w++) begin
        if (way_stale[w]) begin
          wr_data[w*WayW+AddrW+CidW] = 1'b0;
        end
      end
    end else if (op_q && write_q) begin
      wr_en = 1'b1;
      wr_data[32'(ins_way)*WayW +: WayW] = {1'b1, addr_q, cid_q};
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Recency Bloom filter: victims and scrubs from stage 1 (stage 2 with ResPipe), lookups from
  // stage 0
  // -----------------------------------------------------------------------------------------------
  logic             bf_found, bf_lkp_valid, bf_lkp_req;
  logic [CidW-1:0]  bf_val, victim_cid;
  logic [AddrW-1:0] victim_addr;

  // Port connections are plain signals: Yosys re-elaborates a module whose instance ports are
  // expressions over arrays and then fails on the parametrised copy.
  assign bf_lkp_req  = op_acc && !op_write_i;
  assign victim_addr = way_addr[old_way];
  assign victim_cid  = way_cid[old_way];

  // Without ResPipe the filter takes the victim and the scrub from stage 1. With ResPipe they
  // go to the filter from stage-2 registers, a cycle later, so that the victim choice (from the
  // table RAM's output) and the filter's hash of the victim address sit in different cycles.
  // Inserts and scrubs stay exclusive (an operation and a scrub step are never accepted in the
  // same cycle). A lookup accepted in the cycle after an eviction reads the filter before the
  // victim is inserted: when its address is the victim's, stage 1 answers the victim's cid.
  logic              bf_ins, bf_scrub, evict_fwd;
  logic [AddrW-1:0]  bf_ins_addr;
  logic [CidW-1:0]   bf_ins_cid, evict_fwd_cid;
  logic [BfIdxW-1:0] bf_scrub_idx;

  if (ResPipe) begin : g_bf_pipe
    logic              evict_q, scrub2_q;
    logic [AddrW-1:0]  victim_addr_q;
    logic [CidW-1:0]   victim_cid_q;
    logic [BfIdxW-1:0] bf_scrub_idx2_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        evict_q         <= 1'b0;
        scrub2_q        <= 1'b0;
        victim_addr_q   <= '0;
        victim_cid_q    <= '0;
        bf_scrub_idx2_q <= '0;
      end else begin
        evict_q         <= evict;
        scrub2_q        <= scrub_q;
        victim_addr_q   <= victim_addr;
        victim_cid_q    <= victim_cid;
        bf_scrub_idx2_q <= bf_scrub_idx_q;
      end
    end
    assign bf_ins        = evict_q;
    assign bf_ins_addr   = victim_addr_q;
    assign bf_ins_cid    = victim_cid_q;
    assign bf_scrub      = scrub2_q;
    assign bf_scrub_idx  = bf_scrub_idx2_q;
    assign evict_fwd     = evict_q && addr_q == victim_addr_q;
    assign evict_fwd_cid = victim_cid_q;
  end else begin : g_bf_direct
    assign bf_ins        = evict;
    assign bf_ins_addr   = victim_addr;
    assign bf_ins_cid    = victim_cid;
    assign bf_scrub      = scrub_q;
    assign bf_scrub_idx  = bf_scrub_idx_q;
    assign evict_fwd     = 1'b0;
    assign evict_fwd_cid = '0;
  end

  htm_sig_recency_ram #(
    .AddrW       (AddrW),
    .NumHashes   (BfHashes),
    .SlotsPerHash(BfSlots),
    .ValW        (CidW),
    .HashKind    (htm_pkg::SigHashH3)
  ) u_bf (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ready_o      (bf_ready),
    .now_i        (now_i),
    .lkp_valid_i  (bf_lkp_req),
    .lkp_addr_i   (op_addr_i),
    .lkp_valid_o  (bf_lkp_valid),
    .lkp_found_o  (bf_found),
    .lkp_val_o    (bf_val),
    .ins_valid_i  (bf_ins),
    .ins_addr_i   (bf_ins_addr),
    .ins_val_i    (bf_ins_cid),
    .scrub_valid_i(bf_scrub),
    .scrub_all_i  (1'b0),
    .scrub_idx_i  (bf_scrub_idx)
  );

  // -----------------------------------------------------------------------------------------------
  // Outputs
  // -----------------------------------------------------------------------------------------------
  logic lookup_q;
  assign lookup_q = op_q && !write_q;

  logic            res_valid, res_hit, res_found;
  logic [CidW-1:0] res_cid;
  assign res_valid = lookup_q;
  assign res_hit   = lookup_q && hit;
  assign res_found = lookup_q && (hit || evict_fwd || bf_found);
  assign res_cid   = !lookup_q ? '0 : hit ? hit_cid : evict_fwd ? evict_fwd_cid : bf_val;

  if (ResPipe) begin : g_res_pipe
    logic            res_valid_q, res_hit_q, res_found_q;
    logic [CidW-1:0] res_cid_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        res_valid_q <= 1'b0;
        res_hit_q   <= 1'b0;
        res_found_q <= 1'b0;
        res_cid_q   <= '0;
      end else begin
        res_valid_q <= res_valid;
        res_hit_q   <= res_hit;
        res_found_q <= res_found;
        res_cid_q   <= res_cid;
      end
    end
    assign res_valid_o = res_valid_q;
    assign res_hit_o   = res_hit_q;
    assign res_found_o = res_found_q;
    assign res_cid_o   = res_cid_q;
  end else begin : g_res_comb
    assign res_valid_o = res_valid;
    assign res_hit_o   = res_hit;
    assign res_found_o = res_found;
    assign res_cid_o   = res_cid;
  end

  assign evict_valid_o = evict;
  assign evict_addr_o  = evict ? victim_addr : '0;
  assign evict_cid_o   = evict ? victim_cid : '0;

  logic unused_sig;
  assign unused_sig = rd_unused_valid ^ bf_lkp_valid ^ (^set_hashes);

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  logic [CidW-1:0] now_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      now_prev_q <= '0;
    end else begin
      now_prev_q <= now_i;
    end
  end

  logic [CidW-1:0] now_step;
  logic [1:0]      op_age_hi;  // the two top bits of the inserted cid's age
  assign op_age_hi = 2'((now_i - op_cid_i) >> (CidW - 2));
  assign now_step  = now_i - now_prev_q;

  // now_i advances by at most one per cycle (from 0 after reset).
  `HTM_ASSERT(NowStep_A, now_step <= CidW'(1))
  // An inserted cid is not newer than now_i and not stale.
  `HTM_ASSERT(InsertAge_A, !(op_acc && op_write_i) || op_age_hi == 2'b00)
  // The filter answers exactly the lookups.
  `HTM_ASSERT(BfInStep_A, bf_lkp_valid == lookup_q)
  // An address is in at most one way of its set.
  `HTM_ASSERT(OneMatch_A, !op_q || $onehot0(way_match))

endmodule
