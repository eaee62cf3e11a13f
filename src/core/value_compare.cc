// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/value_compare.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/text.h"

namespace dromedary {

namespace {

struct Number {
  bool isInt;
  int64_t i;
  double d;
};

std::optional<Number> numberOf(const Value& v) noexcept {
  if (v.isInt()) return Number{true, v.getInt(), static_cast<double>(v.getInt())};
  if (v.isDouble()) return Number{false, 0, v.getDouble()};
  std::string_view s;
  if (v.isString()) {
    s = trim(v.getString());
  } else if (v.isBytes()) {
    s = trim(v.getBytes().view());
  } else {
    return std::nullopt;
  }
  if (s.empty()) return std::nullopt;
  std::string_view digits = s.front() == '+' ? s.substr(1) : s;
  int64_t i = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
  if (ec == std::errc() && ptr == digits.data() + digits.size()) {
    return Number{true, i, static_cast<double>(i)};
  }
  double d = 0;
  auto [dptr, dec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
  if (dec == std::errc() && dptr == digits.data() + digits.size()) return Number{false, 0, d};
  return std::nullopt;
}

// Text made only of digits ("0001"), which Camel compares as a number when both sides are.
bool isDigitText(const Value& v, std::string_view& digits) noexcept {
  if (v.isString()) {
    digits = v.getString();
  } else if (v.isBytes()) {
    digits = v.getBytes().view();
  } else {
    return false;
  }
  if (digits.empty()) return false;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Compares two digit texts by value, whatever their length (no overflow): as Camel 4's
// typeCoerceCompare, two texts that are both numbers ("2" and "10") compare as numbers.
int compareDigitTexts(std::string_view a, std::string_view b) noexcept {
  while (a.size() > 1 && a.front() == '0') a.remove_prefix(1);
  while (b.size() > 1 && b.front() == '0') b.remove_prefix(1);
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

int compareNumbers(const Number& a, const Number& b) noexcept {
  if (a.isInt && b.isInt) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  return a.d < b.d ? -1 : a.d > b.d ? 1 : 0;
}

thread_local std::string buffer_a;
thread_local std::string buffer_b;

}  // namespace

std::string_view stringForm(const Value& v, std::string& buffer) noexcept {
  if (v.isString()) return v.getString();
  if (v.isBytes()) return v.getBytes().view();
  buffer.clear();
  try {
    v.appendTo(buffer);
  } catch (...) {
    buffer.clear();
  }
  return buffer;
}

bool coerceEquals(const Value& a, const Value& b) noexcept {
  if (a.isString() && b.isString()) {  // the usual case: a text header against a literal
    const std::string& x = a.getString();
    const std::string& y = b.getString();
    if (x == y) return true;
    std::string_view dx;
    std::string_view dy;
    return isDigitText(a, dx) && isDigitText(b, dy) && compareDigitTexts(dx, dy) == 0;
  }
  if (a.isNull() || b.isNull()) return a.isNull() && b.isNull();
  std::string_view da;
  std::string_view db;
  if (isDigitText(a, da) && isDigitText(b, db)) return compareDigitTexts(da, db) == 0;
  if (a.isNumber() || b.isNumber()) {
    auto na = numberOf(a);
    auto nb = numberOf(b);
    if (na && nb) return compareNumbers(*na, *nb) == 0;
  }
  if (a.isBool() || b.isBool()) {
    auto ba = a.tryAs<bool>();
    auto bb = b.tryAs<bool>();
    if (ba && bb) return *ba == *bb;
    return false;
  }
  if (a.type() == b.type() && !a.isString() && !a.isBytes()) return a == b;
  return stringForm(a, buffer_a) == stringForm(b, buffer_b);
}

std::optional<int> coerceCompare(const Value& a, const Value& b) noexcept {
  if (a.isNull() || b.isNull()) return std::nullopt;
  std::string_view da;
  std::string_view db;
  if (isDigitText(a, da) && isDigitText(b, db)) return compareDigitTexts(da, db);
  auto na = numberOf(a);
  auto nb = numberOf(b);
  if (na && nb && (a.isNumber() || b.isNumber())) return compareNumbers(*na, *nb);
  if (a.isBool() && b.isBool()) return static_cast<int>(a.getBool()) - b.getBool();
  int c = stringForm(a, buffer_a).compare(stringForm(b, buffer_b));
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

bool coerceContains(const Value& a, const Value& b) noexcept {
  if (a.isNull() || b.isNull()) return false;
  if (a.isList()) {
    for (const Value& item : a.getList()) {
      if (coerceEquals(item, b)) return true;
    }
    return false;
  }
  if (a.isMap()) {
    std::string_view key = stringForm(b, buffer_b);
    return a.mapGet(key) != nullptr;
  }
  return stringForm(a, buffer_a).find(stringForm(b, buffer_b)) != std::string_view::npos;
}

bool coerceStartsWith(const Value& a, const Value& b) noexcept {
  if (a.isNull() || b.isNull()) return false;
  return stringForm(a, buffer_a).starts_with(stringForm(b, buffer_b));
}

bool coerceEndsWith(const Value& a, const Value& b) noexcept {
  if (a.isNull() || b.isNull()) return false;
  return stringForm(a, buffer_a).ends_with(stringForm(b, buffer_b));
}

}  // namespace dromedary
