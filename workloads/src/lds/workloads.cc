// SPDX-License-Identifier: Apache-2.0
//
// The list of benchmark variants (thesis Table 5.7): 8 benchmarks x {LC, HC} x 3 versions.
#include "htm/workloads/lds/workloads.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common.h"

namespace htm::lds {

const char* ToString(Version v) {
  switch (v) {
    case Version::kTm:
      return "tm";
    case Version::kSerial:
      return "serial";
    case Version::kAtomic:
      return "atomic";
    case Version::kFgl:
      return "fgl";
  }
  return "?";
}

const char* ToString(Contention c) {
  return c == Contention::kLow ? "LC" : "HC";
}

namespace {

using Factory = std::unique_ptr<Workload> (*)(const Geometry&, uint64_t, Contention, Version);

struct Bench {
  const char* name;
  Factory make;
  Version third;            // kAtomic or kFgl
  const char* sizes[2];     // LC, HC (at the default geometry)
  const char* cs;           // the critical section
  const char* versions[3];  // how the tm, serial and third versions run it
};

constexpr const char* kSerialText =
    "serial: critical sections one at a time in work-item order (a turn word)";

const Bench kBenches[] = {
    {"HT",
     &detail::MakeHashTable,
     Version::kAtomic,
     {"256 buckets, 2 keys per work-item", "4 buckets, 2 keys per work-item"},
     "CS reads one slot of the key's bucket and inserts the key if it is empty; the slots are "
     "probed in order",
     {"tm: a transaction per probe", kSerialText, "atomic: CAS per probe"}},
    {"IT",
     &detail::MakeIndexedTable,
     Version::kAtomic,
     {"256 buckets, 2 keys per work-item", "4 buckets, 2 keys per work-item"},
     "CS increments the bucket's index (the key is then stored at the old index)",
     {"tm: a transaction per key", kSerialText, "atomic: atomic add of 1"}},
    {"VA",
     &detail::MakeVacation,
     Version::kFgl,
     {"3 groups of 1024 items, 2 items per operation",
      "3 groups of 1024 items, 4 items per operation"},
     "2 operations per work-item: 45% reserve (the freer of 2 candidates per item), 45% cancel, "
     "5% add, 5% remove capacity",
     {"tm: a transaction per operation", kSerialText,
      "fgl: a lock bit per item, taken in address order, all released on a failure"}},
    {"GC",
     &detail::MakeGraphColoring,
     Version::kFgl,
     {"a 512-node cycle, every node recoloured once",
      "a 32-node cycle, every node recoloured 16 times"},
     "CS reads a node's two neighbours and gives the node the smallest colour they do not have; "
     "2 per work-item",
     {"tm: a transaction per node", kSerialText,
      "fgl: the three nodes' locks in index order, all released on a failure"}},
    {"GA",
     &detail::MakeGenetic,
     Version::kFgl,
     {"64 solutions (8-object knapsack)", "8 solutions (8-object knapsack)"},
     "CS reads two random solutions, crosses the fitter into the other, mutates, writes both "
     "back; 2 per work-item",
     {"tm: a transaction per pick", kSerialText,
      "fgl: a lock per solution, lower index first, the first released on a failure"}},
    {"KM",
     &detail::MakeKMeans,
     Version::kFgl,
     {"64 clusters, one 3-D point per work-item, 2 iterations",
      "8 clusters, one 3-D point per work-item, 2 iterations"},
     "CS adds the point to its closest cluster's sums and count",
     {"tm: a transaction per point and iteration", kSerialText, "fgl: a CAS lock per cluster"}},
    {"DB",
     &detail::MakeDatabase,
     Version::kAtomic,
     {"16 indexed tables", "8 indexed tables"},
     "CS increments the indices of two different tables (a value is then stored in each)",
     {"tm: one transaction", kSerialText, "atomic: two atomic adds of 1"}},
    {"QU",
     &detail::MakeQueue,
     Version::kAtomic,
     {"4 operations per work-item, 12.5% enqueues", "4 operations per work-item, 25% enqueues"},
     "CS moves the tail (enqueue) or the head (dequeue, fails when empty) and stores or clears "
     "the value",
     {"tm: a transaction per operation", kSerialText,
      "atomic: atomic adds on tail, head and an item count"}},
};

std::vector<WorkloadInfo> BuildAll() {
  std::vector<WorkloadInfo> all;
  for (const Bench& b : kBenches) {
    for (const Contention c : {Contention::kLow, Contention::kHigh}) {
      const Version versions[3] = {Version::kTm, Version::kSerial, b.third};
      for (int k = 0; k < 3; ++k) {
        const Version v = versions[k];
        WorkloadInfo info;
        info.bench = b.name;
        info.contention = c;
        info.version = v;
        info.name = std::string(b.name) + "-" + ToString(c) + "/" + ToString(v);
        info.description = std::string(b.name) + "-" + ToString(c) + ": " +
                           b.sizes[c == Contention::kLow ? 0 : 1] + "; " + b.cs + "; " +
                           b.versions[k];
        const Factory make = b.make;
        info.make = [make, c, v](const Geometry& geo, uint64_t seed) {
          return make(geo, seed, c, v);
        };
        all.push_back(std::move(info));
      }
    }
  }
  return all;
}

}  // namespace

const std::vector<WorkloadInfo>& AllWorkloads() {
  static const std::vector<WorkloadInfo> all = BuildAll();
  return all;
}

const std::vector<std::string>& BenchmarkNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Bench& b : kBenches) {
      n.emplace_back(b.name);
    }
    return n;
  }();
  return names;
}

const WorkloadInfo& FindWorkload(std::string_view name) {
  for (const WorkloadInfo& w : AllWorkloads()) {
    if (w.name == name) {
      return w;
    }
  }
  throw std::invalid_argument("unknown LDS workload \"" + std::string(name) +
                              "\" (names look like HT-LC/tm, KM-HC/fgl, QU-LC/atomic)");
}

}  // namespace htm::lds
