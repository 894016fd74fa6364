// SPDX-License-Identifier: Apache-2.0
//
// Pieces shared by the GPU-LocalTM benchmark workloads (internal to golden/src/lds/): the base
// class of the benchmarks and the serial-order reconstruction of the versioned benchmarks (GA,
// GC). The random source and the problem list are the shared ones (htm/gpu/common.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "htm/workloads/common.h"
#include "htm/workloads/lds/workload.h"

namespace htm::lds::detail {

using gpu::Problems;
using gpu::Rng;

/// The seed of a benchmark variant's random choices: the run's seed mixed with the benchmark
/// and the contention level, not with the version, so that every version of a variant works
/// on the same inputs.
uint64_t VariantSeed(uint64_t seed, std::string_view bench, Contention c);

/// The state every benchmark has, and the checks of its geometry.
class BenchBase : public Workload {
 protected:
  /// Throws std::invalid_argument for an impossible geometry or a version the benchmark does
  /// not have (Table 5.7: atomics for HT, IT, DB, QU; fine-grained locks for VA, GC, GA, KM).
  BenchBase(std::string_view bench, const Geometry& geo, Contention c, Version v);

  /// Throws std::invalid_argument naming the variant and the geometry.
  [[noreturn]] void Refuse(const std::string& why) const;
  /// Refuses a footprint larger than the geometry's LDS.
  void RequireFits(uint32_t words) const;

  int wg() const { return geo_.wg_size; }
  int wf() const { return geo_.wf_size; }
  bool lc() const { return contention_ == Contention::kLow; }
  /// The variant's name, e.g. "HT-LC/tm".
  const std::string& name() const { return name_; }

  const Geometry geo_;
  const Contention contention_;
  const Version version_;

 private:
  std::string name_;
};

// ---- Serial order of versioned records (GA, GC) -------------------------------------------
// Objects carry a version number that every update increments. A critical section records
// the version of every object it read; the one it wrote gets that version + 1. From the records
// alone one can rebuild the order of a serial execution that produced the final state, or show
// that none exists (a lost, duplicated or torn update).

struct VersionedAccess {
  uint32_t obj = 0;
  uint32_t version = 0;  // the version read
  bool write = false;    // the record also wrote the object (version + 1)
};

struct VersionedRecord {
  int wi = 0;     // work-item
  int round = 0;  // its critical sections are ordered by round
  std::vector<VersionedAccess> access;
};

/// Orders `records` as a serial execution consistent with what each record read, ending with the
/// objects at `final_versions`: the record that wrote version k + 1 of an object read version k;
/// a record that only read version k comes after the writer of k and before the writer of k + 1;
/// a work-item's records come in round order. Returns the order (indices into `records`), or
/// adds what is wrong to `problems` and returns an empty vector.
std::vector<size_t> SerialOrder(const std::vector<VersionedRecord>& records,
                                const std::vector<uint32_t>& final_versions, Problems* problems);

// ---- The benchmarks, one file each ------------------------------------------------------------
std::unique_ptr<Workload> MakeHashTable(const Geometry& geo, uint64_t seed, Contention c,
                                        Version v);
std::unique_ptr<Workload> MakeIndexedTable(const Geometry& geo, uint64_t seed, Contention c,
                                           Version v);
std::unique_ptr<Workload> MakeVacation(const Geometry& geo, uint64_t seed, Contention c, Version v);
std::unique_ptr<Workload> MakeGraphColoring(const Geometry& geo, uint64_t seed, Contention c,
                                            Version v);
std::unique_ptr<Workload> MakeGenetic(const Geometry& geo, uint64_t seed, Contention c, Version v);
std::unique_ptr<Workload> MakeKMeans(const Geometry& geo, uint64_t seed, Contention c, Version v);
std::unique_ptr<Workload> MakeDatabase(const Geometry& geo, uint64_t seed, Contention c, Version v);
std::unique_ptr<Workload> MakeQueue(const Geometry& geo, uint64_t seed, Contention c, Version v);

}  // namespace htm::lds::detail
