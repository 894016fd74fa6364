// SPDX-License-Identifier: Apache-2.0
//
// SerialChecker: the oracle of the commit-unit correctness harness (docs/htm_commit_unit.md).
//
// KILO TM commits transactions lazily in global commit-id order, validating by value. A run is
// correct when replaying the committed transactions in commit-id order, from the initial
// memory, gives every committed read the value it saw (no inconsistent read) and ends in the
// memory the commit units actually wrote (no lost or spurious update). Aborted transactions
// are not replayed and need not have read consistent values (KILO TM does not give opacity),
// but they must not have written anything.
//
// Commit ids here are absolute (the harness keeps them; the hardware's ids wrap). Outcomes
// arrive in any order; the checker replays the contiguous prefix of decided commit ids.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace htm::golden {

class SerialChecker {
 public:
  struct Access {
    uint64_t addr = 0;
    uint64_t value = 0;
  };
  struct Transaction {
    bool committed = false;
    std::vector<Access> reads;   // values seen (reads of its own writes excluded)
    std::vector<Access> writes;  // values written; a later write of an address wins
  };

  /// Commit ids start at first_cid; memory words not written read as 0.
  explicit SerialChecker(uint64_t first_cid = 1) : next_(first_cid) {}

  /// Sets a word of the initial memory (before any transaction is recorded).
  void SetInitial(uint64_t addr, uint64_t value);

  /// Records the decided outcome of commit id `cid` and replays every transaction that became
  /// contiguous. Returns false on the first violation (see error()); a cid recorded twice or
  /// below the replayed prefix is a violation too.
  bool Record(uint64_t cid, Transaction tx);

  /// Compares the replayed memory with the memory the hardware holds at the end of the run
  /// (every word the replay or the hardware wrote). Returns false on a difference, and when
  /// some recorded commit id is still waiting for an older undecided one.
  bool CheckFinal(const std::unordered_map<uint64_t, uint64_t>& hw_memory);

  const std::string& error() const { return error_; }
  uint64_t replayed() const { return replayed_; }
  uint64_t committed() const { return committed_; }
  uint64_t next_cid() const { return next_; }
  size_t pending() const { return waiting_.size(); }

 private:
  uint64_t Read(uint64_t addr) const;
  bool Fail(std::string msg);

  uint64_t next_;
  uint64_t replayed_ = 0, committed_ = 0;
  std::unordered_map<uint64_t, uint64_t> mem_;
  std::map<uint64_t, Transaction> waiting_;
  std::string error_;
};

}  // namespace htm::golden
