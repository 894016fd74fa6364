// SPDX-License-Identifier: Apache-2.0
//
// The Version Index Table of snapshot isolation (Chen, Peng & Irving, ISCA 2017, §3, Figures 4-6).
// VersionIndexTable is untimed, the functional reference; VersionIndexModel is the golden model of
// the RTL block htm_version_index, cycle-exact, built on the table (docs/htm_version_index.md).
// Versioned regions (start, length, relocated base) with up to `versions` versions each; a
// version has a state (Figure 4: S1 being copied, S2 being written, S3 readable, S4 recycled;
// or free), a creation time and a reference count. Version k of a region occupies
// [start + k * stride, start + k * stride + length); the space versions 1.. displace is
// relocated to the region's relocated base (Figure 5).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/coverage.h"
#include "htm/golden/ports.h"

namespace htm::golden {

struct VersionIndexTableParams {
  int addr_w = 32;            // byte address width
  int ts_w = 32;              // creation time width (4.3: 8 x 32-bit creation times)
  int regions = 42;           // 4.3: 1 KB holds 42 regions
  int versions = 8;           // Table 2: 8 concurrently active versions
  uint64_t stride = 0x10000;  // bytes between versions (Figure 6: 0x800000 -> 0x810000)
  int ref_w = 10;             // reference count width: at most 2^ref_w - 1 readers a version
};

/// Empty when the parameters are legal, else a message naming the bad parameter.
std::string CheckVersionIndexTableParams(const VersionIndexTableParams& p);

enum class VState : uint8_t { kFree, kS1, kS2, kS3, kS4 };

struct VVersion {
  VState state = VState::kFree;
  uint64_t created = 0;
  uint64_t refs = 0;
};

struct VRegion {
  bool valid = false;
  uint64_t start = 0, length = 0, reloc = 0;
  std::vector<VVersion> v;
};

/// How an access is served.
struct VAccess {
  enum Kind { kNormal, kVersioned, kRelocated, kNoVersion } kind = kNormal;
  int region = -1, version = -1;
  uint64_t phys = 0;
};

class VersionIndexTable {
 public:
  /// Throws std::invalid_argument on bad parameters.
  explicit VersionIndexTable(const VersionIndexTableParams& p);

  void Reset();
  /// A new versioned region; version 0 is readable (S3) from time 0 (3: "Version 0 ... will
  /// enter state S3 by definition"). -1 when the table is full, the length is 0 or above the
  /// stride, or its versions or relocated space overlap another region's.
  int AddRegion(uint64_t start, uint64_t length, uint64_t reloc);
  /// An access: a versioned one inside a region reads the latest S3 version created at or
  /// before `ts` (kNoVersion if none); an access to space a version displaces is relocated;
  /// anything else is normal.
  VAccess Translate(uint64_t addr, uint64_t ts, bool versioned) const;
  // The operations below refuse (-1 or false) a region that is not in use.

  /// Figure 4: a free (or recycled) version starts being copied from the newest S3 version
  /// (S1); -1 when every version is in use.
  int BeginCopy(int region);
  /// S1 -> S2: the copy is done, the warp's commits write to it.
  bool CopyDone(int region, int version);
  /// S2 -> S3 with its creation time. A time that does not fit (overflow, 4.3) invalidates
  /// every version but the newest readable one, which becomes the version of time 0, and
  /// returns false: every transaction must abort.
  bool Publish(int region, int version, uint64_t ts);
  /// A transaction starts reading the region at `ts`: the version it reads gains a reference.
  /// -1 when no version is readable at `ts` or its count is at its maximum.
  int Acquire(int region, uint64_t ts);
  /// The transaction committed or aborted: the reference goes; an S3 version with no
  /// references that is not the newest is recycled (S4).
  bool Release(int region, int version);

  const VRegion& region(int r) const { return regions_[static_cast<size_t>(r)]; }
  /// Whether `region` names a region in use and `version` one of its versions.
  bool InUse(int region, int version = 0) const;
  /// Test support: set a version directly (Figure 6's table).
  void SetVersion(int region, int version, VState s, uint64_t created, uint64_t refs);

 private:
  int Newest(const VRegion& r) const;
  void Recycle(VRegion& r);

  VersionIndexTableParams p_;
  std::vector<VRegion> regions_;
};

#define HTM_BLOCK VersionIndex
#define HTM_BLOCK_DEF "htm/golden/ports/htm_version_index.def"
#include "htm/golden/port_gen.inc"

#define HTM_COVER_BLOCK VersionIndex
#define HTM_COVER_DEF "htm/golden/cover/htm_version_index.def"
#include "htm/golden/cover_gen.inc"

/// Empty when the parameters are legal for the RTL, else a message naming the bad parameter.
std::string CheckVersionIndexParams(const VersionIndexParams& p);

/// The golden model of htm_version_index: the table's semantics with the RTL's timing. An
/// operation is applied to the table when it is taken; its result comes out two cycles later
/// (AddRegion's after its scan of the regions); Publish and AddRegion hold the next operation
/// back for a cycle, the scan and an overflow's sweep for Regions more (rtl header).
class VersionIndexModel {
 public:
  using Ports = VersionIndexPorts;
  /// Throws std::invalid_argument on parameters the RTL does not accept.
  explicit VersionIndexModel(const VersionIndexParams& p);

  void Reset();
  VersionIndexOut Eval(const VersionIndexIn& in) const;
  void Tick(const VersionIndexIn& in);

  const VersionIndexParams& params() const { return p_; }
  /// Coverage events since construction (cover/htm_version_index.def).
  const VersionIndexCover& cover() const { return cover_; }
  Coverage coverage() const { return cover_.View(); }
  const VersionIndexTable& table() const { return table_; }

 private:
  VersionIndexOut Apply(const VersionIndexIn& in);

  VersionIndexParams p_;
  VersionIndexTable table_;
  uint64_t cycle_ = 0, ready_at_ = 0;
  std::vector<std::pair<uint64_t, VersionIndexOut>> results_;  // (cycle shown, result)
  bool err_ = false;
  std::vector<std::pair<uint64_t, bool>> err_at_;  // (cycle err_o rises, value)
  VersionIndexCover cover_;
};

}  // namespace htm::golden
