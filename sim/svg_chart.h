// SPDX-License-Identifier: Apache-2.0
//
// Grouped (optionally stacked) bar charts as standalone SVG, for htmsim's report.
#pragma once

#include <string>
#include <vector>

namespace htm::sim {

struct BarChart {
  std::string title;
  std::string y_label;
  std::vector<std::string> groups;  // along the x axis, e.g. workloads
  std::vector<std::string> series;  // the bars of a group, e.g. TM configurations
  /// The segments of a stacked bar, e.g. abort causes; empty for plain bars. With segments the
  /// colours name the segments and each bar is labelled with its series below the axis.
  std::vector<std::string> segments;
  /// values[group][series][segment] (one segment for plain bars). Negative values are drawn
  /// as zero.
  std::vector<std::vector<std::vector<double>>> values;
  /// Horizontal reference lines: value and label (e.g. 1.0, or a paper's figure).
  std::vector<std::pair<double, std::string>> lines;
};

/// The chart as a complete SVG document.
std::string RenderSvg(const BarChart& c);

}  // namespace htm::sim
