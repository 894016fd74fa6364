// SPDX-License-Identifier: Apache-2.0
#include "serial_port.h"

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

namespace htm::sim {

namespace {

bool BaudConstant(int baud, speed_t* out) {
  switch (baud) {
    case 9600:
      *out = B9600;
      return true;
    case 19200:
      *out = B19200;
      return true;
    case 38400:
      *out = B38400;
      return true;
    case 57600:
      *out = B57600;
      return true;
    case 115200:
      *out = B115200;
      return true;
    case 230400:
      *out = B230400;
      return true;
    case 460800:
      *out = B460800;
      return true;
    case 921600:
      *out = B921600;
      return true;
    default:
      return false;
  }
}

}  // namespace

SerialPort::~SerialPort() {
  if (fd_ >= 0) {
    close(fd_);
  }
}

std::string SerialPort::Open(const std::string& path, int baud) {
  speed_t speed;
  if (!BaudConstant(baud, &speed)) {
    return "unsupported baud rate " + std::to_string(baud) +
           " (9600, 19200, 38400, 57600, 115200, 230400, 460800 or 921600)";
  }
  fd_ = open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    return "cannot open " + path + ": " + std::strerror(errno);
  }
  termios t{};
  if (tcgetattr(fd_, &t) != 0) {
    return path + " is not a serial port: " + std::strerror(errno);
  }
  cfmakeraw(&t);
  t.c_cflag |= CLOCAL | CREAD;
  t.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | PARENB | CRTSCTS);
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  cfsetispeed(&t, speed);
  cfsetospeed(&t, speed);
  if (tcsetattr(fd_, TCSANOW, &t) != 0) {
    return "cannot configure " + path + ": " + std::strerror(errno);
  }
  Flush();
  return "";
}

std::string SerialPort::Write(const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) {
        pollfd p{fd_, POLLOUT, 0};
        poll(&p, 1, 100);
        continue;
      }
      return std::string("write failed: ") + std::strerror(errno);
    }
    done += static_cast<size_t>(n);
  }
  return "";
}

size_t SerialPort::Read(uint8_t* buf, size_t n, int timeout_ms, std::string* err) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  size_t got = 0;
  while (got < n) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      break;
    }
    pollfd p{fd_, POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno != EINTR) {
      *err = std::string("poll failed: ") + std::strerror(errno);
      break;
    }
    if (r <= 0) {
      continue;
    }
    if ((p.revents & POLLIN) == 0) {
      // The other end went away (a pseudo-terminal whose master closed): nothing will come.
      *err = "the port was closed at the other end";
      break;
    }
    const ssize_t k = read(fd_, buf + got, n - got);
    if (k < 0) {
      if (errno == EAGAIN || errno == EINTR) {
        continue;
      }
      *err = std::string("read failed: ") + std::strerror(errno);
      break;
    }
    if (k == 0) {
      *err = "the port was closed at the other end";
      break;
    }
    got += static_cast<size_t>(k);
  }
  return got;
}

void SerialPort::Flush() {
  if (fd_ >= 0) {
    tcflush(fd_, TCIFLUSH);
  }
}

}  // namespace htm::sim
