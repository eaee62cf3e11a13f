// SPDX-License-Identifier: Apache-2.0
#include "json_input.h"

#include <fmt/format.h>

#include "json_text.h"

namespace dromedary::component::json {

Result<InputSource> inputSource(const EndpointOptions& o, std::string_view language) {
  InputSource s;
  if (const std::string& h = o.getString("headerName"); !h.empty()) {
    s.kind = InputSource::Kind::Header;
    s.name = h;
  }
  if (const std::string& p = o.getString("propertyName"); !p.empty()) {
    s.kind = InputSource::Kind::Property;
    s.name = p;
  }
  const std::string& src = o.getString("source");
  if (src.empty() || src == "body") return s;
  if (src.starts_with("header:")) {
    s.kind = InputSource::Kind::Header;
    s.name = src.substr(7);
  } else if (src.starts_with("property:") || src.starts_with("exchangeProperty:")) {
    s.kind = InputSource::Kind::Property;
    s.name = src.substr(src.find(':') + 1);
  } else {
    return makeError(ErrorCode::InvalidExpression,
                     fmt::format("{} source must be body, header:NAME or property:NAME, not '{}'",
                                 language, src));
  }
  return s;
}

Result<ResultType> resultType(const std::string& name, std::string_view language) {
  std::string_view type = name;
  if (type.starts_with("java.lang.")) type.remove_prefix(10);
  if (type.empty() || type == "Object" || type.find("Map") != std::string_view::npos ||
      type.find("List") != std::string_view::npos || type.find("JsonNode") != std::string_view::npos) {
    return ResultType::None;
  }
  if (type == "String") return ResultType::String;
  if (type == "Integer" || type == "Long" || type == "int" || type == "long") return ResultType::Long;
  if (type == "Double" || type == "Float" || type == "double") return ResultType::Double;
  if (type == "Boolean" || type == "boolean") return ResultType::Boolean;
  return makeError(ErrorCode::InvalidExpression,
                   fmt::format("{} resultType '{}' cannot be made here: String, Integer, Long, "
                               "Double, Boolean, or a map or list type",
                               language, name));
}

const Value* selectInput(const Exchange& ex, const InputSource& s) noexcept {
  switch (s.kind) {
    case InputSource::Kind::Header: return ex.message().getHeader(s.name);
    case InputSource::Kind::Property: return ex.getProperty(s.name);
    case InputSource::Kind::Body: break;
  }
  return &ex.message().body();
}

std::string missingInput(const InputSource& s) {
  if (s.kind == InputSource::Kind::Body) return "the body is null";
  return fmt::format("there is no {} '{}'", s.kind == InputSource::Kind::Header ? "header" : "property",
                     s.name);
}

Result<void> convertResult(Value& v, ResultType type) {
  if (type == ResultType::None || v.isNull()) return {};
  try {
    switch (type) {
      case ResultType::String:
        if (v.isList() || v.isMap()) {
          std::string text;
          DROMEDARY_TRY_VOID(writeJson(v, text));
          v = Value(std::move(text));
        } else {
          v = Value(v.as<std::string>());
        }
        break;
      case ResultType::Long: v = Value(v.as<int64_t>()); break;
      case ResultType::Double: v = Value(v.as<double>()); break;
      case ResultType::Boolean: v = Value(v.as<bool>()); break;
      case ResultType::None: break;
    }
  } catch (const std::exception& e) {
    return makeError(ErrorCode::TypeConversion, fmt::format("the result cannot be converted: {}", e.what()));
  }
  return {};
}

}  // namespace dromedary::component::json
