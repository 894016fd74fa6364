// SPDX-License-Identifier: Apache-2.0
//
// The workload list and the sizes of each scale (docs/htmsim.md, "Workloads").
#include "workloads.h"

#include <algorithm>

#include "htm/workloads/gpu/proto.h"

namespace htm::gpu {

const char* ToString(Scale s) {
  switch (s) {
    case Scale::kSmall:
      return "small";
    case Scale::kDefault:
      return "default";
    case Scale::kPaper:
      return "paper";
  }
  return "?";
}

bool ParseScale(const std::string& name, Scale* s) {
  for (const Scale x : {Scale::kSmall, Scale::kDefault, Scale::kPaper}) {
    if (name == ToString(x)) {
      *s = x;
      return true;
    }
  }
  return false;
}

const char* Cite(Paper p) {
  switch (p) {
    case Paper::kEcr:
      return "Chen & Peng (HPCA 2016)";
    case Paper::kSi:
      return "Chen, Peng & Irving (ISCA 2017)";
    case Paper::kProto:
      return "the FPGA prototype (docs/proto.md)";
  }
  return "?";
}

std::string Source(const WorkloadInfo& w) {
  return std::string(Cite(w.paper)) + ", " + w.source;
}

namespace {

// The paper's grid: 15 cores x 48 warps x 32 threads (Chen & Peng, HPCA 2016, Table 2).
constexpr int kPaperThreads = 23040;
constexpr int kSpMvPaperThreads = 13024;  // Table 2's 13 000, rounded up to whole warps

/// Threads at a scale: the paper's count, an eighth of it, or 256.
int Threads(Scale s, int paper) {
  switch (s) {
    case Scale::kPaper:
      return paper;
    case Scale::kDefault:
      return std::max(32, paper / 8 / 32 * 32);
    case Scale::kSmall:
      return std::min(paper, 256);
  }
  return paper;
}

/// A shared-object count that keeps the paper's threads per object at a scale (at least 2).
uint32_t Objects(Scale s, int paper_threads, uint32_t paper_objects) {
  const uint64_t t = static_cast<uint64_t>(Threads(s, paper_threads));
  return std::max<uint32_t>(
      2, static_cast<uint32_t>((t * paper_objects + paper_threads / 2) / paper_threads));
}

WorkloadInfo HashTableInfo(const char* name, uint32_t buckets) {
  return {name, Paper::kEcr, "Table 2 (KILO TM's HashTable)",
          "insert one key per thread into a chained hash table of " + std::to_string(buckets) +
              " buckets (paper size)",
          [buckets](Scale s, uint64_t seed) {
            return detail::MakeHashTable(Threads(s, kPaperThreads),
                                         Objects(s, kPaperThreads, buckets), seed);
          }};
}

/// RBT180 and RBT450: the paper's few threads (rounded up to whole warps) at every scale but
/// small.
WorkloadInfo RbTreeInfo(const char* name, int paper_threads) {
  return {name, Paper::kEcr, "Table 2 (RSTM's red-black tree)",
          "insert one key per thread into one red-black tree, rebalancing in the transaction "
          "(paper: " +
              std::to_string(paper_threads) + " threads)",
          [paper_threads](Scale s, uint64_t seed) {
            const int warps = (paper_threads + 31) / 32;
            return detail::MakeRbTree(s == Scale::kSmall ? std::min(warps, 4) * 32 : warps * 32,
                                      seed);
          }};
}

/// LinkedList1 and LinkedList2: the paper's threads in whole warps at every scale but small.
WorkloadInfo LinkedListInfo(const char* name, int paper_threads, int small_threads) {
  return {name, Paper::kSi, "Table 3",
          "insert one key per thread into an initially empty sorted linked list, the whole walk "
          "in the transaction (paper: " +
              std::to_string(paper_threads) + " threads)",
          [paper_threads, small_threads](Scale s, uint64_t seed) {
            return detail::MakeList(
                s == Scale::kSmall ? small_threads : (paper_threads + 31) / 32 * 32, true, seed);
          }};
}

/// RBTree1 and RBTree2: `paper_ops` inserts and as many removes on a 1 000-key red-black tree,
/// each rounded up so the threads fill whole warps; `small_ops` of each on 200 keys small.
WorkloadInfo RbSetInfo(const char* name, int paper_ops, int small_ops) {
  const int ops = (2 * paper_ops + 31) / 32 * 16;  // 64 for 50, 112 for 100
  return {name, Paper::kSi, "Table 3 (RSTM's red-black tree)",
          std::to_string(paper_ops) + " inserts and " + std::to_string(paper_ops) +
              " removes on a 1 000-key red-black tree (paper: " + std::to_string(2 * paper_ops) +
              " threads)",
          [ops, small_ops](Scale s, uint64_t seed) {
            return s == Scale::kSmall ? detail::MakeRbSet(200, small_ops, small_ops, seed)
                                      : detail::MakeRbSet(1000, ops, ops, seed);
          }};
}

/// GraphCut1 and GraphCut2: the paper's 32 threads on a graph of `vertices` and `edges`; small:
/// `small_vertices` and three edges per vertex (enough contractions for the fault tests).
WorkloadInfo GraphCutInfo(const char* name, int vertices, int edges, int small_vertices) {
  return {name, Paper::kSi, "Table 3 (Karger's minimum cut)",
          "32 threads contract random edges of a " + std::to_string(vertices) + "-vertex, " +
              std::to_string(edges) + "-edge graph to two vertices",
          [vertices, edges, small_vertices](Scale s, uint64_t seed) {
            return s == Scale::kSmall
                       ? detail::MakeGraphCut(32, small_vertices, 3 * small_vertices, seed)
                       : detail::MakeGraphCut(32, vertices, edges, seed);
          }};
}

WorkloadInfo AtmInfo(const char* name, uint32_t accounts) {
  return {name, Paper::kEcr, "Table 2 (KILO TM's ATM)",
          "one transfer per thread between two of " + std::to_string(accounts) +
              " accounts (paper size)",
          [accounts](Scale s, uint64_t seed) {
            return detail::MakeAtm(Threads(s, kPaperThreads), Objects(s, kPaperThreads, accounts),
                                   seed);
          }};
}

}  // namespace

namespace detail {

TreeOps MakeTreeOps(int initial, int removes, int inserts, uint64_t seed) {
  Rng rng(seed);
  const int absent = std::max(0, removes - initial);
  std::vector<uint32_t> keys = rng.Distinct(initial + inserts + absent, (1u << 30) - 1);
  for (uint32_t& k : keys) {
    ++k;
  }
  TreeOps ops;
  ops.initial_keys.assign(keys.begin(), keys.begin() + initial);
  const int threads = removes + inserts;
  std::vector<int> order(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    order[t] = t;
  }
  rng.Shuffle(order);
  std::vector<uint32_t> removed = ops.initial_keys;
  rng.Shuffle(removed);
  ops.key.resize(order.size());
  ops.insert.assign(order.size(), -1);
  for (int i = 0; i < removes; ++i) {
    ops.key[order[i]] = i < initial ? removed[i] : keys[initial + inserts + (i - initial)];
  }
  for (int i = 0; i < inserts; ++i) {
    ops.key[order[removes + i]] = keys[initial + i];
    ops.insert[order[removes + i]] = i;
  }
  return ops;
}

std::set<uint32_t> TreeOps::Final() const {
  std::set<uint32_t> keys(initial_keys.begin(), initial_keys.end());
  for (size_t t = 0; t < key.size(); ++t) {
    if (insert[t] >= 0) {
      keys.insert(key[t]);
    } else {
      keys.erase(key[t]);
    }
  }
  return keys;
}

}  // namespace detail

const std::vector<WorkloadInfo>& AllWorkloads() {
  static const std::vector<WorkloadInfo> all = {
      HashTableInfo("HT1K", 1024),
      HashTableInfo("HT512", 512),
      AtmInfo("ATM25K", 25000),
      AtmInfo("ATM10K", 10000),
      {"SpMV", Paper::kEcr, "Table 2",
       "y += A x, one thread per non-zero of a Yale-format sparse matrix (paper: 13 000 threads)",
       [](Scale s, uint64_t seed) {
         return detail::MakeSpMv(Threads(s, kSpMvPaperThreads), seed);
       }},
      {"List", Paper::kEcr, "Table 2 (ListRel of DSTM2)",
       "insert one key per thread into one sorted linked list",
       [](Scale s, uint64_t seed) {
         // The walk to the insertion point grows with the list, and the model has no L1 cache
         // yet (every load goes to the partition): 352 threads by default.
         const int threads = s == Scale::kDefault ? 352 : Threads(s, kPaperThreads);
         return detail::MakeList(s == Scale::kSmall ? 128 : threads, false, seed);
       }},
      {"BinTree", Paper::kEcr, "Table 2 and Figure 13",
       "insert one key per thread into one binary search tree (paper: 1 000 threads)",
       [](Scale s, uint64_t seed) {
         // Threads come in whole warps: 1 024 for the paper's 1 000.
         return detail::MakeBinTree(s == Scale::kPaper     ? 1024
                                    : s == Scale::kDefault ? 512
                                                           : 128,
                                    seed);
       }},
      RbTreeInfo("RBT180", 180),
      RbTreeInfo("RBT450", 450),
      LinkedListInfo("LinkedList1", 100, 64),
      LinkedListInfo("LinkedList2", 200, 96),
      {"BinaryTree1", Paper::kSi, "Table 3",
       "remove every key of a 1 000-key binary search tree, one per thread (paper: 1 000 "
       "threads)",
       [](Scale s, uint64_t seed) {
         // 1 024 threads in whole warps: the 24 beyond the tree's keys remove absent keys.
         return s == Scale::kSmall ? detail::MakeBst(120, 128, 0, seed)
                                   : detail::MakeBst(1000, 1024, 0, seed);
       }},
      {"BinaryTree2", Paper::kSi, "Table 3",
       "50 inserts and 50 removes on a 1 000-key binary search tree (paper: 100 threads)",
       [](Scale s, uint64_t seed) {
         // 128 threads in whole warps: 64 inserts and 64 removes.
         return s == Scale::kSmall ? detail::MakeBst(200, 32, 32, seed)
                                   : detail::MakeBst(1000, 64, 64, seed);
       }},
      RbSetInfo("RBTree1", 50, 32),
      RbSetInfo("RBTree2", 100, 48),
      GraphCutInfo("GraphCut1", 60, 180, 40),
      GraphCutInfo("GraphCut2", 90, 270, 45),
      {"Vacation1", Paper::kSi, "Table 3 (STAMP's Vacation)",
       "add or delete one entry per thread in four red-black-tree tables of 500 entries (paper: "
       "150 threads)",
       [](Scale s, uint64_t seed) {
         // 160 threads in whole warps.
         return s == Scale::kSmall ? detail::MakeVacation(64, 60, false, 0, seed)
                                   : detail::MakeVacation(160, 500, false, 0, seed);
       }},
      {"Vacation2", Paper::kSi, "Table 3 (STAMP's Vacation)",
       "one reservation (a flight, a room and a car) per thread for one of 5 customers, tables of "
       "1 000 items (paper: 140 threads)",
       [](Scale s, uint64_t seed) {
         // 160 threads in whole warps.
         return s == Scale::kSmall ? detail::MakeVacation(64, 100, true, 5, seed)
                                   : detail::MakeVacation(160, 1000, true, 5, seed);
       }},
  };
  return all;
}

const WorkloadInfo* FindWorkload(const std::string& name) {
  for (const auto* list : {&AllWorkloads(), &proto::ProtoWorkloads()}) {
    for (const WorkloadInfo& w : *list) {
      if (w.name == name) {
        return &w;
      }
    }
  }
  return nullptr;
}

}  // namespace htm::gpu
