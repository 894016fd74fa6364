// SPDX-License-Identifier: Apache-2.0
//
// htm_cat: the Conflict Address Table of a SIMT core (early conflict resolution:
// Chen & Peng, HPCA 2016, section 4.1).
//
// Per word address a read bit and a write bit: "read / written by a transaction committing at
// some commit unit", kept in a Sets x Ways set-associative table (set = H3 hash of the address,
// each way holds the full address and its two bits; a way is free when both bits are clear).
//
// Updates: messages of up to Batch deltas {address, write, add} from the commit units' RCTs
// (valid/ready); the deltas of a message are applied one per cycle, in order:
//   * add: sets the bit of the address's way, or takes the lowest free way of its set; a full
//     set drops the delta (drop_full_o);
//   * remove: clears the bit; a way whose bits are both clear is free; a remove of an absent
//     address does nothing.
// Any delta is legal (duplicated, spurious, out of order): the table stays consistent and only
// its contents change.
//
// Lookups: a warp's addresses (one per lane of lkp_mask_i; all reads or all writes), NumPorts
// lanes per cycle, lowest lanes first; the first group is looked up in the cycle the request is
// accepted, and the response (rsp_hit_o: one bit per lane) comes in the cycle after the last
// group: a warp of n active lanes answers after max(1, ceil(n / NumPorts)) cycles. Hit rules:
// a read hits when the write bit is set (read-read never conflicts); a write hits when either
// bit is set. Each port reads its own copy of the table (NumPorts copies, written together, plus
// the copy the updates read), so lookups never wait for updates; a lookup sees every delta
// written back before its cycle.
//
// After reset the copies are cleared, one set per cycle (Sets cycles, ready_o low).
`include "htm_assert.svh"

module htm_cat #(
  parameter int unsigned AddrW    = 30,    // word address width, 1..62
  parameter int unsigned Sets     = 1024,  // sets, a power of two
  parameter int unsigned Ways     = 3,     // ways per set, >= 1
  parameter int unsigned NumPorts = 4,     // lookups per cycle, 1..WarpSize
  parameter int unsigned WarpSize = 32,    // lanes of a warp, 1..64
  parameter int unsigned Batch    = 8,     // deltas per message, 1..64
  // Derived, do not set.
  localparam int unsigned DltW    = AddrW + 2,
  localparam int unsigned BCntW   = $clog2(Batch + 1),
  localparam int unsigned UsedW   = $clog2(Sets * Ways + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  output logic                     ready_o,       // the table has been cleared since reset
  // Deltas from the RCTs.
  input  logic                     msg_valid_i,
  output logic                     msg_ready_o,
  input  logic [BCntW-1:0]         msg_count_i,   // deltas in the message, 0..Batch
  input  logic [Batch*DltW-1:0]    msg_dlt_i,     // delta i at [i*DltW +: DltW]
  // A warp's lookup.
  input  logic                     lkp_valid_i,
  output logic                     lkp_ready_o,
  input  logic [WarpSize-1:0]      lkp_mask_i,    // the lanes to look up
  input  logic [WarpSize*AddrW-1:0] lkp_addr_i,   // lane l at [l*AddrW +: AddrW]
  input  logic                     lkp_write_i,   // the warp writes (else it reads)
  output logic                     rsp_valid_o,
  output logic [WarpSize-1:0]      rsp_hit_o,     // the lanes whose address hits
  // Events and state, for statistics and tests.
  output logic                     dlt_valid_o,   // a delta was applied this cycle ...
  output logic [DltW-1:0]          dlt_o,         // ... this one
  output logic                     drop_full_o,   // an add found its set full
  output logic                     err_o,         // sticky: a message with more than Batch deltas
  output logic [UsedW-1:0]         used_o         // ways in use
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 62)
  `HTM_ASSERT_INIT(SetsPow2_A, htm_pkg::is_pow2(Sets))
  `HTM_ASSERT_INIT(WaysRange_A, Ways >= 1)
  `HTM_ASSERT_INIT(WarpSizeRange_A, WarpSize >= 1 && WarpSize <= 64)
  `HTM_ASSERT_INIT(NumPortsRange_A, NumPorts >= 1 && NumPorts <= WarpSize)
  `HTM_ASSERT_INIT(BatchRange_A, Batch >= 1 && Batch <= 64)

  localparam int unsigned SetIdxW = htm_pkg::idx_width(Sets);
  localparam int unsigned LaneW   = htm_pkg::idx_width(WarpSize);
  localparam int unsigned WayW    = AddrW + 2;  // {address, read, write}
  localparam int unsigned SetW    = Ways * WayW;
  localparam int unsigned MIdxW   = htm_pkg::idx_width(Batch);

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
  // Updates, stage 0: the message being applied, one delta per cycle
  // -----------------------------------------------------------------------------------------------
  logic [DltW-1:0]  m_dlt_q [Batch];
  logic [BCntW-1:0] m_rem_q;   // deltas left to apply
  logic [MIdxW-1:0] m_idx_q;   // the next one
  logic             m_acc, u_valid, m_bad;
  logic [BCntW-1:0] m_cnt;
  logic [DltW-1:0]  u_dlt;

  assign u_valid     = m_rem_q != '0;
  assign msg_ready_o = !init_q && (m_rem_q == '0 || m_rem_q == BCntW'(1));
  assign m_acc       = msg_valid_i && msg_ready_o;
  assign m_bad       = 32'(msg_count_i) > Batch;
  assign m_cnt       = m_bad ? BCntW'(Batch) : msg_count_i;

  always_comb begin
    u_dlt = '0;
    for (int i = 0; i < Batch; i++) begin
      if (MIdxW'(i) == m_idx_q) begin
        u_dlt = m_dlt_q[i];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      m_rem_q <= '0;
      m_idx_q <= '0;
      for (int i = 0; i < Batch; i++) begin
        m_dlt_q[i] <= '0;
      end
    end else if (m_acc) begin
      m_rem_q <= m_cnt;
      m_idx_q <= '0;
      for (int i = 0; i < Batch; i++) begin
        m_dlt_q[i] <= msg_dlt_i[i*DltW +: DltW];
      end
    end else if (u_valid) begin
      m_rem_q <= m_rem_q - BCntW'(1);
      m_idx_q <= m_idx_q + MIdxW'(1);
    end
  end

  logic err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q <= 1'b0;
    end else if (m_acc && m_bad) begin
      err_q <= 1'b1;
    end
  end
  assign err_o = err_q;

  logic [AddrW-1:0]   u_addr;
  logic [SetIdxW-1:0] u_set_hash, u_set;
  assign u_addr = u_dlt[DltW-1:2];

  htm_sig_hash #(
    .AddrW    (AddrW),
    .NumHashes(1),
    .IdxW     (SetIdxW),
    .HashKind (htm_pkg::SigHashH3)
  ) u_upd_hash (
    .addr_i(u_addr),
    .idx_o (u_set_hash)
  );

  assign u_set = (Sets == 1) ? '0 : u_set_hash;

  logic               u1_valid_q, u1_write_q, u1_add_q;
  logic [AddrW-1:0]   u1_addr_q;
  logic [SetIdxW-1:0] u1_set_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      u1_valid_q <= 1'b0;
      u1_write_q <= 1'b0;
      u1_add_q   <= 1'b0;
      u1_addr_q  <= '0;
      u1_set_q   <= '0;
    end else begin
      u1_valid_q <= u_valid;
      u1_write_q <= u_dlt[1];
      u1_add_q   <= u_dlt[0];
      u1_addr_q  <= u_addr;
      u1_set_q   <= u_set;
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The update copy (write-first) and stage 1 of an update
  // -----------------------------------------------------------------------------------------------
  logic               wr_en, u_rd_unused_valid;
  logic [SetIdxW-1:0] wr_set;
  logic [SetW-1:0]    wr_data, u_data;

  htm_ram_1r1w #(
    .Width     (SetW),
    .Depth     (Sets),
    .WriteFirst(1)
  ) u_upd_copy (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wr_en_i   (wr_en),
    .wr_addr_i (wr_set),
    .wr_data_i (wr_data),
    .rd_en_i   (u_valid),
    .rd_addr_i (u_set),
    .rd_valid_o(u_rd_unused_valid),
    .rd_data_o (u_data)
  );

  logic [Ways-1:0]  uw_used, uw_match, u_hit_oh, u_free_oh;
  logic             u_hit, u_free;

  for (genvar w = 0; w < Ways; w++) begin : gen_uway
    assign uw_used[w]  = u_data[w*WayW+1] || u_data[w*WayW];
    assign uw_match[w] = uw_used[w] && u_data[w*WayW+2 +: AddrW] == u1_addr_q;
  end

  always_comb begin
    u_hit     = 1'b0;
    u_free    = 1'b0;
    u_hit_oh  = '0;
    u_free_oh = '0;
    for (int w = 0; w < Ways; w++) begin
      if (uw_match[w] && !u_hit) begin
        u_hit       = 1'b1;
        u_hit_oh[w] = 1'b1;
      end
      if (!uw_used[w] && !u_free) begin
        u_free       = 1'b1;
        u_free_oh[w] = 1'b1;
      end
    end
  end

  logic u_alloc, u_drop, u_freed;
  logic [SetW-1:0] u_new;
  assign u_alloc = u1_valid_q && u1_add_q && !u_hit && u_free;
  assign u_drop  = u1_valid_q && u1_add_q && !u_hit && !u_free;

  always_comb begin
    u_new   = u_data;
    u_freed = 1'b0;
    for (int w = 0; w < Ways; w++) begin
      if (u1_valid_q && u_hit_oh[w]) begin
        if (u1_write_q) begin
          u_new[w*WayW] = u1_add_q;
        end else begin
          u_new[w*WayW+1] = u1_add_q;
        end
        // The way becomes free when a remove clears its last bit.
        if (!u1_add_q && !u_new[w*WayW+1] && !u_new[w*WayW]) begin
          u_freed = 1'b1;
        end
      end
      if (u_alloc && u_free_oh[w]) begin
        u_new[w*WayW +: WayW] = {u1_addr_q, !u1_write_q, u1_write_q};
      end
    end
  end

  always_comb begin
    wr_en   = 1'b0;
    wr_set  = u1_set_q;
    wr_data = u_new;
    if (init_q) begin
      wr_en   = 1'b1;
      wr_set  = init_set_q;
      wr_data = '0;
    end else if (u1_valid_q && (u_hit || u_alloc)) begin
      wr_en = 1'b1;
    end
  end

  assign dlt_valid_o = u1_valid_q;
  assign dlt_o       = u1_valid_q ? {u1_addr_q, u1_write_q, u1_add_q} : '0;
  assign drop_full_o = u_drop;

  logic [UsedW-1:0] used_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      used_q <= '0;
    end else if (u_alloc) begin
      used_q <= used_q + UsedW'(1);
    end else if (u_freed) begin
      used_q <= used_q - UsedW'(1);
    end
  end
  assign used_o = used_q;

  // -----------------------------------------------------------------------------------------------
  // Lookups, stage 0: the request, the group of this cycle
  // -----------------------------------------------------------------------------------------------
  logic                      req_q, req_write_q;
  logic [WarpSize-1:0]       req_pend_q;
  logic [WarpSize*AddrW-1:0] req_addr_q;
  logic                      l_acc, l_go, l_write, l_last;
  logic [WarpSize-1:0]       l_mask, l_rest;
  logic [WarpSize*AddrW-1:0] l_addr;

  assign lkp_ready_o = !init_q && !req_q;
  assign l_acc       = lkp_valid_i && lkp_ready_o;
  // The group comes from the held request, else from the request accepted now.
  assign l_go        = req_q || l_acc;
  assign l_mask      = req_q ? req_pend_q : lkp_mask_i;
  assign l_addr      = req_q ? req_addr_q : lkp_addr_i;
  assign l_write     = req_q ? req_write_q : lkp_write_i;

  // The lowest NumPorts pending lanes: port p takes lane g_lane[p] (one-hot g_oh[p*WarpSize +:
  // WarpSize]).
  logic [NumPorts*WarpSize-1:0] g_oh;
  logic [NumPorts-1:0]          g_valid;
  logic [WarpSize-1:0]          g_left, g_pick;  // lanes not yet chosen; this port's lane
  logic [LaneW-1:0]             g_lane [NumPorts];
  logic [AddrW-1:0]             g_addr [NumPorts];

  always_comb begin
    g_left = l_mask;
    g_pick = '0;
    g_oh   = '0;
    for (int p = 0; p < NumPorts; p++) begin
      g_pick                       = g_left & (~g_left + WarpSize'(1));
      g_oh[p*WarpSize +: WarpSize] = g_pick;
      g_valid[p]                   = g_left != '0;
      g_left                       = g_left & ~g_pick;
    end
    l_rest = g_left;
  end
  assign l_last = l_rest == '0;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_sel
    always_comb begin
      g_lane[p] = '0;
      g_addr[p] = '0;
      for (int l = 0; l < WarpSize; l++) begin
        if (g_oh[p*WarpSize+l]) begin
          g_lane[p] = LaneW'(l);
          g_addr[p] = l_addr[l*AddrW +: AddrW];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_q       <= 1'b0;
      req_write_q <= 1'b0;
      req_pend_q  <= '0;
      req_addr_q  <= '0;
    end else if (l_go) begin
      req_q      <= !l_last;
      req_pend_q <= l_rest;
      if (l_acc) begin
        req_write_q <= lkp_write_i;
        req_addr_q  <= lkp_addr_i;
      end
    end
  end

  // Stage 1 registers of the lookup group.
  logic                l1_valid_q, l1_first_q, l1_last_q, l1_write_q;
  logic [NumPorts-1:0] l1_lvalid_q;
  logic [LaneW-1:0]    l1_lane_q [NumPorts];
  logic [AddrW-1:0]    l1_addr_q [NumPorts];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      l1_valid_q  <= 1'b0;
      l1_first_q  <= 1'b0;
      l1_last_q   <= 1'b0;
      l1_write_q  <= 1'b0;
      l1_lvalid_q <= '0;
      for (int p = 0; p < NumPorts; p++) begin
        l1_lane_q[p] <= '0;
        l1_addr_q[p] <= '0;
      end
    end else begin
      l1_valid_q  <= l_go;
      l1_first_q  <= l_acc;
      l1_last_q   <= l_last;
      l1_write_q  <= l_write;
      l1_lvalid_q <= l_go ? g_valid : '0;
      for (int p = 0; p < NumPorts; p++) begin
        l1_lane_q[p] <= g_lane[p];
        l1_addr_q[p] <= g_addr[p];
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The lookup copies, one per port, and stage 1 of a lookup
  // -----------------------------------------------------------------------------------------------
  logic [NumPorts-1:0] p_hit;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_port
    logic [SetIdxW-1:0] set_hash, set;
    logic [SetW-1:0]    data;
    logic               rd_unused_valid, rd_en;
    logic [Ways-1:0]    way_r, way_w, way_match;
    logic [AddrW-1:0]   lane_addr;

    assign lane_addr = g_addr[p];
    assign rd_en     = l_go && g_valid[p];

    htm_sig_hash #(
      .AddrW    (AddrW),
      .NumHashes(1),
      .IdxW     (SetIdxW),
      .HashKind (htm_pkg::SigHashH3)
    ) u_hash (
      .addr_i(lane_addr),
      .idx_o (set_hash)
    );

    assign set = (Sets == 1) ? '0 : set_hash;

    htm_ram_1r1w #(
      .Width(SetW),
      .Depth(Sets)
    ) u_copy (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .wr_en_i   (wr_en),
      .wr_addr_i (wr_set),
      .wr_data_i (wr_data),
      .rd_en_i   (rd_en),
      .rd_addr_i (set),
      .rd_valid_o(rd_unused_valid),
      .rd_data_o (data)
    );

    for (genvar w = 0; w < Ways; w++) begin : gen_way
      assign way_r[w]     = data[w*WayW+1];
      assign way_w[w]     = data[w*WayW];
      assign way_match[w] = (way_r[w] || way_w[w]) && data[w*WayW+2 +: AddrW] == l1_addr_q[p];
    end

    // A read hits a written address; a write hits any address in the table.
    assign p_hit[p] = l1_lvalid_q[p] &&
                      (|(way_match & (l1_write_q ? (way_r | way_w) : way_w)));

    logic unused_port;
    assign unused_port = rd_unused_valid;
  end

  logic [WarpSize-1:0] hits_now, acc_q;

  always_comb begin
    hits_now = '0;
    for (int p = 0; p < NumPorts; p++) begin
      for (int l = 0; l < WarpSize; l++) begin
        if (p_hit[p] && l1_lane_q[p] == LaneW'(l)) begin
          hits_now[l] = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q <= '0;
    end else if (l1_valid_q) begin
      acc_q <= l1_first_q ? hits_now : (acc_q | hits_now);
    end
  end

  assign rsp_valid_o = l1_valid_q && l1_last_q;
  assign rsp_hit_o   = !(l1_valid_q && l1_last_q) ? '0 :
                       l1_first_q ? hits_now : (acc_q | hits_now);

  logic unused_sig;
  assign unused_sig = u_rd_unused_valid;

  // -----------------------------------------------------------------------------------------------
  // Assertions
  // -----------------------------------------------------------------------------------------------
  // An address is in at most one way of its set.
  `HTM_ASSERT(OneMatch_A, !u1_valid_q || $onehot0(uw_match))
  // The ways in use never exceed the table.
  `HTM_ASSERT(UsedBound_A, 32'(used_q) <= Sets * Ways)
  // No delta is applied while the table is being cleared.
  `HTM_ASSERT(NoDeltaWhileClearing_A, !(init_q && m_rem_q != '0))

endmodule
