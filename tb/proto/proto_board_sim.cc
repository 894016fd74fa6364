// SPDX-License-Identifier: Apache-2.0
//
// htm_proto_sim: the FPGA prototype's board top (htm_proto_ulx3s) Verilated, behind a
// pseudo-terminal, so that the host program (`htmsim proto --port <pty>`) talks to it exactly
// as to the board's FTDI UART (docs/proto.md, "Testing the host program against the Verilated
// board"). The host's bytes are put on the board's receive line by a UART transmitter and the
// board's transmit line is read by a UART receiver, both the golden models of the board's own
// UART at the board's bit time; the 25 MHz oscillator is the simulation's clock (the PLL's
// simulation model passes it through).
//
// Options (bad ones exit 2 with a message):
//   --pty-link PATH      link PATH to the pseudo-terminal once the board is out of reset
//   --max-seconds N      stop after N seconds of wall time (default 600)
//   --corrupt-reply N    flip bit 0 of the N-th byte the board sends (1-based; fault injection)
//   --mute-after N       the board's bytes after the N-th are not passed on (fault injection)
//   --waves FILE         write an FST trace of the board
// The clocks per bit come from the Verilated parameters (HTM_PROTO_CLK_PER_BIT).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include "verilated.h"
#include "verilated_fst_c.h"

#include "htm/golden/uart_model.h"

#ifndef HTM_PROTO_MODEL
#error "HTM_PROTO_MODEL: the Verilated board top's class, set by the build"
#endif
#define HTM_STR2(x) #x
#define HTM_STR(x) HTM_STR2(x)
#include HTM_STR(HTM_PROTO_MODEL.h)

#ifndef HTM_PROTO_CLK_PER_BIT
#error "HTM_PROTO_CLK_PER_BIT: the board top's ClkPerBit, set by the build"
#endif

namespace {

bool ParseCount(const char* s, uint64_t* out) {
  if (s == nullptr || *s == '\0') {
    return false;
  }
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || s[0] == '-') {
    return false;
  }
  *out = v;
  return true;
}

int Usage(const char* msg) {
  std::fprintf(stderr,
               "htm_proto_sim: %s\nusage: htm_proto_sim [--pty-link PATH] [--max-seconds N] "
               "[--corrupt-reply N] [--mute-after N] [--waves FILE]\n",
               msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string link, waves;
  uint64_t max_seconds = 600, corrupt = 0, mute_after = UINT64_MAX;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--pty-link" && v != nullptr) {
      link = v;
    } else if (a == "--waves" && v != nullptr) {
      waves = v;
    } else if (a == "--max-seconds") {
      if (!ParseCount(v, &max_seconds) || max_seconds == 0) {
        return Usage("--max-seconds takes a positive number");
      }
    } else if (a == "--corrupt-reply") {
      if (!ParseCount(v, &corrupt) || corrupt == 0) {
        return Usage("--corrupt-reply takes a positive byte number");
      }
    } else if (a == "--mute-after") {
      if (!ParseCount(v, &mute_after)) {
        return Usage("--mute-after takes a number of bytes");
      }
    } else {
      return Usage(("unknown or incomplete option '" + a + "'").c_str());
    }
    ++i;
  }

  // The pseudo-terminal. The simulation keeps its slave side open too, so that the master never
  // reads end-of-file between hosts, and makes it raw (no echo) before any host opens it.
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    std::fprintf(stderr, "htm_proto_sim: no pseudo-terminal: %s\n", std::strerror(errno));
    return 1;
  }
  const char* slave_name = ptsname(master);
  const int slave = open(slave_name, O_RDWR | O_NOCTTY);
  termios t{};
  if (slave < 0 || tcgetattr(slave, &t) != 0) {
    std::fprintf(stderr, "htm_proto_sim: cannot open %s: %s\n", slave_name, std::strerror(errno));
    return 1;
  }
  cfmakeraw(&t);
  tcsetattr(slave, TCSANOW, &t);
  fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(!waves.empty());
  auto top = std::make_unique<HTM_PROTO_MODEL>(ctx.get());
  std::unique_ptr<VerilatedFstC> fst;
  if (!waves.empty()) {
    fst = std::make_unique<VerilatedFstC>();
    top->trace(fst.get(), 99);
    fst->open(waves.c_str());
  }
  htm::golden::UartTxModel host_tx(htm::golden::UartTxParams{HTM_PROTO_CLK_PER_BIT});
  htm::golden::UartRxModel host_rx(htm::golden::UartRxParams{HTM_PROTO_CLK_PER_BIT});
  host_tx.Reset();
  host_rx.Reset();

  std::deque<uint8_t> to_board;
  uint64_t sent_by_board = 0, cycle = 0;
  top->btn = 1;  // PWR released (active low): the reset comes from the PLL's lock
  top->ftdi_txd = 1;
  top->clk_25mhz = 0;
  top->eval();
  // One clock cycle of the board: a rising and a falling edge of the oscillator.
  const auto Clock = [&](uint64_t c) {
    top->clk_25mhz = 1;
    top->eval();
    if (fst) {
      fst->dump(2 * c + 1);
    }
    top->clk_25mhz = 0;
    top->eval();
    if (fst) {
      fst->dump(2 * c + 2);
    }
  };
  // Power-up, before the pseudo-terminal is announced: the board runs with its receive line
  // idle until the PLL has locked and the reset synchroniser has released every block (led[6]
  // and kPowerUpMargin cycles more). A host that could open the port earlier would put its first
  // byte on the line while the receiver is still in reset, and the receiver would then take a
  // later zero bit for the start bit; the frame would be lost and the host would wait in vain.
  constexpr uint64_t kPowerUpMargin = 64, kPowerUpLimit = 1 << 16;
  uint64_t locked_at = 0;
  for (; locked_at == 0 || cycle < locked_at + kPowerUpMargin; ++cycle) {
    if (cycle == kPowerUpLimit) {
      std::fprintf(stderr, "htm_proto_sim: the PLL did not lock within %llu cycles\n",
                   static_cast<unsigned long long>(kPowerUpLimit));
      return 1;
    }
    if (locked_at == 0 && (top->led & 0x40) != 0) {
      locked_at = cycle;
    }
    Clock(cycle);
  }
  if (!link.empty()) {
    unlink(link.c_str());
    if (symlink(slave_name, link.c_str()) != 0) {
      std::fprintf(stderr, "htm_proto_sim: cannot link %s: %s\n", link.c_str(),
                   std::strerror(errno));
      return 1;
    }
  }
  std::printf("htm_proto_sim: the board's UART is %s\n", slave_name);
  std::fflush(stdout);

  const auto t_end = std::chrono::steady_clock::now() + std::chrono::seconds(max_seconds);
  int idle_rounds = 0;
  for (;;) {
    uint8_t buf[256];
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) {
      to_board.insert(to_board.end(), buf, buf + n);
    }
    bool active = n > 0 || !to_board.empty();
    for (int k = 0; k < 4096; ++k, ++cycle) {
      htm::golden::UartTxIn ti;
      ti.in_valid = to_board.empty() ? 0 : 1;
      ti.in_data = to_board.empty() ? 0 : to_board.front();
      const htm::golden::UartTxOut to = host_tx.Eval(ti);
      htm::golden::UartRxIn ri;
      ri.rx = top->ftdi_rxd;
      const htm::golden::UartRxOut ro = host_rx.Eval(ri);
      if (ro.out_valid) {
        ++sent_by_board;
        uint8_t b = static_cast<uint8_t>(ro.out_data);
        if (sent_by_board == corrupt) {
          b ^= 1;
        }
        if (sent_by_board <= mute_after) {
          (void)!write(master, &b, 1);
        }
        active = true;
      }
      if (ti.in_valid && to.in_ready) {
        to_board.pop_front();
      }
      host_tx.Tick(ti);
      host_rx.Tick(ri);
      top->ftdi_txd = static_cast<uint8_t>(to.tx);
      Clock(cycle);
    }
    // led[0] is the subsystem's busy: while it runs, or bytes move, the simulation runs flat
    // out; otherwise it waits for the host a millisecond at a time.
    if (active || (top->led & 1) != 0 || !host_tx.Eval({}).in_ready) {
      idle_rounds = 0;
    } else if (++idle_rounds > 4) {
      pollfd p{master, POLLIN, 0};
      poll(&p, 1, 1);
    }
    if (std::chrono::steady_clock::now() > t_end) {
      break;
    }
  }
  if (fst) {
    fst->close();
  }
  top->final();
  close(slave);
  close(master);
  if (!link.empty()) {
    unlink(link.c_str());
  }
  return 0;
}
