#include "logbook/render/chart_gnuplot.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <gnuplot-iostream.h>

#include "engine/format.h"
#include "logbook/run/runner.h"

namespace moelog::logbook {
namespace {

// `timeout` bounds the whole process (a gnuplot left behind by a killed
// moelog ends by then); a process is retired before a chart could outlive it.
constexpr int kProcessSeconds = 600;
// gnuplot's messages kept for one chart (a chart that warns on every point
// must not grow moelog's memory).
constexpr size_t kMaxMessages = 64 * 1024;

// What a fresh gnuplot is, after a chart: `reset session` restores settings
// and variables, but the svg driver keeps its last colour in a static that
// only a drawing resets; the test page leaves it as a fresh process has it.
// Drawn into /dev/null.
constexpr const char* kAfterChart =
    "set terminal svg\nset output '/dev/null'\ntest\nunset output\nreset session\n";

thread_local GnuplotSession* g_current = nullptr;

// Ignores SIGPIPE while it lives: a gnuplot that exits early must not kill
// moelog while it writes the script.
class NoSigpipe {
 public:
  NoSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &old_);
  }
  ~NoSigpipe() { ::sigaction(SIGPIPE, &old_, nullptr); }

 private:
  struct sigaction old_ {};
};

std::string Trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

}  // namespace

GnuplotSession::GnuplotSession(int chart_seconds) : chart_seconds_(std::max(1, chart_seconds)) {}

GnuplotSession::~GnuplotSession() { Retire(); }

Status GnuplotSession::Start() {
  // gnuplot runs under `timeout` in a process group of its own, started
  // directly (no shell) with the clean environment every child of moelog
  // gets; its script comes on a pipe and its messages go to another.
  std::vector<std::string> args = {MOELOG_TIMEOUT, "-k", "5", std::to_string(kProcessSeconds), MOELOG_GNUPLOT};
  std::vector<std::string> env_text;
  for (const auto& [k, v] : ChildEnvironment()) env_text.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  int in[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return Status::IOError("cannot run gnuplot: no pipe");
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return Status::IOError("cannot run gnuplot: no pipe");
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(err[0]);
    return Status::IOError(std::string("cannot run gnuplot: ") + std::strerror(rc));
  }
  ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
  pid_ = pid;
  FILE* in_fh = ::fdopen(in[1], "w");
  if (!in_fh) {
    ::close(in[1]);
    ::close(err[0]);
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return Status::IOError("cannot run gnuplot: no stream to its input");
  }
  in_ = std::make_unique<gnuplotio::Gnuplot>(in_fh);  // closes in_fh when reset
  if (::getrandom(&nonce_, sizeof nonce_, 0) != static_cast<ssize_t>(sizeof nonce_))
    nonce_ = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^ (uint64_t{0x9e3779b97f4a7c15} * static_cast<uint64_t>(pid));
  err_fd_ = err[0];
  charts_ = 0;
  ++started_;
  since_ = std::chrono::steady_clock::now();
  return Status::Ok();
}

void GnuplotSession::Retire() {
  if (pid_ < 0) return;
  NoSigpipe no_sigpipe;  // closing the input flushes it
  // End of input: gnuplot exits (every chart's output is closed by now).
  // One that does not within a few seconds is killed with its `timeout`.
  in_.reset();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(-pid_, SIGKILL);
      break;
    }
    pollfd p{err_fd_, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno != EINTR) {
      ::kill(-pid_, SIGKILL);
      break;
    }
    if (rc <= 0) continue;
    const ssize_t n = ::read(err_fd_, buf, sizeof buf);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;  // gnuplot's stderr closed: it ended
  }
  ::close(err_fd_);
  err_fd_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

bool GnuplotSession::Exchange(const std::string& text, const std::string& marker, std::string* messages,
                              std::string* why) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(chart_seconds_);
  const std::string line = marker + "\n";
  // A few short commands (the chart's script is a file gnuplot loads): they
  // fit the pipe while gnuplot works, so writing them never waits on it. A
  // gnuplot that is gone shows as the end of its messages below.
  try {
    *in_ << text << std::flush;
  } catch (const std::exception&) {
  }
  std::string got;  // stderr since the commands were sent
  char buf[8192];
  for (;;) {
    const size_t at = got.find(line);
    if (at != std::string::npos && (at == 0 || got[at - 1] == '\n')) {
      *messages = got.substr(0, std::min(at, kMaxMessages));
      return true;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      *messages = got.substr(0, kMaxMessages);
      *why = "gnuplot took longer than " + std::to_string(chart_seconds_) + " s and was stopped";
      return false;
    }
    pollfd p{err_fd_, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno != EINTR) {
      *why = std::string("cannot wait for gnuplot: ") + std::strerror(errno);
      return false;
    }
    if (rc <= 0) continue;
    const ssize_t r = ::read(err_fd_, buf, sizeof buf);
    if (r > 0) {
      got.append(buf, static_cast<size_t>(r));
      // Keep the head (gnuplot's first complaint is the telling one) and
      // enough of the tail to see the marker.
      if (got.size() > 4 * kMaxMessages) got.erase(kMaxMessages, got.size() - 2 * kMaxMessages);
    } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
      *messages = got.substr(0, kMaxMessages);
      *why = "gnuplot exited before the chart was finished";
      return false;
    }
  }
}

Result<std::string> GnuplotSession::Run(const std::string& dir, const std::string& script) {
  NoSigpipe no_sigpipe;
  // A process near the end of its `timeout` is not given another chart.
  if (pid_ >= 0 && std::chrono::steady_clock::now() - since_ >
                       std::chrono::seconds(kProcessSeconds - chart_seconds_ - 10))
    Retire();
  if (pid_ < 0) MOELOG_RETURN_IF_ERROR(Start());
  // The script goes into a file of moelog's beside the chart, which gnuplot
  // `load`s: it reads a pipe one byte a system call, a file by the block
  // (three times faster for an update's charts). An error stops the rest of
  // the file; the marker comes all the same.
  std::string path_buf = dir + "/.moelog-tmp-XXXXXX.plt";  // RemoveStaleTemporaries clears one a kill leaves
  const int fd = ::mkstemps(path_buf.data(), 4);
  if (fd < 0) return Status::IOError(dir + ": cannot create a temporary file for gnuplot's script");
  const std::string path = path_buf;
  const bool written = ::write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size());
  ::close(fd);
  if (!written) {
    ::unlink(path.c_str());
    return Status::IOError(path + ": cannot write gnuplot's script");
  }
  const std::string marker = "moelog-chart-done " + engine::Hex16(nonce_) + " " + std::to_string(++serial_);
  std::string text = charts_ > 0 ? kAfterChart : "";
  text += "cd '" + dir + "'\nload '" + path.substr(dir.size() + 1) + "'\nprint '" + marker + "'\n";
  std::string messages, why;
  const bool done = Exchange(text, marker, &messages, &why);
  ::unlink(path.c_str());
  if (!done) {
    ::kill(-pid_, SIGKILL);
    Retire();
    messages = Trimmed(messages);
    return Status::IOError(why + (messages.empty() ? "" : ": " + messages));
  }
  ++charts_;
  return Trimmed(messages);
}

SharedGnuplot::SharedGnuplot(int chart_seconds) : session_(chart_seconds), outer_(g_current) { g_current = &session_; }

SharedGnuplot::~SharedGnuplot() { g_current = outer_; }

GnuplotSession* SharedGnuplot::Current() { return g_current; }

}  // namespace moelog::logbook
