// SPDX-License-Identifier: Apache-2.0
//
// htm_sys_draw: the FPGA prototype's draw unit (docs/proto.md, "Workloads in hardware"), a
// pipelined LowBias32 of `a_i ^ b_i` (an integer finalizer with two constant multiplications,
// a bijection of 32-bit words; its C++ twin is htm::gpu::proto::LowBias32).
//
// Uses: Draw(seed_hash, stream, index) with a_i = {stream[7:0], index[23:0]}, b_i = seed_hash;
// SeedHash(seed) with a_i = seed, b_i = 32'hA5A5A5A5.
//
// Timing: one input per cycle (always taken); the result of the input of cycle t is on
// out_value_o with out_valid_o and the input's tag in cycle t + 5. Five register stages
// (docs/htm_sys_draw.md): the first shifted word, the first product's three partial products,
// the second shifted word, the second product's partial products, the second product. A product
// modulo 2^32 of 16-bit halves is lo*lo + ((hi*lo + lo*hi) << 16) (hi*hi is shifted out), so
// each partial product is one DSP block's 16 x 16 multiplication with nothing after it, and
// their sum goes into the next stage. No reset of the data path; reset clears the valid bits.
module htm_sys_draw #(
  parameter int unsigned TagW = 8  // the requester's tag, carried alongside, >= 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            in_valid_i,
  input  logic [31:0]     a_i,
  input  logic [31:0]     b_i,
  input  logic [TagW-1:0] in_tag_i,
  output logic            out_valid_o,
  output logic [31:0]     out_value_o,
  output logic [TagW-1:0] out_tag_o
);

  localparam logic [31:0] Mul1 = 32'h7FEB352D;
  localparam logic [31:0] Mul2 = 32'h846CA68B;

  localparam int unsigned Latency = 5;

  // A word times a constant modulo 2^32 from its three partial products (16 x 16 bits each).
  function automatic logic [31:0] mul_sum(input logic [31:0] ll, input logic [15:0] hl,
                                          input logic [15:0] lh);
    mul_sum = ll + {hl + lh, 16'd0};
  endfunction

  logic [31:0]     x, s1_q, p1_ll_q, m1, s2_q, p2_ll_q, m2_q;
  logic [15:0]     p1_hl_q, p1_lh_q, p2_hl_q, p2_lh_q;
  logic [TagW-1:0] tag_q [Latency];
  logic [Latency-1:0] valid_q;

  assign x  = a_i ^ b_i;
  assign m1 = mul_sum(p1_ll_q, p1_hl_q, p1_lh_q);

  always_ff @(posedge clk_i) begin
    s1_q    <= x ^ (x >> 16);
    p1_ll_q <= 32'(s1_q[15:0]) * 32'(Mul1[15:0]);
    p1_hl_q <= 16'(s1_q[31:16] * Mul1[15:0]);
    p1_lh_q <= 16'(s1_q[15:0] * Mul1[31:16]);
    s2_q    <= m1 ^ (m1 >> 15);
    p2_ll_q <= 32'(s2_q[15:0]) * 32'(Mul2[15:0]);
    p2_hl_q <= 16'(s2_q[31:16] * Mul2[15:0]);
    p2_lh_q <= 16'(s2_q[15:0] * Mul2[31:16]);
    m2_q    <= mul_sum(p2_ll_q, p2_hl_q, p2_lh_q);
    tag_q[0] <= in_tag_i;
    for (int i = 1; i < Latency; i++) begin
      tag_q[i] <= tag_q[i-1];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= {valid_q[Latency-2:0], in_valid_i};
    end
  end

  assign out_valid_o = valid_q[Latency-1];
  assign out_value_o = m2_q ^ (m2_q >> 16);
  assign out_tag_o   = tag_q[Latency-1];

endmodule
