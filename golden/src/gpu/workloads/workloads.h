// SPDX-License-Identifier: Apache-2.0
//
// The global-memory workloads, one file each (internal to golden/src/gpu/workloads/).
#pragma once

#include <cstdint>
#include <memory>

#include "htm/gpu/workload.h"

namespace htm::gpu::detail {

std::unique_ptr<Workload> MakeHashTable(int threads, uint32_t buckets, uint64_t seed);
std::unique_ptr<Workload> MakeAtm(int threads, uint32_t accounts, uint64_t seed);
std::unique_ptr<Workload> MakeList(int threads, uint64_t seed);
std::unique_ptr<Workload> MakeBinTree(int threads, uint64_t seed);
std::unique_ptr<Workload> MakeSpMv(int threads, uint64_t seed);

}  // namespace htm::gpu::detail
