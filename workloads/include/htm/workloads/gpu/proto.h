// SPDX-License-Identifier: Apache-2.0
//
// The FPGA prototype's workloads (docs/proto.md, "Workloads in hardware"): the system model's ATM
// and HashTable kernels, and an EigenBench-like synthetic one, with every per-thread choice and
// every initial word drawn from a hash that the hardware engines compute in a few cycles
// (rtl/sys/htm_sys_pkg.sv has its SystemVerilog twin). The same workload then runs on htmsim's
// system model, on the Verilated subsystem and on the board, and the subsystem's commit log can
// be checked against it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "htm/workloads/gpu/workload.h"

namespace htm::gpu::proto {

/// An integer finalizer (two constant multiplications): a bijection of 32-bit words.
constexpr uint32_t LowBias32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

/// The draws of the prototype. The hardware loads `SeedHash(seed)` once; draw `index` (below
/// 2^24) of `stream` (below 2^8) is then one LowBias32, and for a fixed seed and stream it is a
/// bijection of the index (distinct indices give distinct draws).
constexpr uint32_t SeedHash(uint32_t seed) {
  return LowBias32(seed ^ 0xA5A5A5A5u);
}
constexpr uint32_t Draw(uint32_t seed_hash, uint32_t stream, uint32_t index) {
  return LowBias32(((stream & 0xFFu) << 24 | (index & 0xFFFFFFu)) ^ seed_hash);
}

/// HT-P's bucket of key k: LowBias32(k ^ kHtBucketSalt) mod buckets.
inline constexpr uint32_t kHtBucketSalt = 0x5BD1E995u;

/// The streams (one per kind of choice).
enum Stream : uint32_t {
  kAtmFrom = 0,     // ATM-P: thread t's source account
  kAtmTo = 1,       // ATM-P: the offset that gives its destination
  kAtmAmount = 2,   // ATM-P: its amount's index
  kAtmBalance = 3,  // ATM-P: account a's initial balance
  kAtmAmounts = 4,  // ATM-P: the 16 amounts
  kHtKey = 5,       // HT-P: thread t's key
  kEbWrite = 6,     // EB-P: thread t's first hot word to update
  kEbRead = 7,      // EB-P: thread t's first hot word to read
  kEbHot = 8,       // EB-P: hot word i's initial value
};

enum class Kind : uint8_t { kAtm, kHt, kEb };
const char* ToString(Kind k);

/// A prototype workload's parameters: what the hardware's configuration registers hold.
struct Params {
  Kind kind = Kind::kAtm;
  int threads = 256;     // 1 .. 2^24 / 3
  int objects_log2 = 6;  // ATM-P: accounts; HT-P: buckets; EB-P: hot words (1 .. 20)
  int reads = 0;         // EB-P: hot words read (0 .. 16)
  int writes = 0;        // EB-P: hot words updated (read, add one, write; 0 .. 16, at most hot)
  int cold = 0;          // EB-P: private words updated (0 .. 16)
  uint32_t seed = 1;
};
/// "" when the parameters are possible, else why not.
std::string CheckParams(const Params& p);
/// The workload (throws std::invalid_argument for impossible parameters).
std::unique_ptr<Workload> Make(const Params& p);
/// The parameters of a prototype workload at a scale (ATM-P, HT-P, EB-P); `seed`'s low 32 bits.
Params ParamsAt(Kind k, Scale s, uint64_t seed);

/// The prototype workloads, as htmsim runs them (FindWorkload finds them too).
const std::vector<WorkloadInfo>& ProtoWorkloads();

}  // namespace htm::gpu::proto
