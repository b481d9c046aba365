// Status and Result<T>: moelog's error values. moelog code does not throw;
// every operation that can fail returns one of these.
#ifndef MOELOG_ENGINE_STATUS_H_
#define MOELOG_ENGINE_STATUS_H_

#include <string>
#include <utility>
#include <variant>

namespace moelog {

// How a Status ends a process (Status::ExitCode). The codes particular to
// logbook commands (4, 6, 7, 130) are logbook/exit_codes.h's.
enum ExitCode : int {
  kExitOk = 0,
  kExitError = 1,       // a run failed
  kExitUsage = 2,       // bad flags, bad values, incompatible combinations
  kExitParse = 3,       // a document could not be understood
  kExitUnsupported = 5,    // this machine cannot run the configuration (a CPU feature is missing)
};

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,  // user input (flags, values) is wrong: exit 2
    kNotFound,
    kNotSupported,     // this machine cannot run it (the message names the way out): exit 5
    kParseError,       // a document cannot be parsed: exit 3
    kIOError,
    kOutOfMemory,      // the shape does not fit: refused before allocation
    kTimeout,
    kKilled,           // a signal from outside ended it (not moelog's bug)
    kInternal,
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return Status(Code::kInvalidArgument, std::move(m)); }
  static Status NotFound(std::string m) { return Status(Code::kNotFound, std::move(m)); }
  static Status NotSupported(std::string m) { return Status(Code::kNotSupported, std::move(m)); }
  static Status ParseError(std::string m) { return Status(Code::kParseError, std::move(m)); }
  static Status IOError(std::string m) { return Status(Code::kIOError, std::move(m)); }
  static Status OutOfMemory(std::string m) { return Status(Code::kOutOfMemory, std::move(m)); }
  static Status Timeout(std::string m) { return Status(Code::kTimeout, std::move(m)); }
  static Status Killed(std::string m) { return Status(Code::kKilled, std::move(m)); }
  static Status Internal(std::string m) { return Status(Code::kInternal, std::move(m)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const;
  // The process exit code this status maps to (0 when ok).
  int ExitCode() const;

 private:
  Status(Code c, std::string m) : code_(c), message_(std::move(m)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// Result<T> holds either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}   // NOLINT: REQUIRES: !status.ok()
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

#define MOELOG_RETURN_IF_ERROR(expr)      \
  do {                                    \
    ::moelog::Status _st = (expr);        \
    if (!_st.ok()) return _st;            \
  } while (0)

// lhs = the value of `expr` (a Result) when it is ok; else returns its status.
#define MOELOG_ASSIGN_OR_RETURN(lhs, expr) MOELOG_ASSIGN_OR_RETURN_(MOELOG_CONCAT_(moelog_result_, __LINE__), lhs, expr)
#define MOELOG_ASSIGN_OR_RETURN_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(*tmp)
#define MOELOG_CONCAT_(a, b) MOELOG_CONCAT_INNER_(a, b)
#define MOELOG_CONCAT_INNER_(a, b) a##b

}  // namespace moelog

#endif  // MOELOG_ENGINE_STATUS_H_
