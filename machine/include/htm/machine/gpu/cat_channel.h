// SPDX-License-Identifier: Apache-2.0
//
// The path of the CAT messages from a commit unit's RCT to the SIMT cores' CATs, for the
// system model: every message goes to every core and arrives `latency` cycles after it was
// sent (the interconnect model's figure; the early-CR paper measured 5 to 25 cycles), in the
// order it was sent. Each core's CAT takes its messages from its own queue when it is ready,
// so a busy CAT delays only its own core. See docs/early_cr.md.
#pragma once

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace htm::gpu {

class CatChannel {
 public:
  using Msg = std::vector<uint64_t>;  // packed deltas (CatDelta::Pack)

  CatChannel(int cores, int latency) : latency_(latency) {
    if (cores < 1) {
      throw std::invalid_argument("CatChannel: cores must be at least 1, got " +
                                  std::to_string(cores));
    }
    if (latency < 0) {
      throw std::invalid_argument("CatChannel: latency must not be negative, got " +
                                  std::to_string(latency));
    }
    queues_.resize(static_cast<size_t>(cores));
  }

  /// A message the RCT sent in cycle `now`, to every core.
  void Send(uint64_t now, const Msg& m) {
    for (auto& q : queues_) {
      q.push_back({now + static_cast<uint64_t>(latency_), m});
    }
  }
  /// Core c has a message that has arrived by cycle `now`.
  bool Ready(int c, uint64_t now) const {
    const auto& q = queues_.at(static_cast<size_t>(c));
    return !q.empty() && q.front().at <= now;
  }
  const Msg& Front(int c) const { return queues_.at(static_cast<size_t>(c)).front().msg; }
  /// Core c's CAT took its oldest message.
  void Pop(int c) { queues_.at(static_cast<size_t>(c)).pop_front(); }
  size_t InFlight(int c) const { return queues_.at(static_cast<size_t>(c)).size(); }
  int latency() const { return latency_; }

 private:
  struct Timed {
    uint64_t at;
    Msg msg;
  };
  int latency_;
  std::vector<std::deque<Timed>> queues_;
};

}  // namespace htm::gpu
