// SPDX-License-Identifier: Apache-2.0
//
// htmsim proto: the host program of the FPGA prototype (docs/proto.md, "The board and its
// command interface"). Talks to htm_proto_ctrl over a serial port (the board's FTDI UART, or
// the pseudo-terminal of the Verilated board top, tb/proto/): IDENT, CONFIG, START, STATUS
// until the run is done, the counters; prints htmsim's statistics table and the board's
// final-state check, and with --twin runs the golden twin of the board's subsystem
// (golden::SysModel at the parameters IDENT reports) on the same configuration and compares
// every counter.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/program_options.hpp>

#include "cli_util.h"
#include "commands.h"
#include "htm/enums.h"
#include "htm/golden/proto_frame.h"
#include "htm/golden/sys_model.h"
#include "htm/machine/gpu/stats.h"
#include "htm/tb/sys_config_inputs.h"
#include "htm/workloads/gpu/proto.h"
#include "serial_port.h"

namespace htm::sim {
namespace {

namespace po = boost::program_options;
namespace pf = golden::proto;

constexpr const char* kWho = "htmsim proto";

// A failure of the board or of the line: the message, and exit status 1.
class BoardError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string Hex(const std::vector<uint8_t>& bytes) {
  std::ostringstream os;
  for (size_t i = 0; i < bytes.size(); ++i) {
    os << (i ? " " : "") << std::hex << std::setw(2) << std::setfill('0')
       << static_cast<int>(bytes[i]);
  }
  return os.str();
}

// An enumerator's name without its type's prefix ("ProtoOpConfig" -> "Config").
template <class E>
std::string ShortName(E v, std::string_view prefix) {
  std::string_view n = ToString(v);
  if (n.substr(0, prefix.size()) == prefix) {
    n.remove_prefix(prefix.size());
  }
  return std::string(n);
}

std::string OpName(uint8_t op) {
  return pf::CommandPayloadBytes(op) >= 0 ? ShortName(static_cast<ProtoOp>(op), "ProtoOp")
                                          : "op " + std::to_string(op);
}

std::string StatusName(uint8_t s) {
  return ShortName(static_cast<ProtoStatus>(s), "ProtoStatus");
}

bool KnownStatus(uint8_t s) {
  return s <= static_cast<uint8_t>(ProtoStatus::kBadFrame);
}

// The board's side of one command: sends the frame, reads and checks the reply.
class Board {
 public:
  Board(SerialPort* port, int timeout_ms) : port_(port), timeout_ms_(timeout_ms) {}

  // Reads one reply frame (any status) and returns it whole; throws BoardError when none comes
  // in time or its sync, status, op or CRC is wrong.
  std::vector<uint8_t> ReadReply(int expect_op) {
    std::vector<uint8_t> f(3);
    Get(f.data(), 3, "a reply");
    if (f[0] != pf::kRepSync) {
      throw BoardError("corrupted reply: sync byte 0x" + Hex({f[0]}) + " instead of 0x" +
                       Hex({pf::kRepSync}) + " (received " + Hex(f) + ")");
    }
    if (!KnownStatus(f[1])) {
      throw BoardError("corrupted reply: unknown status " + std::to_string(f[1]) + " (received " +
                       Hex(f) + ")");
    }
    if (expect_op >= 0 && f[2] != expect_op) {
      throw BoardError("corrupted reply: for " + OpName(static_cast<uint8_t>(expect_op)) +
                       ", a reply to " + OpName(f[2]) + " (received " + Hex(f) + ")");
    }
    int len = 0;
    if (f[1] == static_cast<uint8_t>(ProtoStatus::kOk)) {
      len = pf::ReplyPayloadBytes(f[2]);
      if (len < 0) {
        throw BoardError("corrupted reply: OK to " + OpName(f[2]) + ", which is no command");
      }
    }
    f.resize(3 + len + 1);
    Get(f.data() + 3, len + 1, "the rest of a reply");
    const uint8_t crc = pf::Crc8(f.data() + 1, f.size() - 2);
    if (crc != f.back()) {
      throw BoardError("corrupted reply: CRC 0x" + Hex({f.back()}) + " instead of 0x" + Hex({crc}) +
                       " (received " + Hex(f) + ")");
    }
    return f;
  }

  // One command; returns the reply's payload; a status other than OK is a BoardError.
  std::vector<uint8_t> Command(ProtoOp op, const std::vector<uint8_t>& payload = {}) {
    const auto o = static_cast<uint8_t>(op);
    if (std::string e = port_->Write(pf::EncodeCommand(o, payload)); !e.empty()) {
      throw BoardError(e);
    }
    const std::vector<uint8_t> f = ReadReply(o);
    if (f[1] != static_cast<uint8_t>(ProtoStatus::kOk)) {
      throw BoardError("the board answered " + StatusName(f[1]) + " to " + OpName(o));
    }
    return {f.begin() + 3, f.end() - 1};
  }

  std::string Write(const std::vector<uint8_t>& bytes) { return port_->Write(bytes); }

 private:
  void Get(uint8_t* buf, int n, const char* what) {
    std::string err;
    const size_t got = port_->Read(buf, static_cast<size_t>(n), timeout_ms_, &err);
    if (!err.empty()) {
      throw BoardError("reading " + std::string(what) + ": " + err);
    }
    if (got < static_cast<size_t>(n)) {
      throw BoardError(std::string(what) + " did not come from the board within " +
                       std::to_string(timeout_ms_) + " ms (" + std::to_string(got) + " of " +
                       std::to_string(n) +
                       " bytes; is the board programmed, powered and on this port?)");
    }
  }

  SerialPort* port_;
  int timeout_ms_;
};

struct Ident {
  uint32_t clk_khz = 0;
  golden::SysParams params;
};

Ident ParseIdent(const std::vector<uint8_t>& r) {
  if (!std::equal(pf::kMagic.begin(), pf::kMagic.end(), r.begin())) {
    throw BoardError("IDENT: not the prototype's command interface (magic " +
                     Hex({r.begin(), r.begin() + 4}) + ")");
  }
  if (r[4] != pf::kVersion) {
    throw BoardError("IDENT: interface version " + std::to_string(r[4]) + ", this program speaks " +
                     std::to_string(pf::kVersion));
  }
  Ident id;
  id.clk_khz = static_cast<uint32_t>(pf::LoadLe(&r[5], 4));
  const auto members = pf::IdentMembers(id.params);
  for (int i = 0; i < pf::kIdentParams; ++i) {
    *members[i] = static_cast<int>(pf::LoadLe(&r[9 + 2 * i], 2));
  }
  return id;
}

// The board's STATUS.
struct Status {
  bool busy, done, cfg_err, check_ok, err;
  int cfg_err_code, check_code;
  uint32_t check_idx;
};

Status ParseStatus(const std::vector<uint8_t>& r) {
  return Status{(r[0] & 1) != 0,
                (r[0] & 2) != 0,
                (r[0] & 4) != 0,
                (r[0] & 8) != 0,
                (r[0] & 16) != 0,
                r[1],
                r[2],
                static_cast<uint32_t>(pf::LoadLe(&r[3], 4))};
}

const char* RefusalReason(int code) {
  switch (code) {
    case 1:
      return "no such workload";
    case 2:
      return "no threads";
    case 3:
      return "objects_log2 is 0 or wider than the memory";
    case 4:
      return "the workload's memory is larger than the subsystem's";
    case 5:
      return "a transaction has more log rows than MaxReads or MaxWrites";
    case 6:
      return "EB-P's reads, writes and cold words are impossible";
    default:
      return "unknown refusal code";
  }
}

const char* CheckFailure(int code) {
  switch (code) {
    case 1:
      return "ATM-P: the balances' sum changed";
    case 2:
      return "EB-P: the words' sum is not the initial sum plus the updates";
    case 3:
      return "HT-P: the bucket counts do not sum to the threads";
    case 4:
      return "HT-P: a list is not as long as its count";
    case 5:
      return "HT-P: a key is in another bucket";
    case 6:
      return "HT-P: a pointer that is no node";
    default:
      return "unknown check code";
  }
}

// The board's counters (docs/htm_sys.md, "Counters") as htmsim's statistics.
gpu::SystemStats StatsOf(const std::array<uint64_t, pf::kNumCounters>& c, uint64_t threads,
                         int parts) {
  gpu::SystemStats s;
  s.cycles = c[0];
  s.threads = threads;
  s.commits = c[1];
  s.aborts = c[2];
  s.tries = c[1] + c[2];
  s.cu_alloc_fails = c[3];
  s.mem_requests = c[4];
  s.cu_messages = c[5];
  s.cu_busy_cycles = c[6];
  s.cu_cycles = c[0] * static_cast<uint64_t>(parts);
  return s;
}

const std::set<std::string> kBoardStats = {
    "cycles",       "threads",     "commits",        "tries",          "aborts",
    "mem_requests", "cu_messages", "cu_alloc_fails", "cu_busy_cycles", "cu_cycles"};

void PrintTable(const gpu::SystemStats& s) {
  s.ForEach([](const char* key, const char* label, uint64_t v) {
    if (kBoardStats.count(key) != 0) {
      std::cout << "  " << std::left << std::setw(28) << label << std::right << std::setw(14) << v
                << "\n";
    }
  });
}

// The same run on the golden twin: its counters and STATUS at the end.
struct TwinResult {
  std::array<uint64_t, pf::kNumCounters> counters{};
  golden::SysOut out;
  uint64_t model_cycles = 0;
};

TwinResult RunTwin(const golden::SysParams& p, const gpu::proto::Params& w, uint64_t max_cycles) {
  golden::SysModel m(p);
  m.Reset();
  golden::SysIn in;
  tb::SetConfigInputs(in, w);
  in.start = 1;
  m.Tick(in);
  in.start = 0;
  TwinResult r;
  for (;;) {
    r.out = m.Eval(in);
    if (r.out.done) {
      break;
    }
    if (++r.model_cycles > max_cycles) {
      throw BoardError("the golden twin did not finish within " + std::to_string(max_cycles) +
                       " cycles");
    }
    m.Tick(in);
  }
  for (int i = 0; i < pf::kNumCounters; ++i) {
    in.ctr_sel = static_cast<uint64_t>(i);
    r.counters[i] = m.Eval(in).ctr;
  }
  return r;
}

std::vector<uint8_t> ParseHex(const std::string& s, bool* ok) {
  std::vector<uint8_t> out;
  std::istringstream is(s);
  std::string tok;
  *ok = true;
  while (is >> tok) {
    if (tok.size() > 2 || tok.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
      *ok = false;
      return {};
    }
    out.push_back(static_cast<uint8_t>(std::stoul(tok, nullptr, 16)));
  }
  *ok = !out.empty();
  return out;
}

int Proto(int argc, char** argv) {
  std::string port_path, workload, scale_name = "small", send;
  int baud = 115200, timeout_ms = 2000, run_timeout_s = 600;
  int threads = -1, objects_log2 = -1, reads = -1, writes = -1, cold = -1;
  uint64_t seed = 1;
  bool twin = false, ident_only = false;
  po::options_description desc("Options of htmsim proto");
  desc.add_options()("help,h", "print this help and exit")(
      "port,p", po::value(&port_path), "the board's serial port (e.g. /dev/ttyUSB0)")(
      "baud", Num(&baud), "the line's baud rate (the board's is 115200)")(
      "timeout-ms", Num(&timeout_ms), "how long to wait for a reply")(
      "run-timeout-s", Num(&run_timeout_s), "how long to wait for a run to end")(
      "workload,w", po::value(&workload), "ATM-P, HT-P or EB-P (htmsim list)")(
      "scale", po::value(&scale_name)->default_value("small"),
      "the workload's sizes as htmsim run has them: small or default")(
      "threads", NumNoDefault(&threads), "threads (instead of the scale's)")(
      "objects-log2", NumNoDefault(&objects_log2),
      "log2 of accounts, buckets or hot words (instead of the scale's)")(
      "reads", NumNoDefault(&reads), "EB-P: hot words read")("writes", NumNoDefault(&writes),
                                                             "EB-P: hot words updated")(
      "cold", NumNoDefault(&cold), "EB-P: private words updated")("seed,s", Num(&seed),
                                                                  "the run's seed (32 bits)")(
      "twin", po::bool_switch(&twin),
      "also run the golden twin of the board's subsystem and compare every counter")(
      "ident", po::bool_switch(&ident_only), "only ask the board what it is")(
      "send", po::value(&send),
      "send these bytes (hexadecimal, space-separated) and print the reply frame");
  po::variables_map vm;
  if (!ParseOptions(kWho, argc, argv, desc, vm)) {
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "Usage: htmsim proto --port DEV --workload W [--scale S] [--threads N]\n"
                 "                    [--objects-log2 N] [--reads R --writes W --cold C]\n"
                 "                    [--seed N] [--twin]\n"
                 "       htmsim proto --port DEV --ident\n"
                 "       htmsim proto --port DEV --send \"48 01 07\"\n\n"
                 "Runs a prototype workload on the FPGA prototype (docs/proto.md) through its\n"
                 "UART: configures it, starts the run, waits for its end and prints the board's\n"
                 "counters as htmsim's statistics table and its final-state check.\n\n"
              << desc
              << "\nExit status: 0 passed, 1 the board failed (no reply, a corrupted reply, a\n"
                 "refused run, a failed check, a twin that differs), 2 bad usage.\n";
    return 0;
  }
  if (port_path.empty()) {
    std::cerr << kWho << ": no --port (the board's serial port)\n";
    return 2;
  }
  if (timeout_ms <= 0 || run_timeout_s <= 0) {
    std::cerr << kWho << ": --timeout-ms and --run-timeout-s must be positive\n";
    return 2;
  }
  if (seed > 0xFFFFFFFFu) {
    std::cerr << kWho << ": --seed must fit in 32 bits\n";
    return 2;
  }
  const int modes = (ident_only ? 1 : 0) + (send.empty() ? 0 : 1) + (workload.empty() ? 0 : 1);
  if (modes != 1) {
    std::cerr << kWho << ": give exactly one of --workload, --ident and --send\n";
    return 2;
  }
  std::vector<uint8_t> raw;
  if (!send.empty()) {
    bool ok;
    raw = ParseHex(send, &ok);
    if (!ok) {
      std::cerr << kWho << ": --send takes hexadecimal bytes separated by spaces, not '" << send
                << "'\n";
      return 2;
    }
  }
  gpu::proto::Params w;
  if (!workload.empty()) {
    gpu::proto::Kind kind;
    if (workload == "ATM-P") {
      kind = gpu::proto::Kind::kAtm;
    } else if (workload == "HT-P") {
      kind = gpu::proto::Kind::kHt;
    } else if (workload == "EB-P") {
      kind = gpu::proto::Kind::kEb;
    } else {
      std::cerr << kWho << ": unknown workload '" << workload
                << "' (the board runs ATM-P, HT-P and EB-P)\n";
      return 2;
    }
    gpu::Scale scale;
    if (!gpu::ParseScale(scale_name, &scale) || scale == gpu::Scale::kPaper) {
      std::cerr << kWho << ": unknown scale '" << scale_name << "' (small or default)\n";
      return 2;
    }
    w = gpu::proto::ParamsAt(kind, scale, seed);
    for (auto [given, field] : {std::pair{threads, &w.threads},
                                {objects_log2, &w.objects_log2},
                                {reads, &w.reads},
                                {writes, &w.writes},
                                {cold, &w.cold}}) {
      if (given >= 0) {
        *field = given;
      }
    }
    if (std::string e = gpu::proto::CheckParams(w); !e.empty()) {
      std::cerr << kWho << ": " << e << "\n";
      return 2;
    }
  }

  SerialPort port;
  if (std::string e = port.Open(port_path, baud); !e.empty()) {
    std::cerr << kWho << ": " << e << "\n";
    return 1;
  }
  Board board(&port, timeout_ms);
  try {
    if (!raw.empty()) {
      if (std::string e = board.Write(raw); !e.empty()) {
        throw BoardError(e);
      }
      const std::vector<uint8_t> f = board.ReadReply(-1);
      std::cout << "reply: " << Hex(f) << " (" << StatusName(f[1]) << ")\n";
      return 0;
    }
    const Ident id = ParseIdent(board.Command(ProtoOp::kIdent));
    const golden::SysParams& p = id.params;
    const double mhz = id.clk_khz / 1000.0;
    std::cout << kWho << ": the board on " << port_path << "\n  subsystem: " << p.num_cores
              << " cores x " << p.num_warps << " warps x " << p.warp_size << " lanes, "
              << p.num_parts << " partitions, " << (1u << p.addr_w) << " words, ring "
              << p.ring_size << ", clock " << std::fixed << std::setprecision(3) << mhz << " MHz\n";
    if (ident_only) {
      const std::vector<uint8_t> r = board.Command(ProtoOp::kIdent);
      std::cout << " ";
      for (int i = 0; i < pf::kIdentParams; ++i) {
        std::cout << " " << pf::kIdentParamNames[i] << "=" << pf::LoadLe(&r[9 + 2 * i], 2);
      }
      std::cout << "\n";
      return 0;
    }
    const uint64_t t_threads = static_cast<uint64_t>(w.threads);
    std::cout << "  workload " << workload << " (" << gpu::proto::Make(w)->Describe() << "), seed "
              << w.seed << "\n";
    board.Command(ProtoOp::kConfig,
                  pf::ConfigPayload(pf::RunConfig{
                      static_cast<uint32_t>(w.kind), static_cast<uint32_t>(w.threads),
                      static_cast<uint32_t>(w.objects_log2), static_cast<uint32_t>(w.reads),
                      static_cast<uint32_t>(w.writes), static_cast<uint32_t>(w.cold), w.seed}));
    const auto t0 = std::chrono::steady_clock::now();
    board.Command(ProtoOp::kStart);
    Status st{};
    for (;;) {
      st = ParseStatus(board.Command(ProtoOp::kStatus));
      if (st.done && !st.busy) {
        break;
      }
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(run_timeout_s)) {
        throw BoardError("the run did not end within " + std::to_string(run_timeout_s) + " s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (st.cfg_err) {
      std::cout << "  the board refused the run: code " << st.cfg_err_code << ", "
                << RefusalReason(st.cfg_err_code) << "\n";
      return 1;
    }
    std::array<uint64_t, pf::kNumCounters> c{};
    for (int i = 0; i < pf::kNumCounters; ++i) {
      c[i] = pf::LoadLe(board.Command(ProtoOp::kCounter, {static_cast<uint8_t>(i)}).data(), 8);
    }
    PrintTable(StatsOf(c, t_threads, p.num_parts));
    int status = 0;
    if (st.check_ok) {
      std::cout << "  final state checked on the board: OK\n";
    } else {
      std::cout << "  final state checked on the board: FAILED, code " << st.check_code << " ("
                << CheckFailure(st.check_code) << "), index " << st.check_idx << "\n";
      status = 1;
    }
    if (st.err) {
      std::cout << "  a block of the subsystem raised its error flag\n";
      status = 1;
    }
    const double seconds_at_clock = id.clk_khz ? c[0] / (id.clk_khz * 1e3) : 0;
    std::cout << std::setprecision(6) << "  run: " << c[0] << " cycles, "
              << (seconds_at_clock * 1e3) << " ms at " << std::setprecision(3) << mhz
              << " MHz; transactions per second at that clock: " << std::setprecision(0)
              << (seconds_at_clock > 0 ? c[1] / seconds_at_clock : 0) << "\n"
              << std::setprecision(3) << "  host wall time from START to done: " << wall << " s ("
              << std::setprecision(0) << (wall > 0 ? c[1] / wall : 0)
              << " transactions/s, the polling over the UART included)\n";
    if (twin) {
      TwinResult t;
      const auto t1 = std::chrono::steady_clock::now();
      try {
        t = RunTwin(p, w, 20 * c[0] + 1000000);
      } catch (const std::invalid_argument& e) {
        throw BoardError(std::string("the board's parameters have no golden twin: ") + e.what());
      }
      int differ = 0;
      for (int i = 0; i < pf::kNumCounters; ++i) {
        if (t.counters[i] != c[i]) {
          std::cout << "  twin: counter " << i << " is " << t.counters[i] << ", the board's "
                    << c[i] << "\n";
          ++differ;
        }
      }
      if (static_cast<bool>(t.out.check_ok) != st.check_ok ||
          static_cast<int>(t.out.check_code) != st.check_code) {
        std::cout << "  twin: final-state check " << t.out.check_ok << " code " << t.out.check_code
                  << ", the board's " << st.check_ok << " code " << st.check_code << "\n";
        ++differ;
      }
      const double twin_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
      std::cout << std::setprecision(3) << "  golden twin wall time: " << twin_s << " s ("
                << std::setprecision(0) << (twin_s > 0 ? t.counters[0] / twin_s : 0)
                << " cycles/s, " << (twin_s > 0 ? t.counters[1] / twin_s : 0)
                << " transactions/s)\n";
      if (differ == 0) {
        std::cout << "  golden twin (golden::SysModel): every counter and the check equal\n";
      } else {
        std::cout << "  golden twin (golden::SysModel): " << differ << " differences\n";
        status = 1;
      }
    }
    return status;
  } catch (const BoardError& e) {
    std::cerr << kWho << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int ProtoCommand(int argc, char** argv) {
  return Proto(argc, argv);
}

}  // namespace htm::sim
