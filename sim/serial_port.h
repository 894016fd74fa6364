// SPDX-License-Identifier: Apache-2.0
//
// A serial port for the host program of the FPGA prototype (`htmsim proto`, docs/proto.md):
// raw 8N1 at a baud rate, reads with a deadline. Works on a USB serial adapter (the board's
// FTDI) and on a pseudo-terminal (the Verilated board top's, tb/proto/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace htm::sim {

class SerialPort {
 public:
  SerialPort() = default;
  SerialPort(const SerialPort&) = delete;
  SerialPort& operator=(const SerialPort&) = delete;
  ~SerialPort();

  /// Opens `path` raw, 8N1, at `baud` (one of the POSIX rates). "" or why not.
  std::string Open(const std::string& path, int baud);
  /// Writes every byte. "" or why not.
  std::string Write(const std::vector<uint8_t>& bytes);
  /// Reads exactly `n` bytes, waiting at most `timeout_ms` in all. Returns how many arrived
  /// (fewer on a timeout) and sets *err on an I/O error.
  size_t Read(uint8_t* buf, size_t n, int timeout_ms, std::string* err);
  /// Discards whatever was received and not yet read.
  void Flush();

 private:
  int fd_ = -1;
};

}  // namespace htm::sim
