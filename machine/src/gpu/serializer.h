// SPDX-License-Identifier: Apache-2.0
//
// The serialization order of a run, as the machine produces it: decided transactions are
// replayed in commit-id order (WarpTM's temporal conflict detection places a read-only
// transaction just before a commit id; snapshot isolation hands over an order found in its
// dependency graph), non-transactional writes at the time they are performed. Every committed
// read is checked against the replay (htm/machine/gpu/replay.h, shared with the commit log's
// checker), each read's writer is named, and the events go to the log sink.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "htm/machine/gpu/replay.h"
#include "htm/machine/gpu/system.h"

namespace htm::gpu {

/// Items numbered by commit id, added in any order and released in commit-id order: an item is
/// released once every older commit id has been added.
template <class T>
class InCidOrder {
 public:
  /// Adds the item of commit id `cid`; calls release(item) for it and every later item now in
  /// order.
  template <class Release>
  void Add(uint64_t cid, T item, Release&& release) {
    pending_[cid] = std::move(item);
    while (!pending_.empty() && pending_.begin()->first == next_) {
      auto node = pending_.extract(pending_.begin());
      ++next_;
      release(std::move(node.mapped()));
    }
  }
  /// The oldest commit id not yet added.
  uint64_t next() const { return next_; }
  /// The oldest commit id added but held back by a missing older one, if any.
  std::optional<uint64_t> held() const {
    return pending_.empty() ? std::nullopt : std::optional<uint64_t>(pending_.begin()->first);
  }

 private:
  std::map<uint64_t, T> pending_;
  uint64_t next_ = 0;
};

class Serializer {
 public:
  Serializer(const std::vector<uint32_t>& initial, LogSink* sink);
  /// A decided transaction with its commit id (recorded in any order; replayed in cid order).
  /// Aborted ones only fill the gap in the cid sequence.
  void Decided(uint64_t cid, bool committed, LogEvent e);
  /// WarpTM's temporal conflict detection: transactions are replayed only once every commit id
  /// below `upto` (Advance) may be; a read-only transaction committed at a core is placed just
  /// before commit id `cid` (Before). Non-transactional writes keep their place behind the
  /// transactions decided before them.
  void Gate() { gated_ = true; }
  void Advance(uint64_t upto) {
    gate_ = upto;
    Drain();
  }
  void Before(uint64_t cid, LogEvent e);
  /// A non-transactional write, at the time it is performed.
  void Write(int thread, uint64_t cycle, uint32_t addr, uint32_t value, bool atomic, uint32_t old);
  /// Snapshot isolation: the next event of a serialization order found elsewhere (the
  /// dependency graph's), each read naming the event whose write it saw (-1: initial memory).
  void Replay(LogEvent e) { Emit(std::move(e), true); }
  /// The end of the run: the events still held, the final memory against the replay's.
  bool Finish(const std::vector<uint32_t>& hw);
  /// The run stopped before its end: the log says so (instead of the final memory).
  void Stop(const std::string& why) {
    if (sink_ != nullptr) {
      sink_->Stopped(why);
    }
  }
  const std::string& error() const { return error_; }
  uint64_t events() const { return next_id_; }

 private:
  std::string Who(int64_t id) const;
  /// Replays the ready events up to the gate.
  void Drain();
  void Emit(LogEvent e, bool writers_given = false);

  gpu::Replay replay_;
  LogSink* sink_;
  InCidOrder<std::pair<bool, LogEvent>> pending_;
  // Gated replay (temporal conflict detection): events in order, waiting for the gate.
  struct Ready {
    bool tx, committed;
    LogEvent e;
  };
  bool gated_ = false;
  uint64_t gate_ = 0;
  std::deque<Ready> ready_;
  std::multimap<uint64_t, LogEvent> before_;  // read-only transactions, by the cid they precede
  std::unordered_map<uint64_t, std::string> who_;
  uint64_t next_id_ = 0;
  std::string error_;
};

}  // namespace htm::gpu
