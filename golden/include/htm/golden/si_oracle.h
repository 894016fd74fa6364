// SPDX-License-Identifier: Apache-2.0
//
// The loop-detection oracle of snapshot isolation's post-dating unit (Chen, Peng & Irving, ISCA
// 2017, §4.1): random small histories of transactional reads and writes, the dependency edges a
// system derives from them, the post-dating unit (PostdateTable) fed with those edges, and an exact
// cycle detector on the same dependency graph as the reference. The unit must declare a loop in
// every history whose graph has a cycle; false alarms (declarations in acyclic histories) are
// allowed and counted. See docs/htm_postdate.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/postdate_model.h"

namespace htm::golden {

/// The shape of the random histories.
struct SiHistoryShape {
  int slots = 4;         // transaction slots in use (<= NumTx)
  int instances = 10;    // transactions per history (slots are reused)
  int addresses = 3;     // distinct words
  int max_accesses = 4;  // accesses per transaction, 1..max
  int write_percent = 40;
  int abort_percent = 10;
};

/// One step of a history, as the unit sees it: an operation on the post-dating unit.
struct SiStep {
  PdOp op;
  int a = 0, b = 0;      // slots
  int ia = -1, ib = -1;  // the transactions (instances) of a and b
};

/// A history: the unit's operations in order, and the reference graph over its transactions
/// (an edge for every Edge step between transactions that did not abort).
struct SiHistory {
  std::vector<SiStep> steps;
  int instances = 0;
  std::vector<std::pair<int, int>> graph;  // instance edges (pred, succ)
};

/// Generates a random history. Transactions begin, read and write words, and commit or abort,
/// interleaved at random. At every access, an edge goes from each transaction that accessed the
/// word earlier to the accessing one when one of the two accesses is a write (the earlier
/// access first; one edge per pair). Transactions that aborted are forgotten; a committed one
/// gives edges until its slot begins its next transaction (as the Writer Table and Reader List
/// forget it).
SiHistory GenerateSiHistory(const SiHistoryShape& shape, uint64_t seed);

/// True when the directed graph over n vertices has a cycle (exact, depth-first search).
bool HasCycle(int n, const std::vector<std::pair<int, int>>& edges);

/// What one history did on the unit.
struct SiOutcome {
  bool cyclic = false;    // the reference: the graph has a cycle
  bool declared = false;  // the unit declared a loop (the history stops there)
  bool overflow = false;  // a timestamp overflowed (every transaction aborts; counts as caught)
  int edges = 0;          // Edge steps applied before the end
};

/// Runs a history on a fresh unit of parameters p.
SiOutcome RunSiHistory(const PostdateParams& p, const SiHistory& h);

/// Counts over many histories.
struct SiOracleStats {
  uint64_t histories = 0, cyclic = 0, declared = 0, overflow = 0;
  uint64_t missed = 0;        // cyclic, and neither declared nor overflowed: must stay 0
  uint64_t false_alarms = 0;  // declared in an acyclic history
  uint64_t edges = 0;
};

/// Runs `count` histories of the given shape from `seed`; the shape's slot count is clamped to
/// the unit's NumTx. Stops at the first miss when stop_at_miss (first_miss_seed tells which).
SiOracleStats RunSiOracle(const PostdateParams& p, const SiHistoryShape& shape, uint64_t count,
                          uint64_t seed, bool stop_at_miss, uint64_t* first_miss_seed);

}  // namespace htm::golden
