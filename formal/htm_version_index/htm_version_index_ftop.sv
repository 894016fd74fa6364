// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_version_index. The environment issues any operation stream (any kind,
// fields and timing, bad kinds included). For an arbitrary region and version the wrapper
// keeps the life cycle the results have established (Figure 4) and asserts, bounded (the
// version rows are RAM):
//   * a reader is never given a version that was not published: a Translate or Acquire that
//     returns the version does so only after the region was added with it as version 0, it
//     was published, or an overflow kept it, and not since it was taken for a copy;
//   * the life cycle runs in order: CopyDone only after a BeginCopy gave the version, Publish
//     only after its CopyDone;
//   * references never go below zero: a Release succeeds only with a reference taken;
//   * a versioned translation to the region lands in the version's space, a relocated one in
//     the relocated space;
//   * results come in order, two cycles after the operation (AddRegion's after its scan);
// and the block's own assertions (regions never overlap; a region always has a readable
// version).
`include "htm_assert.svh"

module htm_version_index_ftop #(
  parameter int unsigned AddrW      = 8,
  parameter int unsigned TsW        = 2,
  parameter int unsigned Regions    = 2,
  parameter int unsigned Versions   = 2,
  parameter int unsigned StrideLog2 = 3,
  parameter int unsigned RefW       = 2,
  localparam int unsigned RegW = htm_pkg::idx_width(Regions),
  localparam int unsigned VerW = htm_pkg::idx_width(Versions)
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             op_valid_i,
  input htm_pkg::vt_op_e  op_kind_i,
  input logic [AddrW-1:0] op_addr_i,
  input logic [4:0]       op_code_i,
  input logic [AddrW-1:0] op_reloc_i,
  input logic [TsW:0]     op_ts_i,
  input logic             op_versioned_i,
  input logic [RegW-1:0]  op_region_i,
  input logic [VerW-1:0]  op_version_i,
  // 0: the operation of this cycle has a known kind (assumed).
  input logic             illegal_i
);
  logic             op_ready, res_valid, res_ok, res_overflow, res_err, err;
  htm_pkg::vt_op_e  res_kind;
  logic [RegW-1:0]  res_region;
  logic [VerW-1:0]  res_version;
  logic [1:0]       res_access;
  logic [AddrW-1:0] res_phys;

  htm_version_index #(
    .AddrW     (AddrW),
    .TsW       (TsW),
    .Regions   (Regions),
    .Versions  (Versions),
    .StrideLog2(StrideLog2),
    .RefW      (RefW)
  ) u_dut (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .op_valid_i    (op_valid_i),
    .op_ready_o    (op_ready),
    .op_kind_i     (op_kind_i),
    .op_addr_i     (op_addr_i),
    .op_code_i     (op_code_i),
    .op_reloc_i    (op_reloc_i),
    .op_ts_i       (op_ts_i),
    .op_versioned_i(op_versioned_i),
    .op_region_i   (op_region_i),
    .op_version_i  (op_version_i),
    .res_valid_o   (res_valid),
    .res_kind_o    (res_kind),
    .res_ok_o      (res_ok),
    .res_region_o  (res_region),
    .res_version_o (res_version),
    .res_access_o  (res_access),
    .res_phys_o    (res_phys),
    .res_overflow_o(res_overflow),
    .res_err_o     (res_err),
    .err_o         (err)
  );

  `HTM_FORMAL_START_IN_RESET

  // The operations in flight: two cycles, or AddRegion's scan.
  logic             acc, p1_q, p2_q;
  htm_pkg::vt_op_e  k1_q, k2_q;
  logic [AddrW-1:0] a1_q, a2_q, add_addr_q, add_reloc_q;
  logic [4:0]       add_code_q;
  logic [RegW-1:0]  reg1_q, reg2_q;
  logic [VerW-1:0]  ver1_q, ver2_q;
  logic [9:0]       scan_q;  // AddRegion: cycles left until its result
  assign acc = op_valid_i && op_ready;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_q        <= 1'b0;
      p2_q        <= 1'b0;
      k1_q        <= htm_pkg::VtOpTranslate;
      k2_q        <= htm_pkg::VtOpTranslate;
      a1_q        <= '0;
      a2_q        <= '0;
      reg1_q      <= '0;
      reg2_q      <= '0;
      ver1_q      <= '0;
      ver2_q      <= '0;
      scan_q      <= '0;
      add_addr_q  <= '0;
      add_reloc_q <= '0;
      add_code_q  <= '0;
    end else begin
      p1_q   <= acc && op_kind_i != htm_pkg::VtOpAddRegion;
      p2_q   <= p1_q;
      k1_q   <= op_kind_i;
      k2_q   <= k1_q;
      a1_q   <= op_addr_i;
      a2_q   <= a1_q;
      reg1_q <= op_region_i;
      reg2_q <= reg1_q;
      ver1_q <= op_version_i;
      ver2_q <= ver1_q;
      if (acc && op_kind_i == htm_pkg::VtOpAddRegion) begin
        scan_q      <= 10'(Regions + 2);
        add_addr_q  <= op_addr_i;
        add_reloc_q <= op_reloc_i;
        add_code_q  <= op_code_i;
      end else if (scan_q != '0) begin
        scan_q <= scan_q - 10'd1;
      end
    end
  end

  logic add_res;
  assign add_res = scan_q == 10'd1;
  `HTM_ASSERT(ResultInTime_A, res_valid == (p2_q || add_res))
  `HTM_ASSERT(ResultIsTheOperation_A, !res_valid ||
                                      (add_res ? res_kind == htm_pkg::VtOpAddRegion
                                               : res_kind == k2_q))
  `HTM_ASSERT(TranslateAlwaysOk_A, !(res_valid && !res_err &&
                                     res_kind == htm_pkg::VtOpTranslate) || res_ok)

  // The life cycle of an arbitrary version of an arbitrary region, as the results show it.
  (* anyconst *) logic [RegW-1:0] f_r;
  (* anyconst *) logic [VerW-1:0] f_v;
  logic             f_valid_q, f_readable_q, f_s1_q, f_s2_q;
  logic [AddrW-1:0] f_start_q, f_reloc_q;
  logic [4:0]       f_code_q;
  logic [RefW:0]    f_refs_q;
  logic             ok, mine, mine_v, overflow;
  assign ok       = res_valid && !res_err && res_ok;
  assign mine     = ok && res_region == f_r;
  assign mine_v   = mine && res_version == f_v;
  assign overflow = res_valid && !res_err && res_overflow;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_valid_q    <= 1'b0;
      f_readable_q <= 1'b0;
      f_s1_q       <= 1'b0;
      f_s2_q       <= 1'b0;
      f_refs_q     <= '0;
      f_start_q    <= '0;
      f_reloc_q    <= '0;
      f_code_q     <= '0;
    end else if (overflow) begin
      // Every reference is dropped; the published region keeps the version being published.
      f_refs_q <= '0;
      f_s1_q   <= 1'b0;
      f_s2_q   <= 1'b0;
      if (reg2_q == f_r) begin
        f_readable_q <= ver2_q == f_v;
      end
    end else if (mine && res_kind == htm_pkg::VtOpAddRegion) begin
      f_valid_q    <= 1'b1;
      f_readable_q <= f_v == '0;
      f_s1_q       <= 1'b0;
      f_s2_q       <= 1'b0;
      f_refs_q     <= '0;
      f_start_q    <= add_addr_q;
      f_reloc_q    <= add_reloc_q;
      f_code_q     <= add_code_q;
    end else if (mine_v) begin
      unique case (res_kind)
        htm_pkg::VtOpBeginCopy: begin
          f_readable_q <= 1'b0;
          f_s1_q       <= 1'b1;
        end
        htm_pkg::VtOpCopyDone: begin
          f_s1_q <= 1'b0;
          f_s2_q <= 1'b1;
        end
        htm_pkg::VtOpPublish: begin
          f_s2_q       <= 1'b0;
          f_readable_q <= 1'b1;
        end
        htm_pkg::VtOpAcquire: f_refs_q <= f_refs_q + (RefW + 1)'(1);
        htm_pkg::VtOpRelease: f_refs_q <= f_refs_q - (RefW + 1)'(1);
        default: ;
      endcase
    end
  end

  logic reads_it;
  assign reads_it = mine_v && (res_kind == htm_pkg::VtOpAcquire ||
                               (res_kind == htm_pkg::VtOpTranslate && res_access == 2'd1));
  `HTM_ASSERT(ReadsOnlyPublished_A, !reads_it || (f_valid_q && f_readable_q))
  `HTM_ASSERT(CopyDoneAfterBegin_A, !(mine_v && res_kind == htm_pkg::VtOpCopyDone) || f_s1_q)
  `HTM_ASSERT(PublishAfterCopy_A, !(mine_v && res_kind == htm_pkg::VtOpPublish) || f_s2_q)
  `HTM_ASSERT(ReleaseHasReference_A, !(mine_v && res_kind == htm_pkg::VtOpRelease) ||
                                     f_refs_q != '0)

  // Where a translation to the region lands.
  logic [AddrW-1:0] f_len, f_into;
  assign f_len  = AddrW'(1) << f_code_q;
  assign f_into = res_phys - f_start_q - (AddrW'(res_version) << StrideLog2);
  `HTM_ASSERT(VersionedInItsSpace_A, !(mine && res_kind == htm_pkg::VtOpTranslate &&
                                       res_access == 2'd1) || f_into < f_len)
  `HTM_ASSERT(RelocatedInItsSpace_A, !(mine && res_kind == htm_pkg::VtOpTranslate &&
                                       res_access == 2'd2) ||
                                     (res_phys >= f_reloc_q &&
                                      res_phys - f_reloc_q < AddrW'(Versions - 1) * f_len))

  `HTM_COVER(Published_C, mine_v && res_kind == htm_pkg::VtOpPublish)
  `HTM_COVER(ReadPublished_C, reads_it && f_v != '0)
  `HTM_COVER(Overflow_C, overflow)
  `HTM_COVER(Relocated_C, mine && res_kind == htm_pkg::VtOpTranslate && res_access == 2'd2)

  // The error outputs: res_err_o marks exactly the results of an operation of unknown kind,
  // err_o is exactly "such a result was given since reset" (rising with it), and with known
  // kinds only (illegal_i low in every cycle) err_o stays low.
  logic f_bad_res, f_err_seen;
  assign f_bad_res = !add_res && 3'(k2_q) == 3'd7;
  `HTM_ASSERT(ResErrIsBad_A, !res_valid || res_err == f_bad_res)
  htm_err_check #(.Timing(1)) u_err_check (
    .clk_i, .rst_ni, .illegal_i, .bad_i(op_valid_i && 3'(op_kind_i) == 3'd7),
    .set_i(res_valid && f_bad_res), .err_i(err), .seen_o(f_err_seen)
  );
  `HTM_COVER(ErrUnknownKind_C, res_valid && res_err)

endmodule
