// SPDX-License-Identifier: Apache-2.0
// throwException(exceptionType, message): fails the exchange with a failure of a type the
// context's exception registry knows, its text the message (Simple), as Camel's
// throwException. The error handler, onException and doCatch match it by that type.
#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/engine/expression_builder.h>

#include "core/scratch.h"
#include "eip/eip_schema.h"
#include "eip/models.h"
#include "engine/context_impl.h"
#include "engine/failure_path.h"
#include "engine/exception_registry.h"
#include "engine/compiled_route.h"

namespace dromedary::eip {

namespace {

class ThrowExceptionStep final : public Step {
 public:
  ThrowExceptionStep(const detail::ExceptionType& type, std::unique_ptr<Expression> message)
      : type_(type), message_(std::move(message)) {}

  // Throwing is this step's purpose: the exception is made (allocating) on this path only.
  Status run(Exchange& ex) noexcept override {
    try {
      std::string text = type_.name;
      if (message_) {
        ScratchValue scratch;
        const Value* v = message_->evaluate(ex, *scratch);
        if (!v) return Status::Fail;  // the expression recorded why
        text = v->toString();
      }
      ex.setException(std::make_exception_ptr(detail::ThrownException(type_, text)));
    } catch (...) {
      ex.setException(std::current_exception());
    }
    return Status::Fail;
  }

  bool mayBlock() const noexcept override { return message_ && message_->mayBlock(); }

 private:
  const detail::ExceptionType& type_;
  std::unique_ptr<Expression> message_;
};

}  // namespace

Result<std::unique_ptr<Step>> ThrowExceptionModel::compile(RouteCompiler& compiler) const {
  auto types = detail::resolveExceptionTypes(compiler.context(), {exceptionType},
                                             "throwException");
  if (!types) return compiler.error(*this, types.error());
  std::unique_ptr<Expression> text;
  if (!message.empty()) {
    auto e = simple(message).compile(compiler.context());
    if (!e) return compiler.error(*this, e.error());
    text = std::move(*e);
  }
  return std::unique_ptr<Step>(new ThrowExceptionStep(*types->front(), std::move(text)));
}

// The file DSLs' schema (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kThrowExceptionAliases[] = {"throw-exception"};
constexpr AttributeSchema kThrowExceptionAttributes[] = {
    {"exceptionType", AttributeType::Text, "",
     "The failure's type: a name the context knows (java.lang.IllegalArgumentException, "
     "std::runtime_error, one added with Context::registerExceptionType)",
     true},
    {"message", AttributeType::Text, "", "The failure's text, as Simple; default: the type"},
};
}  // namespace

extern const EipSchema kThrowExceptionSchema{
    .key = "throwException",
    .aliases = kThrowExceptionAliases,
    .description = "Fails the exchange with a failure of the given type and message, for the "
                   "error handler, onException and doCatch to take",
    .attributes = kThrowExceptionAttributes,
};

}  // namespace dromedary::eip
