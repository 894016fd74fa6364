// SPDX-License-Identifier: Apache-2.0
//
// An output file written through a temporary file and renamed when complete, so that a command
// that stops early leaves nothing half-written (docs/htmsim.md).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>

namespace htm::sim {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
    os_.open(tmp_);
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile() {
    if (!done_) {
      os_.close();
      std::remove(tmp_.c_str());
    }
  }
  bool good() const { return os_.good(); }
  std::ostream& os() { return os_; }
  /// Closes the file and gives it its name; false when writing or renaming failed.
  bool Commit() {
    os_.close();
    done_ = true;
    if (os_.fail()) {
      std::remove(tmp_.c_str());
      return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp_, path_, ec);
    return !ec;
  }

 private:
  std::string path_, tmp_;
  std::ofstream os_;
  bool done_ = false;
};

}  // namespace htm::sim
