// SPDX-License-Identifier: Apache-2.0
//
// Stimulus for htm_proto_ctrl, the prototype's command interface (docs/htm_proto_ctrl.md), and
// the scripted host of its directed tests.
//
// ProtoCtrlBench is a host and a subsystem. The host sends frames one at a time and waits for
// each reply: valid frames of every op (CONFIG's fields mostly in range), frames with a bad CRC,
// an unknown op, a field out of range, truncated frames (silence until the timeout), framing
// errors inside frames, stray bytes and framing errors between frames, bytes during replies and
// during the drop after an unknown op; bytes come 0 to TimeoutCycles - 1 idle cycles apart (at
// most 20), tx_ready_i is random (mostly high, now and then low for stretches). Frames that cost
// a whole timeout (truncated, unknown op) are rarer when TimeoutCycles is long. The subsystem is
// busy for 1 to 300 cycles after each start_o, then done with random status inputs; ctr_i is a
// function of ctr_sel_o and the number of runs. The bench follows the block with a golden model
// of its own (ctr_i must answer ctr_sel_o in the same cycle, and the host waits for the block's
// state), and throws std::runtime_error when a reply's frame is malformed (sync, op, length, CRC)
// or a COUNTER reply does not carry the value ctr_i had for its index. With a long timeout it
// holds the harness's random resets off inside frames and drops, so that timeouts complete.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "htm/enums.h"
#include "htm/golden/proto_ctrl_model.h"
#include "htm/golden/proto_frame.h"
#include "htm/tb/stimulus.h"

namespace htm::tb {

namespace proto_ctrl {

/// ctr_i for counter `sel` after `runs` starts: distinct per counter, every byte in use.
inline uint64_t CounterValue(uint64_t sel, uint64_t runs = 0) {
  return (0x0123456789ABCDEFULL * (sel + 1)) ^ (sel << 60) ^ (runs * 0x9E3779B97F4A7C15ULL);
}

inline uint8_t Op(ProtoOp op) {
  return static_cast<uint8_t>(op);
}

inline uint8_t Status(ProtoStatus s) {
  return static_cast<uint8_t>(s);
}

/// Empty when `reply` is a well-formed reply frame to `op` (sync, op, the payload's length for
/// its status, CRC), else what is wrong.
inline std::string CheckReplyFrame(const std::vector<uint8_t>& reply, uint8_t op) {
  if (reply.size() < 4) {
    return "reply of " + std::to_string(reply.size()) + " bytes";
  }
  const uint8_t status = reply[1];
  const int len = status == Status(ProtoStatus::kOk) ? golden::proto::ReplyPayloadBytes(op) : 0;
  if (reply[0] != golden::proto::kRepSync || reply[2] != op || len < 0 ||
      reply.size() != static_cast<size_t>(4 + len) ||
      golden::proto::Crc8(reply.data() + 1, reply.size() - 2) != reply.back()) {
    return "malformed reply (status " + std::to_string(status) + ", op " + std::to_string(op) +
           ", " + std::to_string(reply.size()) + " bytes)";
  }
  return "";
}

}  // namespace proto_ctrl

/// The golden model as a directed test's device: Peek() the outputs of the coming cycle (they
/// depend on the state alone), Cycle() one cycle.
class ProtoCtrlModelDut {
 public:
  explicit ProtoCtrlModelDut(const golden::ProtoCtrlParams& p) : m_(p) {}
  golden::ProtoCtrlOut Peek() const { return m_.Eval(golden::ProtoCtrlIn{}); }
  golden::ProtoCtrlOut Cycle(const golden::ProtoCtrlIn& in) {
    const golden::ProtoCtrlOut o = m_.Eval(in);
    m_.Tick(in);
    return o;
  }

 private:
  golden::ProtoCtrlModel m_;
};

/// A scripted host and subsystem for directed tests: bytes, framing errors and idle cycles in;
/// the reply's bytes out, taken every `ready_every` cycles. The subsystem's status inputs are
/// sys() (set by the test); ctr_i is proto_ctrl::CounterValue(ctr_sel_o) in the same cycle.
template <class Dut>
class ProtoCtrlHost {
 public:
  using In = golden::ProtoCtrlIn;
  using Out = golden::ProtoCtrlOut;
  static constexpr int kNone = -1;
  static constexpr int kFrameErr = 256;

  explicit ProtoCtrlHost(Dut& dut) : dut_(dut) {}

  In& sys() { return sys_; }
  void set_ready_every(int n) { ready_every_ = n; }
  uint64_t cycle() const { return cycle_; }
  int starts() const { return starts_; }
  /// The cycle of the last start_o pulse (cycle numbers as cycle()).
  uint64_t last_start() const { return last_start_; }
  /// The cycle the reply's first byte was offered.
  uint64_t reply_first() const { return reply_first_; }
  /// The reply bytes taken so far (cleared by Transact).
  const std::vector<uint8_t>& reply() const { return reply_; }
  const Out& last_out() const { return last_; }

  /// One cycle: `rx` is kNone, a byte (0..255) or kFrameErr.
  Out Cycle(int rx = kNone) {
    In in = sys_;
    in.ctr = proto_ctrl::CounterValue(dut_.Peek().ctr_sel);
    in.rx_valid = rx >= 0 && rx < kFrameErr ? 1 : 0;
    in.rx_data = in.rx_valid != 0 ? static_cast<uint64_t>(rx) : 0;
    in.rx_err = rx == kFrameErr ? 1 : 0;
    in.tx_ready = cycle_ % static_cast<uint64_t>(ready_every_) == 0 ? 1 : 0;
    last_ = dut_.Cycle(in);
    if (last_.tx_valid != 0) {
      if (!in_reply_) {
        reply_first_ = cycle_;
      }
      in_reply_ = true;
      if (in.tx_ready != 0) {
        reply_.push_back(static_cast<uint8_t>(last_.tx_data));
        ++replied_;
      }
    } else {
      in_reply_ = false;
    }
    if (last_.start != 0) {
      ++starts_;
      last_start_ = cycle_;
    }
    ++cycle_;
    return last_;
  }

  void Idle(int cycles) {
    for (int i = 0; i < cycles; ++i) {
      Cycle();
    }
  }

  /// Sends `bytes` (kFrameErr for a framing error) with `gap` idle cycles between two; the
  /// cycle of the last one is last_sent().
  void Send(const std::vector<int>& bytes, int gap = 0) {
    for (size_t i = 0; i < bytes.size(); ++i) {
      last_sent_ = cycle_;
      Cycle(bytes[i]);
      if (i + 1 < bytes.size()) {
        Idle(gap);
      }
    }
  }

  /// Send(bytes, gap), then runs until a reply has gone out and the block offers nothing (at
  /// most `limit` cycles after the last byte); returns the reply's bytes (empty: none). With no
  /// bytes it finishes the reply under way, whose bytes taken so far it keeps.
  std::vector<uint8_t> Transact(const std::vector<int>& bytes, int gap = 0, int limit = 2000) {
    if (!bytes.empty()) {
      reply_.clear();
    }
    Send(bytes, gap);
    bool seen = !reply_.empty();
    for (int c = 0; c < limit; ++c) {
      const bool valid = dut_.Peek().tx_valid != 0;
      if (seen && !valid) {
        break;
      }
      seen = seen || valid;
      Cycle();
    }
    return reply_;
  }
  /// Reply bytes taken since the start.
  uint64_t replied() const { return replied_; }
  uint64_t last_sent() const { return last_sent_; }

 private:
  Dut& dut_;
  In sys_{};
  int ready_every_ = 1;
  uint64_t cycle_ = 0;
  int starts_ = 0;
  uint64_t last_start_ = 0;
  uint64_t reply_first_ = 0;
  uint64_t last_sent_ = 0;
  uint64_t replied_ = 0;
  bool in_reply_ = false;
  std::vector<uint8_t> reply_;
  Out last_{};
};

/// A command frame as the host's byte list.
inline std::vector<int> ProtoCommand(uint8_t op, const std::vector<uint8_t>& payload = {}) {
  const std::vector<uint8_t> f = golden::proto::EncodeCommand(op, payload);
  return std::vector<int>(f.begin(), f.end());
}

// Directed scenarios, written once and run on the golden model alone
// (tests/golden/proto_ctrl_model_test.cc) and on the RTL in lockstep with it
// (tests/rtl/proto_ctrl_directed_test.cc). Each takes a fresh host and returns the first
// failure, or an empty string. They hold for any parameters (the timeout scenarios wait
// TimeoutCycles cycles, a few times).
namespace proto_ctrl {

/// The difference between a reply and the frame (status, op, payload), or empty.
inline std::string ExpectReply(const std::vector<uint8_t>& got, uint8_t status, uint8_t op,
                               const std::vector<uint8_t>& payload = {}) {
  const std::vector<uint8_t> want = golden::proto::EncodeReply(status, op, payload);
  if (got == want) {
    return "";
  }
  std::string s = "reply";
  for (const uint8_t b : got) {
    s += " " + std::to_string(b);
  }
  s += ", want";
  for (const uint8_t b : want) {
    s += " " + std::to_string(b);
  }
  return s;
}

/// `n` little-endian bytes of `v`.
inline std::vector<uint8_t> Le(uint64_t v, int n) {
  std::vector<uint8_t> b;
  for (int i = 0; i < n; ++i) {
    b.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  return b;
}

inline std::vector<uint8_t> operator+(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// Appends `why` (with a label) to the first failure `err`.
inline void Fail(std::string& err, const std::string& label, const std::string& why) {
  if (err.empty() && !why.empty()) {
    err = label + ": " + why;
  }
}

/// The run configuration the CONFIG scenarios write.
inline golden::proto::RunConfig SampleConfig() {
  golden::proto::RunConfig c;
  c.wl = 2;
  c.threads = 0xABCDEF;
  c.objlog2 = 31;
  c.reads = 7;
  c.writes = 19;
  c.cold = 30;
  c.seed = 0xDEADBEEF;
  return c;
}

inline bool SameConfig(const golden::ProtoCtrlOut& o, const golden::proto::RunConfig& c) {
  return o.cfg_wl == c.wl && o.cfg_threads == c.threads && o.cfg_objlog2 == c.objlog2 &&
         o.cfg_reads == c.reads && o.cfg_writes == c.writes && o.cfg_cold == c.cold &&
         o.cfg_seed == c.seed;
}

/// IDENT: "HTMP", version 1, ClkKhz, the 20 parameters; the reply starts the cycle after the
/// CRC byte, and again with the host taking a byte every third cycle.
template <class H>
std::string Ident(H& h, const golden::ProtoCtrlParams& p) {
  std::vector<uint8_t> pay = {'H', 'T', 'M', 'P', 1};
  pay = pay + Le(static_cast<uint64_t>(p.clk_khz), 4);
  for (const int v :
       {p.num_cores,     p.num_warps,    p.warp_size,          p.num_parts,    p.addr_w,
        p.ilv_log2,      p.cid_w,        p.max_reads,          p.max_writes,   p.alloc_retry,
        p.ring_size,     p.buf_words,    p.val_tags,           p.lwh_sets,     p.lwh_ways,
        p.lwh_bf_hashes, p.lwh_bf_slots, p.lwh_scrub_interval, p.xbar_latency, p.xbar_fifo_depth}) {
    pay = pay + Le(static_cast<uint64_t>(v), 2);
  }
  std::string err;
  Fail(err, "IDENT", ExpectReply(h.Transact(ProtoCommand(Op(ProtoOp::kIdent))), 0, 1, pay));
  if (err.empty() && h.reply_first() != h.last_sent() + 1) {
    err = "IDENT's reply did not start the cycle after the CRC byte";
  }
  h.set_ready_every(3);
  const int gap = p.timeout_cycles > 2 ? 2 : static_cast<int>(p.timeout_cycles) - 1;
  Fail(err, "IDENT, slow host",
       ExpectReply(h.Transact(ProtoCommand(Op(ProtoOp::kIdent)), gap), 0, 1, pay));
  return err;
}

/// CONFIG writes the cfg_* registers; one with a field out of range (wl, each 5-bit field)
/// answers 3 and changes nothing.
template <class H>
std::string Config(H& h) {
  const golden::proto::RunConfig c = SampleConfig();
  const uint8_t op = Op(ProtoOp::kConfig);
  std::string err;
  Fail(err, "CONFIG",
       ExpectReply(h.Transact(ProtoCommand(op, golden::proto::ConfigPayload(c))), 0, op));
  if (err.empty() && !SameConfig(h.last_out(), c)) {
    err = "CONFIG did not write the cfg_* registers";
  }
  for (const int at : {0, 4, 5, 6, 7}) {
    std::vector<uint8_t> pay = golden::proto::ConfigPayload(golden::proto::RunConfig{});
    pay[at] = at == 0 ? 4 : 32;
    Fail(err, "CONFIG out of range at " + std::to_string(at),
         ExpectReply(h.Transact(ProtoCommand(op, pay)), Status(ProtoStatus::kBadField), op));
    if (err.empty() && !SameConfig(h.last_out(), c)) {
      err = "an out-of-range CONFIG changed the registers";
    }
  }
  return err;
}

/// START: start_o for one cycle, the cycle after the CRC byte.
template <class H>
std::string Start(H& h) {
  const uint8_t op = Op(ProtoOp::kStart);
  std::string err;
  Fail(err, "START", ExpectReply(h.Transact(ProtoCommand(op)), 0, op));
  if (err.empty() && (h.starts() != 1 || h.last_start() != h.last_sent() + 1)) {
    err = "START's pulse: " + std::to_string(h.starts()) + " pulses";
  }
  return err;
}

/// STATUS captures the subsystem's outputs in the cycle of its CRC byte (a change in the next
/// cycle is not seen).
template <class H>
std::string StatusCapture(H& h, const golden::ProtoCtrlParams& p) {
  auto& s = h.sys();
  s.busy = 1;
  s.done = 0;
  s.cfg_err = 1;
  s.cfg_err_code = 5;
  s.check_ok = 0;
  s.check_code = 6;
  s.check_idx = golden::LowMask(p.addr_w) & 0xA5A5A5A5ULL;
  s.err = 1;
  const uint8_t op = Op(ProtoOp::kStatus);
  std::vector<int> f = ProtoCommand(op);
  const int crc = f.back();
  f.pop_back();
  h.Send(f);
  h.Cycle(crc);
  s = golden::ProtoCtrlIn{};
  s.done = 1;
  s.check_ok = 1;
  const std::vector<uint8_t> want =
      std::vector<uint8_t>{0x15, 5, 6} + Le(golden::LowMask(p.addr_w) & 0xA5A5A5A5ULL, 4);
  std::string err;
  Fail(err, "STATUS (busy, cfg_err, err)", ExpectReply(h.Transact({}), 0, op, want));
  Fail(err, "STATUS (done, check_ok)",
       ExpectReply(h.Transact(ProtoCommand(op)), 0, op, {0x0A, 0, 0, 0, 0, 0, 0}));
  return err;
}

/// COUNTER sets ctr_sel_o and replies ctr_i of that counter; index 8 answers 3.
template <class H>
std::string Counter(H& h) {
  const uint8_t op = Op(ProtoOp::kCounter);
  std::string err;
  for (const int sel : {3, 0, 7, 1, 2, 4, 5, 6}) {
    const uint8_t idx = static_cast<uint8_t>(sel);
    Fail(err, "COUNTER " + std::to_string(sel),
         ExpectReply(h.Transact(ProtoCommand(op, {idx})), 0, op, Le(CounterValue(idx), 8)));
    if (err.empty() && h.last_out().ctr_sel != idx) {
      err = "ctr_sel_o is not the index";
    }
  }
  for (const int bad : {8, 255}) {
    const uint8_t idx = static_cast<uint8_t>(bad);
    Fail(err, "COUNTER " + std::to_string(bad),
         ExpectReply(h.Transact(ProtoCommand(op, {idx})), Status(ProtoStatus::kBadField), op));
  }
  if (err.empty() && h.last_out().ctr_sel != 6) {
    err = "an out-of-range COUNTER changed ctr_sel_o";
  }
  return err;
}

/// A bad CRC answers 1 for every op and does nothing (no start, registers unchanged).
template <class H>
std::string BadCrc(H& h) {
  std::string err;
  const golden::proto::RunConfig c = SampleConfig();
  for (const ProtoOp o :
       {ProtoOp::kIdent, ProtoOp::kConfig, ProtoOp::kStart, ProtoOp::kStatus, ProtoOp::kCounter}) {
    std::vector<uint8_t> pay;
    if (o == ProtoOp::kConfig) {
      pay = golden::proto::ConfigPayload(c);
    } else if (o == ProtoOp::kCounter) {
      pay = {9};  // out of range too: the CRC is checked first
    }
    std::vector<int> f = ProtoCommand(Op(o), pay);
    f.back() ^= 0x40;
    Fail(err, "bad CRC, op " + std::string(ToString(o)),
         ExpectReply(h.Transact(f), Status(ProtoStatus::kBadCrc), Op(o)));
  }
  if (err.empty() && (h.starts() != 0 || h.last_out().cfg_seed != 0)) {
    err = "a frame with a bad CRC was executed";
  }
  return err;
}

/// Busy: CONFIG and START answer 4 and do nothing; IDENT, STATUS and COUNTER are executed.
template <class H>
std::string Busy(H& h) {
  h.sys().busy = 1;
  std::string err;
  const uint8_t busy = Status(ProtoStatus::kBusy);
  const uint8_t cfg = Op(ProtoOp::kConfig);
  Fail(err, "CONFIG while busy",
       ExpectReply(h.Transact(ProtoCommand(cfg, golden::proto::ConfigPayload(SampleConfig()))),
                   busy, cfg));
  Fail(err, "START while busy",
       ExpectReply(h.Transact(ProtoCommand(Op(ProtoOp::kStart))), busy, Op(ProtoOp::kStart)));
  if (err.empty() && (h.starts() != 0 || h.last_out().cfg_seed != 0)) {
    err = "a busy refusal was executed";
  }
  const std::vector<uint8_t> r = h.Transact(ProtoCommand(Op(ProtoOp::kStatus)));
  if (err.empty() && (r.size() != 11 || r[1] != 0 || r[3] != 1)) {
    err = "STATUS while busy: not executed, or without the busy flag";
  }
  Fail(err, "COUNTER while busy",
       ExpectReply(h.Transact(ProtoCommand(Op(ProtoOp::kCounter), {2})), 0, Op(ProtoOp::kCounter),
                   Le(CounterValue(2), 8)));
  // Prerequisite checks come first: a bad field beats busy.
  std::vector<uint8_t> pay = golden::proto::ConfigPayload(SampleConfig());
  pay[0] = 3;
  pay[5] = 99;
  Fail(err, "CONFIG out of range while busy",
       ExpectReply(h.Transact(ProtoCommand(cfg, pay)), Status(ProtoStatus::kBadField), cfg));
  h.sys().busy = 0;
  Fail(err, "START when idle again",
       ExpectReply(h.Transact(ProtoCommand(Op(ProtoOp::kStart))), 0, Op(ProtoOp::kStart)));
  return err;
}

/// An unknown op is answered at once (status 2, the op echoed); then bytes are dropped until
/// TimeoutCycles cycles pass with none, counted from the cycle after the reply's last byte: a
/// frame sent in the T-th of them is dropped (and restarts the count), one sent after them is
/// read.
template <class H>
std::string UnknownOp(H& h, const golden::ProtoCtrlParams& p) {
  const int t = static_cast<int>(p.timeout_cycles);
  const uint8_t unknown = Status(ProtoStatus::kUnknownOp);
  const std::vector<int> ident = ProtoCommand(Op(ProtoOp::kIdent));
  std::string err;
  Fail(err, "op 0", ExpectReply(h.Transact({0x48, 0x00}), unknown, 0x00));
  if (err.empty() && h.reply_first() != h.last_sent() + 1) {
    err = "the unknown op's reply did not start the cycle after the op";
  }
  const uint64_t before = h.replied();
  h.Send(ident);  // the rest of "that frame", right after the reply
  h.Idle(t - 1);
  h.Send(ident);  // in the T-th quiet cycle: still dropped
  h.Idle(t - 1);
  if (err.empty() && h.replied() != before) {
    err = "a frame during the drop was answered";
  }
  h.Idle(1);
  Fail(err, "IDENT after the drop", h.Transact(ident).size() == 53 ? "" : "not answered");
  Fail(err, "op 255", ExpectReply(h.Transact({0x48, 0xFF}), unknown, 0xFF));
  h.Idle(t);
  Fail(err, "IDENT T cycles after op 255's reply",
       h.Transact(ident).size() == 53 ? "" : "not answered");
  return err;
}

/// Inside a frame, TimeoutCycles cycles without a byte answer 5 (the op, or 0 before it) the
/// cycle after the last of them; a byte in that last cycle is still in time.
template <class H>
std::string Timeout(H& h, const golden::ProtoCtrlParams& p) {
  const int t = static_cast<int>(p.timeout_cycles);
  const uint8_t bad = Status(ProtoStatus::kBadFrame);
  const uint8_t cfg = Op(ProtoOp::kConfig);
  std::string err;
  std::vector<int> f = ProtoCommand(cfg, golden::proto::ConfigPayload(SampleConfig()));
  f.resize(5);  // sync, op, three payload bytes
  Fail(err, "CONFIG cut short", ExpectReply(h.Transact(f, 0, t + 100), bad, cfg));
  if (err.empty() && h.reply_first() != h.last_sent() + static_cast<uint64_t>(t) + 1) {
    err = "the timeout's reply did not start TimeoutCycles + 1 cycles after the last byte";
  }
  Fail(err, "sync alone", ExpectReply(h.Transact({golden::proto::kCmdSync}, 0, t + 100), bad, 0));
  // Bytes TimeoutCycles - 1 idle cycles apart are in time.
  Fail(err, "COUNTER, slow bytes",
       ExpectReply(h.Transact(ProtoCommand(Op(ProtoOp::kCounter), {5}), t - 1, t + 100), 0,
                   Op(ProtoOp::kCounter), Le(CounterValue(5), 8)));
  if (err.empty() && h.last_out().cfg_seed != 0) {
    err = "a timed-out CONFIG was executed";
  }
  return err;
}

/// A framing error inside a frame answers 5 at once; outside a frame it is ignored.
template <class H>
std::string FramingError(H& h) {
  const uint8_t bad = Status(ProtoStatus::kBadFrame);
  std::string err;
  if (!h.Transact({H::kFrameErr, H::kFrameErr}, 1, 50).empty()) {
    err = "a framing error outside a frame was answered";
  }
  Fail(err, "sync, error", ExpectReply(h.Transact({0x48, H::kFrameErr}), bad, 0));
  if (err.empty() && h.reply_first() != h.last_sent() + 1) {
    err = "the framing error's reply did not start the next cycle";
  }
  std::vector<int> f = ProtoCommand(Op(ProtoOp::kCounter), {4});
  f.back() = H::kFrameErr;  // in place of the CRC byte
  Fail(err, "COUNTER, error", ExpectReply(h.Transact(f), bad, Op(ProtoOp::kCounter)));
  // Stray bytes between frames are dropped; the next frame is read.
  std::vector<int> strays = {0x00, 0x68, 0x13};
  const std::vector<int> status = ProtoCommand(Op(ProtoOp::kStatus));
  strays.insert(strays.end(), status.begin(), status.end());
  Fail(err, "after stray bytes",
       ExpectReply(h.Transact(strays), 0, Op(ProtoOp::kStatus), {0, 0, 0, 0, 0, 0, 0}));
  return err;
}

/// Bytes received while a reply goes out (a whole frame among them) are dropped; the reply is
/// the same whatever the host's pace.
template <class H>
std::string BytesDuringReply(H& h) {
  h.set_ready_every(4);
  std::vector<int> f = ProtoCommand(Op(ProtoOp::kIdent));
  h.Send(f);
  std::vector<int> start = ProtoCommand(Op(ProtoOp::kStart));
  start.insert(start.begin(), 0x11);
  for (const int b : start) {
    h.Cycle(b);
    h.Cycle(H::kFrameErr);
  }
  const std::vector<uint8_t> first = h.Transact({});
  std::string err;
  if (first.size() != 53) {
    err = "IDENT's reply was disturbed by bytes during it";
  }
  const uint64_t replied = h.replied();
  h.Idle(100);
  if (err.empty() && (h.starts() != 0 || h.replied() != replied)) {
    err = "a frame sent during a reply was executed";
  }
  h.set_ready_every(1);
  if (err.empty() && h.Transact(f) != first) {
    err = "IDENT's reply differs with the host's pace";
  }
  return err;
}

}  // namespace proto_ctrl

class ProtoCtrlBench {
 public:
  using Ports = golden::ProtoCtrlPorts;
  using Model = golden::ProtoCtrlModel;
  using In = golden::ProtoCtrlIn;
  using Out = golden::ProtoCtrlOut;
  using St = golden::ProtoCtrlModel::St;

  ProtoCtrlBench(const golden::ProtoCtrlParams& p, uint64_t seed) : p_(p), rng_(seed), shadow_(p) {}

  /// With a long timeout, no reset inside a frame or a drop (the harness resets every few
  /// thousand cycles: a timeout would never be reached).
  bool MayReset() const {
    const St st = shadow_.state();
    return p_.timeout_cycles <= 1000 || st == St::kIdle || st == St::kReply;
  }

  void OnReset() {
    shadow_.Reset();
    plan_.clear();
    next_ = 0;
    reply_.clear();
  }

  In Next() {
    In in = sys_;
    in.ctr = proto_ctrl::CounterValue(shadow_.Eval(In{}).ctr_sel, runs_);
    in.rx_valid = 0;
    in.rx_err = 0;
    in.rx_data = rng_.Bits(8);
    const St st = shadow_.state();
    if (next_ < plan_.size()) {
      // The frame (or stray bytes) being sent: a byte or an idle cycle per planned entry.
      const int b = plan_[next_++];
      Put(in, b);
    } else if (st == St::kReply || st == St::kDrop) {
      plan_.clear();
      next_ = 0;
      // A few bytes during a reply, and at most two during a drop (or it would never end).
      if (st == St::kReply) {
        drop_bytes_ = 0;
      }
      if ((st == St::kReply && rng_.Chance(1, 30)) ||
          (st == St::kDrop && drop_bytes_ < 2 && rng_.Chance(1, 50))) {
        drop_bytes_ += st == St::kDrop ? 1 : 0;
        Put(in, rng_.Chance(1, 8) ? kErr : static_cast<int>(rng_.Bits(8)));
      }
    } else if (st == St::kIdle) {
      plan_.clear();
      next_ = 0;
      Plan();
    }
    // tx_ready: mostly high, sometimes low for a stretch.
    if (ready_left_ == 0) {
      ready_mode_ = static_cast<int>(rng_.Below(4));
      ready_left_ = 1 + static_cast<int>(rng_.Below(60));
    }
    --ready_left_;
    in.tx_ready = ready_mode_ == 0 ? 0 : ready_mode_ == 1 ? rng_.Chance(1, 2) : 1;
    return in;
  }

  void Observe(const In& in, const Out& out) {
    shadow_.Tick(in);
    Subsystem(out);
    if (out.tx_valid != 0 && in.tx_ready != 0) {
      reply_.push_back(static_cast<uint8_t>(out.tx_data));
      if (shadow_.state() != St::kReply) {
        CheckReply();
        reply_.clear();
      }
    }
  }

 private:
  static constexpr int kIdleCycle = -1;
  static constexpr int kErr = 256;

  void Put(In& in, int b) {
    if (b == kErr) {
      in.rx_err = 1;
    } else if (b >= 0) {
      in.rx_valid = 1;
      in.rx_data = static_cast<uint64_t>(b);
    }
  }

  // Idle cycles between two bytes of a frame: fewer than TimeoutCycles.
  int Gap() {
    const int64_t most = p_.timeout_cycles < 20 ? p_.timeout_cycles : 20;
    return rng_.Chance(1, 2) ? 0 : static_cast<int>(rng_.Below(static_cast<uint64_t>(most)));
  }

  void Append(const std::vector<uint8_t>& frame) {
    for (size_t i = 0; i < frame.size(); ++i) {
      plan_.push_back(frame[i]);
      if (i + 1 < frame.size()) {
        plan_.insert(plan_.end(), static_cast<size_t>(Gap()), kIdleCycle);
      }
    }
  }

  // The next thing the host sends, from the idle state.
  void Plan() {
    if (rng_.Chance(1, 20)) {  // stray bytes or framing errors between frames
      for (int i = 0, n = 1 + static_cast<int>(rng_.Below(3)); i < n; ++i) {
        const int b = static_cast<int>(rng_.Bits(8));
        plan_.push_back(rng_.Chance(1, 3) ? kErr : b == golden::proto::kCmdSync ? 0 : b);
        plan_.insert(plan_.end(), static_cast<size_t>(rng_.Below(5)), kIdleCycle);
      }
      return;
    }
    if (rng_.Chance(1, 8)) {
      plan_.insert(plan_.end(), static_cast<size_t>(rng_.Below(30)), kIdleCycle);
    }
    op_ = RandomOp();
    std::vector<uint8_t> f = golden::proto::EncodeCommand(op_, RandomPayload());
    // Per 1000 frames: unknown ops and truncated frames (each costs a timeout), bad CRCs,
    // framing errors; the others are sent whole.
    const uint32_t costly = p_.timeout_cycles > 1000 ? 5 : 50;
    const uint32_t r = static_cast<uint32_t>(rng_.Below(1000));
    if (r < costly) {  // an unknown op
      uint8_t op;
      do {
        op = static_cast<uint8_t>(rng_.Bits(8));
      } while (golden::proto::CommandPayloadBytes(op) >= 0);
      f[1] = op;
    } else if (r < 2 * costly) {  // truncated: the timeout ends it
      f.resize(1 + rng_.Below(f.size() - 1));
    } else if (r < 2 * costly + 100) {  // a bad CRC
      f.back() ^= static_cast<uint8_t>(1 + rng_.Below(255));
    } else if (r < 2 * costly + 150) {  // a framing error inside the frame
      const size_t at = 1 + rng_.Below(f.size() - 1);
      f.resize(at);
      Append(f);
      plan_.insert(plan_.end(), static_cast<size_t>(Gap()), kIdleCycle);
      plan_.push_back(kErr);
      return;
    }
    Append(f);
  }

  uint8_t RandomOp() {
    static constexpr ProtoOp kOps[] = {ProtoOp::kIdent, ProtoOp::kConfig, ProtoOp::kStart,
                                       ProtoOp::kStatus, ProtoOp::kCounter};
    return proto_ctrl::Op(kOps[rng_.Below(5)]);
  }

  // The payload of op_: fields mostly in range, now and then one above it.
  std::vector<uint8_t> RandomPayload() {
    if (op_ == proto_ctrl::Op(ProtoOp::kCounter)) {
      return {static_cast<uint8_t>(rng_.Chance(1, 8) ? rng_.Bits(8) : rng_.Below(8))};
    }
    if (op_ != proto_ctrl::Op(ProtoOp::kConfig)) {
      return {};
    }
    golden::proto::RunConfig c;
    c.wl = static_cast<uint32_t>(rng_.Below(4));
    c.threads = static_cast<uint32_t>(rng_.Bits(24));
    c.objlog2 = static_cast<uint32_t>(rng_.Below(32));
    c.reads = static_cast<uint32_t>(rng_.Below(32));
    c.writes = static_cast<uint32_t>(rng_.Below(32));
    c.cold = static_cast<uint32_t>(rng_.Below(32));
    c.seed = static_cast<uint32_t>(rng_.Bits(32));
    std::vector<uint8_t> pay = golden::proto::ConfigPayload(c);
    if (rng_.Chance(1, 6)) {  // wl or a 5-bit field out of range
      static constexpr int kFields[] = {0, 4, 5, 6, 7};
      const int at = kFields[rng_.Below(5)];
      pay[at] = static_cast<uint8_t>((at == 0 ? 4 : 32) + rng_.Below(at == 0 ? 252 : 224));
    }
    return pay;
  }

  // The subsystem: busy for a while after each start_o, then done with random status.
  void Subsystem(const Out& out) {
    if (out.start != 0 && sys_.busy == 0) {
      ++runs_;
      sys_.busy = 1;
      sys_.done = 0;
      busy_left_ = 1 + static_cast<int>(rng_.Below(300));
    } else if (sys_.busy != 0 && --busy_left_ <= 0) {
      sys_.busy = 0;
      sys_.done = 1;
      sys_.cfg_err = rng_.Chance(1, 4);
      sys_.cfg_err_code = sys_.cfg_err != 0 ? 1 + rng_.Below(6) : 0;
      sys_.check_ok = sys_.cfg_err == 0 && rng_.Chance(3, 4);
      sys_.check_code = sys_.check_ok != 0 ? 0 : rng_.Bits(3);
      sys_.check_idx = rng_.Bits(p_.addr_w);
      sys_.err = rng_.Chance(1, 20);
    }
  }

  // A whole reply has gone out: its frame, and a COUNTER's value.
  void CheckReply() {
    const uint8_t op = reply_.size() > 2 ? reply_[2] : 0;
    const std::string why = proto_ctrl::CheckReplyFrame(reply_, op);
    if (!why.empty()) {
      throw std::runtime_error("htm_proto_ctrl bench: " + why);
    }
    if (op == proto_ctrl::Op(ProtoOp::kCounter) && reply_[1] == 0) {
      const uint64_t want = proto_ctrl::CounterValue(shadow_.Eval(In{}).ctr_sel, runs_);
      if (golden::proto::LoadLe(reply_.data() + 3, 8) != want) {
        throw std::runtime_error("htm_proto_ctrl bench: COUNTER replied a value ctr_i never had");
      }
    }
  }

  golden::ProtoCtrlParams p_;
  Rng rng_;
  Model shadow_;
  In sys_{};
  std::vector<int> plan_;
  size_t next_ = 0;
  uint8_t op_ = 0;
  int ready_mode_ = 2;
  int ready_left_ = 0;
  int busy_left_ = 0;
  int drop_bytes_ = 0;
  uint64_t runs_ = 0;
  std::vector<uint8_t> reply_;
};

}  // namespace htm::tb
