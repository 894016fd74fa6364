// SPDX-License-Identifier: Apache-2.0
//
// htm_ecp5_pll: the FPGA prototype's clock (docs/proto.md, "The board top"): the ECP5's PLL
// (EHXPLLL) from the board's oscillator to the subsystem's clock, with its primary output fed
// back (the configuration Project Trellis's ecppll writes). The dividers are parameters, the
// values `ecppll -i <input MHz> -o <output MHz>` prints: the output is
// clk_i * ClkfbDiv / ClkiDiv, the VCO that times ClkopDiv; fpga/proto_flow.py runs ecppll for
// the clock asked for and passes them. Their defaults are ecppll's for 25 MHz to 100 MHz.
//
// Under SYNTHESIS the EHXPLLL itself; locked_o is its LOCK, and rst_ni is not connected (the
// PLL runs from configuration; ecppll's PLL has no reset). In simulation a model: clk_o is
// clk_i (one clock: a Verilated board runs at the subsystem's clock), and locked_o rises
// LockCycles cycles of clk_i after rst_ni rises (a register; low while rst_ni is low).
`include "htm_assert.svh"

module htm_ecp5_pll #(
  parameter int unsigned ClkiDiv     = 1,   // reference divider (CLKI_DIV), 1..128
  parameter int unsigned ClkfbDiv    = 4,   // feedback divider (CLKFB_DIV), 1..128
  parameter int unsigned ClkopDiv    = 6,   // output divider (CLKOP_DIV), 1..128
  parameter int unsigned ClkopCphase = 2,   // output's coarse phase (CLKOP_CPHASE), 0..127
  parameter int unsigned ClkopFphase = 0,   // output's fine phase (CLKOP_FPHASE), 0..7
  parameter int unsigned LockCycles  = 16,  // simulation: cycles from reset to locked_o, >= 1
  // Derived, do not set.
  localparam int unsigned CntW       = $clog2(LockCycles + 1)
) (
  input  logic clk_i,     // the board's oscillator
  input  logic rst_ni,    // simulation only: restarts the model's lock counter
  output logic clk_o,     // the subsystem's clock
  output logic locked_o   // the PLL is locked (asynchronous to clk_o on the board)
);

  `HTM_ASSERT_INIT(ClkiDivRange_A, ClkiDiv >= 1 && ClkiDiv <= 128)
  `HTM_ASSERT_INIT(ClkfbDivRange_A, ClkfbDiv >= 1 && ClkfbDiv <= 128)
  `HTM_ASSERT_INIT(ClkopDivRange_A, ClkopDiv >= 1 && ClkopDiv <= 128)
  `HTM_ASSERT_INIT(ClkopCphaseRange_A, ClkopCphase <= 127)
  `HTM_ASSERT_INIT(ClkopFphaseRange_A, ClkopFphase <= 7)
  `HTM_ASSERT_INIT(LockCyclesRange_A, LockCycles >= 1)

`ifdef SYNTHESIS
  // The loop filter's settings are the ones ecppll writes for every EHXPLLL it configures.
  (* FREQUENCY_PIN_CLKI = "25" *)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
  (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA      ("DISABLED"),
    .INTFB_WAKE      ("DISABLED"),
    .STDBY_ENABLE    ("DISABLED"),
    .DPHASE_SOURCE   ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"),
    .OUTDIVIDER_MUXB ("DIVB"),
    .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV        (ClkiDiv),
    .CLKOP_ENABLE    ("ENABLED"),
    .CLKOP_DIV       (ClkopDiv),
    .CLKOP_CPHASE    (ClkopCphase),
    .CLKOP_FPHASE    (ClkopFphase),
    .FEEDBK_PATH     ("CLKOP"),
    .CLKFB_DIV       (ClkfbDiv)
  ) u_pll (
    .RST         (1'b0),
    .STDBY       (1'b0),
    .CLKI        (clk_i),
    .CLKOP       (clk_o),
    .CLKFB       (clk_o),
    .CLKINTFB    (),
    .PHASESEL0   (1'b0),
    .PHASESEL1   (1'b0),
    .PHASEDIR    (1'b1),
    .PHASESTEP   (1'b1),
    .PHASELOADREG(1'b1),
    .PLLWAKESYNC (1'b0),
    .ENCLKOP     (1'b0),
    .LOCK        (locked_o)
  );
`else
  logic [CntW-1:0] cnt_q;  // cycles since reset, saturating at LockCycles

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else if (cnt_q != CntW'(LockCycles)) begin
      cnt_q <= cnt_q + 1'b1;
    end
  end

  assign clk_o    = clk_i;
  assign locked_o = cnt_q == CntW'(LockCycles);
`endif

endmodule
