// SPDX-License-Identifier: Apache-2.0
//
// The global-memory workloads, one file each (internal to golden/src/gpu/workloads/).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <vector>

#include "htm/workloads/common.h"
#include "htm/workloads/gpu/workload.h"

namespace htm::gpu::detail {

/// For a structure that should hold every thread's key once: when `count` of them were reached
/// (seen[t]: thread t's node was reached), adds a problem naming a missing key.
inline void AddMissingKeys(Problems& p, const char* structure, int count,
                           const std::vector<int>& seen, const std::vector<uint32_t>& keys) {
  if (!p.empty() || count == static_cast<int>(seen.size())) {
    return;
  }
  size_t missing = 0;
  while (missing < seen.size() && seen[missing] != 0) {
    ++missing;
  }
  p.Add("the ", structure, " holds ", count, " of ", seen.size(), " keys; e.g. key ",
        missing < keys.size() ? keys[missing] : 0, " of thread ", missing, " is missing");
}

/// The operations of the tree workloads of Chen, Peng & Irving (ISCA 2017): a tree of `initial`
/// distinct random keys (1 .. 2^30 - 1), then `removes` threads removing one key each (every
/// initial key once, in random order, then absent keys) and `inserts` threads inserting a new key
/// each, the roles spread over the threads at random.
struct TreeOps {
  std::vector<uint32_t> initial_keys;  // in random order
  std::vector<uint32_t> key;           // per thread: the key it removes or inserts
  std::vector<int> insert;             // per thread: which new key it inserts (0..), or -1
  /// The keys left when every operation has been applied once.
  std::set<uint32_t> Final() const;
};
TreeOps MakeTreeOps(int initial, int removes, int inserts, uint64_t seed);

std::unique_ptr<Workload> MakeHashTable(int threads, uint32_t buckets, uint64_t seed);
/// HashTable with the given keys (distinct; one thread per key) and bucket hash (a key's bucket
/// is hash(key) mod buckets).
using BucketHash = std::function<uint32_t(uint32_t key)>;
std::unique_ptr<Workload> MakeHashTable(uint32_t buckets, std::vector<uint32_t> keys,
                                        BucketHash hash);
std::unique_ptr<Workload> MakeAtm(int threads, uint32_t accounts, uint64_t seed);
/// ATM with the given choices: the initial balances (one per account), the 16 amounts and one
/// transfer per thread.
struct AtmSpec {
  static constexpr uint32_t kAmounts = 16;
  struct Transfer {
    uint32_t from, to, amount;  // accounts (distinct) and an index into the amounts
  };
  std::vector<uint32_t> initial, amounts;
  std::vector<Transfer> transfers;
};
std::unique_ptr<Workload> MakeAtm(AtmSpec spec);
/// `walk_in_tx`: the whole walk from the head in the transaction (Linked List of Chen, Peng &
/// Irving, ISCA 2017), else the insertion point is found outside it (List of Chen & Peng, HPCA
/// 2016).
std::unique_ptr<Workload> MakeList(int threads, bool walk_in_tx, uint64_t seed);
/// Binary Tree (Chen, Peng & Irving, ISCA 2017): a tree of `initial` keys; `removes` threads
/// remove one of them each and `inserts` threads insert a new key each (threads = removes +
/// inserts, whole warps).
std::unique_ptr<Workload> MakeBst(int initial, int removes, int inserts, uint64_t seed);
std::unique_ptr<Workload> MakeBinTree(int threads, uint64_t seed);
std::unique_ptr<Workload> MakeSpMv(int threads, uint64_t seed);
std::unique_ptr<Workload> MakeRbTree(int threads, uint64_t seed);
/// Red Black Tree (Chen, Peng & Irving, ISCA 2017): a balanced red-black tree of `initial` keys;
/// `removes` threads remove one of them each and `inserts` threads insert a new key each.
std::unique_ptr<Workload> MakeRbSet(int initial, int removes, int inserts, uint64_t seed);
/// Vacation (Chen, Peng & Irving, ISCA 2017): four tables of `entries`; reservations false: each
/// thread adds or deletes an entry (Vacation1); true: each thread reserves for one of `customers`
/// customers (Vacation2).
/// GraphCut (Chen, Peng & Irving, ISCA 2017): Karger's contraction of a connected random graph
/// down to two vertices.
std::unique_ptr<Workload> MakeGraphCut(int threads, int vertices, int edges, uint64_t seed);
std::unique_ptr<Workload> MakeVacation(int threads, int entries, bool reservations, int customers,
                                       uint64_t seed);

}  // namespace htm::gpu::detail
