// SPDX-License-Identifier: Apache-2.0
//
// The machines as data, and the names of the TM configurations: see htm/machine/gpu/config.h.
#include "htm/machine/gpu/config.h"

#include <algorithm>

namespace htm::gpu {

const char* ToString(TmMode m) {
  switch (m) {
    case TmMode::kSerial:
      return "serial";
    case TmMode::kKiloTm:
      return "kilotm";
    case TmMode::kWarpTm:
      return "warptm";
    case TmMode::kWarpTmEa:
      return "warptm-ea";
    case TmMode::kWarpTmPg:
      return "warptm-pg";
    case TmMode::kWarpTmEaPg:
      return "warptm-eapg";
    case TmMode::kSitm:
      return "sitm";
    case TmMode::kSitmOracle:
      return "sitm-oracle";
    case TmMode::kFgl:
      return "fgl";
  }
  return "?";
}

bool IsSi(TmMode m) {
  return m == TmMode::kSitm || m == TmMode::kSitmOracle;
}

const std::vector<TmMode>& AllTmModes() {
  static const std::vector<TmMode> all = {
      TmMode::kSerial,   TmMode::kKiloTm,     TmMode::kWarpTm, TmMode::kWarpTmEa,
      TmMode::kWarpTmPg, TmMode::kWarpTmEaPg, TmMode::kSitm,   TmMode::kSitmOracle};
  return all;
}

bool ParseTmMode(const std::string& name, TmMode* m) {
  if (name == ToString(TmMode::kFgl)) {
    *m = TmMode::kFgl;
    return true;
  }
  for (const TmMode t : AllTmModes()) {
    if (name == ToString(t)) {
      *m = t;
      return true;
    }
  }
  return false;
}

namespace {

MachineConfig Paper() {
  MachineConfig m;
  m.name = "default";
  m.summary =
      "the papers' machine: 15 cores x 48 warps, 2 transactional warps per core, 6 partitions, "
      "5-cycle interconnect, 330-cycle memory, commit units at half the core clock";
  // The commit unit's paper size (docs/htm_commit_unit.md).
  m.cu = golden::CommitUnitParams{.addr_w = 30,
                                  .data_w = 32,
                                  .cid_w = 16,
                                  .src_w = 8,
                                  .ring_size = 1024,
                                  .buf_words = 4096,
                                  .val_tags = 16,
                                  .lwh_sets = 256,
                                  .lwh_ways = 4,
                                  .lwh_bf_hashes = 4,
                                  .lwh_bf_slots = 256,
                                  .lwh_scrub_interval = 32};
  // WarpTM's ownership table (docs/htm_intra_warp_cd.md): 4096 entries, four lanes a cycle.
  m.iwcd = golden::IntraWarpCdParams{.addr_w = 30, .warp_size = 32, .entries = 4096, .banks = 4};
  // Early-Abort's tables (docs/early_cr.md): 3072 entries each, messages of 8 deltas.
  m.rct = golden::RctParams{.addr_w = 30,
                            .sets = 1024,
                            .ways = 3,
                            .count_w = 5,
                            .inc_queue = 4,
                            .batch = 8,
                            .flush_cycles = 16};
  m.cat = golden::CatParams{
      .addr_w = 30, .sets = 1024, .ways = 3, .num_ports = 4, .warp_size = 32, .batch = 8};
  m.pag = golden::PagCheckParams{.addr_w = 30, .warp_size = 32};
  // The transaction-aware SIMT stack of each warp slot (docs/htm_tx_simt_stack.md): 32 lanes,
  // 16 entries, 32-bit program points.
  m.simt = golden::TxSimtStackParams{.warp_size = 32, .depth = 16, .pc_w = 32, .log_w = 10};
  // WarpTM's last-written-time table (docs/htm_tcd.md): 128-byte chunks, 4 x 512 slots.
  m.tcd = golden::TcdParams{.addr_w = 30,
                            .chunk_shift = 5,
                            .ts_w = 20,
                            .num_hashes = 4,
                            .slots_per_hash = 512,
                            .scrub_interval = 256};
  // Snapshot isolation's tables at the paper's sizes (docs/si.md; Chen, Peng & Irving, ISCA 2017,
  // §4.3): 3000 writers, 87 856 reader entries, 1024 transaction ids and 24-bit logical timestamps.
  m.wt = golden::WriterTableParams{.addr_w = 30, .tx_w = 10, .sets = 1000, .ways = 3};
  m.rl = golden::ReaderListParams{.addr_w = 30, .tx_w = 10, .leaf_w = 32, .sets = 21964, .ways = 4};
  m.pd = golden::PostdateParams{.num_tx = 1024, .ts_w = 24, .inc = 10};
  // The Version Index Table (docs/htm_version_index.md): 42 regions of 8 versions (Table 2: 8
  // concurrently active versions), 32-bit addresses and creation times, versions 0x10000 apart
  // (Figure 6), 10-bit reference counts.
  m.vit = golden::VersionIndexParams{
      .addr_w = 32, .ts_w = 32, .regions = 42, .versions = 8, .stride_log2 = 16, .ref_w = 10};
  return m;
}

MachineConfig Small() {
  MachineConfig m = Paper();
  m.name = "small";
  m.summary =
      "for tests: 2 cores x 4 warps, 2 partitions, 40-cycle memory, commit units with a "
      "32-entry ring and 256 buffer words (ids and ring wrap within a run), 3 snapshot versions";
  m.cores = 2;
  m.warps_per_core = 4;
  m.partitions = 2;
  m.mem_latency = 40;
  m.cu_mem_latency = 12;
  m.interleave_words = 8;
  m.alloc_retry = 20;
  m.cu.cid_w = 10;
  m.cu.src_w = 2;
  m.cu.ring_size = 32;
  m.cu.buf_words = 256;
  m.cu.val_tags = 4;
  m.cu.lwh_sets = 16;
  m.cu.lwh_ways = 2;
  m.cu.lwh_bf_slots = 32;
  m.cu.lwh_scrub_interval = 4;
  m.iwcd.entries = 64;  // hash aliasing within a warp is frequent
  m.iwcd.banks = 2;
  m.rct.sets = 8;  // tables that fill: lost increments and dropped deltas
  m.rct.ways = 2;
  m.rct.count_w = 3;
  m.rct.batch = 3;
  m.rct.flush_cycles = 5;
  m.cat.sets = 8;
  m.cat.ways = 2;
  m.cat.batch = 3;
  m.tcd.chunk_shift = 2;  // 16-byte chunks in a 2 x 16 filter: aliasing is frequent
  m.tcd.ts_w = 12;        // stale after 1024 cycles
  m.tcd.num_hashes = 2;
  m.tcd.slots_per_hash = 16;
  m.tcd.scrub_interval = 4;
  // 3 snapshot versions, fewer than the warps in a transaction: publications wait. 8 regions;
  // a snapshot's reference on a version is one count (at most 3 snapshots share a version).
  m.vit = golden::VersionIndexParams{
      .addr_w = 32, .ts_w = 32, .regions = 8, .versions = 3, .stride_log2 = 16, .ref_w = 2};
  m.wt.sets = 128;   // 384 writers and 8192 reader entries for 128 lanes in transactions
  m.rl.sets = 2048;  // a warp of Vacation2 reads about 100 words per lane
  return m;
}

}  // namespace

const std::vector<MachineConfig>& AllMachines() {
  static const std::vector<MachineConfig> all = {Paper(), Small()};
  return all;
}

const MachineConfig* FindMachine(const std::string& name) {
  for (const MachineConfig& m : AllMachines()) {
    if (m.name == name) {
      return &m;
    }
  }
  return nullptr;
}

std::string CheckMachine(const MachineConfig& m) {
  if (m.cores < 1 || m.warps_per_core < 1 || m.tx_warps_per_core < 1 || m.partitions < 1) {
    return "cores, warps per core, transactional warps per core and partitions must be >= 1";
  }
  if (m.cores > (1 << std::min(m.cu.src_w, 20))) {
    return "more cores than the commit unit's SrcW can name";
  }
  if (m.icnt_latency < 1 || m.mem_latency < 1 || m.cu_mem_latency < 1 || m.alloc_retry < 1) {
    return "latencies must be >= 1";
  }
  if (std::string err = golden::CheckVersionIndexParams(m.vit); !err.empty()) {
    return "Version Index Table: " + err;
  }
  if (std::string err = golden::CheckWriterTableParams(m.wt); !err.empty()) {
    return "Writer Table: " + err;
  }
  if (std::string err = golden::CheckReaderListParams(m.rl); !err.empty()) {
    return "Reader List: " + err;
  }
  if (std::string err = golden::CheckPostdateParams(m.pd); !err.empty()) {
    return "post-dating unit: " + err;
  }
  if ((1 << m.rl.tx_w) != m.pd.num_tx || m.pd.num_tx > (1 << std::min(m.wt.tx_w, 20)) ||
      m.wt.addr_w != m.rl.addr_w) {
    return "the Writer Table, the Reader List and the post-dating unit must name the same "
           "transaction ids (NumTx, TxW) and addresses (AddrW)";
  }
  if (m.line_words < 1 || m.interleave_words < 1 || m.max_tx_ops < 1) {
    return "line and interleave sizes and the try budget must be >= 1";
  }
  if (m.cu.data_w != 32) {
    return "the commit unit's DataW must be 32 (the memory's word)";
  }
  if (m.iwcd.warp_size != 32) {
    return "the intra-warp conflict detection's WarpSize must be 32 (the warp)";
  }
  if (std::string err = golden::CheckIntraWarpCdParams(m.iwcd); !err.empty()) {
    return "intra-warp conflict detection: " + err;
  }
  if (std::string err = golden::CheckRctParams(m.rct); !err.empty()) {
    return "RCT: " + err;
  }
  if (std::string err = golden::CheckCatParams(m.cat); !err.empty()) {
    return "CAT: " + err;
  }
  if (m.cat.warp_size != 32 || m.cat.batch != m.rct.batch || m.cat.addr_w != m.rct.addr_w ||
      m.iwcd.addr_w != m.cat.addr_w) {
    return "the CAT must take 32-lane warps and the RCT's messages (the same Batch and AddrW), "
           "and look up the intra-warp detection's addresses (the same AddrW)";
  }
  if (std::string err = golden::CheckTcdParams(m.tcd); !err.empty()) {
    return "temporal conflict detection: " + err;
  }
  if (std::string err = golden::CheckPagCheckParams(m.pag); !err.empty()) {
    return "Pause-and-Go check: " + err;
  }
  if (m.pag.warp_size != 32 || m.pag.addr_w != m.cat.addr_w) {
    return "the Pause-and-Go check must take 32-lane warps and the CAT's addresses (the same "
           "AddrW)";
  }
  if (std::string err = golden::CheckTxSimtStackParams(m.simt); !err.empty()) {
    return "SIMT stack: " + err;
  }
  if (m.simt.warp_size != 32 || m.simt.pc_w != 32) {
    return "the SIMT stack must take 32-lane warps and 32-bit program points";
  }
  return golden::CheckCommitUnitParams(m.cu);
}

}  // namespace htm::gpu
