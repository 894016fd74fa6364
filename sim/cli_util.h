// SPDX-License-Identifier: Apache-2.0
//
// Helpers of the command-line tools: output files written through a temporary file and renamed
// when complete, so that a command that stops early leaves nothing half-written
// (docs/htmsim.md), and comma-separated option lists.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

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

/// Writes `text` to `path` through an AtomicFile; false when writing or renaming failed.
inline bool WriteFileAtomically(const std::string& path, const std::string& text) {
  AtomicFile f(path);
  if (!f.good()) {
    return false;
  }
  f.os() << text;
  return f.Commit();
}

/// The items of a comma-separated list, empty items dropped.
inline std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) {
      out.push_back(item);
    }
  }
  return out;
}

}  // namespace htm::sim
