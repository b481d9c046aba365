// The gnuplot process that draws charts (chart.cc DrawChart).
//
// Starting gnuplot costs far more than drawing one chart (about 10 ms of
// dynamic linking against its 5 ms of drawing), so an update draws all its
// charts with one process: a SharedGnuplot scope. Each chart's script runs
// after a reset that leaves gnuplot as a fresh process leaves it (the same
// chart bytes: tests/logbook/render/chart_gnuplot_test.cc), and ends with a
// marker line on gnuplot's stderr, so moelog knows the chart is finished and
// which messages are its own. A chart that runs past its time limit, or a
// gnuplot that dies, fails that chart only: the next chart starts a new
// process.
#ifndef MOELOG_LOGBOOK_RENDER_CHART_GNUPLOT_H_
#define MOELOG_LOGBOOK_RENDER_CHART_GNUPLOT_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/status.h"

namespace gnuplotio {
class Gnuplot;  // gnuplot-iostream.h
}

namespace moelog::logbook {

class GnuplotSession {
 public:
  // `chart_seconds`: the longest one chart may take (gnuplot draws one in
  // well under a second; one that runs this long is stuck and is stopped).
  explicit GnuplotSession(int chart_seconds = 60);
  ~GnuplotSession();
  GnuplotSession(const GnuplotSession&) = delete;
  GnuplotSession& operator=(const GnuplotSession&) = delete;

  // Runs `script` in `dir` (a path DrawChart has checked) and returns what
  // gnuplot wrote to stderr meanwhile, trailing space removed. IOError when
  // gnuplot cannot start, exits, or runs past the time limit (it is then
  // stopped, with what it said).
  Result<std::string> Run(const std::string& dir, const std::string& script);
  // Ends the process; the next Run starts another (after a chart that came
  // out incomplete, whose script may have left gnuplot in any state).
  void Retire();
  // Processes started so far.
  int started() const { return started_; }

 private:
  Status Start();
  // Writes `text` to gnuplot and reads its stderr until the marker line;
  // false (with `*why`) when gnuplot ended or the deadline passed first.
  bool Exchange(const std::string& text, const std::string& marker, std::string* messages, std::string* why);

  int chart_seconds_;
  pid_t pid_ = -1;  // `timeout` (its own process group, gnuplot inside), -1: none
  std::unique_ptr<gnuplotio::Gnuplot> in_;  // gnuplot's stdin (gnuplot-iostream)
  int err_fd_ = -1;
  uint64_t nonce_ = 0;  // random per session: no text of a chart can end it early
  int charts_ = 0;  // charts this process has drawn
  int started_ = 0;
  uint64_t serial_ = 0;
  std::chrono::steady_clock::time_point since_;
};

// While one lives, the charts DrawChart draws on this thread share its
// gnuplot process; otherwise each chart starts its own. Scopes nest (the
// innermost is used).
class SharedGnuplot {
 public:
  explicit SharedGnuplot(int chart_seconds = 60);
  ~SharedGnuplot();
  SharedGnuplot(const SharedGnuplot&) = delete;
  SharedGnuplot& operator=(const SharedGnuplot&) = delete;
  GnuplotSession& session() { return session_; }
  // The innermost live scope's session on this thread, or null.
  static GnuplotSession* Current();

 private:
  GnuplotSession session_;
  GnuplotSession* outer_;
};

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_RENDER_CHART_GNUPLOT_H_
