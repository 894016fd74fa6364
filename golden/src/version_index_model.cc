// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/version_index_model.h"

#include <stdexcept>

#include "htm/golden/ports.h"

namespace htm::golden {

std::string CheckVersionIndexParams(const VersionIndexParams& p) {
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
  return "";
}

VersionIndexTable::VersionIndexTable(const VersionIndexParams& p) : p_(p) {
  if (std::string err = CheckVersionIndexParams(p); !err.empty()) {
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

int VersionIndexTable::BeginCopy(int region) {
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
  VVersion& v = regions_[static_cast<size_t>(region)].v[static_cast<size_t>(version)];
  if (v.state != VState::kS1) {
    return false;
  }
  v.state = VState::kS2;
  return true;
}

bool VersionIndexTable::Publish(int region, int version, uint64_t ts) {
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
  VRegion& r = regions_[static_cast<size_t>(region)];
  const VAccess a = Translate(r.start, ts, true);
  if (a.kind != VAccess::kVersioned) {
    return -1;
  }
  ++r.v[static_cast<size_t>(a.version)].refs;
  return a.version;
}

bool VersionIndexTable::Release(int region, int version) {
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

}  // namespace htm::golden
