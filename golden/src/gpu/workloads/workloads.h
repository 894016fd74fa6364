// SPDX-License-Identifier: Apache-2.0
//
// The global-memory workloads, one file each (internal to golden/src/gpu/workloads/).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "htm/gpu/common.h"
#include "htm/gpu/workload.h"

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

std::unique_ptr<Workload> MakeHashTable(int threads, uint32_t buckets, uint64_t seed);
std::unique_ptr<Workload> MakeAtm(int threads, uint32_t accounts, uint64_t seed);
/// `walk_in_tx`: the whole walk from the head in the transaction (`003_`'s Linked List), else
/// the insertion point is found outside it (`000_`'s List).
std::unique_ptr<Workload> MakeList(int threads, bool walk_in_tx, uint64_t seed);
/// `003_`'s Binary Tree: a tree of `initial` keys; `removes` threads remove one of them each and
/// `inserts` threads insert a new key each (threads = removes + inserts, whole warps).
std::unique_ptr<Workload> MakeBst(int initial, int removes, int inserts, uint64_t seed);
std::unique_ptr<Workload> MakeBinTree(int threads, uint64_t seed);
std::unique_ptr<Workload> MakeSpMv(int threads, uint64_t seed);
std::unique_ptr<Workload> MakeRbTree(int threads, uint64_t seed);

}  // namespace htm::gpu::detail
