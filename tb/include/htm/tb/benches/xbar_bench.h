// SPDX-License-Identifier: Apache-2.0
//
// Reactive stimulus for htm_xbar, and the scoreboard that checks its deliveries.
//
// Each source keeps its request (valid, destination, data) until the crossbar takes it, as the
// protocol requires, then draws its next one: at a rate, to a random destination, or in a burst
// phase mostly to one hot destination. Data carry the source's sequence number in their low
// bits (random above). The destinations' out_ready follows phases of 256 cycles: no
// backpressure, heavy backpressure (ready one cycle in eight), random, and a long stall (ready
// low for the phase's first 192 cycles). The scoreboard sees every handshake and throws on a
// delivery that is not the oldest outstanding message of its source to its destination (a
// lost, duplicated, corrupted, misrouted or reordered message) and on more messages owed to a
// destination than its FIFO and the sources' input FIFOs hold.
#pragma once

#include <cstdint>
#include <deque>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "htm/golden/xbar_model.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

/// Every accepted message comes out once, at its destination, in the order of its source.
class XbarScoreboard {
 public:
  using In = golden::XbarIn;
  using Out = golden::XbarOut;

  explicit XbarScoreboard(const golden::XbarParams& p)
      : p_(p),
        q_(static_cast<size_t>(p.num_src) * p.num_dst),
        owed_(p.num_dst, 0),
        max_owed_(p.fifo_depth + p.num_src * p.in_depth) {}

  /// Forget every outstanding message (after a reset of the crossbar).
  void Clear() {
    for (auto& q : q_) {
      q.clear();
    }
    owed_.assign(p_.num_dst, 0);
  }

  /// The handshakes of one cycle: `out` are the crossbar's outputs for inputs `in`.
  void Observe(const In& in, const Out& out) {
    for (int d = 0; d < p_.num_dst; ++d) {
      if (((out.out_valid & in.out_ready) >> d & 1U) != 0) {
        Deliver(d, static_cast<int>(out.out_src[d]), golden::XbarOutData(p_, out, d));
      }
    }
    for (int s = 0; s < p_.num_src; ++s) {
      if (((in.req_valid & out.req_ready) >> s & 1U) != 0) {
        Accept(s, static_cast<int>(in.req_dst[s]), golden::XbarReqData(p_, in, s));
      }
    }
  }

  void Accept(int src, int dst, const golden::XbarData& data) {
    if (dst < 0 || dst >= p_.num_dst) {
      Fail("source " + std::to_string(src) + " was accepted for destination " +
           std::to_string(dst) + ", which does not exist");
    }
    Q(src, dst).push_back(data);
    ++accepted_;
    if (++owed_[dst] > max_owed_) {
      Fail("destination " + std::to_string(dst) + " owes " + std::to_string(owed_[dst]) +
           " messages, more than its FIFO and the input FIFOs hold (" + std::to_string(max_owed_) +
           ")");
    }
  }

  void Deliver(int dst, int src, const golden::XbarData& data) {
    if (src < 0 || src >= p_.num_src) {
      Fail("destination " + std::to_string(dst) + " delivered from source " + std::to_string(src) +
           ", which does not exist");
    }
    auto& q = Q(src, dst);
    if (q.empty()) {
      Fail("destination " + std::to_string(dst) + " delivered a message of source " +
           std::to_string(src) +
           " that was not outstanding (duplicated or misrouted): " + Hex(data));
    }
    if (q.front() != data) {
      Fail("destination " + std::to_string(dst) + " delivered " + Hex(data) + " of source " +
           std::to_string(src) + ", but the oldest outstanding one is " + Hex(q.front()) +
           " (lost, reordered or corrupted)");
    }
    q.pop_front();
    --owed_[dst];
    ++delivered_;
  }

  uint64_t accepted() const { return accepted_; }
  uint64_t delivered() const { return delivered_; }
  int owed(int dst) const { return owed_[dst]; }

 private:
  std::deque<golden::XbarData>& Q(int src, int dst) {
    return q_[static_cast<size_t>(src) * p_.num_dst + dst];
  }
  std::string Hex(const golden::XbarData& d) const {
    std::ostringstream os;
    os << "0x" << std::hex;
    for (int j = golden::XbarChunks(p_.data_w) - 1; j >= 0; --j) {
      os << d[j] << (j > 0 ? "_" : "");
    }
    return os.str();
  }
  [[noreturn]] void Fail(const std::string& what) const {
    throw std::runtime_error("htm_xbar scoreboard: " + what + " (after " +
                             std::to_string(accepted_) + " accepted, " +
                             std::to_string(delivered_) + " delivered)");
  }

  golden::XbarParams p_;
  std::vector<std::deque<golden::XbarData>> q_;  // per (source, destination): data in order
  std::vector<int> owed_;                        // per destination: accepted, not delivered
  int max_owed_;  // FifoDepth + NumSrc * InDepth: its FIFO, and every source's input FIFO
  uint64_t accepted_ = 0, delivered_ = 0;
};

class XbarBench {
 public:
  using Ports = golden::XbarPorts;
  using Model = golden::XbarModel;
  using In = golden::XbarIn;
  using Out = golden::XbarOut;

  XbarBench(const golden::XbarParams& p, uint64_t seed)
      : p_(p), rng_(seed), seq_(p.num_src, 0), sb_(p) {
    OnReset();
  }

  void OnReset() {
    pending_ = In{};
    sb_.Clear();
  }

  In Next() {
    if (cycle_ % 256 == 0) {
      NewPhase();
    }
    const uint64_t t = cycle_++ % 256;
    In in = pending_;
    for (int s = 0; s < p_.num_src; ++s) {
      if (((in.req_valid >> s) & 1U) == 0 && rng_.Chance(rate_, 8)) {
        const uint64_t dst = hot_ >= 0 && rng_.Chance(7, 8) ? hot_ : rng_.Below(p_.num_dst);
        golden::XbarSetReq(p_, in, s, dst, NewData(s));
      }
    }
    pending_ = in;
    for (int d = 0; d < p_.num_dst; ++d) {
      bool ready = true;
      switch (ready_mode_) {
        case kHeavy:
          ready = rng_.Chance(1, 8);
          break;
        case kRandom:
          ready = rng_.Chance(1, 2);
          break;
        case kStall:
          ready = t >= 192;
          break;
        default:
          break;
      }
      in.out_ready |= static_cast<uint64_t>(ready) << d;
    }
    return in;
  }

  /// Taken requests make room for new ones; the scoreboard checks every delivery.
  void Observe(const In& in, const Out& out) {
    sb_.Observe(in, out);
    pending_.req_valid &= ~(in.req_valid & out.req_ready);
  }

  const XbarScoreboard& scoreboard() const { return sb_; }

 private:
  enum ReadyMode { kFree, kHeavy, kRandom, kStall };

  void NewPhase() {
    ready_mode_ = static_cast<ReadyMode>(rng_.Below(4));
    static constexpr uint32_t kRates[] = {2, 6, 8};
    rate_ = kRates[rng_.Below(3)];
    hot_ = rng_.Chance(1, 3) ? static_cast<int>(rng_.Below(p_.num_dst)) : -1;
  }

  golden::XbarData NewData(int s) {
    golden::XbarData d{};
    const int w = golden::XbarChunkW(p_.data_w);
    for (int j = 0; j < golden::XbarChunks(p_.data_w); ++j) {
      d[j] = rng_.Bits(w);
    }
    // The low chunk: the source's sequence number in its low bits (up to 16), random above.
    const int sw = w < 16 ? w : 16;
    d[0] = (d[0] & ~golden::LowMask(sw)) | (seq_[s]++ & golden::LowMask(sw));
    return d;
  }

  golden::XbarParams p_;
  Rng rng_;
  std::vector<uint64_t> seq_;
  XbarScoreboard sb_;
  In pending_;
  uint64_t cycle_ = 0;
  ReadyMode ready_mode_ = kFree;
  uint32_t rate_ = 8;
  int hot_ = -1;
};

}  // namespace htm::tb
