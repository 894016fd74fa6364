// SPDX-License-Identifier: Apache-2.0
//
// Golden model of htm_proto_ctrl (rtl/proto/htm_proto_ctrl.sv), the FPGA prototype's command
// interface between the UART and the subsystem's run control: command frames in (sync, op,
// payload, CRC-8), one reply per frame out (sync, status, op, payload, CRC-8), CONFIG's
// registers, START's pulse, STATUS's and COUNTER's captures, the timeout and the drop after an
// unknown op, cycle-exact with the RTL. Eval() depends on the state alone; Tick() applies a
// cycle. Frame format: htm/golden/proto_frame.h; behaviour and timing: docs/htm_proto_ctrl.md.
#pragma once

#include <cstdint>
#include <string>

#include "htm/golden/ports.h"

namespace htm::golden {

#define HTM_BLOCK ProtoCtrl
#define HTM_BLOCK_DEF "htm/golden/ports/htm_proto_ctrl.def"
#include "htm/golden/port_gen.inc"

/// Empty when the parameters are legal, else a message naming the bad parameter.
std::string CheckProtoCtrlParams(const ProtoCtrlParams& p);

class ProtoCtrlModel {
 public:
  using Ports = ProtoCtrlPorts;
  /// The RTL's states.
  enum class St : uint8_t { kIdle, kOp, kPay, kCrc, kReply, kDrop };

  explicit ProtoCtrlModel(const ProtoCtrlParams& p);  // throws std::invalid_argument
  void Reset();
  ProtoCtrlOut Eval(const ProtoCtrlIn& in) const;
  void Tick(const ProtoCtrlIn& in);

  St state() const { return st_; }

 private:
  // The reply byte offered now.
  uint8_t TxByte() const;
  // Enters kReply with `status`; `drop`: kDrop after it.
  void BeginReply(uint8_t status, bool drop);
  // The status of executing the frame whose CRC byte is `crc_byte`.
  uint8_t ExecStatus(uint8_t crc_byte, const ProtoCtrlIn& in) const;
  void Execute(const ProtoCtrlIn& in);

  ProtoCtrlParams p_;
  uint8_t ident_[49] = {};  // IDENT's payload

  St st_ = St::kIdle;
  uint8_t op_ = 0;        // the frame's op (0 until it arrives)
  uint8_t crc_ = 0;       // the command's or the reply's running CRC
  uint8_t pay_[12] = {};  // the command's payload
  int pidx_ = 0;          // payload bytes received
  int64_t sil_ = 0;       // cycles without a byte (inside a frame, in kDrop)
  uint8_t sts_ = 0;       // the reply's status
  int ridx_ = 0;          // the reply byte offered
  int rlast_ = 0;         // the reply's last byte index (its CRC)
  bool drop_ = false;     // kDrop after the reply
  uint64_t cap_ = 0;      // STATUS's or COUNTER's payload
  bool cap_ctr_ = false;  // ctr is sampled this cycle
  bool start_ = false;
  uint64_t wl_ = 0, threads_ = 0, objlog2_ = 0, reads_ = 0, writes_ = 0, cold_ = 0, seed_ = 0;
  uint64_t sel_ = 0;
};

}  // namespace htm::golden
