// SPDX-License-Identifier: Apache-2.0
//
// The machines the system model can be (docs/htmsim.md): the sizes and latencies of the SIMT cores,
// the interconnect and the memory partitions, and the parameters of every block instance in them.
// The machines are data (config.cc): `default`, the papers' machine, and `small`, for tests.
// The TM configurations name the policy that runs transactions on a machine (tm_policy.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "htm/golden/cat_model.h"
#include "htm/golden/commit_unit_model.h"
#include "htm/golden/intra_warp_cd_model.h"
#include "htm/golden/pag_check_model.h"
#include "htm/golden/postdate_model.h"
#include "htm/golden/rct_model.h"
#include "htm/golden/reader_list_model.h"
#include "htm/golden/tcd_model.h"
#include "htm/golden/tx_simt_stack_model.h"
#include "htm/golden/version_index_model.h"
#include "htm/golden/writer_table_model.h"

namespace htm::gpu {

enum class TmMode : uint8_t {
  kSerial,
  kKiloTm,
  kWarpTm,
  kWarpTmEa,
  kWarpTmPg,
  kWarpTmEaPg,
  kSitm,
  kSitmOracle,
  kFgl  // not a TM configuration: the workload's fine-grained-lock kernel (a baseline)
};
/// Snapshot isolation: multi-version memory, write-write commit.
bool IsSi(TmMode m);
const char* ToString(TmMode m);
/// Every TM configuration, in the papers' order of comparison (not the fgl baseline).
const std::vector<TmMode>& AllTmModes();
/// False when `name` is neither a TM configuration nor "fgl".
bool ParseTmMode(const std::string& name, TmMode* m);

struct MachineConfig {
  std::string name;
  std::string summary;
  int cores = 15;
  int warps_per_core = 48;       // resident warps
  int tx_warps_per_core = 2;     // warps in a transaction at once (concurrency control)
  int partitions = 6;            // memory partitions, one commit unit each
  int icnt_latency = 5;          // core <-> partition, cycles
  int mem_latency = 330;         // a core's load at the partition: L2 and DRAM
  int cu_mem_latency = 115;      // a commit unit's validation read or commit write (ROP latency)
  int line_words = 32;           // 128-byte lines: one request per line a warp instruction touches
  int interleave_words = 64;     // 256-byte partition interleaving
  int alloc_retry = 100;         // cycles before a core asks again after AllocFail
  uint64_t max_tx_ops = 100000;  // operations of one try before it is treated as a zombie
  golden::CommitUnitParams cu;   // each partition's commit unit
  golden::IntraWarpCdParams iwcd;  // each core's intra-warp conflict detection (WarpTM)
  golden::RctParams rct;           // each commit unit's reference count table (Early-Abort)
  golden::CatParams cat;           // each core's conflict address table (Early-Abort)
  golden::PagCheckParams pag;      // each core's Pause-and-Go check
  golden::TxSimtStackParams simt;  // each warp slot's transaction-aware SIMT stack
  // WarpTM's temporal conflict detection: each core's copy of the last-written-time table; off,
  // read-only transactions go to the commit units as in KILO TM.
  golden::TcdParams tcd;
  bool tcd_on = true;
  // Snapshot isolation: the Version Index Table; its Versions are the concurrently active
  // versions (snapshots in use) of the multi-version memory.
  golden::VersionIndexParams vit;
  golden::WriterTableParams wt;  // SITM: the Writer Table
  golden::ReaderListParams rl;   // SITM: the Scalable Reader List
  golden::PostdateParams pd;     // SITM: the post-dating unit (its slots are transaction ids)
};
/// `default` (the papers' machine: Chen & Peng, HPCA 2016, Table 1; Chen, Peng & Irving, ISCA 2017,
/// Table 2) and `small` (tests).
const std::vector<MachineConfig>& AllMachines();
const MachineConfig* FindMachine(const std::string& name);
/// Empty when the machine is possible, else a message naming what is wrong.
std::string CheckMachine(const MachineConfig& m);

}  // namespace htm::gpu
