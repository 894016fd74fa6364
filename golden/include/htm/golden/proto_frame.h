// SPDX-License-Identifier: Apache-2.0
//
// The FPGA prototype's UART frames (docs/proto.md, "The board and its command interface"): the
// CRC, the payload lengths and the encoding of commands and replies, shared by the golden model
// of htm_proto_ctrl and the host program (`htmsim proto`). The op, status and sync codes are
// the shared enumerations ProtoOp, ProtoStatus and ProtoSync (rtl/include/htm_enums.def).
#ifndef HTM_GOLDEN_PROTO_FRAME_H_
#define HTM_GOLDEN_PROTO_FRAME_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "htm/enums.h"

namespace htm::golden::proto {

inline constexpr uint8_t kCmdSync = static_cast<uint8_t>(ProtoSync::kCmd);
inline constexpr uint8_t kRepSync = static_cast<uint8_t>(ProtoSync::kRep);
inline constexpr uint8_t kVersion = 1;
// The magic at the start of IDENT's reply.
inline constexpr std::array<uint8_t, 4> kMagic = {'H', 'T', 'M', 'P'};
// The subsystem's parameters in IDENT's reply, in this order, two bytes each.
inline constexpr int kIdentParams = 20;
inline constexpr std::array<std::string_view, kIdentParams> kIdentParamNames = {
    "NumCores",    "NumWarps",   "WarpSize",         "NumParts",    "AddrW",
    "IlvLog2",     "CidW",       "MaxReads",         "MaxWrites",   "AllocRetry",
    "RingSize",    "BufWords",   "ValTags",          "LwhSets",     "LwhWays",
    "LwhBfHashes", "LwhBfSlots", "LwhScrubInterval", "XbarLatency", "XbarFifoDepth"};
inline constexpr int kNumCounters = 8;

// The twenty parameters of any parameter struct with the subsystem's members (htm_sys's
// SysParams, htm_proto_ctrl's ProtoCtrlParams), as pointers in IDENT's order: the one place
// that order is written for C++.
template <class P>
constexpr auto IdentMembers(P& p) {
  return std::array{&p.num_cores,    &p.num_warps,          &p.warp_size,    &p.num_parts,
                    &p.addr_w,       &p.ilv_log2,           &p.cid_w,        &p.max_reads,
                    &p.max_writes,   &p.alloc_retry,        &p.ring_size,    &p.buf_words,
                    &p.val_tags,     &p.lwh_sets,           &p.lwh_ways,     &p.lwh_bf_hashes,
                    &p.lwh_bf_slots, &p.lwh_scrub_interval, &p.xbar_latency, &p.xbar_fifo_depth};
}

// CRC-8, polynomial 0x07, initial value 0, no reflection, no final XOR: one byte's step.
constexpr uint8_t Crc8Step(uint8_t crc, uint8_t byte) {
  uint8_t c = static_cast<uint8_t>(crc ^ byte);
  for (int i = 0; i < 8; ++i) {
    c = static_cast<uint8_t>((c & 0x80) ? ((c << 1) ^ 0x07) : (c << 1));
  }
  return c;
}

inline uint8_t Crc8(const uint8_t* data, size_t n) {
  uint8_t crc = 0;
  for (size_t i = 0; i < n; ++i)
    crc = Crc8Step(crc, data[i]);
  return crc;
}

// The command payload's length of an op, or -1 for an op that is not a command.
constexpr int CommandPayloadBytes(uint8_t op) {
  switch (op) {
    case static_cast<uint8_t>(ProtoOp::kIdent):
      return 0;
    case static_cast<uint8_t>(ProtoOp::kConfig):
      return 12;
    case static_cast<uint8_t>(ProtoOp::kStart):
      return 0;
    case static_cast<uint8_t>(ProtoOp::kStatus):
      return 0;
    case static_cast<uint8_t>(ProtoOp::kCounter):
      return 1;
    default:
      return -1;
  }
}

// The reply payload's length of a command executed with status Ok (-1: not a command).
constexpr int ReplyPayloadBytes(uint8_t op) {
  switch (op) {
    case static_cast<uint8_t>(ProtoOp::kIdent):
      return 4 + 1 + 4 + 2 * kIdentParams;
    case static_cast<uint8_t>(ProtoOp::kConfig):
      return 0;
    case static_cast<uint8_t>(ProtoOp::kStart):
      return 0;
    case static_cast<uint8_t>(ProtoOp::kStatus):
      return 7;
    case static_cast<uint8_t>(ProtoOp::kCounter):
      return 8;
    default:
      return -1;
  }
}

// The whole command frame: sync, op, payload, CRC over op and payload.
inline std::vector<uint8_t> EncodeCommand(uint8_t op, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> f;
  f.reserve(payload.size() + 3);
  f.push_back(kCmdSync);
  f.push_back(op);
  f.insert(f.end(), payload.begin(), payload.end());
  f.push_back(Crc8(f.data() + 1, f.size() - 1));
  return f;
}

// The whole reply frame: sync, status, op, payload (Ok only), CRC over status to payload.
inline std::vector<uint8_t> EncodeReply(uint8_t status, uint8_t op,
                                        const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> f;
  f.push_back(kRepSync);
  f.push_back(status);
  f.push_back(op);
  if (status == static_cast<uint8_t>(ProtoStatus::kOk)) {
    f.insert(f.end(), payload.begin(), payload.end());
  }
  f.push_back(Crc8(f.data() + 1, f.size() - 1));
  return f;
}

// CONFIG's payload.
struct RunConfig {
  uint32_t wl = 0;       // SysWl
  uint32_t threads = 0;  // 24 bits
  uint32_t objlog2 = 0;
  uint32_t reads = 0;
  uint32_t writes = 0;
  uint32_t cold = 0;
  uint32_t seed = 0;
};

inline std::vector<uint8_t> ConfigPayload(const RunConfig& c) {
  return {static_cast<uint8_t>(c.wl),           static_cast<uint8_t>(c.threads),
          static_cast<uint8_t>(c.threads >> 8), static_cast<uint8_t>(c.threads >> 16),
          static_cast<uint8_t>(c.objlog2),      static_cast<uint8_t>(c.reads),
          static_cast<uint8_t>(c.writes),       static_cast<uint8_t>(c.cold),
          static_cast<uint8_t>(c.seed),         static_cast<uint8_t>(c.seed >> 8),
          static_cast<uint8_t>(c.seed >> 16),   static_cast<uint8_t>(c.seed >> 24)};
}

// Little-endian field of `n` bytes at `p`.
inline uint64_t LoadLe(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

}  // namespace htm::golden::proto

#endif  // HTM_GOLDEN_PROTO_FRAME_H_
