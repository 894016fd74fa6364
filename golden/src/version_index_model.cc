// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/version_index_model.h"

#include <stdexcept>

#include "htm/golden/ports.h"

namespace htm::golden {

std::string CheckVersionIndexTableParams(const VersionIndexTableParams& p) {
  if (p.addr_w < 8 || p.addr_w > 62) {
    return "AddrW must be in 8..62, got " + std::to_string(p.addr_w);
  }
  if (p.ts_w < 2 || p.ts_w > 62) {
    return "TsW must be in 2..62, got " + std::to_string(p.ts_w);
  }
  if (p.regions < 1 || p.regions > 256) {
    return "Regions must be in 1..256, got " + std::to_string(p.regions);
  }
  if (p.versions < 2 || p.versions > 16) {
    return "Versions must be in 2..16, got " + std::to_string(p.versions);
  }
  if (p.stride == 0 || p.stride > LowMask(p.addr_w)) {
    return "Stride must be in 1..2^AddrW-1";
  }
  if (p.ref_w < 1 || p.ref_w > 32) {
    return "RefW must be in 1..32, got " + std::to_string(p.ref_w);
  }
  return "";
}

VersionIndexTable::VersionIndexTable(const VersionIndexTableParams& p) : p_(p) {
  if (std::string err = CheckVersionIndexTableParams(p); !err.empty()) {
    throw std::invalid_argument("htm_version_index: " + err);
  }
  Reset();
}

void VersionIndexTable::Reset() {
  regions_.assign(static_cast<size_t>(p_.regions), VRegion{});
}

namespace {
bool Overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) {
  return a < b + blen && b < a + alen;
}
}  // namespace

int VersionIndexTable::AddRegion(uint64_t start, uint64_t length, uint64_t reloc) {
  if (length == 0 || length > p_.stride) {
    return -1;
  }
  const auto nv = static_cast<uint64_t>(p_.versions);
  const uint64_t span = (nv - 1) * p_.stride + length;  // the versions
  const uint64_t rspan = (nv - 1) * length;             // the relocated space
  if (start + span - 1 > LowMask(p_.addr_w) || reloc + rspan - 1 > LowMask(p_.addr_w)) {
    return -1;
  }
  int free = -1;
  for (int i = 0; i < p_.regions; ++i) {
    const VRegion& r = regions_[static_cast<size_t>(i)];
    if (!r.valid) {
      free = free < 0 ? i : free;
      continue;
    }
    const uint64_t rs = (nv - 1) * p_.stride + r.length, rr = (nv - 1) * r.length;
    if (Overlap(start, span, r.start, rs) || Overlap(reloc, rspan, r.reloc, rr) ||
        Overlap(start, span, r.reloc, rr) || Overlap(reloc, rspan, r.start, rs)) {
      return -1;
    }
  }
  if (free < 0 || Overlap(start, span, reloc, rspan)) {
    return -1;
  }
  VRegion& r = regions_[static_cast<size_t>(free)];
  r.valid = true;
  r.start = start;
  r.length = length;
  r.reloc = reloc;
  r.v.assign(static_cast<size_t>(p_.versions), VVersion{});
  r.v[0].state = VState::kS3;
  return free;
}

int VersionIndexTable::Newest(const VRegion& r) const {
  int best = -1;
  for (int k = 0; k < p_.versions; ++k) {
    const VVersion& v = r.v[static_cast<size_t>(k)];
    if (v.state == VState::kS3 &&
        (best < 0 || v.created > r.v[static_cast<size_t>(best)].created)) {
      best = k;
    }
  }
  return best;
}

VAccess VersionIndexTable::Translate(uint64_t addr, uint64_t ts, bool versioned) const {
  VAccess a;
  a.phys = addr;
  for (int i = 0; i < p_.regions; ++i) {
    const VRegion& r = regions_[static_cast<size_t>(i)];
    if (!r.valid) {
      continue;
    }
    if (addr >= r.start && addr < r.start + r.length) {
      if (!versioned) {
        return a;  // a non-versioned access to the region itself reads it as it is
      }
      int best = -1;
      for (int k = 0; k < p_.versions; ++k) {
        const VVersion& v = r.v[static_cast<size_t>(k)];
        if (v.state == VState::kS3 && v.created <= ts &&
            (best < 0 || v.created > r.v[static_cast<size_t>(best)].created)) {
          best = k;
        }
      }
      a.region = i;
      if (best < 0) {
        a.kind = VAccess::kNoVersion;
        return a;
      }
      a.kind = VAccess::kVersioned;
      a.version = best;
      a.phys = r.start + static_cast<uint64_t>(best) * p_.stride + (addr - r.start);
      return a;
    }
    for (int k = 1; k < p_.versions; ++k) {
      const uint64_t base = r.start + static_cast<uint64_t>(k) * p_.stride;
      if (addr >= base && addr < base + r.length) {
        a.kind = VAccess::kRelocated;
        a.region = i;
        a.phys = r.reloc + static_cast<uint64_t>(k - 1) * r.length + (addr - base);
        return a;
      }
    }
  }
  return a;
}

bool VersionIndexTable::InUse(int region, int version) const {
  return region >= 0 && region < p_.regions && regions_[static_cast<size_t>(region)].valid &&
         version >= 0 && version < p_.versions;
}

int VersionIndexTable::BeginCopy(int region) {
  if (!InUse(region)) {
    return -1;
  }
  VRegion& r = regions_[static_cast<size_t>(region)];
  for (int k = 0; k < p_.versions; ++k) {
    VVersion& v = r.v[static_cast<size_t>(k)];
    if (v.state == VState::kFree || v.state == VState::kS4) {
      v = VVersion{VState::kS1, 0, 0};
      return k;
    }
  }
  return -1;
}

bool VersionIndexTable::CopyDone(int region, int version) {
  if (!InUse(region, version)) {
    return false;
  }
  VVersion& v = regions_[static_cast<size_t>(region)].v[static_cast<size_t>(version)];
  if (v.state != VState::kS1) {
    return false;
  }
  v.state = VState::kS2;
  return true;
}

bool VersionIndexTable::Publish(int region, int version, uint64_t ts) {
  if (!InUse(region, version)) {
    return false;
  }
  VRegion& r = regions_[static_cast<size_t>(region)];
  VVersion& v = r.v[static_cast<size_t>(version)];
  if (v.state != VState::kS2) {
    return false;
  }
  if (ts > LowMask(p_.ts_w)) {
    // Overflow: the version being published is the newest contents; it becomes version of
    // time 0 in every sense, everything else is invalidated.
    for (VRegion& any : regions_) {
      if (!any.valid) {
        continue;
      }
      const int keep = &any == &r ? version : Newest(any);
      for (int k = 0; k < p_.versions; ++k) {
        any.v[static_cast<size_t>(k)] =
            k == keep ? VVersion{VState::kS3, 0, 0} : VVersion{VState::kFree, 0, 0};
      }
    }
    return false;
  }
  v.state = VState::kS3;
  v.created = ts;
  Recycle(r);
  return true;
}

int VersionIndexTable::Acquire(int region, uint64_t ts) {
  if (!InUse(region)) {
    return -1;
  }
  VRegion& r = regions_[static_cast<size_t>(region)];
  const VAccess a = Translate(r.start, ts, true);
  if (a.kind != VAccess::kVersioned ||
      r.v[static_cast<size_t>(a.version)].refs >= LowMask(p_.ref_w)) {
    return -1;
  }
  ++r.v[static_cast<size_t>(a.version)].refs;
  return a.version;
}

bool VersionIndexTable::Release(int region, int version) {
  if (!InUse(region, version)) {
    return false;
  }
  VRegion& r = regions_[static_cast<size_t>(region)];
  VVersion& v = r.v[static_cast<size_t>(version)];
  if (v.refs == 0) {
    return false;
  }
  --v.refs;
  Recycle(r);
  return true;
}

void VersionIndexTable::Recycle(VRegion& r) {
  const int newest = Newest(r);
  for (int k = 0; k < p_.versions; ++k) {
    VVersion& v = r.v[static_cast<size_t>(k)];
    if (k != newest && v.state == VState::kS3 && v.refs == 0) {
      v.state = VState::kS4;
    }
  }
}

void VersionIndexTable::SetVersion(int region, int version, VState s, uint64_t created,
                                   uint64_t refs) {
  regions_[static_cast<size_t>(region)].v[static_cast<size_t>(version)] = {s, created, refs};
}

// ---------------------------------------------------------------------------------------------
// The cycle-exact model
// ---------------------------------------------------------------------------------------------

std::string CheckVersionIndexParams(const VersionIndexParams& p) {
  if (p.addr_w < 8 || p.addr_w > 48) {
    return "AddrW must be in 8..48, got " + std::to_string(p.addr_w);
  }
  if (p.ts_w < 2 || p.ts_w > 48) {
    return "TsW must be in 2..48, got " + std::to_string(p.ts_w);
  }
  if (p.regions < 1 || p.regions > 256) {
    return "Regions must be in 1..256, got " + std::to_string(p.regions);
  }
  if (p.versions < 2 || p.versions > 16) {
    return "Versions must be in 2..16, got " + std::to_string(p.versions);
  }
  if (p.stride_log2 < 1 || p.stride_log2 + 5 > p.addr_w) {
    return "StrideLog2 must be in 1..AddrW-5, got " + std::to_string(p.stride_log2);
  }
  if (p.ref_w < 1 || p.ref_w > 32) {
    return "RefW must be in 1..32, got " + std::to_string(p.ref_w);
  }
  return "";
}

namespace {
VersionIndexTableParams TableParams(const VersionIndexParams& p) {
  if (std::string err = CheckVersionIndexParams(p); !err.empty()) {
    throw std::invalid_argument("htm_version_index: " + err);
  }
  VersionIndexTableParams t;
  t.addr_w = p.addr_w;
  t.ts_w = p.ts_w;
  t.regions = p.regions;
  t.versions = p.versions;
  t.stride = uint64_t{1} << p.stride_log2;
  t.ref_w = p.ref_w;
  return t;
}
}  // namespace

VersionIndexModel::VersionIndexModel(const VersionIndexParams& p) : p_(p), table_(TableParams(p)) {
  Reset();
}

void VersionIndexModel::Reset() {
  table_.Reset();
  cycle_ = ready_at_ = 0;
  results_.clear();
  err_ = false;
}

VersionIndexOut VersionIndexModel::Eval(const VersionIndexIn& in) const {
  (void)in;
  VersionIndexOut o;
  for (const auto& [at, r] : results_) {
    if (at == cycle_) {
      o = r;
      o.res_valid = 1;
    }
  }
  o.op_ready = cycle_ >= ready_at_;
  o.err = err_;
  return o;
}

void VersionIndexModel::Tick(const VersionIndexIn& in) {
  cover_.op_stall += in.op_valid != 0 && cycle_ < ready_at_ ? 1 : 0;
  if (in.op_valid != 0 && cycle_ >= ready_at_) {
    const auto kind = static_cast<VtOp>(in.op_kind & 7);
    VersionIndexOut r = Apply(in);
    // Coverage.
    cover_.bad_op += r.res_err;
    cover_.publish_overflow += r.res_overflow;
    switch (kind) {
      case VtOp::kAddRegion:
        cover_.add_refused += r.res_ok == 0 ? 1 : 0;
        break;
      case VtOp::kTranslate:
        cover_.versioned += r.res_access == VAccess::kVersioned ? 1 : 0;
        cover_.relocated += r.res_access == VAccess::kRelocated ? 1 : 0;
        cover_.no_version += r.res_access == VAccess::kNoVersion ? 1 : 0;
        break;
      case VtOp::kBeginCopy:
        cover_.copy_refused += r.res_ok == 0 ? 1 : 0;
        break;
      case VtOp::kAcquire:
        cover_.acquire_refused += r.res_ok == 0 ? 1 : 0;
        break;
      case VtOp::kRelease:
        cover_.release_refused += r.res_ok == 0 ? 1 : 0;
        break;
      default:
        break;
    }
    uint64_t shown = cycle_ + 2;
    ready_at_ = cycle_ + 1;
    if (kind == VtOp::kAddRegion) {
      shown += static_cast<uint64_t>(p_.regions);
      ready_at_ = shown;
    } else if (kind == VtOp::kPublish) {
      ready_at_ = cycle_ + 2 + (r.res_overflow != 0 ? static_cast<uint64_t>(p_.regions) : 0);
    }
    results_.emplace_back(shown, r);
  }
  ++cycle_;
  std::vector<std::pair<uint64_t, VersionIndexOut>> left;
  for (const auto& e : results_) {
    if (e.first == cycle_ && e.second.res_err != 0) {
      err_ = true;
    }
    if (e.first >= cycle_) {
      left.push_back(e);
    }
  }
  results_.swap(left);
}

VersionIndexOut VersionIndexModel::Apply(const VersionIndexIn& in) {
  VersionIndexOut r;
  const uint64_t kind = in.op_kind & 7;
  const uint64_t addr = in.op_addr & LowMask(p_.addr_w);
  const uint64_t ts = in.op_ts & LowMask(p_.ts_w + 1);
  const int region = static_cast<int>(in.op_region & LowMask(IdxWidth(p_.regions)));
  const int version = static_cast<int>(in.op_version & LowMask(IdxWidth(p_.versions)));
  r.res_kind = kind;
  auto done = [&](bool ok, int reg, int ver) {
    r.res_ok = ok;
    r.res_region = ok ? static_cast<uint64_t>(reg) : 0;
    r.res_version = ok ? static_cast<uint64_t>(ver) : 0;
  };
  switch (kind) {
    case static_cast<uint64_t>(VtOp::kAddRegion): {
      const int got = table_.AddRegion(addr, uint64_t{1} << (in.op_code & 31),
                                       in.op_reloc & LowMask(p_.addr_w));
      done(got >= 0, got, 0);
      break;
    }
    case static_cast<uint64_t>(VtOp::kTranslate): {
      const VAccess a = table_.Translate(addr, ts, in.op_versioned != 0);
      r.res_ok = 1;
      r.res_access = static_cast<uint64_t>(a.kind);
      r.res_region = a.kind == VAccess::kNormal ? 0 : static_cast<uint64_t>(a.region);
      r.res_version = a.kind == VAccess::kVersioned ? static_cast<uint64_t>(a.version) : 0;
      r.res_phys = a.phys;
      break;
    }
    case static_cast<uint64_t>(VtOp::kBeginCopy): {
      const int v = table_.BeginCopy(region);
      done(v >= 0, region, v);
      break;
    }
    case static_cast<uint64_t>(VtOp::kCopyDone):
      done(table_.CopyDone(region, version), region, version);
      break;
    case static_cast<uint64_t>(VtOp::kPublish): {
      const bool s2 = table_.InUse(region, version) &&
                      table_.region(region).v[static_cast<size_t>(version)].state == VState::kS2;
      r.res_overflow = s2 && ts > LowMask(p_.ts_w);
      done(table_.Publish(region, version, ts), region, version);
      break;
    }
    case static_cast<uint64_t>(VtOp::kAcquire): {
      const int v = table_.Acquire(region, ts);
      done(v >= 0, region, v);
      break;
    }
    case static_cast<uint64_t>(VtOp::kRelease):
      done(table_.Release(region, version), region, version);
      break;
    default:
      r.res_err = 1;
      break;
  }
  return r;
}

}  // namespace htm::golden
