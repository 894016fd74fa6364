// SPDX-License-Identifier: Apache-2.0
#include "htm/golden/sys_draw_model.h"

#include <sstream>
#include <stdexcept>

namespace htm::golden {

std::string CheckSysDrawParams(const SysDrawParams& p) {
  std::ostringstream os;
  if (p.tag_w < 1 || p.tag_w > 64) {
    os << "htm_sys_draw: TagW " << p.tag_w << " is not in 1..64";
  }
  return os.str();
}

SysDrawModel::SysDrawModel(const SysDrawParams& p) : p_(p) {
  if (const std::string why = CheckSysDrawParams(p); !why.empty()) {
    throw std::invalid_argument(why);
  }
}

void SysDrawModel::Reset() {
  valid_.fill(false);
}

SysDrawOut SysDrawModel::Eval(const SysDrawIn& in) const {
  (void)in;
  SysDrawOut o;
  o.out_valid = valid_[kLatency - 1];
  o.out_value = m2_ ^ (m2_ >> 16);
  o.out_tag = tag_[kLatency - 1];
  return o;
}

void SysDrawModel::Tick(const SysDrawIn& in) {
  constexpr uint32_t kMul1 = 0x7FEB352Du, kMul2 = 0x846CA68Bu;
  m2_ = s2_ * kMul2;
  s2_ = m1_ ^ (m1_ >> 15);
  m1_ = s1_ * kMul1;
  s1_ = x_ ^ (x_ >> 16);
  x_ = static_cast<uint32_t>(in.a ^ in.b);
  for (int i = kLatency - 1; i > 0; --i) {
    valid_[i] = valid_[i - 1];
    tag_[i] = tag_[i - 1];
  }
  valid_[0] = in.in_valid != 0;
  tag_[0] = in.in_tag & LowMask(p_.tag_w);
}

}  // namespace htm::golden
