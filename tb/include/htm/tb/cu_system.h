// SPDX-License-Identifier: Apache-2.0
//
// A KILO TM memory system around commit units, for the correctness harness and the rates
// benchmark (docs/htm_commit_unit.md). Several commit units (golden models, cycle-exact with the
// RTL) each own the word addresses a with a mod Units == unit; scripted cores run transactions:
// they read their read set from memory over several cycles (no opacity: the values may be
// inconsistent), take the next commit id, send every unit its Alloc and then its log words and
// DoneFill, or Skip when the transaction has nothing there, collect the replies, send the final
// outcome to the units that passed, and wait for DoneCommit. Memory answers validation reads
// after a random latency in any order and acknowledges commit writes in order.
//
// Every decided transaction goes to a SerialChecker; at the end the system drains and the
// checker compares the replayed memory with the memory the units wrote. A run fails on a
// serialisation violation, an unexpected reply, a protocol error flagged by a unit, RCT events
// that do not balance (a decrement without an increment, or counts left after draining), or
// when the system does not drain (deadlock).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/commit_unit_model.h"

namespace htm::tb {

struct CuSystemOptions {
  int units = 2;
  int cores = 8;                  // at most 2**SrcW
  uint64_t transactions = 10000;  // transactions started
  int max_reads = 4;              // read-set words per transaction: 0..max_reads
  int max_writes = 4;             // write-set words: 0..max_writes
  int min_reads = 0;
  int min_writes = 0;
  int pool = 24;        // shared addresses; 0: every access a fresh address (no
                        // conflicts)
  int min_latency = 1;  // memory latency in cycles
  int max_latency = 12;
  uint32_t ready_pct = 90;  // memory request readiness
  int max_think = 6;        // cycles between transactions: 0..max_think
  uint64_t seed = 1;
  uint64_t max_cycles = 0;  // 0: 2000 per transaction and unit, plus 100000
};

struct CuSystemResult {
  bool ok = false;
  std::string error;
  uint64_t cycles = 0;
  uint64_t committed = 0, aborted = 0;
  std::vector<golden::CommitUnitModel::Stats> unit_stats;
};

/// Runs the system to completion (every started transaction decided and the units drained).
CuSystemResult RunCuSystem(const golden::CommitUnitParams& p, const CuSystemOptions& o);

/// Empty when the options fit the parameters, else a message.
std::string CheckCuSystemOptions(const golden::CommitUnitParams& p, const CuSystemOptions& o);

}  // namespace htm::tb
