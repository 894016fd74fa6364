// SPDX-License-Identifier: Apache-2.0
//
// Port declarations, once per block. A block's `.def` file (golden/include/htm/golden/ports/)
// lists its parameters, inputs and outputs with X-macros:
//
//   HTM_PARAM(<SV name>, <C++ member>, <C++ type>)   a module parameter
//   HTM_IN(<name>, <width>)                          input <name>_i
//   HTM_OUT(<name>, <width>, <qualifier>)            output <name>_o
//   HTM_MODEL_OUT(<name>)                            a model-only output: set by the model,
//                                                    never sampled or compared; qualifiers may
//                                                    use it (e.g. "this register is defined")
//
// Widths are C++ expressions over the parameters `p`; a qualifier is a C++ expression over the
// golden model's outputs `o`: the output is compared only when it is true (payload fields that
// are don't-care while their valid bit is low).
//
// Including "htm/golden/port_gen.inc" with HTM_BLOCK (a C++ name prefix) and HTM_BLOCK_DEF (the
// .def path) defined generates, in the current namespace:
//   struct <Block>Params   one member per HTM_PARAM, in declaration order
//   struct <Block>In       one uint64_t per HTM_IN
//   struct <Block>Out      one uint64_t per HTM_OUT
//   struct <Block>Ports    visitors over parameters/inputs/outputs, and Drive/Sample templates
//                          that connect the structs to a Verilated model: `top.<name>_i`, so a
//                          renamed RTL port is a compile error.
#pragma once

#include <cstdint>
#include <type_traits>

namespace htm::golden {

/// Ports are carried in 64-bit fields; wider ports are not supported by the harness yet.
inline constexpr int kMaxPortBits = 64;

/// Mask of the low `width` bits.
constexpr uint64_t LowMask(int width) {
  return width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
}

/// Index width into n entries: max(1, ceil(log2(n))), as htm_pkg::idx_width.
constexpr int IdxWidth(int n) {
  int w = 0;
  while ((int64_t{1} << w) < n) {
    ++w;
  }
  return w < 1 ? 1 : w;
}

/// Width of a count of 0..n: ceil(log2(n + 1)), as $clog2(n + 1).
constexpr int CountWidth(int n) {
  int w = 0;
  while ((int64_t{1} << w) < int64_t{n} + 1) {
    ++w;
  }
  return w;
}

}  // namespace htm::golden

#define HTM_PORTS_CAT_(a, b) a##b
#define HTM_PORTS_CAT(a, b) HTM_PORTS_CAT_(a, b)
