#include "logbook/run/progress.h"

#include <algorithm>
#include <cmath>

#include "engine/metrics.h"

namespace moelog::logbook {

BenchWork WorkOfPoint(const engine::BenchConfig& c, const engine::RunPoint& p) {
  const double steps = static_cast<double>(1 + std::max<int64_t>(0, c.warmup) + std::max<int64_t>(0, c.iters));
  engine::BenchConfig at = c;
  at.topk = p.topk;
  const double real = static_cast<double>(c.tokens * p.topk) * (1.0 - p.null_frac);
  return {1, steps * engine::HarnessFlops(at, static_cast<int64_t>(std::llround(real)), 0)};
}

BenchWork WorkOf(const engine::BenchConfig& c) {
  BenchWork w;
  for (const engine::RunPoint& p : engine::ExpandRuns(c)) {
    const BenchWork one = WorkOfPoint(c, p);
    w.runs += one.runs;
    w.flops += one.flops;
  }
  return w;
}

std::string Duration(double seconds) {
  const long long s = std::llround(std::max(0.0, seconds));
  char buf[48];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, s / 60 % 60);
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%llds", s);
  return buf;
}

std::string Printable(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}

double SecondsPerFlop(const std::vector<RunTime>& done, double flops_left, int runs_left) {
  if (runs_left <= 0 || flops_left <= 0) return 0;
  const double least = 0.1 * flops_left / runs_left;
  double seconds = 0, flops = 0;
  for (const RunTime& r : done)
    if (r.flops > 0 && r.flops >= least) {
      seconds += r.seconds;
      flops += r.flops;
    }
  return flops > 0 ? seconds / flops : 0;
}

std::string ProgressLine(const ProgressState& s, double elapsed_s, size_t width) {
  std::string tail(" | ");
  tail.append(Duration(elapsed_s)).append(" elapsed");
  const double flops_left = s.flops_total - s.flops_done;
  if (s.seconds_per_flop > 0 && flops_left > 0 && s.runs_done < s.runs_total) {
    // The run under way counts down from its predicted time (never below 0).
    const double current = std::min(s.current_flops, flops_left);
    const double left = s.seconds_per_flop * (flops_left - current) +
                        std::max(0.0, s.seconds_per_flop * current - s.current_elapsed);
    tail.append(", about ").append(Duration(left)).append(" left");
  } else if (s.runs_done < s.runs_total) {
    tail.append(s.runs_done == 0 ? ", time left known after the first run"
                                 : ", time left known after a run of the size still to do");
  }
  std::string line("[runs ");
  line.append(std::to_string(s.runs_done)).append("/").append(std::to_string(s.runs_total)).append("]");
  std::string what;
  if (!s.current.empty()) what.append(" ").append(Printable(s.current));
  // The configuration gives way first when the terminal line is short.
  const size_t fixed = line.size() + tail.size();
  if (fixed + what.size() > width && width > fixed + 4) {
    what.resize(width - fixed - 3);
    what.append("...");
  }
  line.append(what).append(tail);
  return line;
}

RunProgress::RunProgress(bool on, std::FILE* out) : on_(on), out_(out), start_(std::chrono::steady_clock::now()) {
  if (!on_) return;
  ticker_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      if (wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; })) break;
      if (drawn_) Draw();
    }
  });
}

RunProgress::~RunProgress() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    if (drawn_) std::fprintf(out_, "\n");
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void RunProgress::Plan(const BenchWork& w) {
  std::lock_guard<std::mutex> lock(mu_);
  s_.runs_total += w.runs;
  s_.flops_total += w.flops;
}

void RunProgress::Start(const std::string& what, double flops) {
  std::lock_guard<std::mutex> lock(mu_);
  s_.current = what;
  under_way_.push_back({std::chrono::steady_clock::now(), flops});
  Draw();
}

// The run that ends is the oldest under way of its FLOPs (runs of one size
// are alike), else the oldest; a finished one gives its time to the rate.
void RunProgress::EndRun(double flops, bool ok) {
  if (under_way_.empty()) return;
  auto it = std::find_if(under_way_.begin(), under_way_.end(), [&](const Pending& p) { return p.flops == flops; });
  if (it == under_way_.end()) it = under_way_.begin();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - it->start).count();
  if (ok) finished_.push_back({seconds, flops});
  under_way_.erase(it);
}

void RunProgress::Finish(const BenchWork& w, bool erase) {
  std::lock_guard<std::mutex> lock(mu_);
  s_.runs_done += w.runs;
  s_.flops_done += w.flops;
  EndRun(w.flops, /*ok=*/true);
  if (!erase) return Draw();
  if (on_ && drawn_) std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

void RunProgress::Skip(const BenchWork& w) {
  std::lock_guard<std::mutex> lock(mu_);
  s_.runs_done += w.runs;
  s_.flops_total -= w.flops;
  EndRun(w.flops, /*ok=*/false);
  Draw();
}

void RunProgress::Draw() {
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  const double el = std::chrono::duration<double>(now - start_).count();
  s_.seconds_per_flop = SecondsPerFlop(finished_, s_.flops_total - s_.flops_done, s_.runs_total - s_.runs_done);
  s_.current_flops = under_way_.empty() ? 0 : under_way_.back().flops;
  s_.current_elapsed = under_way_.empty() ? 0 : std::chrono::duration<double>(now - under_way_.back().start).count();
  std::fprintf(out_, "\r\033[K%s", ProgressLine(s_, el).c_str());
  std::fflush(out_);
  drawn_ = true;
}

}  // namespace moelog::logbook
