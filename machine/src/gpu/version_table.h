// SPDX-License-Identifier: Apache-2.0
//
// The Version Index Table (htm_version_index, one instance) on snapshot isolation's workload path
// (docs/htmsim.md, "The Version Index Table on the workload path").
//
// The multi-version memory (htm/machine/gpu/si.h) keeps the values: every committed version of a
// word with the snapshot it belongs to. The table keeps what the paper's hardware keeps, per
// region: which versions exist, their creation times, who reads them, and where each lives. The
// machine drives it through its ports:
//
//   AddRegion  at the start: the workload's memory cut into equal regions, as many as the
//              table holds (a power-of-two length, at most the version stride);
//   Acquire    a snapshot gets its first reader: a reference on the version of every region it
//              reads; Release when its last reader ends (a count per snapshot in use, not per
//              thread: the threads of a snapshot read the same versions);
//   BeginCopy, CopyDone, Publish
//              a publication: one new version of every region its commits wrote, created at the
//              new snapshot's number;
//   Translate  every transactional load: the version and address its snapshot reads.
//
// The machine checks every result against what the multi-version memory implies (the version of
// the region's latest publication at or before the snapshot, its address, every operation done):
// a difference is a departure, reported like a block mismatch, and the run stops.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/instance.h"
#include "htm/golden/version_index_model.h"
#include "htm/machine/gpu/si.h"

namespace htm::gpu {

class Machine;

class VersionTable {
 public:
  /// Builds the instance and adds the regions of a memory of `words` words; a footprint the table
  /// cannot hold fails the run.
  VersionTable(Machine& m, size_t words);
  ~VersionTable();
  VersionTable(const VersionTable&) = delete;
  VersionTable& operator=(const VersionTable&) = delete;

  /// Snapshot `snap` got its first reader / lost its last one.
  void Hold(uint64_t snap);
  void Drop(uint64_t snap);
  /// The commits `txs` become snapshot `snap`: a new version of every region they wrote.
  void Publish(uint64_t snap, const std::vector<std::pair<int64_t, WordLog>>& txs);
  /// A transactional load of word `addr` by a try of snapshot `snap`.
  void Translate(uint32_t addr, uint64_t snap);

  int regions() const { return regions_; }
  /// The region length in bytes.
  uint64_t length() const { return length_; }
  /// The table's byte address of word `addr` (version 0).
  uint64_t Address(uint32_t addr) const;
  uint64_t ops() const { return ops_; }

 private:
  struct Op {
    VtOp kind = VtOp::kTranslate;
    uint64_t addr = 0, reloc = 0, ts = 0;
    int code = 0, region = 0, version = 0;
    bool versioned = false;
  };
  /// One operation through the ports, run to its result.
  golden::VersionIndexOut Run(const Op& op);
  /// The version of region r a reader of `snap` must get (the latest publication at or before it).
  int Expected(int r, uint64_t snap) const;
  bool Depart(const std::string& what, const golden::VersionIndexOut& out);
  std::string Context() const;

  Machine& m_;
  golden::VersionIndexParams p_;
  std::unique_ptr<golden::Instance<golden::VersionIndexPorts>> inst_;
  int regions_ = 0;
  int code_ = 0;
  uint64_t length_ = 0, stride_ = 0;
  std::string op_;  // the operation in progress, for reports
  uint64_t ops_ = 0;
  bool stopped_ = false;
  // Per region, its publications (creation time -> version), pruned to the ones still read.
  std::vector<std::map<uint64_t, int>> published_;
  // Per snapshot in use, the version of each region it holds.
  std::map<uint64_t, std::vector<int>> held_;
};

}  // namespace htm::gpu
