// An enum's names written once, as a table that both reads a flag's value
// (ValueNamed) and names a value (NameOf).
#ifndef MOELOG_ENGINE_ENUM_NAMES_H_
#define MOELOG_ENGINE_ENUM_NAMES_H_

#include <cstddef>
#include <string>

#include "engine/status.h"

namespace moelog::engine {

template <typename E>
struct Named {
  const char* name;
  E value;
};

// The value `table` names `name`; InvalidArgument "<flag>: unknown <what>
// '<name>'" when it names none.
template <typename E, size_t N>
Result<E> ValueNamed(const Named<E> (&table)[N], const std::string& name, const char* flag, const char* what) {
  for (const Named<E>& n : table)
    if (name == n.name) return n.value;
  return Status::InvalidArgument(std::string(flag) + ": unknown " + what + " '" + name + "'");
}

// The name of `value` in `table`; `otherwise` when it has none.
template <typename E, size_t N>
const char* NameOf(const Named<E> (&table)[N], E value, const char* otherwise = "?") {
  for (const Named<E>& n : table)
    if (n.value == value) return n.name;
  return otherwise;
}

}  // namespace moelog::engine

#endif  // MOELOG_ENGINE_ENUM_NAMES_H_
