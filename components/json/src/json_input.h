// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the json component's languages (jsonpath, jq) share: where they read (the body, a
// header or an exchange property) and how they convert their result (resultType).

#include <string>
#include <string_view>

#include <dromedary/core/exchange.h>
#include <dromedary/core/result.h>
#include <dromedary/spi/option_table.h>

namespace dromedary::component::json {

struct InputSource {
  enum class Kind { Body, Header, Property, Variable } kind = Kind::Body;
  std::string name;  ///< the header's, property's or (the exchange's own) variable's
};

enum class ResultType { None, String, Long, Double, Boolean };

/// The source from the options headerName, propertyName and Camel 4's source (body,
/// header:NAME, property:NAME, variable:NAME, or a bare NAME: a variable, as Camel's);
/// `language` names it in errors.
Result<InputSource> inputSource(const EndpointOptions& options, std::string_view language);

/// resultType's target: String, Integer/Long, Double/Float, Boolean (java.lang.* too); a map or
/// list type (or none) is None; another type is an error.
Result<ResultType> resultType(const std::string& name, std::string_view language);

/// The value the source names, or null when there is none.
const Value* selectInput(const Exchange& exchange, const InputSource& source) noexcept;

/// "the body is null", "there is no header 'x'": what to say when selectInput found nothing.
std::string missingInput(const InputSource& source);

/// `input`, or, when it is a file body (the file consumer's), the file's text read into
/// `scratch`. Throws std::runtime_error naming the file when it cannot be read.
const Value* readFileInput(const Value* input, Value& scratch);

/// Converts `value` to `type` (maps and lists to JSON text for String); an error says why not.
Result<void> convertResult(Value& value, ResultType type);

}  // namespace dromedary::component::json
