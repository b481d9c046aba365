// `moelog next`'s exploration: the prior of the model's error on a path it
// was not fitted on, compounded per unvalidated key, and the order in which
// exploration is proposed (fewest changed keys first, then the interval's
// lower end).
#include <algorithm>
#include <cmath>

#include "logbook/research/next_internal.h"

namespace moelog::logbook::next_internal {

PriorBand ExplorationPrior(double lopo_lo, double lopo_hi, const std::vector<double>& history) {
  PriorBand b;
  b.lo = lopo_lo;
  b.hi = lopo_hi;
  b.history = static_cast<int>(history.size());
  for (double r : history) {
    if (!(r > 0) || !std::isfinite(r)) continue;
    b.history_lo = std::min(b.history_lo, r);
    b.history_hi = std::max(b.history_hi, r);
  }
  // The wider of the two on each side: a path's first measurement in this
  // logbook is as much evidence of the model's error off its fit as a
  // left-out path of the calibration data.
  b.lo = std::min(b.lo, b.history_lo);
  b.hi = std::max(b.hi, b.history_hi);
  // Never a point: at least +-5%.
  b.lo = std::min(b.lo, 0.95);
  b.hi = std::max(b.hi, 1.05);
  return b;
}

std::pair<double, double> CompoundPrior(const PriorBand& prior, size_t keys) {
  // Each unvalidated key is a part of the model no measurement checked; its
  // error multiplies the figure, so the log-widths add (the worst case of
  // errors that may share a sign): a combination is never narrower than
  // any of its parts.
  const double k = static_cast<double>(std::max<size_t>(1, keys));
  return {std::pow(prior.lo, k), std::pow(prior.hi, k)};
}

std::vector<Proposal> RankExploration(std::vector<Proposal> props, double best, size_t n) {
  // An interval wholly at or below the best cannot improve on it.
  props.erase(std::remove_if(props.begin(), props.end(), [&](const Proposal& p) { return !(p.hi > best); }),
              props.end());
  std::stable_sort(props.begin(), props.end(), [](const Proposal& a, const Proposal& b) {
    if (a.candidate.changes.size() != b.candidate.changes.size())
      return a.candidate.changes.size() < b.candidate.changes.size();
    if (a.lo != b.lo) return a.lo > b.lo;
    return a.hi > b.hi;
  });
  // Equal figures differ only in keys the model does not distinguish: the
  // first (fewest keys) stands for them.
  std::vector<Proposal> out;
  for (auto& p : props) {
    if (out.size() >= n) break;
    const bool same = std::any_of(out.begin(), out.end(), [&](const Proposal& q) {
      return std::fabs(q.uncalibrated - p.uncalibrated) <= 1e-9 * std::max(q.uncalibrated, p.uncalibrated);
    });
    if (!same) out.push_back(std::move(p));
  }
  return out;
}

}  // namespace moelog::logbook::next_internal
