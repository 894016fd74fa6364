// SPDX-License-Identifier: Apache-2.0
//
// htm_reader_list: the Scalable Reader List of snapshot isolation (Chen, Peng & Irving, ISCA 2017,
// section 4.2, Figure 10): the exact set of running transactions that read each word, at the L2
// level, for a writer to find the readers it must post-date.
//
// Sets x Ways entries in block RAM (87 856 = 21 964 x 4 by default, 4.3), each {type, block
// address, content} of 2 + AddrW + ContentW bits (69 by default), of four types (Figure 10):
//   0 unused;
//   1 plain sharers: a 2-bit count and up to three TxW-bit transaction ids (insertion order);
//   2 root: bit p set when leaf p exists;
//   3 leaf: a PosW-bit position p and a LeafW-bit vector, bit b for transaction LeafW * p + b.
// An address's primary entry (type 1 or its root) is in set h(address), the H3 hash folded
// into 0..Sets-1 (as the Writer Table's); its leaf p in set (h + 1 + p) mod Sets.
//
// Operations (htm_pkg::rl_op_e), taken when op_valid_i && op_ready_o, one at a time (a small
// FSM reads a set per cycle and writes at most one entry per cycle):
//   * Insert (address, tx): tx becomes a reader. A fourth reader turns the sharers entry into a
//     root and one leaf per 32-transaction group, all or nothing: every leaf set is checked for
//     room before any entry is written. An entry that cannot be allocated -> nothing changes,
//     res_full_o (the reader aborts and waits, 4.3).
//   * Remove (address, tx): tx leaves. An empty leaf is freed and its root bit cleared, an
//     empty root frees the address, and the bit vectors go back to a sharers entry when a
//     single leaf with at most three readers is left.
//   * Enumerate (address): the readers stream out on id_valid_o/id_o, one per cycle: sharers in
//     entry order, bit vectors by ascending id; the result (res_count_o readers) comes with the
//     last one.
// Latency, from the cycle the operation is taken to its result (res_valid_o, one cycle, no
// back-pressure): 2 cycles for a sharers entry or none; under a root 3 when the leaf is only
// read or written, 4 when a leaf is allocated or freed or the vectors go back to sharers, 5 or
// 6 when the last leaf is checked after a leaf was freed; a conversion 2 + n (refused) or
// 3 + 2n (done) for n leaves; an enumeration 2 + readers of a sharers entry
// or 2 + sum(1 + readers) over the leaves. op_ready_o is high again in the result's cycle.
// full_o is set by a refused allocation and cleared when an operation frees an entry; used_o
// counts the entries in use, updated with the result. An unknown operation writes nothing and
// sets res_err_o and sticky err_o. After reset the table is cleared, one set per cycle (Sets
// cycles, op_ready_o low).
`include "htm_assert.svh"

module htm_reader_list #(
  parameter int unsigned AddrW = 30,     // block address width, 1..62
  parameter int unsigned TxW   = 10,     // transaction id width (2**TxW transactions)
  parameter int unsigned LeafW = 32,     // bits of a leaf vector, a power of two, 2..64,
                                         // LeafW < 2**TxW <= LeafW * LeafW
  parameter int unsigned Sets  = 21964,  // sets, 1..65536 (any number)
  parameter int unsigned Ways  = 4,      // ways per set, 1..16
  // Derived, do not set.
  localparam int unsigned SetIdxW = htm_pkg::idx_width(Sets),
  localparam int unsigned UsedW   = $clog2(Sets * Ways + 1),
  localparam int unsigned CntW    = TxW + 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Operations.
  input  logic             op_valid_i,
  output logic             op_ready_o,     // low while an operation runs and while clearing
  input  htm_pkg::rl_op_e  op_kind_i,
  input  logic [AddrW-1:0] op_addr_i,
  input  logic [TxW-1:0]   op_tx_i,        // Insert, Remove: the reader
  // Enumerate: the readers, one per cycle.
  output logic             id_valid_o,
  output logic [TxW-1:0]   id_o,
  // Results.
  output logic             res_valid_o,
  output htm_pkg::rl_op_e  res_kind_o,
  output logic [AddrW-1:0] res_addr_o,
  output logic [TxW-1:0]   res_tx_o,
  output logic             res_found_o,    // Insert, Remove: tx was a reader before
  output logic             res_inserted_o, // Insert: tx became a reader
  output logic             res_full_o,     // Insert: an entry could not be allocated
  output logic [CntW-1:0]  res_count_o,    // Enumerate: readers streamed
  output logic [1:0]       res_type_o,     // the address's primary entry after: 0, 1 or 2
  output logic             res_err_o,      // an unknown operation, not applied
  // Status.
  output logic             full_o,         // an allocation was refused since the last free
  output logic [UsedW-1:0] used_o,         // entries in use
  output logic             err_o           // sticky: an unknown operation was seen
);

  localparam int unsigned LeafBW   = $clog2(LeafW);
  localparam int unsigned PosW     = TxW - LeafBW;
  localparam int unsigned RootW    = 1 << PosW;
  localparam int unsigned IdsW     = 2 + 3 * TxW;
  localparam int unsigned ContentW = (IdsW > PosW + LeafW) ? IdsW : PosW + LeafW;
  localparam int unsigned EntryW   = 2 + AddrW + ContentW;
  localparam int unsigned SetW     = Ways * EntryW;
  localparam int unsigned ModIters = RootW / Sets + 1;  // (1 + p) mod Sets by subtraction

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 1 && AddrW <= 62)
  `HTM_ASSERT_INIT(LeafWRange_A, LeafW >= 2 && LeafW <= 64 && htm_pkg::is_pow2(LeafW))
  `HTM_ASSERT_INIT(TxWRange_A, TxW >= 2 && TxW <= 12 && (1 << TxW) > LeafW &&
                                   (1 << TxW) <= LeafW * LeafW)
  `HTM_ASSERT_INIT(SetsRange_A, Sets >= 1 && Sets <= 65536)
  `HTM_ASSERT_INIT(WaysRange_A, Ways >= 1 && Ways <= 16)

  localparam logic [1:0] TyUnused  = 2'd0;
  localparam logic [1:0] TySharers = 2'd1;
  localparam logic [1:0] TyRoot    = 2'd2;
  localparam logic [1:0] TyLeaf    = 2'd3;

  typedef enum logic [3:0] {
    StIdle,       // waiting for an operation (its primary set is read when it is taken)
    StPrim,       // the primary set is in: decide
    StChk,        // conversion: a leaf set is in, count its free ways
    StConvRoot,   // conversion: the primary set is in again, the sharers entry becomes a root
    StConvLeaf,   // conversion: a leaf set is in, allocate the leaf
    StLeaf,       // Insert/Remove under a root: the reader's leaf set is in
    StRootSet,    // Insert: a new leaf was allocated, set its root bit
    StRootClr,    // Remove: a leaf was freed, clear its root bit (or free the root)
    StLastLeaf,   // Remove: one leaf is left, is it small enough for a sharers entry?
    StToSharers,  // Remove: the root becomes a sharers entry
    StEmitIds,    // Enumerate: stream the sharers
    StEnLeaf,     // Enumerate: a leaf set is in, take the leaf's vector
    StEnEmit      // Enumerate: stream the leaf's readers
  } state_e;

  // (h + 1 + p) mod Sets, for h < Sets.
  function automatic logic [SetIdxW-1:0] leaf_set(input logic [SetIdxW-1:0] h,
                                                  input logic [PosW-1:0] p);
    logic [31:0] off, s;
    off = 32'(p) + 32'd1;
    for (int i = 0; i < ModIters; i++) begin
      if (off >= Sets) begin
        off = off - Sets;
      end
    end
    s = 32'(h) + off;
    if (s >= Sets) begin
      s = s - Sets;
    end
    leaf_set = SetIdxW'(s);
  endfunction

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

  // -----------------------------------------------------------------------------------------------
  // Operation registers
  // -----------------------------------------------------------------------------------------------
  state_e             state_q, state_d;
  htm_pkg::rl_op_e    kind_q;
  logic               bad_q;
  logic [AddrW-1:0]   addr_q;
  logic [TxW-1:0]     tx_q;
  logic [SetIdxW-1:0] h_q;
  // Conversion: up to four leaves (one per distinct position of the four readers).
  logic [3:0]         lval_q, rem_q, lval_d, rem_d;
  logic [PosW-1:0]    lpos_q [4];
  logic [LeafW-1:0]   lvec_q [4];
  logic [PosW-1:0]    lpos_d [4];
  logic [LeafW-1:0]   lvec_d [4];
  logic               ok_q, ok_d;
  // Root vector still to visit (Enumerate) or after a removal (Remove).
  logic [RootW-1:0]   rv_q, rv_d;
  // A leaf's vector and position: streamed (Enumerate) or turned into sharers (Remove).
  logic [LeafW-1:0]   ev_q, ev_d;
  logic [PosW-1:0]    epos_q, epos_d;
  // Sharers being streamed.
  logic [3*TxW-1:0]   ids_q, ids_d;
  logic [1:0]         cnt_q, cnt_d;
  // Readers streamed; entries allocated and freed by the operation so far.
  logic [CntW-1:0]    emitted_q, emitted_d;
  logic [2:0]         nalloc_q, nalloc_d;
  logic [1:0]         nfree_q, nfree_d;

  logic               acc;
  assign acc        = op_valid_i && op_ready_o;
  assign op_ready_o = !init_q && state_q == StIdle;

  // The primary set of the operation being taken.
  logic [SetIdxW-1:0] op_set;

  htm_set_index #(
    .AddrW(AddrW),
    .Sets (Sets)
  ) u_set (
    .addr_i(op_addr_i),
    .set_o (op_set)
  );

  // -----------------------------------------------------------------------------------------------
  // The table (write-first block RAM: a set read while it is written is read new)
  // -----------------------------------------------------------------------------------------------
  logic               rd_en, wr_en, rd_unused_valid;
  logic [SetIdxW-1:0] rd_set, wr_set;
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
    .rd_en_i   (rd_en),
    .rd_addr_i (rd_set),
    .rd_valid_o(rd_unused_valid),
    .rd_data_o (set_data)
  );

  // -----------------------------------------------------------------------------------------------
  // The set just read, way by way
  // -----------------------------------------------------------------------------------------------
  logic [PosW-1:0]  tx_pos, want_pos;
  logic [LeafW-1:0] tx_bit;
  assign tx_pos   = tx_q[TxW-1 -: PosW];
  assign tx_bit   = LeafW'(1) << tx_q[LeafBW-1:0];
  assign want_pos = (state_q == StLeaf) ? tx_pos : epos_q;

  logic [1:0]       w_type [Ways];
  logic [AddrW-1:0] w_addr [Ways];
  logic [ContentW-1:0] w_cont [Ways];
  logic [Ways-1:0]  w_free, w_prim, w_leaf;

  for (genvar w = 0; w < Ways; w++) begin : gen_way
    assign w_type[w] = set_data[w*EntryW+AddrW+ContentW +: 2];
    assign w_addr[w] = set_data[w*EntryW+ContentW +: AddrW];
    assign w_cont[w] = set_data[w*EntryW +: ContentW];
    assign w_free[w] = w_type[w] == TyUnused;
    assign w_prim[w] = (w_type[w] == TySharers || w_type[w] == TyRoot) && w_addr[w] == addr_q;
    assign w_leaf[w] = w_type[w] == TyLeaf && w_addr[w] == addr_q &&
                       w_cont[w][LeafW +: PosW] == want_pos;
  end

  logic [Ways-1:0]     free_first;
  logic                any_free, prim_found, leaf_found;
  logic [1:0]          prim_type;
  logic [ContentW-1:0] prim_cont;
  logic [LeafW-1:0]    leaf_cont;
  logic [4:0]          free_cnt;

  always_comb begin
    free_first = '0;
    for (int w = Ways - 1; w >= 0; w--) begin
      if (w_free[w]) begin
        free_first = Ways'(1) << w;
      end
    end
  end

  always_comb begin
    prim_type = TyUnused;
    prim_cont = '0;
    leaf_cont = '0;
    free_cnt  = '0;
    for (int w = 0; w < Ways; w++) begin
      if (w_prim[w]) begin
        prim_type = w_type[w];
        prim_cont = w_cont[w];
      end
      if (w_leaf[w]) begin
        leaf_cont = w_cont[w][LeafW-1:0];
      end
      free_cnt = free_cnt + 5'(w_free[w]);
    end
  end

  assign any_free   = w_free != '0;
  assign prim_found = w_prim != '0;
  assign leaf_found = w_leaf != '0;

  // Fields of the primary entry and the leaf.
  logic [1:0]       p_cnt;
  logic [TxW-1:0]   p_id [3];
  logic [RootW-1:0] p_root;
  logic [LeafW-1:0] l_vec;
  assign p_cnt   = prim_cont[1:0];
  assign p_id[0] = prim_cont[2 +: TxW];
  assign p_id[1] = prim_cont[2+TxW +: TxW];
  assign p_id[2] = prim_cont[2+2*TxW +: TxW];
  assign p_root  = prim_cont[RootW-1:0];
  assign l_vec   = leaf_cont;

  logic [RootW-1:0] root_with_tx;  // the root with the reader's leaf bit set
  assign root_with_tx = p_root | (RootW'(1) << tx_pos);

  // -----------------------------------------------------------------------------------------------
  // Helpers: the lowest set bits of vectors, popcounts, the leaves of a conversion
  // -----------------------------------------------------------------------------------------------
  logic [PosW-1:0]   rv_low, root_low;
  logic [LeafBW-1:0] ev_low;
  logic [1:0]        rem_low;
  logic [1:0]        rem_next_low;  // lowest of rem_q without rem_low
  logic [3:0]        rem_without;
  logic [6:0]        nv_pop, lv_pop;
  logic [LeafW-1:0]  nv;  // the leaf's vector without tx

  assign nv = l_vec & ~tx_bit;

  always_comb begin
    rv_low   = '0;
    root_low = '0;
    for (int i = RootW - 1; i >= 0; i--) begin
      if (rv_q[i]) begin
        rv_low = PosW'(i);
      end
      if (p_root[i]) begin
        root_low = PosW'(i);
      end
    end
    ev_low = '0;
    nv_pop = '0;
    lv_pop = '0;
    for (int i = LeafW - 1; i >= 0; i--) begin
      if (ev_q[i]) begin
        ev_low = LeafBW'(i);
      end
      nv_pop = nv_pop + 7'(nv[i]);
      lv_pop = lv_pop + 7'(l_vec[i]);
    end
    rem_low = '0;
    for (int i = 3; i >= 0; i--) begin
      if (rem_q[i]) begin
        rem_low = 2'(i);
      end
    end
    rem_without = rem_q & ~(4'b1 << rem_low);
    rem_next_low = '0;
    for (int i = 3; i >= 0; i--) begin
      if (rem_without[i]) begin
        rem_next_low = 2'(i);
      end
    end
  end

  // The four readers of a conversion (three sharers and tx): one leaf per distinct position,
  // at the slot of its first reader.
  logic [TxW-1:0]   cv_id [4];
  logic [3:0]       cv_first;
  logic [PosW-1:0]  cv_pos [4];
  logic [LeafW-1:0] cv_vec [4];
  assign cv_id[0] = p_id[0];
  assign cv_id[1] = p_id[1];
  assign cv_id[2] = p_id[2];
  assign cv_id[3] = tx_q;

  always_comb begin
    for (int i = 0; i < 4; i++) begin
      cv_pos[i]   = cv_id[i][TxW-1 -: PosW];
      cv_first[i] = 1'b1;
      cv_vec[i]   = '0;
    end
    for (int i = 0; i < 4; i++) begin
      for (int j = 0; j < 4; j++) begin
        if (j < i && cv_pos[j] == cv_pos[i]) begin
          cv_first[i] = 1'b0;
        end
        if (cv_pos[j] == cv_pos[i]) begin
          cv_vec[i] = cv_vec[i] | (LeafW'(1) << cv_id[j][LeafBW-1:0]);
        end
      end
    end
  end

  // Leaf sets of the conversion's slots; the ways the current slot's set must have free.
  logic [SetIdxW-1:0] lset [4];
  logic [2:0]         need;
  logic [RootW-1:0]   conv_root;
  always_comb begin
    for (int i = 0; i < 4; i++) begin
      lset[i] = leaf_set(h_q, lpos_q[i]);
    end
    need      = '0;
    conv_root = '0;
    for (int i = 0; i < 4; i++) begin
      if (lval_q[i] && lset[i] == lset[rem_low]) begin
        need = need + 3'd1;
      end
      if (lval_q[i]) begin
        conv_root = conv_root | (RootW'(1) << lpos_q[i]);
      end
    end
  end

  // Up to three readers of a leaf vector, ascending, as a sharers entry's content.
  logic [IdsW-1:0]  to_sharers;
  logic [LeafW-1:0] ts_rest;
  logic [1:0]       ts_cnt;
  always_comb begin
    to_sharers = '0;
    ts_rest    = ev_q;
    ts_cnt     = '0;
    for (int k = 0; k < 3; k++) begin
      for (int i = LeafW - 1; i >= 0; i--) begin
        if (ts_rest[i] && (ts_rest & ((LeafW'(1) << i) - LeafW'(1))) == '0) begin
          to_sharers[2+k*TxW +: TxW] = {epos_q, LeafBW'(i)};
        end
      end
      if (ts_rest != '0) begin
        ts_cnt  = ts_cnt + 2'd1;
        ts_rest = ts_rest & (ts_rest - LeafW'(1));
      end
    end
    to_sharers[1:0] = ts_cnt;
  end

  // -----------------------------------------------------------------------------------------------
  // The FSM
  // -----------------------------------------------------------------------------------------------
  // The entry written this cycle: into the matching primary way, the matching leaf way, or the
  // lowest free way.
  typedef enum logic [1:0] {
    WrNone,
    WrPrim,
    WrLeaf,
    WrFree
  } wr_way_e;

  wr_way_e            wr_way;
  logic [EntryW-1:0]  wr_entry;
  logic               done, step_alloc, step_free, emit;
  logic [TxW-1:0]     emit_id;
  logic               r_found, r_inserted, r_full;
  logic [1:0]         r_type;

  // Entry builders.
  logic [EntryW-1:0] e_free, e_root_cur;
  assign e_free     = '0;
  assign e_root_cur = {TyRoot, addr_q, ContentW'(rv_q)};

  always_comb begin
    state_d    = state_q;
    lval_d     = lval_q;
    rem_d      = rem_q;
    lpos_d     = lpos_q;
    lvec_d     = lvec_q;
    ok_d       = ok_q;
    rv_d       = rv_q;
    ev_d       = ev_q;
    epos_d     = epos_q;
    ids_d      = ids_q;
    cnt_d      = cnt_q;
    emitted_d  = emitted_q;
    nalloc_d   = nalloc_q;
    nfree_d    = nfree_q;
    rd_en      = 1'b0;
    rd_set     = h_q;
    wr_way     = WrNone;
    wr_entry   = '0;
    done       = 1'b0;
    step_alloc = 1'b0;
    step_free  = 1'b0;
    emit       = 1'b0;
    emit_id    = '0;
    r_found    = 1'b0;
    r_inserted = 1'b0;
    r_full     = 1'b0;
    r_type     = TyUnused;

    unique case (state_q)
      StIdle: begin
        if (acc) begin
          rd_en     = 1'b1;
          rd_set    = op_set;
          emitted_d = '0;
          nalloc_d  = '0;
          nfree_d   = '0;
          state_d   = StPrim;
        end
      end

      StPrim: begin
        done   = 1'b1;  // unless a case below goes on
        r_type = prim_type;
        if (bad_q) begin
          r_type = TyUnused;
        end else if (kind_q == htm_pkg::RlOpInsert) begin
          if (!prim_found) begin
            if (any_free) begin
              wr_way     = WrFree;
              wr_entry   = {TySharers, addr_q, ContentW'({tx_q, 2'd1})};
              step_alloc = 1'b1;
              r_inserted = 1'b1;
              r_type     = TySharers;
            end else begin
              r_full = 1'b1;
            end
          end else if (prim_type == TySharers) begin
            if ((p_cnt >= 2'd1 && p_id[0] == tx_q) || (p_cnt >= 2'd2 && p_id[1] == tx_q) ||
                (p_cnt == 2'd3 && p_id[2] == tx_q)) begin
              r_found = 1'b1;
            end else if (p_cnt != 2'd3) begin
              wr_way   = WrPrim;
              wr_entry = {TySharers, addr_q, prim_cont};
              wr_entry[2+32'(p_cnt)*TxW +: TxW] = tx_q;
              wr_entry[1:0] = p_cnt + 2'd1;
              r_inserted = 1'b1;
            end else begin
              // A fourth reader: check every leaf set, then convert.
              done = 1'b0;
              for (int i = 0; i < 4; i++) begin
                lpos_d[i] = cv_pos[i];
                lvec_d[i] = cv_vec[i];
              end
              lval_d  = cv_first;
              rem_d   = cv_first;
              ok_d    = 1'b1;
              rd_en   = 1'b1;
              rd_set  = leaf_set(h_q, cv_pos[0]);  // slot 0 is always a first
              state_d = StChk;
            end
          end else begin
            done    = 1'b0;
            rv_d    = p_root;
            rd_en   = 1'b1;
            rd_set  = leaf_set(h_q, tx_pos);
            state_d = StLeaf;
          end
        end else if (kind_q == htm_pkg::RlOpRemove) begin
          if (prim_found && prim_type == TySharers) begin
            // Remove tx from the list, keeping the others' order.
            if ((p_cnt >= 2'd1 && p_id[0] == tx_q) || (p_cnt >= 2'd2 && p_id[1] == tx_q) ||
                (p_cnt == 2'd3 && p_id[2] == tx_q)) begin
              r_found = 1'b1;
              wr_way  = WrPrim;
              if (p_cnt == 2'd1) begin
                wr_entry  = e_free;
                step_free = 1'b1;
                r_type    = TyUnused;
              end else begin
                wr_entry = {TySharers, addr_q, ContentW'(2'd0)};
                wr_entry[1:0] = p_cnt - 2'd1;
                if (p_id[0] == tx_q) begin
                  wr_entry[2 +: 2*TxW] = {p_id[2], p_id[1]};
                end else if (p_id[1] == tx_q) begin
                  wr_entry[2 +: 2*TxW] = {p_id[2], p_id[0]};
                end else begin
                  wr_entry[2 +: 2*TxW] = {p_id[1], p_id[0]};
                end
              end
            end
          end else if (prim_found) begin
            done    = 1'b0;
            rv_d    = p_root;
            rd_en   = 1'b1;
            rd_set  = leaf_set(h_q, tx_pos);
            state_d = StLeaf;
          end
        end else begin  // Enumerate
          if (prim_found && prim_type == TySharers) begin
            done    = 1'b0;
            ids_d   = prim_cont[2 +: 3*TxW];
            cnt_d   = p_cnt;
            state_d = StEmitIds;
          end else if (prim_found) begin
            done    = 1'b0;
            rv_d    = p_root & ~(RootW'(1) << root_low);
            epos_d  = root_low;
            rd_en   = 1'b1;
            rd_set  = leaf_set(h_q, root_low);
            state_d = StEnLeaf;
          end
        end
      end

      StChk: begin
        ok_d  = ok_q && 32'(free_cnt) >= 32'(need);
        rem_d = rem_without;
        if (rem_without != '0) begin
          rd_en  = 1'b1;
          rd_set = lset[rem_next_low];
        end else if (!ok_d) begin
          done   = 1'b1;
          r_full = 1'b1;
          r_type = TySharers;
        end else begin
          rd_en   = 1'b1;
          rd_set  = h_q;
          rem_d   = lval_q;
          state_d = StConvRoot;
        end
      end

      StConvRoot: begin
        wr_way   = WrPrim;
        wr_entry = {TyRoot, addr_q, ContentW'(conv_root)};
        rd_en    = 1'b1;
        rd_set   = lset[rem_low];
        state_d  = StConvLeaf;
      end

      StConvLeaf: begin
        wr_way     = WrFree;
        wr_entry   = {TyLeaf, addr_q, ContentW'({lpos_q[rem_low], lvec_q[rem_low]})};
        step_alloc = 1'b1;
        rem_d      = rem_without;
        if (rem_without != '0) begin
          rd_en  = 1'b1;
          rd_set = lset[rem_next_low];
        end else begin
          done       = 1'b1;
          r_inserted = 1'b1;
          r_type     = TyRoot;
        end
      end

      StLeaf: begin
        r_type = TyRoot;
        if (kind_q == htm_pkg::RlOpInsert) begin
          if (leaf_found && (l_vec & tx_bit) != '0) begin
            done    = 1'b1;
            r_found = 1'b1;
          end else if (leaf_found) begin
            done       = 1'b1;
            wr_way     = WrLeaf;
            wr_entry   = {TyLeaf, addr_q, ContentW'({tx_pos, l_vec | tx_bit})};
            r_inserted = 1'b1;
          end else if (any_free) begin
            wr_way     = WrFree;
            wr_entry   = {TyLeaf, addr_q, ContentW'({tx_pos, tx_bit})};
            step_alloc = 1'b1;
            rd_en      = 1'b1;
            rd_set     = h_q;
            state_d    = StRootSet;
          end else begin
            done   = 1'b1;
            r_full = 1'b1;
          end
        end else begin  // Remove
          if (!leaf_found || (l_vec & tx_bit) == '0) begin
            done = 1'b1;
          end else if (nv != '0) begin
            if (rv_q == (RootW'(1) << tx_pos) && nv_pop <= 7'd3) begin
              wr_way    = WrLeaf;
              wr_entry  = e_free;
              step_free = 1'b1;
              ev_d      = nv;
              epos_d    = tx_pos;
              rd_en     = 1'b1;
              rd_set    = h_q;
              state_d   = StToSharers;
            end else begin
              done     = 1'b1;
              r_found  = 1'b1;
              wr_way   = WrLeaf;
              wr_entry = {TyLeaf, addr_q, ContentW'({tx_pos, nv})};
            end
          end else begin
            wr_way    = WrLeaf;
            wr_entry  = e_free;
            step_free = 1'b1;
            rv_d      = rv_q & ~(RootW'(1) << tx_pos);
            rd_en     = 1'b1;
            rd_set    = h_q;
            state_d   = StRootClr;
          end
        end
      end

      StRootSet: begin
        done       = 1'b1;
        r_inserted = 1'b1;
        r_type     = TyRoot;
        wr_way     = WrPrim;
        wr_entry   = {TyRoot, addr_q, ContentW'(root_with_tx)};
      end

      StRootClr: begin
        r_found = 1'b1;
        wr_way  = WrPrim;
        if (rv_q == '0) begin
          done      = 1'b1;
          wr_entry  = e_free;
          step_free = 1'b1;
          r_type    = TyUnused;
        end else begin
          wr_entry = e_root_cur;
          if ((rv_q & (rv_q - RootW'(1))) == '0) begin
            epos_d  = rv_low;
            rd_en   = 1'b1;
            rd_set  = leaf_set(h_q, rv_low);
            state_d = StLastLeaf;
          end else begin
            done   = 1'b1;
            r_type = TyRoot;
          end
        end
      end

      StLastLeaf: begin
        r_found = 1'b1;
        if (lv_pop <= 7'd3) begin
          wr_way    = WrLeaf;
          wr_entry  = e_free;
          step_free = 1'b1;
          ev_d      = l_vec;
          rd_en     = 1'b1;
          rd_set    = h_q;
          state_d   = StToSharers;
        end else begin
          done   = 1'b1;
          r_type = TyRoot;
        end
      end

      StToSharers: begin
        done     = 1'b1;
        r_found  = 1'b1;
        r_type   = TySharers;
        wr_way   = WrPrim;
        wr_entry = {TySharers, addr_q, ContentW'(to_sharers)};
      end

      StEmitIds: begin
        emit      = 1'b1;
        emit_id   = ids_q[TxW-1:0];
        ids_d     = {TxW'(0), ids_q[3*TxW-1:TxW]};
        cnt_d     = cnt_q - 2'd1;
        emitted_d = emitted_q + CntW'(1);
        if (cnt_q == 2'd1) begin
          done   = 1'b1;
          r_type = TySharers;
        end
      end

      StEnLeaf: begin
        ev_d    = leaf_found ? l_vec : '0;
        state_d = StEnEmit;
      end

      StEnEmit: begin
        if (ev_q != '0) begin
          emit      = 1'b1;
          emit_id   = {epos_q, ev_low};
          emitted_d = emitted_q + CntW'(1);
        end
        ev_d = ev_q & (ev_q - LeafW'(1));
        if (ev_d == '0) begin
          if (rv_q != '0) begin
            rv_d    = rv_q & ~(RootW'(1) << rv_low);
            epos_d  = rv_low;
            rd_en   = 1'b1;
            rd_set  = leaf_set(h_q, rv_low);
            state_d = StEnLeaf;
          end else begin
            done   = 1'b1;
            r_type = TyRoot;
          end
        end
      end

      default: begin
        state_d = StIdle;
      end
    endcase

    if (done) begin
      state_d = StIdle;
    end
    if (step_alloc) begin
      nalloc_d = nalloc_q + 3'd1;
    end
    if (step_free) begin
      nfree_d = nfree_q + 2'd1;
    end
  end

  // The write port: the set just read with one way replaced, or a cleared set after reset.
  always_comb begin
    wr_en   = 1'b0;
    wr_set  = init_set_q;
    wr_data = set_data;
    if (init_q) begin
      wr_en   = 1'b1;
      wr_data = '0;
    end else if (wr_way != WrNone) begin
      wr_en = 1'b1;
      // The set of the state: the primary set, the reader's leaf set, a conversion slot's set
      // or the last leaf's set.
      unique case (state_q)
        StChk, StConvLeaf: wr_set = lset[rem_low];
        StLeaf:            wr_set = leaf_set(h_q, tx_pos);
        StLastLeaf:        wr_set = leaf_set(h_q, epos_q);
        default:           wr_set = h_q;
      endcase
      for (int w = 0; w < Ways; w++) begin
        if ((wr_way == WrPrim && w_prim[w]) || (wr_way == WrLeaf && w_leaf[w]) ||
            (wr_way == WrFree && free_first[w])) begin
          wr_data[w*EntryW +: EntryW] = wr_entry;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      kind_q    <= htm_pkg::RlOpInsert;
      bad_q     <= 1'b0;
      addr_q    <= '0;
      tx_q      <= '0;
      h_q       <= '0;
      lval_q    <= '0;
      rem_q     <= '0;
      ok_q      <= 1'b0;
      rv_q      <= '0;
      ev_q      <= '0;
      epos_q    <= '0;
      ids_q     <= '0;
      cnt_q     <= '0;
      emitted_q <= '0;
      nalloc_q  <= '0;
      nfree_q   <= '0;
      for (int i = 0; i < 4; i++) begin
        lpos_q[i] <= '0;
        lvec_q[i] <= '0;
      end
    end else begin
      state_q   <= state_d;
      lval_q    <= lval_d;
      rem_q     <= rem_d;
      ok_q      <= ok_d;
      rv_q      <= rv_d;
      ev_q      <= ev_d;
      epos_q    <= epos_d;
      ids_q     <= ids_d;
      cnt_q     <= cnt_d;
      emitted_q <= emitted_d;
      nalloc_q  <= nalloc_d;
      nfree_q   <= nfree_d;
      for (int i = 0; i < 4; i++) begin
        lpos_q[i] <= lpos_d[i];
        lvec_q[i] <= lvec_d[i];
      end
      if (acc) begin
        kind_q <= op_kind_i;
        bad_q  <= !(op_kind_i == htm_pkg::RlOpInsert || op_kind_i == htm_pkg::RlOpRemove ||
                    op_kind_i == htm_pkg::RlOpEnumerate);
        addr_q <= op_addr_i;
        tx_q   <= op_tx_i;
        h_q    <= op_set;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Results and status
  // -----------------------------------------------------------------------------------------------
  logic             res_valid_q, res_found_q, res_inserted_q, res_full_q, res_err_q;
  logic             id_valid_q, full_q, err_q;
  htm_pkg::rl_op_e  res_kind_q;
  logic [AddrW-1:0] res_addr_q;
  logic [TxW-1:0]   res_tx_q, id_q;
  logic [CntW-1:0]  res_count_q;
  logic [1:0]       res_type_q;
  logic [UsedW-1:0] used_q;
  logic [2:0]       op_alloc;
  logic [1:0]       op_free;
  assign op_alloc = nalloc_q + 3'(step_alloc);
  assign op_free  = nfree_q + 2'(step_free);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_valid_q    <= 1'b0;
      res_kind_q     <= htm_pkg::RlOpInsert;
      res_addr_q     <= '0;
      res_tx_q       <= '0;
      res_found_q    <= 1'b0;
      res_inserted_q <= 1'b0;
      res_full_q     <= 1'b0;
      res_count_q    <= '0;
      res_type_q     <= '0;
      res_err_q      <= 1'b0;
      id_valid_q     <= 1'b0;
      id_q           <= '0;
      full_q         <= 1'b0;
      used_q         <= '0;
      err_q          <= 1'b0;
    end else begin
      res_valid_q <= done;
      id_valid_q  <= emit;
      if (emit) begin
        id_q <= emit_id;
      end
      if (done) begin
        res_kind_q     <= kind_q;
        res_addr_q     <= addr_q;
        res_tx_q       <= tx_q;
        res_found_q    <= r_found;
        res_inserted_q <= r_inserted;
        res_full_q     <= r_full;
        res_count_q    <= emitted_d;
        res_type_q     <= r_type;
        res_err_q      <= bad_q;
        used_q         <= UsedW'(32'(used_q) + 32'(op_alloc) - 32'(op_free));
        if (bad_q) begin
          err_q <= 1'b1;
        end
        if (op_free != '0) begin
          full_q <= 1'b0;
        end else if (r_full) begin
          full_q <= 1'b1;
        end
      end
    end
  end

  assign res_valid_o    = res_valid_q;
  assign res_kind_o     = res_kind_q;
  assign res_addr_o     = res_addr_q;
  assign res_tx_o       = res_tx_q;
  assign res_found_o    = res_found_q;
  assign res_inserted_o = res_inserted_q;
  assign res_full_o     = res_full_q;
  assign res_count_o    = res_count_q;
  assign res_type_o     = res_type_q;
  assign res_err_o      = res_err_q;
  assign id_valid_o     = id_valid_q;
  assign id_o           = id_q;
  assign full_o         = full_q;
  assign used_o         = used_q;
  assign err_o          = err_q;

  // An address has at most one primary entry in its set and one leaf per position.
  `HTM_ASSERT(OnePrimary_A, state_q == StIdle || $onehot0(w_prim))
  `HTM_ASSERT(OneLeaf_A, state_q == StIdle || $onehot0(w_leaf))
  // A conversion allocates only after every leaf set was found to have room.
  `HTM_ASSERT(ConvRoom_A, state_q != StConvLeaf || any_free)
  // The primary entry is still there when it is rewritten.
  `HTM_ASSERT(PrimThere_A, !(state_q == StConvRoot || state_q == StRootSet ||
                             state_q == StRootClr || state_q == StToSharers) || prim_found)
  `HTM_ASSERT(UsedInRange_A, 32'(used_q) <= Sets * Ways)

endmodule
