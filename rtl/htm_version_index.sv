// SPDX-License-Identifier: Apache-2.0
//
// htm_version_index: the Version Index Table of snapshot isolation (Chen, Peng & Irving, ISCA 2017,
// section 3, Figures 4-6, section 4.3): the versioned regions of memory, the versions of each with
// their life cycle, and the translation of every access to the version it must read (Figure 6) or
// to the space the versions displace (Figure 5).
//
// Regions regions (42 by default, 4.3), each {start, length = 2**code bytes, relocated base} in
// flip-flops, and per region a row of Versions versions {state, creation time, reference count}
// in block RAM. Version k of a region occupies [start + k * 2**StrideLog2, + length); the space
// versions 1.. displace is relocated to relocated base + (k - 1) * length. States (Figure 4):
// 0 free, 1 S1 (being copied), 2 S2 (written by commits), 3 S3 (readable), 4 S4 (recycled).
// Operations (htm_pkg::vt_op_e):
//   * AddRegion (addr = start, code, reloc): a new region with version 0 readable from time 0.
//     Refused (res_ok_o low) when the length is above the stride, a span leaves the address
//     space, its versions or relocated space overlap another region's (or each other), or every
//     region is in use. A scan of the regions, one per cycle.
//   * Translate (addr, ts, versioned): a versioned access to a region reads the latest S3
//     version created at or before ts (NoVersion if none); any access to the space a version
//     displaces is relocated; anything else is normal. Every region is compared at once.
//   * BeginCopy (region): the first free or recycled version becomes S1.
//   * CopyDone (region, version): S1 -> S2.
//   * Publish (region, version, ts): S2 -> S3 created at ts, then recycling. A ts that does not
//     fit TsW bits (its top bit set) is the overflow of 4.3: nothing is published
//     (res_overflow_o); every region keeps one version, its newest readable one (the published
//     one for this region), as the version of time 0, the others are freed - a sweep of the
//     regions, one per cycle - and the system aborts every transaction.
//   * Acquire (region, ts): the version a transaction starting at ts reads gains a reference
//     (refused when none is readable or its count is at 2**RefW - 1).
//   * Release (region, version): a reference goes, then recycling.
//   Recycling: every S3 version but the newest with no reference becomes S4.
// Operations on a region not in use, or a version beyond Versions, are refused (res_ok_o low).
// An unknown kind sets res_err_o and sticky err_o.
//
// Timing: an operation is taken when op_valid_i && op_ready_o; its result is out (res_valid_o,
// one cycle) two cycles later, AddRegion's Regions + 2 cycles later. Translate, BeginCopy,
// CopyDone, Acquire and Release go back to back (the row is read when the operation is taken
// and written back in the next cycle; the RAM is write-first); op_ready_o is low in the cycle
// after a Publish or AddRegion is taken, during AddRegion's scan and during an overflow sweep
// (Regions cycles after the Publish's result).
`include "htm_assert.svh"

module htm_version_index #(
  parameter int unsigned AddrW      = 32,  // byte address width, 8..48
  parameter int unsigned TsW        = 32,  // creation time width, 2..48
  parameter int unsigned Regions    = 42,  // regions, 1..256
  parameter int unsigned Versions   = 8,   // versions per region, 2..16
  parameter int unsigned StrideLog2 = 16,  // log2 of the bytes between versions, 1..AddrW-5
  parameter int unsigned RefW       = 10,  // reference count width, 1..32
  // Derived, do not set.
  localparam int unsigned RegW = htm_pkg::idx_width(Regions),
  localparam int unsigned VerW = htm_pkg::idx_width(Versions)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Operations.
  input  logic             op_valid_i,
  output logic             op_ready_o,
  input  htm_pkg::vt_op_e  op_kind_i,
  input  logic [AddrW-1:0] op_addr_i,       // AddRegion: start; Translate: the address
  input  logic [4:0]       op_code_i,       // AddRegion: the length is 2**code bytes
  input  logic [AddrW-1:0] op_reloc_i,      // AddRegion: the relocated base
  input  logic [TsW:0]     op_ts_i,         // Translate, Acquire, Publish; top bit: overflow
  input  logic             op_versioned_i,  // Translate: a transactional (versioned) access
  input  logic [RegW-1:0]  op_region_i,
  input  logic [VerW-1:0]  op_version_i,
  // Results.
  output logic             res_valid_o,
  output htm_pkg::vt_op_e  res_kind_o,
  output logic             res_ok_o,        // done (see above); Translate: always
  output logic [RegW-1:0]  res_region_o,    // the region (the new one for AddRegion), if ok
  output logic [VerW-1:0]  res_version_o,   // the version found or used, if ok
  output logic [1:0]       res_access_o,    // Translate: 0 normal, 1 versioned, 2 relocated,
                                            // 3 no readable version
  output logic [AddrW-1:0] res_phys_o,      // Translate: the address to access
  output logic             res_overflow_o,  // Publish: the timestamp overflowed
  output logic             res_err_o,       // an unknown operation, not applied
  output logic             err_o            // sticky: an unknown operation was seen
);

  `HTM_ASSERT_INIT(AddrWRange_A, AddrW >= 8 && AddrW <= 48)
  `HTM_ASSERT_INIT(TsWRange_A, TsW >= 2 && TsW <= 48)
  `HTM_ASSERT_INIT(RegionsRange_A, Regions >= 1 && Regions <= 256)
  `HTM_ASSERT_INIT(VersionsRange_A, Versions >= 2 && Versions <= 16)
  `HTM_ASSERT_INIT(StrideRange_A, StrideLog2 >= 1 && StrideLog2 + 5 <= AddrW)
  `HTM_ASSERT_INIT(RefWRange_A, RefW >= 1 && RefW <= 32)

  localparam int unsigned VerBits = 3 + TsW + RefW;  // {refs, created, state}
  localparam int unsigned RowW    = Versions * VerBits;
  localparam int unsigned ExtW    = AddrW + 6;       // spans of up to 16 strides, no overflow
  localparam int unsigned VersM1  = Versions - 1;
  localparam int unsigned Pairs   = Versions * (Versions - 1) / 2;
  localparam logic [2:0]  StFree  = 3'd0;
  localparam logic [2:0]  StS1    = 3'd1;
  localparam logic [2:0]  StS2    = 3'd2;
  localparam logic [2:0]  StS3    = 3'd3;
  localparam logic [2:0]  StS4    = 3'd4;

  // -----------------------------------------------------------------------------------------------
  // Region descriptors (flip-flops)
  // -----------------------------------------------------------------------------------------------
  logic [Regions-1:0] r_valid_q;
  logic [AddrW-1:0]   r_start_q [Regions];
  logic [4:0]         r_code_q  [Regions];
  logic [AddrW-1:0]   r_reloc_q [Regions];

  // -----------------------------------------------------------------------------------------------
  // Control
  // -----------------------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    CtlRun,    // operations flow
    CtlScan,   // AddRegion: one region per cycle
    CtlSweep   // overflow: one row per cycle
  } ctl_e;

  ctl_e                ctl_q;
  logic [RegW-1:0]     idx_q;        // scan or sweep index
  logic                s1_q;         // stage 1 holds an operation
  htm_pkg::vt_op_e     s1_kind_q;
  logic                s1_bad_q;
  logic [AddrW-1:0]    s1_addr_q, s1_reloc_q;
  logic [4:0]          s1_code_q;
  logic [TsW:0]        s1_ts_q;
  logic                s1_versioned_q;
  logic [RegW-1:0]     s1_region_q;
  logic [VerW-1:0]     s1_version_q;
  logic                s1_inuse_q;   // the region is in use
  logic                s1_verok_q;   // the version is below Versions
  logic [1:0]          s1_access_q;  // Translate: the region match
  logic [AddrW-1:0]    s1_phys_q;    // Translate: the relocated or normal address
  // AddRegion's scan.
  logic                conflict_q, free_found_q;
  logic [RegW-1:0]     free_idx_q;
  // The overflow sweep.
  logic [RegW-1:0]     pub_region_q;
  logic [VerW-1:0]     pub_version_q;

  logic acc, s1_blocks, s1_live;
  assign s1_live    = s1_q && !s1_bad_q;
  assign s1_blocks  = s1_q && (s1_kind_q == htm_pkg::VtOpPublish ||
                               s1_kind_q == htm_pkg::VtOpAddRegion);
  assign op_ready_o = ctl_q == CtlRun && !s1_blocks;
  assign acc        = op_valid_i && op_ready_o;

  // -----------------------------------------------------------------------------------------------
  // Stage 0: match the address against every region (Translate)
  // -----------------------------------------------------------------------------------------------
  logic [Regions-1:0] m_self, m_reloc;
  logic [AddrW-1:0]   m_off [Regions];

  for (genvar i = 0; i < Regions; i++) begin : gen_match
    logic [AddrW:0]   diff;
    logic [AddrW-1:0] len_mask;
    logic [AddrW-StrideLog2-1:0] hi;
    assign diff       = {1'b0, op_addr_i} - {1'b0, r_start_q[i]};
    assign m_off[i]   = diff[AddrW-1:0];
    assign len_mask   = (AddrW'(1) << r_code_q[i]) - AddrW'(1);
    assign hi         = m_off[i][AddrW-1:StrideLog2];
    assign m_self[i]  = r_valid_q[i] && !diff[AddrW] && (m_off[i] & ~len_mask) == '0;
    assign m_reloc[i] = r_valid_q[i] && !diff[AddrW] && hi != '0 &&
                        hi < (AddrW-StrideLog2)'(Versions) &&
                        (m_off[i][StrideLog2-1:0] & ~len_mask[StrideLog2-1:0]) == '0;
  end

  // At most one region matches (AddRegion keeps regions, versions and relocated spaces apart;
  // OneMatch_A), so the matching region's fields are selected by AND-OR, a tree rather than a
  // priority chain, and the relocated address is computed once, from the selected fields.
  logic [Regions-1:0] m_hit;
  logic [RegW-1:0]    m_idx;
  logic               m_any, m_is_self;
  logic [AddrW-1:0]   m_sel_off, m_sel_reloc, m_reloc_phys;
  logic [4:0]         m_sel_code;
  assign m_hit = m_self | m_reloc;
  always_comb begin
    m_idx       = '0;
    m_sel_off   = '0;
    m_sel_reloc = '0;
    m_sel_code  = '0;
    for (int i = 0; i < Regions; i++) begin
      m_idx       = m_idx       | (m_hit[i] ? RegW'(i)     : RegW'(0));
      m_sel_off   = m_sel_off   | (m_hit[i] ? m_off[i]     : AddrW'(0));
      m_sel_reloc = m_sel_reloc | (m_hit[i] ? r_reloc_q[i] : AddrW'(0));
      m_sel_code  = m_sel_code  | (m_hit[i] ? r_code_q[i]  : 5'd0);
    end
  end
  assign m_any        = |m_hit;
  assign m_is_self    = |m_self;
  assign m_reloc_phys = m_sel_reloc +
                        ((AddrW'(m_sel_off[AddrW-1:StrideLog2]) - AddrW'(1)) << m_sel_code) +
                        AddrW'(m_sel_off[StrideLog2-1:0]);

  logic op_bad, op_inuse, op_verok;
  assign op_bad   = 3'(op_kind_i) == 3'd7;
  assign op_inuse = 32'(op_region_i) < Regions && r_valid_q[op_region_i];
  assign op_verok = 32'(op_version_i) < Versions;

  // -----------------------------------------------------------------------------------------------
  // The version rows (write-first block RAM)
  // -----------------------------------------------------------------------------------------------
  logic            rd_en, wr_en, rd_unused_valid;
  logic [RegW-1:0] rd_idx, wr_idx;
  logic [RowW-1:0] wr_row, row;

  htm_ram_1r1w #(
    .Width     (RowW),
    .Depth     (Regions),
    .WriteFirst(1)
  ) u_rows (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wr_en_i   (wr_en),
    .wr_addr_i (wr_idx),
    .wr_data_i (wr_row),
    .rd_en_i   (rd_en),
    .rd_addr_i (rd_idx),
    .rd_valid_o(rd_unused_valid),
    .rd_data_o (row)
  );

  // -----------------------------------------------------------------------------------------------
  // Stage 1: the row of the operation's region
  // -----------------------------------------------------------------------------------------------
  logic [2:0]      v_state   [Versions];
  logic [TsW-1:0]  v_created [Versions];
  logic [RefW-1:0] v_refs    [Versions];
  for (genvar k = 0; k < Versions; k++) begin : gen_ver
    assign v_state[k]   = row[k*VerBits +: 3];
    assign v_created[k] = row[k*VerBits+3 +: TsW];
    assign v_refs[k]    = row[k*VerBits+3+TsW +: RefW];
  end

  // One-hot of the first (lowest-index) greatest creation time of a row's candidate versions
  // c; zero without candidates. Version k is the one when it is a candidate, newer than every
  // candidate below it and at least as new as every candidate above it: every pair compared
  // once, side by side (one level of comparators and an AND per version), where a running
  // maximum would chain Versions comparisons.
  function automatic logic [Versions-1:0] first_max(input logic [Versions-1:0] c,
                                                     input logic [RowW-1:0]     r);
    logic [Pairs-1:0] gt;  // gt[a*(a-1)/2+b], a > b: version a is newer than b
    for (int a = 1; a < Versions; a++) begin
      for (int b = 0; b < a; b++) begin
        gt[a*(a-1)/2+b] = r[a*VerBits+3 +: TsW] > r[b*VerBits+3 +: TsW];
      end
    end
    for (int k = 0; k < Versions; k++) begin
      first_max[k] = c[k];
      for (int j = 0; j < Versions; j++) begin
        if (j < k) begin
          first_max[k] = first_max[k] && (!c[j] || gt[k*(k-1)/2+j]);
        end else if (j > k) begin
          first_max[k] = first_max[k] && (!c[j] || !gt[j*(j-1)/2+k]);
        end
      end
    end
  endfunction

  // The latest readable version at s1_ts_q (ties to the lower index) and the first free or
  // recycled one.
  logic [Versions-1:0] cand, best_oh;
  logic [VerW-1:0]     best, first_free;
  logic [RefW-1:0]     best_refs;
  logic                best_found, free_found;
  for (genvar k = 0; k < Versions; k++) begin : gen_cand
    assign cand[k] = v_state[k] == StS3 && {1'b0, v_created[k]} <= s1_ts_q;
  end
  assign best_oh = first_max(cand, row);
  always_comb begin
    best      = '0;
    best_refs = '0;
    for (int k = 0; k < Versions; k++) begin
      best      = best      | (best_oh[k] ? VerW'(k)  : VerW'(0));
      best_refs = best_refs | (best_oh[k] ? v_refs[k] : RefW'(0));
    end
  end
  assign best_found = |cand;
  always_comb begin
    first_free = '0;
    free_found = 1'b0;
    for (int k = Versions - 1; k >= 0; k--) begin
      if (v_state[k] == StFree || v_state[k] == StS4) begin
        first_free = VerW'(k);
        free_found = 1'b1;
      end
    end
  end

  // The row after the operation's change, before recycling.
  logic [RowW-1:0] row_mod, row_rec;
  logic            s1_ok, s1_change, s1_overflow;
  logic [VerW-1:0] s1_ver;  // the version found or used
  logic [2:0]      sel_state;
  logic [RefW-1:0] sel_refs;
  logic [VerW-1:0] sel;  // the operation's version, in range
  assign sel       = s1_verok_q ? s1_version_q : '0;
  assign sel_state = v_state[sel];
  assign sel_refs  = v_refs[sel];

  always_comb begin
    row_mod     = row;
    s1_ok       = 1'b0;
    s1_change   = 1'b0;
    s1_overflow = 1'b0;
    s1_ver      = '0;
    if (s1_live) begin
    unique case (s1_kind_q)
      htm_pkg::VtOpTranslate: begin
        s1_ok  = 1'b1;
        s1_ver = (s1_access_q == 2'd1 && s1_versioned_q && best_found) ? best : '0;
      end
      htm_pkg::VtOpBeginCopy: begin
        if (s1_inuse_q && free_found) begin
          s1_ok     = 1'b1;
          s1_change = 1'b1;
          s1_ver    = first_free;
          for (int k = 0; k < Versions; k++) begin
            if (VerW'(k) == first_free) begin
              row_mod[k*VerBits +: VerBits] = {RefW'(0), TsW'(0), StS1};
            end
          end
        end
      end
      htm_pkg::VtOpCopyDone: begin
        if (s1_inuse_q && s1_verok_q && sel_state == StS1) begin
          s1_ok     = 1'b1;
          s1_change = 1'b1;
          s1_ver    = s1_version_q;
          for (int k = 0; k < Versions; k++) begin
            if (VerW'(k) == s1_version_q) begin
              row_mod[k*VerBits +: 3] = StS2;
            end
          end
        end
      end
      htm_pkg::VtOpPublish: begin
        if (s1_inuse_q && s1_verok_q && sel_state == StS2) begin
          if (s1_ts_q[TsW]) begin
            s1_overflow = 1'b1;
          end else begin
            s1_ok     = 1'b1;
            s1_change = 1'b1;
            s1_ver    = s1_version_q;
            for (int k = 0; k < Versions; k++) begin
              if (VerW'(k) == s1_version_q) begin
                row_mod[k*VerBits +: 3 + TsW] = {s1_ts_q[TsW-1:0], StS3};
              end
            end
          end
        end
      end
      htm_pkg::VtOpAcquire: begin
        if (s1_inuse_q && best_found && best_refs != {RefW{1'b1}}) begin
          s1_ok     = 1'b1;
          s1_change = 1'b1;
          s1_ver    = best;
          for (int k = 0; k < Versions; k++) begin
            if (best_oh[k]) begin
              row_mod[k*VerBits+3+TsW +: RefW] = v_refs[k] + RefW'(1);
            end
          end
        end
      end
      htm_pkg::VtOpRelease: begin
        if (s1_inuse_q && s1_verok_q && sel_refs != '0) begin
          s1_ok     = 1'b1;
          s1_change = 1'b1;
          s1_ver    = s1_version_q;
          for (int k = 0; k < Versions; k++) begin
            if (VerW'(k) == s1_version_q) begin
              row_mod[k*VerBits+3+TsW +: RefW] = sel_refs - RefW'(1);
            end
          end
        end
      end
      default: ;
    endcase
    end
  end

  // Recycling of row_mod: every S3 version but the newest (ties to the lower index) with no
  // reference becomes S4.
  logic [Versions-1:0] pub, newest_oh;
  logic [VerW-1:0]     newest;
  logic                newest_found;
  for (genvar k = 0; k < Versions; k++) begin : gen_pub
    assign pub[k] = row_mod[k*VerBits +: 3] == StS3;
  end
  assign newest_oh = first_max(pub, row_mod);
  always_comb begin
    newest = '0;
    for (int k = 0; k < Versions; k++) begin
      newest = newest | (newest_oh[k] ? VerW'(k) : VerW'(0));
    end
    row_rec = row_mod;
    for (int k = 0; k < Versions; k++) begin
      if (!newest_oh[k] && pub[k] && row_mod[k*VerBits+3+TsW +: RefW] == '0) begin
        row_rec[k*VerBits +: 3] = StS4;
      end
    end
  end
  assign newest_found = |pub;

  // The row an overflow leaves: the kept version readable from time 0, the rest free.
  logic [VerW-1:0] keep;
  logic [RowW-1:0] row_swept;
  assign keep = (idx_q == pub_region_q) ? pub_version_q : newest;
  always_comb begin
    row_swept = '0;
    for (int k = 0; k < Versions; k++) begin
      if (VerW'(k) == keep) begin
        row_swept[k*VerBits +: 3] = StS3;
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // AddRegion: the checks against one region per cycle, and those of the new region itself
  // -----------------------------------------------------------------------------------------------
  logic [ExtW-1:0] n_len, n_span, n_rspan, n_start, n_reloc, a_len, a_span, a_rspan, a_start;
  logic [ExtW-1:0] a_reloc;
  logic            n_bad, a_conflict;
  assign n_len   = ExtW'(1) << s1_code_q;
  assign n_span  = ExtW'(VersM1) * (ExtW'(1) << StrideLog2) + n_len;
  assign n_rspan = ExtW'(VersM1) << s1_code_q;  // VersM1 * n_len, a power of two
  assign n_start = ExtW'(s1_addr_q);
  assign n_reloc = ExtW'(s1_reloc_q);
  logic [2*AddrW+4:0] scan_desc;  // the scanned region's {code, reloc, start} (below)
  assign a_len   = ExtW'(1) << scan_desc[2*AddrW +: 5];
  assign a_span  = ExtW'(VersM1) * (ExtW'(1) << StrideLog2) + a_len;
  assign a_rspan = ExtW'(VersM1) << scan_desc[2*AddrW +: 5];  // VersM1 * a_len
  assign a_start = ExtW'(scan_desc[AddrW-1:0]);
  assign a_reloc = ExtW'(scan_desc[AddrW +: AddrW]);

  // Two ranges [a, a + al) and [b, b + bl) overlap.
  function automatic logic overlap(input logic [ExtW-1:0] a, input logic [ExtW-1:0] al,
                                   input logic [ExtW-1:0] b, input logic [ExtW-1:0] bl);
    overlap = a < b + bl && b < a + al;
  endfunction

  assign n_bad = 32'(s1_code_q) > StrideLog2 ||
                 n_start + n_span - ExtW'(1) > ExtW'({AddrW{1'b1}}) ||
                 n_reloc + n_rspan - ExtW'(1) > ExtW'({AddrW{1'b1}}) ||
                 overlap(n_start, n_span, n_reloc, n_rspan);
  assign a_conflict = r_valid_q[idx_q] &&
                      (overlap(n_start, n_span, a_start, a_span) ||
                       overlap(n_reloc, n_rspan, a_reloc, a_rspan) ||
                       overlap(n_start, n_span, a_reloc, a_rspan) ||
                       overlap(n_reloc, n_rspan, a_start, a_span));

  logic add_done, add_ok;
  logic [RegW-1:0] add_idx;
  assign add_done = ctl_q == CtlScan && 32'(idx_q) == Regions - 1;
  assign add_ok   = !n_bad && !(conflict_q || a_conflict) &&
                    (free_found_q || !r_valid_q[idx_q]);
  assign add_idx  = free_found_q ? free_idx_q : idx_q;

  // The scan reads the region at idx_q from a copy of the descriptors in an asynchronous-read
  // memory (LUT RAM on an ECP5), written together with the flip-flops: a 42-to-1 multiplexer
  // over every region's flip-flops was what kept the paper size from routing. The copy holds
  // no reset value; only a valid region's word is used (a_conflict).
  logic [2*AddrW+4:0] scan_desc_mem [Regions];  // {code, reloc, start}
  assign scan_desc = scan_desc_mem[idx_q];
  always_ff @(posedge clk_i) begin
    if (add_done && add_ok) begin
      scan_desc_mem[add_idx] <= {s1_code_q, s1_reloc_q, s1_addr_q};
    end
  end

  // -----------------------------------------------------------------------------------------------
  // The RAM ports and the control
  // -----------------------------------------------------------------------------------------------
  always_comb begin
    rd_en  = 1'b0;
    rd_idx = '0;
    wr_en  = 1'b0;
    wr_idx = s1_region_q;
    wr_row = row_rec;
    if (acc) begin
      rd_en = 1'b1;
      if (op_kind_i == htm_pkg::VtOpTranslate) begin
        rd_idx = m_idx;
      end else if (32'(op_region_i) < Regions) begin
        rd_idx = op_region_i;
      end
    end
    if (s1_live && s1_overflow) begin
      rd_en  = 1'b1;  // the sweep's first row
      rd_idx = '0;
    end
    if (ctl_q == CtlSweep) begin
      wr_en  = 1'b1;
      wr_idx = idx_q;
      wr_row = row_swept;
      if (32'(idx_q) != Regions - 1) begin
        rd_en  = 1'b1;
        rd_idx = idx_q + RegW'(1);
      end
    end else if (add_done && add_ok) begin
      wr_en  = 1'b1;
      wr_idx = add_idx;
      wr_row = '0;
      wr_row[2:0] = StS3;  // version 0 readable from time 0
    end else if (s1_live && s1_change) begin
      wr_en = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctl_q          <= CtlRun;
      idx_q          <= '0;
      s1_q           <= 1'b0;
      s1_kind_q      <= htm_pkg::VtOpTranslate;
      s1_bad_q       <= 1'b0;
      s1_addr_q      <= '0;
      s1_reloc_q     <= '0;
      s1_code_q      <= '0;
      s1_ts_q        <= '0;
      s1_versioned_q <= 1'b0;
      s1_region_q    <= '0;
      s1_version_q   <= '0;
      s1_inuse_q     <= 1'b0;
      s1_verok_q     <= 1'b0;
      s1_access_q    <= '0;
      s1_phys_q      <= '0;
      conflict_q     <= 1'b0;
      free_found_q   <= 1'b0;
      free_idx_q     <= '0;
      pub_region_q   <= '0;
      pub_version_q  <= '0;
      r_valid_q      <= '0;
      for (int i = 0; i < Regions; i++) begin
        r_start_q[i] <= '0;
        r_code_q[i]  <= '0;
        r_reloc_q[i] <= '0;
      end
    end else begin
      s1_q <= acc;
      if (acc) begin
        s1_kind_q      <= op_kind_i;
        s1_bad_q       <= op_bad;
        s1_addr_q      <= op_addr_i;
        s1_reloc_q     <= op_reloc_i;
        s1_code_q      <= op_code_i;
        s1_ts_q        <= op_ts_i;
        s1_versioned_q <= op_versioned_i;
        s1_version_q   <= op_version_i;
        s1_verok_q     <= op_verok;
        if (op_kind_i == htm_pkg::VtOpTranslate) begin
          s1_region_q <= m_idx;
          s1_inuse_q  <= m_any;
          // 0 normal, 1 the region itself (versioned or not: decided in stage 1), 2 relocated.
          s1_access_q <= !m_any ? 2'd0 : m_is_self ? 2'd1 : 2'd2;
          s1_phys_q   <= (m_any && !m_is_self) ? m_reloc_phys : op_addr_i;
        end else begin
          s1_region_q <= op_region_i;
          s1_inuse_q  <= op_inuse;
          s1_access_q <= '0;
          s1_phys_q   <= op_addr_i;
        end
      end
      unique case (ctl_q)
        CtlRun: begin
          if (s1_live && s1_kind_q == htm_pkg::VtOpAddRegion) begin
            ctl_q        <= CtlScan;
            idx_q        <= '0;
            conflict_q   <= 1'b0;
            free_found_q <= 1'b0;
          end else if (s1_live && s1_overflow) begin
            ctl_q         <= CtlSweep;
            idx_q         <= '0;
            pub_region_q  <= s1_region_q;
            pub_version_q <= s1_version_q;
          end
        end
        CtlScan: begin
          conflict_q <= conflict_q || a_conflict;
          if (!free_found_q && !r_valid_q[idx_q]) begin
            free_found_q <= 1'b1;
            free_idx_q   <= idx_q;
          end
          if (add_done) begin
            ctl_q <= CtlRun;
            if (add_ok) begin
              r_valid_q[add_idx] <= 1'b1;
              r_start_q[add_idx] <= s1_addr_q;
              r_code_q[add_idx]  <= s1_code_q;
              r_reloc_q[add_idx] <= s1_reloc_q;
            end
          end else begin
            idx_q <= idx_q + RegW'(1);
          end
        end
        CtlSweep: begin
          if (32'(idx_q) == Regions - 1) begin
            ctl_q <= CtlRun;
          end else begin
            idx_q <= idx_q + RegW'(1);
          end
        end
        default: ctl_q <= CtlRun;
      endcase
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Results
  // -----------------------------------------------------------------------------------------------
  logic             res_valid_q, res_ok_q, res_overflow_q, res_err_q, err_q;
  htm_pkg::vt_op_e  res_kind_q;
  logic [RegW-1:0]  res_region_q;
  logic [VerW-1:0]  res_version_q;
  logic [1:0]       res_access_q;
  logic [AddrW-1:0] res_phys_q;
  logic             s1_result;  // stage 1 ends every operation but AddRegion
  assign s1_result = s1_q && !(s1_live && s1_kind_q == htm_pkg::VtOpAddRegion);

  // Translate's outcome in stage 1.
  logic [1:0]       t_access;
  logic [AddrW-1:0] t_phys;
  logic [RegW-1:0]  t_region;
  always_comb begin
    t_access = s1_access_q;
    t_phys   = s1_phys_q;
    t_region = s1_region_q;
    if (s1_access_q == 2'd1) begin
      if (!s1_versioned_q) begin
        t_access = 2'd0;  // a non-versioned access to the region itself reads it as it is
      end else if (best_found) begin
        t_phys = s1_addr_q + (AddrW'(best) << StrideLog2);
      end else begin
        t_access = 2'd3;
      end
    end
    if (t_access == 2'd0) begin
      t_region = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_valid_q    <= 1'b0;
      res_kind_q     <= htm_pkg::VtOpTranslate;
      res_ok_q       <= 1'b0;
      res_region_q   <= '0;
      res_version_q  <= '0;
      res_access_q   <= '0;
      res_phys_q     <= '0;
      res_overflow_q <= 1'b0;
      res_err_q      <= 1'b0;
      err_q          <= 1'b0;
    end else begin
      res_valid_q <= s1_result || add_done;
      if (add_done) begin
        res_kind_q     <= htm_pkg::VtOpAddRegion;
        res_ok_q       <= add_ok;
        res_region_q   <= add_ok ? add_idx : '0;
        res_version_q  <= '0;
        res_access_q   <= '0;
        res_phys_q     <= '0;
        res_overflow_q <= 1'b0;
        res_err_q      <= 1'b0;
      end else if (s1_result) begin
        res_kind_q     <= s1_kind_q;
        res_ok_q       <= !s1_bad_q && s1_ok;
        res_region_q   <= (s1_bad_q || !s1_ok) ? '0 :
                          s1_kind_q == htm_pkg::VtOpTranslate ? t_region : s1_region_q;
        res_version_q  <= (s1_bad_q || !s1_ok) ? '0 : s1_ver;
        res_access_q   <= (s1_bad_q || s1_kind_q != htm_pkg::VtOpTranslate) ? 2'd0 : t_access;
        res_phys_q     <= (s1_bad_q || s1_kind_q != htm_pkg::VtOpTranslate) ? '0 : t_phys;
        res_overflow_q <= !s1_bad_q && s1_overflow;
        res_err_q      <= s1_bad_q;
        if (s1_bad_q) begin
          err_q <= 1'b1;
        end
      end
    end
  end

  assign res_valid_o    = res_valid_q;
  assign res_kind_o     = res_kind_q;
  assign res_ok_o       = res_ok_q;
  assign res_region_o   = res_region_q;
  assign res_version_o  = res_version_q;
  assign res_access_o   = res_access_q;
  assign res_phys_o     = res_phys_q;
  assign res_overflow_o = res_overflow_q;
  assign res_err_o      = res_err_q;
  assign err_o          = err_q;

  // Regions never overlap, so an address matches at most one.
  `HTM_ASSERT(OneMatch_A, !acc || op_kind_i != htm_pkg::VtOpTranslate ||
                          $onehot0(m_self | m_reloc))
  // A region always has a readable version (version 0 from the start; the newest is never
  // recycled; an overflow keeps one).
  `HTM_ASSERT(AlwaysReadable_A, !(s1_live && s1_inuse_q && s1_kind_q != htm_pkg::VtOpTranslate &&
                                  s1_kind_q != htm_pkg::VtOpAddRegion) || newest_found)

endmodule
