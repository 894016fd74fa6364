// SPDX-License-Identifier: Apache-2.0
//
// Formal wrapper of htm_lwh: the Last Writer History never answers a lookup with a writer older
// than the true last writer of the address, and never with a cid from the future.
//
// Environment (what the commit unit guarantees): now_i starts at 0 after reset and advances by
// at most one per cycle; an inserted cid is at most StaleAge-1 older than now_i.
// Reference: for an arbitrary fixed address f_addr, the last accepted insert's cid and its true
// age (a saturating counter, so that a wrapped cid is not mistaken for a young one). A lookup of
// f_addr accepted while that age is below StaleAge must be found, with a cid no older.
// Bounded proof: the table and filter live in RAM, whose unreachable contents defeat
// induction; the depth covers the initial sweep, evictions into the filter and scrubs, not a
// commit-id wrap (2**CidW steps away from reset; the lockstep and directed tests cover wraps).
`include "htm_assert.svh"

module htm_lwh_ftop #(
  parameter int unsigned AddrW         = 3,
  parameter int unsigned CidW          = 5,
  parameter int unsigned Sets          = 2,
  parameter int unsigned Ways          = 2,
  parameter int unsigned BfHashes      = 2,
  parameter int unsigned BfSlots       = 2,
  parameter int unsigned ScrubInterval = 2
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic [CidW-1:0]  now_i,
  input logic             op_valid_i,
  input logic             op_write_i,
  input logic [AddrW-1:0] op_addr_i,
  input logic [CidW-1:0]  op_cid_i
);
  localparam logic [CidW:0] StaleAge   = (CidW + 1)'(1) << (CidW - 2);
  localparam int unsigned   ScrubSteps = (Sets > BfSlots) ? Sets : BfSlots;
  localparam logic [CidW:0] AgeBound   = StaleAge + (CidW + 1)'(ScrubSteps * ScrubInterval + 2);

  logic             ready, res_valid, res_found, res_hit, evict_valid;
  logic [CidW-1:0]  res_cid, evict_cid;
  logic [AddrW-1:0] evict_addr;

  htm_lwh #(
    .AddrW        (AddrW),
    .CidW         (CidW),
    .Sets         (Sets),
    .Ways         (Ways),
    .BfHashes     (BfHashes),
    .BfSlots      (BfSlots),
    .ScrubInterval(ScrubInterval)
  ) u_dut (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .ready_o      (ready),
    .now_i        (now_i),
    .op_valid_i   (op_valid_i),
    .op_write_i   (op_write_i),
    .op_addr_i    (op_addr_i),
    .op_cid_i     (op_cid_i),
    .res_valid_o  (res_valid),
    .res_found_o  (res_found),
    .res_hit_o    (res_hit),
    .res_cid_o    (res_cid),
    .evict_valid_o(evict_valid),
    .evict_addr_o (evict_addr),
    .evict_cid_o  (evict_cid)
  );

  `HTM_FORMAL_START_IN_RESET

  // Environment.
  logic [CidW-1:0] f_now_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_now_q <= '0;
    end else begin
      f_now_q <= now_i;
    end
  end
  logic [CidW-1:0] f_step, f_op_age;
  assign f_step   = now_i - f_now_q;
  assign f_op_age = now_i - op_cid_i;
  always_comb begin
    assume (f_step <= CidW'(1));
    assume (!(op_valid_i && op_write_i) || (CidW + 1)'(f_op_age) < StaleAge);
  end

  // Reference: the true age of f_addr's last writer, saturating at 2**CidW.
  (* anyconst *) logic [AddrW-1:0] f_addr;
  logic            f_acc, f_known_q, f_lkp_q;
  logic [CidW:0]   f_age_q, f_lkp_age_q;
  logic [CidW:0]   f_age;  // this cycle's true age
  assign f_acc = op_valid_i && ready && op_addr_i == f_addr;
  assign f_age = (f_age_q + (CidW + 1)'(f_step) > (CidW + 1)'(1 << CidW)) ?
                 (CidW + 1)'(1 << CidW) : f_age_q + (CidW + 1)'(f_step);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_known_q   <= 1'b0;
      f_age_q     <= '0;
      f_lkp_q     <= 1'b0;
      f_lkp_age_q <= '0;
    end else begin
      f_age_q     <= f_age;
      if (f_acc && op_write_i) begin
        f_known_q <= 1'b1;
        f_age_q   <= (CidW + 1)'(f_op_age);
      end
      f_lkp_q     <= f_acc && !op_write_i && f_known_q && f_age < StaleAge;
      f_lkp_age_q <= f_age;
    end
  end

  // The answer's age against now at acceptance (f_now_q in the answer cycle).
  logic [CidW-1:0] f_res_age, f_evict_age;
  assign f_res_age   = f_now_q - res_cid;
  assign f_evict_age = f_now_q - evict_cid;

  always_comb begin
    if (rst_ni && f_past_valid_q) begin
      if (f_lkp_q) begin
        assert (res_valid && res_found);
        assert ((CidW + 1)'(f_res_age) <= f_lkp_age_q);
      end
      if (res_found) begin
        assert ((CidW + 1)'(f_res_age) < AgeBound);
      end
      if (evict_valid) begin
        assert ((CidW + 1)'(f_evict_age) < AgeBound);
      end
      cover (f_lkp_q && !res_hit);  // the answer comes from the recency filter
    end
  end

endmodule
