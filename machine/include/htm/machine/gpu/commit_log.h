// SPDX-License-Identifier: Apache-2.0
//
// The commit log of a system-model run (`htmsim run --commit-log FILE`) and its checker
// (`htmsim check FILE`). The format is JSON lines, one object per line (docs/htmsim.md):
//
//   {"type":"header","format":"htmsim-commit-log-1","workload":"HT1K","tm":"kilotm",
//    "machine":"small","scale":"small","seed":1,"words":N,"initial":[[addr,value],...]}
//   {"type":"tx","id":0,"thread":3,"cid":0,"cycle":489,
//    "reads":[[addr,value,writer],...],"writes":[[addr,value],...]}
//   {"type":"write","id":1,"thread":7,"cycle":530,"reads":[],"writes":[[addr,value]]}
//   {"type":"final","words":N,"memory":[[addr,value],...]}
//
// A run that stopped before its end (a model error, an RTL instance departing from its golden
// model) ends its log with {"type":"incomplete","reason":"..."} instead of the final memory.
//
// Lines after the header are in serialization order; ids count them from 0. A read's writer is
// the id of the event whose write it returned, or "init" for the initial memory. Memory words not
// listed in "initial" or "memory" are 0. A "write" is a non-transactional store or atomic (an
// atomic lists the old value it read under "reads"). Reads of a transaction's own writes are not
// listed.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "htm/machine/gpu/system.h"

namespace htm::gpu {

/// Writes the log of one run to `os` as the run produces it.
class JsonLogWriter : public LogSink {
 public:
  struct Header {
    std::string workload, tm, machine, scale;
    uint64_t seed = 0;
  };
  JsonLogWriter(std::ostream& os, Header h) : os_(os), h_(std::move(h)) {}
  void Begin(const std::vector<uint32_t>& initial) override;
  void Event(const LogEvent& e) override;
  void End(const std::vector<uint32_t>& final_mem) override;
  void Stopped(const std::string& why) override;

 private:
  std::ostream& os_;
  Header h_;
};

struct LogCheckResult {
  bool ok = false;
  /// The file is not a commit log (not JSON, a line of the wrong shape, empty, cut short, or a
  /// log the run marked incomplete): `error` says why. Otherwise a failed check is a violation.
  bool malformed = false;
  std::string error;  // the first violation, naming the line and the event
  uint64_t transactions = 0, writes = 0, reads = 0, edges = 0;
};

/// Checks a commit log read from `is`: well-formed; every read's value is the value its named
/// writer wrote (or the initial value) and that writer is the latest write of the word before
/// the reader; the dependency graph (write-read, write-write and read-write edges) is acyclic;
/// replaying the writes in order from the initial memory gives the final memory.
LogCheckResult CheckCommitLog(std::istream& is);

}  // namespace htm::gpu
