// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_xbar (rtl/sys/htm_xbar.sv), the subsystem's crossbar, cycle-exact with
// the RTL and as finite: per destination a round-robin pointer (htm_rr_arb's order), FifoDepth
// credits, a link of Latency stages and a FIFO of FifoDepth entries (htm_fifo's timing); with
// InDepth >= 1, per source an input FIFO of InDepth entries (htm_fifo's timing) whose head the
// arbiters see. See docs/htm_xbar.md.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

/// A message's data in the harness: ceil(DataW / 64) chunks of equal width, low chunk first.
constexpr int XbarChunks(int data_w) {
  return (data_w + 63) / 64;
}
constexpr int XbarChunkW(int data_w) {
  return data_w / XbarChunks(data_w);
}
/// Chunks of a message, at most (DataW up to 256 bits).
inline constexpr int kXbarMaxChunks = 4;
using XbarData = std::array<uint64_t, kXbarMaxChunks>;

#define HTM_BLOCK Xbar
#define HTM_BLOCK_DEF "htm/golden/ports/htm_xbar.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK Xbar
#define HTM_COVER_DEF "htm/golden/cover/htm_xbar.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL and the harness, else a message naming the
/// bad parameter.
std::string CheckXbarParams(const XbarParams& p);

/// Source s's request data, and destination d's output data, as chunks (unused chunks 0).
XbarData XbarReqData(const XbarParams& p, const XbarIn& in, int s);
XbarData XbarOutData(const XbarParams& p, const XbarOut& out, int d);
/// Sets source s's request: valid, destination and data (masked to the port widths).
void XbarSetReq(const XbarParams& p, XbarIn& in, int s, uint64_t dst, const XbarData& data);

class XbarModel {
 public:
  using Ports = XbarPorts;
  /// Throws std::invalid_argument on parameters the RTL or the harness does not accept.
  explicit XbarModel(const XbarParams& p);

  void Reset();
  XbarOut Eval(const XbarIn& in) const;
  /// Throws std::logic_error if a message reaches a full FIFO (the credits forbid it).
  void Tick(const XbarIn& in);

  const XbarParams& params() const { return p_; }
  /// Credits of destination d (free FIFO entries not promised to a message in the link).
  int credits(int d) const { return dst_[d].cred; }
  /// Messages in destination d's link and FIFO.
  int in_link(int d) const;
  int in_fifo(int d) const { return static_cast<int>(dst_[d].fifo.size()); }
  /// Requests in source s's input FIFO (0 without one: InDepth = 0).
  int in_src(int s) const { return static_cast<int>(src_[s].size()); }
  /// Coverage events since construction (cover/htm_xbar.def).
  const XbarCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }

 private:
  struct Msg {
    int src = 0;
    XbarData data{};
  };
  struct Req {  // a request in a source's input FIFO
    uint64_t dst = 0;
    XbarData data{};
  };
  struct Dst {
    int prio = 0;  // the arbiter's pointer: the source with the highest priority
    int cred = 0;
    std::vector<std::optional<Msg>> link;  // stage 0 first
    std::deque<Msg> fifo;
  };
  static const XbarParams& Checked(const XbarParams& p);
  /// Whether source s's request for the arbiters (its port, or its input FIFO's head) is valid
  /// and names destination d.
  bool Asks(const XbarIn& in, int s, int d) const;
  /// The source destination d grants this cycle, or -1.
  int Grant(const XbarIn& in, int d) const;

  XbarParams p_;
  std::vector<Dst> dst_;
  std::vector<std::deque<Req>> src_;  // input FIFOs, head first (empty when InDepth = 0)
  bool err_ = false;
  XbarCover cover_;
};

}  // namespace htm::golden
