// SPDX-License-Identifier: Apache-2.0
#pragma once

/// TypeId: a cheap identity for a C++ type, used by Value's user objects and the
/// type-converter registry. Comparing two ids is a pointer comparison.

#include <string>
#include <string_view>
#include <typeinfo>

namespace dromedary {

/// Static description of one type. One instance per type for the life of the program.
struct TypeInfo {
  const std::type_info& cpp;
  std::string name;  ///< the demangled C++ name, or the name given to registerTypeName()
};
using TypeId = const TypeInfo*;

namespace detail {
TypeInfo& makeTypeInfo(const std::type_info& info);
template <class T>
struct TypeTag {
  static TypeInfo& info() {
    static TypeInfo& instance = makeTypeInfo(typeid(T));
    return instance;
  }
};
}  // namespace detail

/// The TypeId of T (cv-qualifiers and references removed).
template <class T>
TypeId typeIdOf() {
  return &detail::TypeTag<std::remove_cvref_t<T>>::info();
}

/// Gives T a name for messages and route files (e.g. "com.acme.Order"). Call at start-up.
template <class T>
void registerTypeName(std::string name) {
  detail::TypeTag<std::remove_cvref_t<T>>::info().name = std::move(name);
}

}  // namespace dromedary
