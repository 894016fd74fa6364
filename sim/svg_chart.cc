// SPDX-License-Identifier: Apache-2.0
#include "svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace htm::sim {

namespace {

const char* const kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

std::string Escape(const std::string& s) {
  std::string o;
  for (const char ch : s) {
    switch (ch) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += ch;
    }
  }
  return o;
}

std::string Num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

/// A tick step of 1, 2 or 5 times a power of ten giving about five ticks up to `max`.
double TickStep(double max) {
  const double raw = max / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * p >= raw) {
      return m * p;
    }
  }
  return 10 * p;
}

}  // namespace

std::string RenderSvg(const BarChart& c) {
  const bool stacked = !c.segments.empty();
  const size_t ns = std::max<size_t>(c.series.size(), 1);
  const size_t nseg = stacked ? c.segments.size() : 1;
  double max = 0;
  for (const auto& g : c.values) {
    for (const auto& bar : g) {
      double sum = 0;
      for (const double v : bar) {
        sum += std::max(v, 0.0);
      }
      max = std::max(max, sum);
    }
  }
  for (const auto& [v, label] : c.lines) {
    max = std::max(max, v);
  }
  if (max <= 0) {
    max = 1;
  }
  const double step = TickStep(max * 1.05);
  const double top = std::ceil(max * 1.05 / step) * step;

  const double bar_w = 14, group_gap = 18, left = 64, right = 170, plot_h = 260;
  const double head = 40, foot = stacked ? 90 : 60;
  // Text widths are estimated from the font sizes (about 0.6 em a character): a group is wide
  // enough for its label, the chart for its title.
  size_t label = 0;
  for (const std::string& g : c.groups) {
    label = std::max(label, g.size());
  }
  const double group_w =
      std::max(bar_w * static_cast<double>(ns) + group_gap, 6.6 * static_cast<double>(label) + 10);
  const double plot_w = std::max({group_w * static_cast<double>(c.groups.size()), 200.0,
                                  8.6 * static_cast<double>(c.title.size()) - right});
  const double width = left + plot_w + right, height = head + plot_h + foot;
  auto y_of = [&](double v) { return head + plot_h - v / top * plot_h; };

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Num(width) << "\" height=\""
    << Num(height) << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << Num(left) << "\" y=\"20\" font-size=\"14\" font-weight=\"bold\">"
    << Escape(c.title) << "</text>\n";
  // Axes and ticks.
  for (double t = 0; t <= top + step / 2; t += step) {
    o << "<line x1=\"" << Num(left) << "\" x2=\"" << Num(left + plot_w) << "\" y1=\""
      << Num(y_of(t)) << "\" y2=\"" << Num(y_of(t)) << "\" stroke=\"#ddd\"/>\n";
    o << "<text x=\"" << Num(left - 6) << "\" y=\"" << Num(y_of(t) + 4) << "\" text-anchor=\"end\">"
      << Num(t) << "</text>\n";
  }
  o << "<text transform=\"translate(16," << Num(head + plot_h / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << Escape(c.y_label) << "</text>\n";
  // Bars.
  for (size_t g = 0; g < c.groups.size(); ++g) {
    const double gx =
        left + group_w * static_cast<double>(g) + (group_w - bar_w * static_cast<double>(ns)) / 2;
    for (size_t s = 0; s < ns && g < c.values.size() && s < c.values[g].size(); ++s) {
      const double x = gx + bar_w * static_cast<double>(s);
      double base = 0;
      for (size_t k = 0; k < nseg && k < c.values[g][s].size(); ++k) {
        const double v = std::max(c.values[g][s][k], 0.0);
        const char* colour = kColours[(stacked ? k : s) % 8];
        o << "<rect x=\"" << Num(x) << "\" y=\"" << Num(y_of(base + v)) << "\" width=\""
          << Num(bar_w - 1) << "\" height=\"" << Num(y_of(base) - y_of(base + v)) << "\" fill=\""
          << colour << "\"><title>" << Escape(c.groups[g]) << ", "
          << Escape(s < c.series.size() ? c.series[s] : "")
          << (stacked ? ", " + Escape(c.segments[k]) : "") << ": " << Num(v) << "</title></rect>\n";
        base += v;
      }
      if (stacked && s < c.series.size()) {
        o << "<text transform=\"translate(" << Num(x + bar_w / 2 + 3) << ","
          << Num(head + plot_h + 4) << ") rotate(90)\" font-size=\"9\">" << Escape(c.series[s])
          << "</text>\n";
      }
    }
    o << "<text x=\"" << Num(gx + bar_w * static_cast<double>(ns) / 2) << "\" y=\""
      << Num(head + plot_h + (stacked ? 70 : 16)) << "\" text-anchor=\"middle\">"
      << Escape(c.groups[g]) << "</text>\n";
  }
  o << "<line x1=\"" << Num(left) << "\" x2=\"" << Num(left + plot_w) << "\" y1=\"" << Num(y_of(0))
    << "\" y2=\"" << Num(y_of(0)) << "\" stroke=\"black\"/>\n";
  // Reference lines.
  for (const auto& [v, label] : c.lines) {
    o << "<line x1=\"" << Num(left) << "\" x2=\"" << Num(left + plot_w) << "\" y1=\""
      << Num(y_of(v)) << "\" y2=\"" << Num(y_of(v))
      << "\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n";
    o << "<text x=\"" << Num(left + plot_w + 4) << "\" y=\"" << Num(y_of(v) + 4) << "\">"
      << Escape(label) << "</text>\n";
  }
  // Legend.
  const auto& names = stacked ? c.segments : c.series;
  for (size_t i = 0; i < names.size(); ++i) {
    const double y = head + 14 * static_cast<double>(i) + 40;
    o << "<rect x=\"" << Num(left + plot_w + 10) << "\" y=\"" << Num(y - 9)
      << "\" width=\"10\" height=\"10\" fill=\"" << kColours[i % 8] << "\"/>\n";
    o << "<text x=\"" << Num(left + plot_w + 24) << "\" y=\"" << Num(y) << "\">" << Escape(names[i])
      << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace htm::sim
