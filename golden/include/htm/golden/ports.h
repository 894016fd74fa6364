// SPDX-License-Identifier: Apache-2.0
//
// Port declarations, once per block. A block's `.def` file (golden/include/htm/golden/ports/)
// lists its parameters, inputs and outputs with X-macros:
//
//   HTM_PARAM(<SV name>, <C++ member>, <C++ type>)   a module parameter
//   HTM_IN(<name>, <width>)                          input <name>_i
//   HTM_OUT(<name>, <width>, <qualifier>)            output <name>_o
//   HTM_IN_VEC(<name>, <count>, <width>)             input <name>_i of count elements of
//                                                    width bits, packed: element e at
//                                                    [e*width +: width] (count <= kMaxVec)
//   HTM_OUT_VEC(<name>, <count>, <width>, <qual>)    output, the same way; the qualifier is
//                                                    evaluated per element, with its index `e`
//   HTM_MODEL_OUT(<name>)                            a model-only output: set by the model,
//                                                    never sampled or compared; qualifiers may
//                                                    use it (e.g. "this register is defined")
//
// Widths are C++ expressions over the parameters `p`; a qualifier is a C++ expression over the
// golden model's outputs `o`: the output is compared only when it is true (payload fields that
// are don't-care while their valid bit is low). A scalar port is at most 64 bits wide; wider
// buses are vector ports (an element is at most 64 bits), reported element by element.
//
// Including "htm/golden/port_gen.inc" with HTM_BLOCK (a C++ name prefix) and HTM_BLOCK_DEF (the
// .def path) defined generates, in the current namespace:
//   struct <Block>Params   one member per HTM_PARAM, in declaration order
//   struct <Block>In       one uint64_t per HTM_IN, one Vec per HTM_IN_VEC
//   struct <Block>Out      one uint64_t per HTM_OUT, one Vec per HTM_OUT_VEC
//   struct <Block>Ports    visitors over parameters/inputs/outputs, and Drive/Sample templates
//                          that connect the structs to a Verilated model: `top.<name>_i`, so a
//                          renamed RTL port is a compile error.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace htm::golden {

/// A scalar port is carried in a 64-bit field.
inline constexpr int kMaxPortBits = 64;
/// Elements of a vector port, at most.
inline constexpr int kMaxVec = 64;
/// A vector port's elements (count <= kMaxVec, each at most 64 bits; unused elements are 0).
using Vec = std::array<uint64_t, kMaxVec>;

/// One field of a port visit: a scalar port (index -1) or element `index` of a vector port of
/// `count` elements.
struct FieldRef {
  const char* name;
  int index;
  int count;
  int width;
  std::string Label() const {
    return index < 0 ? std::string(name) : std::string(name) + "[" + std::to_string(index) + "]";
  }
};

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

/// True when n is a power of two (1 counts as 2^0), as htm_pkg::is_pow2.
constexpr bool IsPow2(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

/// Width of a count of 0..n: ceil(log2(n + 1)), as $clog2(n + 1).
constexpr int CountWidth(int n) {
  int w = 0;
  while ((int64_t{1} << w) < int64_t{n} + 1) {
    ++w;
  }
  return w;
}

/// Packs a vector port into a Verilated port: a scalar (up to 64 bits) or a VlWide (32-bit words).
template <class T>
void PackVec(T& port, const Vec& v, int count, int width) {
  if constexpr (sizeof(T) <= 8) {
    if (count * width > 64) {
      throw std::logic_error("vector port of " + std::to_string(count * width) +
                             " bits driven into a scalar Verilated port");
    }
    uint64_t x = 0;
    for (int e = 0; e < count; ++e) {
      x |= (v[e] & LowMask(width)) << (e * width);
    }
    port = static_cast<T>(x);
  } else {
    constexpr int kWords = static_cast<int>(sizeof(T) / 4);
    if (count * width > 32 * kWords) {
      throw std::logic_error("vector port of " + std::to_string(count * width) +
                             " bits wider than its Verilated port");
    }
    // The elements as one bit stream, 32 bits out at a time (fewer than 32 are pending before
    // an element joins, so pending + width <= 95 bits fit the 128-bit accumulator).
    const uint64_t mask = LowMask(width);
    unsigned __int128 acc = 0;
    int pending = 0, w = 0;
    for (int e = 0; e < count; ++e) {
      acc |= static_cast<unsigned __int128>(v[e] & mask) << pending;
      pending += width;
      while (pending >= 32) {
        port[w++] = static_cast<uint32_t>(acc);
        acc >>= 32;
        pending -= 32;
      }
    }
    if (pending > 0) {
      port[w++] = static_cast<uint32_t>(acc);
    }
    for (; w < kWords; ++w) {
      port[w] = 0;
    }
  }
}

/// Unpacks a Verilated port (scalar or VlWide) into a vector port's elements.
template <class T>
void UnpackVec(const T& port, Vec& v, int count, int width) {
  v.fill(0);
  if constexpr (sizeof(T) <= 8) {
    const auto x = static_cast<uint64_t>(port);
    for (int e = 0; e < count && e * width < 64; ++e) {
      v[e] = (x >> (e * width)) & LowMask(width);
    }
  } else {
    constexpr int kWords = static_cast<int>(sizeof(T) / 4);
    // The port's words as one bit stream, an element out at a time (bits past the port are 0).
    const uint64_t mask = LowMask(width);
    unsigned __int128 acc = 0;
    int have = 0, w = 0;
    for (int e = 0; e < count; ++e) {
      while (have < width && w < kWords) {
        acc |= static_cast<unsigned __int128>(port[w++]) << have;
        have += 32;
      }
      if (have <= 0) {
        break;
      }
      v[e] = static_cast<uint64_t>(acc) & mask;
      acc >>= width;
      have -= width;
    }
  }
}

}  // namespace htm::golden

#define HTM_PORTS_CAT_(a, b) a##b
#define HTM_PORTS_CAT(a, b) HTM_PORTS_CAT_(a, b)
