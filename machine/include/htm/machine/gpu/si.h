// SPDX-License-Identifier: Apache-2.0
//
// Snapshot isolation in the system model (Chen, Peng & Irving, ISCA 2017, §3-5; docs/htmsim.md
// "Snapshot isolation"):
//
//   SnapshotMemory  the multi-version memory: every committed version of a word with the
//                   snapshot it belongs to; a transaction reads the newest version not after its
//                   snapshot; at most MaxSnapshots snapshots are in use at once (the paper's
//                   Table 2: 8 concurrently active versions), so a commit that finds no free
//                   version waits to be published and later transactions read an older snapshot.
//   SiGraph         the dependency graph of the committed transactions and non-transactional
//                   writes (write-read, write-write and read-write edges, exact): it decides
//                   SITM_Oracle's commits (a transaction whose commit would close a cycle aborts)
//                   and gives every snapshot-isolation run its serialization order (a topological
//                   order; a cycle there is a write-skew anomaly the mechanism let through).
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "htm/machine/gpu/system.h"

namespace htm::gpu {

using WordLog = std::vector<std::pair<uint32_t, uint32_t>>;  // address, value

class SnapshotMemory {
 public:
  /// A version of a word: the snapshot it became visible in, the graph node that wrote it (-1:
  /// the initial memory), its value.
  struct Version {
    uint64_t snap = 0;
    int64_t node = -1;
    uint32_t value = 0;
  };
  /// Throws std::invalid_argument when max_snapshots < 2 (one to read, one to write).
  SnapshotMemory(const std::vector<uint32_t>& initial, int max_snapshots);

  /// The newest snapshot (0: the initial memory).
  uint64_t newest() const { return newest_; }
  /// The version of `addr` a transaction of snapshot `snap` reads.
  Version At(uint32_t addr, uint64_t snap) const;
  /// A transaction begins reading snapshot `snap` (a reference) / ends (its commit or abort).
  /// True when the snapshot got its first reader / lost its last one.
  bool Acquire(uint64_t snap);
  bool Release(uint64_t snap);
  /// The oldest snapshot in use (the newest when no transaction runs).
  uint64_t oldest() const {
    return refs_.empty() ? newest_ : std::min(refs_.begin()->first, newest_);
  }
  /// Snapshots in use: the newest and every one a running transaction reads.
  int live() const;
  /// A version is free for a new snapshot.
  bool CanPublish() const { return live() < max_; }
  /// Makes the writes of committed transactions (graph node, writes; in commit order) one new
  /// snapshot, the newest. The caller checks CanPublish().
  void Publish(const std::vector<std::pair<int64_t, WordLog>>& txs);
  /// A non-transactional write: a version of the newest snapshot, visible to its later reads.
  void WriteNow(uint32_t addr, uint32_t value, int64_t node);

 private:
  void Prune(uint32_t addr);
  std::vector<uint32_t> init_;
  std::vector<std::vector<Version>> versions_;  // per word, oldest first
  std::map<uint64_t, int> refs_;                // snapshot -> transactions reading it
  uint64_t newest_ = 0;
  int max_;
};

class SiGraph {
 public:
  /// The write-write order of a node's writes: a transaction's commit id + 1 (the commit units
  /// write in commit-id order); a non-transactional write performed when n commit ids had been
  /// given out has (n, its sequence number from 1), after commit id n - 1 and before n. The
  /// initial memory is (0, 0).
  struct Key {
    uint64_t major = 0, minor = 0;
    auto operator<=>(const Key&) const = default;
  };
  /// A committing transaction (or non-transactional write): its reads with the node whose
  /// version each returned (-1: the initial memory), and its writes.
  struct Candidate {
    Key key;
    const WordLog* reads = nullptr;
    const std::vector<int64_t>* seen = nullptr;
    const WordLog* writes = nullptr;
  };

  /// True when adding `c` would close a cycle with the nodes added so far.
  bool ClosesCycle(const Candidate& c);
  /// Adds `c` as a node carrying `e` (written to the log later); returns the node.
  int64_t Add(const Candidate& c, LogEvent e);
  /// Every node added from now on writes after `k`: reader records whose word has a writer
  /// after the version read and before `k` are no longer needed (the write-write chain implies
  /// their later read-write edges).
  void SetHorizon(Key k) { horizon_ = k; }
  /// A topological order of the nodes, ties broken by the order they were added. False when the
  /// graph has a cycle; `cycle` then names one.
  bool Order(std::vector<int64_t>* order, std::string* cycle) const;

  const LogEvent& event(int64_t n) const { return nodes_[static_cast<size_t>(n)].e; }
  const std::vector<int64_t>& seen(int64_t n) const { return nodes_[static_cast<size_t>(n)].seen; }
  size_t size() const { return nodes_.size(); }
  uint64_t edges() const { return edges_; }

 private:
  struct Node {
    Key key;
    LogEvent e;
    std::vector<int64_t> seen;
    std::vector<int64_t> out;
  };
  struct Word {
    std::vector<int64_t> writers;                      // in write-write order
    std::vector<std::pair<int64_t, int64_t>> readers;  // reader, the node whose version it read
  };
  Key KeyOf(int64_t n) const { return n < 0 ? Key{} : nodes_[static_cast<size_t>(n)].key; }
  /// The first writer of w after key k, or -1.
  int64_t NextWriter(const Word& w, Key k) const;
  void Edges(const Candidate& c, std::vector<int64_t>* preds, std::vector<int64_t>* succs) const;
  void PruneReaders(Word& w) const;
  std::string Name(int64_t n) const;

  std::vector<Node> nodes_;
  std::unordered_map<uint32_t, Word> words_;
  Key horizon_;
  uint64_t edges_ = 0;
  std::vector<uint64_t> mark_, visit_;  // per node: epochs of the cycle search
  uint64_t epoch_ = 0;
};

}  // namespace htm::gpu
