// SPDX-License-Identifier: Apache-2.0
//
// The coverage columns: see coverage.h and docs/coverage.md.
#include "coverage.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "htm/tb/named_configs.h"

namespace htm::sim {

namespace {

std::string Quote(const std::string& s) {
  std::string o = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') {
      o += '\\';
      o += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(ch));
      o += buf;
    } else {
      o += ch;
    }
  }
  return o + "\"";
}

}  // namespace

std::string ConfigName(const gpu::MachineConfig& m, gpu::TmMode tm, const std::string& block) {
  for (const gpu::BlockUse& u : gpu::MachineBlocks(m, tm)) {
    if (u.block != block) {
      continue;
    }
    return tb::NamedConfig(block, u.params);
  }
  return "";
}

void CoverageSum::Add(const std::string& part, const std::string& block, const std::string& config,
                      int instances, int without, const golden::Coverage& c) {
  auto it = std::find_if(blocks_.begin(), blocks_.end(),
                         [&](const Block& b) { return b.block == block; });
  if (it == blocks_.end()) {
    blocks_.push_back(Block{block, 0, 0, {}});
    it = blocks_.end() - 1;
  }
  it->instances += static_cast<uint64_t>(instances);
  it->without += static_cast<uint64_t>(without);
  golden::AddCoverage(it->events, c);
  parts_.push_back(Part{part, block, config, instances, c});
}

void CoverageSum::AddRun(const std::string& part, const gpu::MachineConfig& m, gpu::TmMode tm,
                         const std::vector<gpu::BlockCoverage>& blocks) {
  for (const gpu::BlockCoverage& b : blocks) {
    Add(part, b.block, ConfigName(m, tm, b.block), b.instances, b.without, b.events);
  }
}

std::string CoverageSum::Json(const std::string& source, const std::string& command) const {
  std::ostringstream os;
  os << "{\"source\": " << Quote(source) << ", \"command\": " << Quote(command)
     << ",\n \"blocks\": [";
  for (size_t i = 0; i < blocks_.size(); ++i) {
    const Block& b = blocks_[i];
    os << (i == 0 ? "\n" : ",\n") << "  {\"block\": " << Quote(b.block)
       << ", \"instances\": " << b.instances << ", \"without\": " << b.without << ", \"events\": [";
    for (size_t k = 0; k < b.events.size(); ++k) {
      const golden::CoverEvent& e = b.events[k];
      os << (k == 0 ? "\n" : ",\n") << "    {\"name\": " << Quote(e.name)
         << ", \"description\": " << Quote(e.description) << ", \"count\": " << e.count << "}";
    }
    os << "]}";
  }
  os << "],\n \"parts\": [";
  for (size_t i = 0; i < parts_.size(); ++i) {
    const Part& p = parts_[i];
    os << (i == 0 ? "\n" : ",\n") << "  {\"part\": " << Quote(p.part)
       << ", \"block\": " << Quote(p.block) << ", \"config\": " << Quote(p.config)
       << ", \"instances\": " << p.instances << ", \"counts\": {";
    bool first = true;
    for (const golden::CoverEvent& e : p.events) {
      if (e.count != 0) {
        os << (first ? "" : ", ") << Quote(e.name) << ": " << e.count;
        first = false;
      }
    }
    os << "}}";
  }
  os << "]}\n";
  return os.str();
}

std::string CoverageSum::Text(const std::string& unit) const {
  std::ostringstream os;
  for (const Block& b : blocks_) {
    os << b.block << " (" << b.instances << " " << unit << (b.instances == 1 ? "" : "s");
    if (b.without != 0) {
      os << ", " << b.without << " without a golden model";
    }
    os << ")\n";
    for (const golden::CoverEvent& e : b.events) {
      os << "  " << std::left << std::setw(24) << e.name << std::right << std::setw(14) << e.count
         << (e.count == 0 ? "  never" : "") << "\n";
    }
  }
  return os.str();
}

}  // namespace htm::sim
