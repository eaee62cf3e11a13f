// SPDX-License-Identifier: Apache-2.0
#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include <dromedary/core/type_id.h>

namespace dromedary::detail {

TypeInfo& makeTypeInfo(const std::type_info& info) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(info.name(), nullptr, nullptr, &status), std::free);
  // Intentionally leaked: a TypeInfo lives as long as the program (it is referenced from
  // function-local statics that may be used during static destruction).
  return *new TypeInfo{info, status == 0 && demangled ? demangled.get() : info.name()};
}

}  // namespace dromedary::detail
