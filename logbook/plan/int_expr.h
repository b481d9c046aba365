// Stage plan/: a small arithmetic evaluator for adapter rules that compute a
// value from others (`BENCH_BATCH * 128`). Integers only; + - * /, unary
// minus, parentheses and names; nothing else. An expression is someone
// else's data: it is at most kMaxExprChars long, nests at most kMaxDepth
// parentheses, and is evaluated in one pass (linear time), with overflow and
// division by zero reported, never undefined.
#ifndef MOELOG_LOGBOOK_PLAN_INT_EXPR_H_
#define MOELOG_LOGBOOK_PLAN_INT_EXPR_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace moelog::logbook {

inline constexpr size_t kMaxExprChars = 256;
inline constexpr int kMaxExprDepth = 16;

// The value of a name, or nullopt when it has none (the error names it).
using NameValue = std::function<std::optional<int64_t>(const std::string& name)>;

// Evaluates `expr`. Errors: InvalidArgument naming what is wrong ("unknown
// name BENCH_SEQ", "division by zero", "overflow", "unexpected 'x' at 5").
Result<int64_t> EvalIntExpr(std::string_view expr, const NameValue& value_of);

// The names `expr` reads, or an error when it does not parse (names are
// not looked up): for checking an adapter when it is loaded.
Result<std::vector<std::string>> IntExprNames(std::string_view expr);

}  // namespace moelog::logbook

#endif  // MOELOG_LOGBOOK_PLAN_INT_EXPR_H_
