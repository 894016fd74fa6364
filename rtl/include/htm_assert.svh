// SPDX-License-Identifier: Apache-2.0
//
// Assertion macros with one body per tool. The same properties run in simulation (Verilator
// with --assert: a failure is reported at the failing cycle and fails the test) and in formal
// (Yosys -formal: immediate assertions sampled at the clock edge). Synthesis sees nothing.
//
//   `HTM_ASSERT(Name_A, expr)      expr holds at every rising edge of clk_i outside reset
//   `HTM_ASSUME(Name_M, expr)      formal only: constrains the inputs
//   `HTM_COVER(Name_C, expr)       formal only: expr must be reachable
//   `HTM_ASSERT_INIT(Name_A, expr) parameter legality, checked once at start of simulation
//   `HTM_IMPLIES(a, b)             (!(a) || (b)); Yosys has no |->
//   `HTM_FORMAL_START_IN_RESET     formal wrappers: the proof starts with rst_ni low; declares
//                                  f_past_valid_q (0 in the first cycle only)
//
// The macros expect the module's clock and reset to be named clk_i and rst_ni.
`ifndef HTM_ASSERT_SVH
`define HTM_ASSERT_SVH

`define HTM_IMPLIES(a, b) (!(a) || (b))

`ifdef FORMAL
  // Yosys formal: immediate assertions in a clocked process.
  `define HTM_ASSERT(Name, Prop) \
    always_ff @(posedge clk_i) begin : Name \
      if (rst_ni) assert (Prop); \
    end
  `define HTM_ASSUME(Name, Prop) \
    always_ff @(posedge clk_i) begin : Name \
      if (rst_ni) assume (Prop); \
    end
  `define HTM_COVER(Name, Prop) \
    always_ff @(posedge clk_i) begin : Name \
      if (rst_ni) cover (Prop); \
    end
  `define HTM_ASSERT_INIT(Name, Prop)
  `define HTM_FORMAL_START_IN_RESET \
    logic f_past_valid_q = 1'b0; \
    always_ff @(posedge clk_i) begin \
      f_past_valid_q <= 1'b1; \
    end \
    always_comb begin \
      if (!f_past_valid_q) assume (!rst_ni); \
    end
`elsif VERILATOR
  // Simulation (--assert): concurrent assertions, reported with their name at the failing cycle.
  `define HTM_ASSERT(Name, Prop) \
    Name: assert property (@(posedge clk_i) disable iff (!rst_ni) (Prop));
  `define HTM_ASSUME(Name, Prop)
  `define HTM_COVER(Name, Prop)
  `define HTM_ASSERT_INIT(Name, Prop) \
    initial begin : Name \
      assert (Prop) else $fatal(1, "parameter check failed: %m"); \
    end
`else
  // Synthesis and every other tool: nothing.
  `define HTM_ASSERT(Name, Prop)
  `define HTM_ASSUME(Name, Prop)
  `define HTM_COVER(Name, Prop)
  `define HTM_ASSERT_INIT(Name, Prop)
`endif

`endif  // HTM_ASSERT_SVH
