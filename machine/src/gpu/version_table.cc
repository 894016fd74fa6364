// SPDX-License-Identifier: Apache-2.0
//
// The Version Index Table on snapshot isolation's workload path: see version_table.h.
#include "version_table.h"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

#include "block_op.h"
#include "machine.h"

namespace htm::gpu {

namespace {

int CeilLog2(uint64_t x) {
  int n = 0;
  while ((uint64_t{1} << n) < x) {
    ++n;
  }
  return n;
}

}  // namespace

VersionTable::VersionTable(Machine& m, size_t words) : m_(m), p_(m.cfg.vit), published_(), held_() {
  inst_ = m_.MakeBlock<golden::VersionIndexModel>("htm_version_index", "version_index", p_,
                                                  [this] { return Context(); });
  stride_ = uint64_t{1} << p_.stride_log2;
  // The workload's memory in equal regions, as many as the table holds: a power-of-two length
  // of at least a word. A region owns the span of its versions (the table keeps spans apart),
  // so region r starts at r * Versions * stride; the relocated spaces follow the last span.
  const uint64_t bytes = std::max<uint64_t>(4, 4 * static_cast<uint64_t>(words));
  const uint64_t per =
      (bytes + static_cast<uint64_t>(p_.regions) - 1) / static_cast<uint64_t>(p_.regions);
  code_ = std::max(2, CeilLog2(per));
  length_ = uint64_t{1} << code_;
  if (length_ > stride_) {
    Depart("the workload's " + std::to_string(bytes) + " bytes need regions of " +
               std::to_string(length_) + " bytes, above the version stride (" +
               std::to_string(stride_) + "): the table maps at most " +
               std::to_string(static_cast<uint64_t>(p_.regions) * stride_) + " bytes",
           {});
    return;
  }
  regions_ = static_cast<int>((bytes + length_ - 1) / length_);
  const uint64_t span = static_cast<uint64_t>(p_.versions) * stride_;
  const uint64_t reloc_base = static_cast<uint64_t>(regions_) * span;
  const uint64_t reloc_span = static_cast<uint64_t>(p_.versions - 1) * length_;
  if (reloc_base + static_cast<uint64_t>(regions_) * reloc_span > (uint64_t{1} << p_.addr_w)) {
    Depart("the workload's " + std::to_string(bytes) + " bytes in " + std::to_string(regions_) +
               " regions with their versions do not fit " + std::to_string(p_.addr_w) +
               "-bit addresses",
           {});
    return;
  }
  published_.assign(static_cast<size_t>(regions_), std::map<uint64_t, int>{{0, 0}});
  for (int r = 0; r < regions_; ++r) {
    Op op;
    op.kind = VtOp::kAddRegion;
    op.addr = Address(static_cast<uint32_t>(static_cast<uint64_t>(r) * length_ / 4));
    op.code = code_;
    op.reloc = reloc_base + static_cast<uint64_t>(r) * reloc_span;
    const golden::VersionIndexOut out = Run(op);
    if (out.res_ok == 0 || static_cast<int>(out.res_region) != r) {
      Depart("region " + std::to_string(r) + " was not added as region " + std::to_string(r), out);
      return;
    }
  }
}

VersionTable::~VersionTable() = default;

uint64_t VersionTable::Address(uint32_t addr) const {
  const uint64_t byte = 4 * static_cast<uint64_t>(addr);
  return byte / length_ * (static_cast<uint64_t>(p_.versions) * stride_) + byte % length_;
}

int VersionTable::Expected(int r, uint64_t snap) const {
  const std::map<uint64_t, int>& pubs = published_[static_cast<size_t>(r)];
  auto it = pubs.upper_bound(snap);
  return std::prev(it)->second;  // the entry of time 0 is never pruned past
}

void VersionTable::Hold(uint64_t snap) {
  if (stopped_) {
    return;
  }
  std::vector<int>& held = held_[snap];
  held.assign(static_cast<size_t>(regions_), -1);
  for (int r = 0; r < regions_; ++r) {
    Op op;
    op.kind = VtOp::kAcquire;
    op.region = r;
    op.ts = snap;
    const golden::VersionIndexOut out = Run(op);
    const int want = Expected(r, snap);
    if (out.res_ok == 0 || static_cast<int>(out.res_version) != want) {
      Depart("snapshot " + std::to_string(snap) + " must hold version " + std::to_string(want) +
                 " of region " + std::to_string(r),
             out);
      return;
    }
    held[static_cast<size_t>(r)] = want;
  }
}

void VersionTable::Drop(uint64_t snap) {
  if (stopped_) {
    return;
  }
  const auto it = held_.find(snap);
  if (it == held_.end()) {
    Depart("snapshot " + std::to_string(snap) + " released but not held", {});
    return;
  }
  for (int r = 0; r < regions_; ++r) {
    Op op;
    op.kind = VtOp::kRelease;
    op.region = r;
    op.version = it->second[static_cast<size_t>(r)];
    const golden::VersionIndexOut out = Run(op);
    if (out.res_ok == 0) {
      Depart("snapshot " + std::to_string(snap) + " could not release version " +
                 std::to_string(op.version) + " of region " + std::to_string(r),
             out);
      return;
    }
  }
  held_.erase(it);
}

void VersionTable::Publish(uint64_t snap, const std::vector<std::pair<int64_t, WordLog>>& txs) {
  if (stopped_) {
    return;
  }
  if (snap >> p_.ts_w != 0) {
    Depart("snapshot " + std::to_string(snap) + " does not fit the " + std::to_string(p_.ts_w) +
               "-bit creation times (the machine does not model the overflow's restart)",
           {});
    return;
  }
  std::set<int> written;
  for (const auto& [node, writes] : txs) {
    (void)node;
    for (const auto& [a, v] : writes) {
      (void)v;
      written.insert(static_cast<int>(4 * static_cast<uint64_t>(a) / length_));
    }
  }
  for (const int r : written) {
    Op op;
    op.kind = VtOp::kBeginCopy;
    op.region = r;
    golden::VersionIndexOut out = Run(op);
    if (out.res_ok == 0) {
      Depart("snapshot " + std::to_string(snap) + " found no free version of region " +
                 std::to_string(r),
             out);
      return;
    }
    op.version = static_cast<int>(out.res_version);
    op.kind = VtOp::kCopyDone;
    out = Run(op);
    if (out.res_ok == 0) {
      Depart("CopyDone refused for version " + std::to_string(op.version) + " of region " +
                 std::to_string(r),
             out);
      return;
    }
    op.kind = VtOp::kPublish;
    op.ts = snap;
    out = Run(op);
    if (out.res_ok == 0 || out.res_overflow != 0) {
      Depart("snapshot " + std::to_string(snap) + " could not publish version " +
                 std::to_string(op.version) + " of region " + std::to_string(r),
             out);
      return;
    }
    published_[static_cast<size_t>(r)][snap] = op.version;
  }
  // Forget the publications no snapshot in use (or to come) reads.
  const uint64_t oldest = held_.empty() ? snap : std::min(held_.begin()->first, snap);
  for (std::map<uint64_t, int>& pubs : published_) {
    auto keep = std::prev(pubs.upper_bound(oldest));
    pubs.erase(pubs.begin(), keep);
  }
}

void VersionTable::Translate(uint32_t addr, uint64_t snap) {
  if (stopped_) {
    return;
  }
  const int r = static_cast<int>(4 * static_cast<uint64_t>(addr) / length_);
  Op op;
  op.kind = VtOp::kTranslate;
  op.addr = Address(addr);
  op.ts = snap;
  op.versioned = true;
  const golden::VersionIndexOut out = Run(op);
  const int want = Expected(r, snap);
  const uint64_t phys = op.addr + static_cast<uint64_t>(want) * stride_;
  if (out.res_access != static_cast<uint64_t>(golden::VAccess::kVersioned) ||
      static_cast<int>(out.res_region) != r || static_cast<int>(out.res_version) != want ||
      out.res_phys != phys) {
    std::ostringstream os;
    os << "word " << addr << " at snapshot " << snap << " must read version " << want
       << " of region " << r << " at 0x" << std::hex << phys;
    Depart(os.str(), out);
  }
}

golden::VersionIndexOut VersionTable::Run(const Op& op) {
  golden::VersionIndexIn in;
  in.op_valid = 1;
  in.op_kind = static_cast<uint64_t>(op.kind);
  in.op_addr = op.addr;
  in.op_code = static_cast<uint64_t>(op.code);
  in.op_reloc = op.reloc;
  in.op_ts = op.ts;
  in.op_versioned = op.versioned ? 1 : 0;
  in.op_region = static_cast<uint64_t>(op.region);
  in.op_version = static_cast<uint64_t>(op.version);
  std::ostringstream os;
  std::string kind(ToString(op.kind));
  if (kind.rfind("VtOp", 0) == 0) {
    kind = kind.substr(4);
  }
  os << kind;
  switch (op.kind) {
    case VtOp::kAddRegion:
      os << " at 0x" << std::hex << op.addr << " of 2^" << std::dec << op.code
         << " bytes, relocated to 0x" << std::hex << op.reloc;
      break;
    case VtOp::kTranslate:
      os << " of 0x" << std::hex << op.addr << std::dec << " at snapshot " << op.ts;
      break;
    default:
      os << " of region " << op.region << ", version " << op.version << ", time " << op.ts;
  }
  op_ = os.str();
  ++ops_;
  if (const std::optional<golden::VersionIndexOut> res = RunToResult(*inst_, in, false)) {
    return *res;
  }
  Depart("no result", {});
  return {};
}

bool VersionTable::Depart(const std::string& what, const golden::VersionIndexOut& out) {
  if (stopped_) {
    return false;
  }
  stopped_ = true;
  std::ostringstream os;
  os << "htm_version_index version_index: " << what;
  if (out.res_valid != 0) {
    os << " (result: ok " << out.res_ok << ", region " << out.res_region << ", version "
       << out.res_version << ", access " << out.res_access << ", address 0x" << std::hex
       << out.res_phys << std::dec << ", overflow " << out.res_overflow << ")";
  }
  os << "; " << Context();
  m_.Fail(os.str());
  return false;
}

std::string VersionTable::Context() const {
  return "the Version Index Table: " + (op_.empty() ? std::string("no operation") : op_);
}

}  // namespace htm::gpu
