// SPDX-License-Identifier: Apache-2.0
#include "json_input.h"

#include <dromedary/core/file_body.h>

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
    // variable:NAME, or a bare NAME: Camel reads anything else as a variable's name.
    s.kind = InputSource::Kind::Variable;
    s.name = src.starts_with("variable:") ? src.substr(9) : src;
    if (s.name.empty() || s.name.starts_with("global:") || s.name.starts_with("route:") ||
        s.name.find(':') != std::string::npos) {
      return makeError(ErrorCode::InvalidExpression,
                       fmt::format("{} source '{}': body, header:NAME, property:NAME or "
                                   "variable:NAME (the exchange's own variables; global: and "
                                   "route: ones cannot be read here)",
                                   language, src));
    }
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
  // Java's class names and the primitive names Camel's type resolver also takes.
  if (type == "String" || type == "string") return ResultType::String;
  if (type == "Integer" || type == "Long" || type == "Short" || type == "int" || type == "long" ||
      type == "short" || type == "integer") {
    return ResultType::Long;
  }
  if (type == "Double" || type == "Float" || type == "double" || type == "float") {
    return ResultType::Double;
  }
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
    case InputSource::Kind::Variable: return ex.getVariable(s.name);
    case InputSource::Kind::Body: break;
  }
  return &ex.message().body();
}

const Value* readFileInput(const Value* input, Value& scratch) {
  if (!input || !input->getIf<FileBody>()) return input;
  scratch = *input;
  loadFileBody(scratch);
  return &scratch;
}

std::string missingInput(const InputSource& s) {
  if (s.kind == InputSource::Kind::Body) return "the body is null";
  const char* kind = s.kind == InputSource::Kind::Header     ? "header"
                     : s.kind == InputSource::Kind::Property ? "property"
                                                             : "variable";
  return fmt::format("there is no {} '{}'", kind, s.name);
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
