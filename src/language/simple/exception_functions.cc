// SPDX-License-Identifier: Apache-2.0
#include "language/simple/exception_functions.h"

#include <cctype>
#include <string>

#include <fmt/format.h>

#include <dromedary/core/exception_fields.h>

#include "language/simple/parser.h"

namespace dromedary::simplelang {

namespace {

// The failure on the exchange: the error slot, else the failure an error handler or doCatch
// is handling (Exchange::caughtError), else the CamelExceptionCaught property; null if none.
// ${exception}: the failure's whole description; ${exception.message}: what the failure
// itself says (a thrown exception's what(), as Camel's getMessage()).
class ExceptionNode final : public Expression {
 public:
  explicit ExceptionNode(bool cause_only) : cause_only_(cause_only) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    if (ex.failed()) {
      try {
        scratch.setString(cause_only_ ? ex.error().causeMessage() : ex.error().message());
      } catch (...) {
        return &nullValue();
      }
      return &scratch;
    }
    if (const ExchangeError* handled = ex.caughtError()) {
      try {
        scratch.setString(cause_only_ ? handled->causeMessage() : handled->message());
      } catch (...) {
        return &nullValue();
      }
      return &scratch;
    }
    const Value* caught = ex.getProperty("CamelExceptionCaught");
    return caught ? caught : &nullValue();
  }

 private:
  bool cause_only_;
};

// ${exception.NAME} (or ${exception.getName()}): a field of the failure's exception, as Camel
// reads a getter (${exception.statusCode} of an HttpOperationFailedException). Null when
// there is no failure or its exception has no fields; a name the exception does not have
// fails the expression, naming the ones it has.
class ExceptionFieldNode final : public Expression {
 public:
  explicit ExceptionFieldNode(std::string field) : field_(std::move(field)) {}

  const Value* evaluate(Exchange& ex, Value&) const noexcept override {
    const ExchangeError* error = ex.failed() ? &ex.error() : ex.caughtError();
    if (!error || !error->exception) return &nullValue();
    try {
      std::rethrow_exception(error->exception);
    } catch (const ExceptionWithFields& fields) {
      if (const Value* v = fields.field(field_)) return v;
      try {
        ex.failWithDetail(ErrorCode::EvaluationFailed, "Cannot evaluate simple expression",
                          fmt::format("${{exception.{}}}: the exception has no field '{}' "
                                      "(it has: {})",
                                      field_, field_, fields.fieldNames()));
      } catch (...) {
        ex.fail(ErrorCode::EvaluationFailed, "Cannot evaluate simple expression");
      }
      return nullptr;
    } catch (...) {
    }
    return &nullValue();
  }

 private:
  std::string field_;
};

}  // namespace

ExprPtr parseExceptionFunction(Parser& parser, std::string_view fn) {
  if (fn == "exception" || fn == "exception.stacktrace") {
    // There are no stack traces in native code: the stacktrace is the whole description.
    return std::make_unique<ExceptionNode>(false);
  }
  if (fn == "exception.message" || fn == "exception.getMessage()") {
    return std::make_unique<ExceptionNode>(true);
  }
  std::string_view field = fn.substr(fn.find('.') + 1);
  // A Java getter as Camel's OGNL reads it: getStatusCode() is statusCode.
  if (field.size() > 5 && field.starts_with("get") && field.ends_with("()")) {
    std::string name(field.substr(3, field.size() - 5));
    name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
    return std::make_unique<ExceptionFieldNode>(std::move(name));
  }
  bool identifier = !field.empty() && std::isalpha(static_cast<unsigned char>(field[0]));
  for (char c : field) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') identifier = false;
  }
  if (!identifier) {
    parser.fail(field, fmt::format("unsupported '{}' on an exception", field),
                "use exception, exception.message, exception.stacktrace or exception.FIELD "
                "(a field of the exception, such as statusCode)");
  }
  return std::make_unique<ExceptionFieldNode>(std::string(field));
}

}  // namespace dromedary::simplelang
