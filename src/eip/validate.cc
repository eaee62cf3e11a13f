// SPDX-License-Identifier: Apache-2.0
// validate(predicate): Camel's validate EIP. An exchange the predicate refuses fails with a
// PredicateValidationException naming the predicate, for the error handler; one it accepts
// goes on unchanged.
#include <stdexcept>

#include <fmt/format.h>

#include <dromedary/engine/exception_types.h>

#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

// The failure, of the registered type dromedary.PredicateValidationException (Camel's
// org.apache.camel.support.processor.validation.PredicateValidationException).
class PredicateValidationError final : public std::runtime_error, public NamedTypeException {
 public:
  using std::runtime_error::runtime_error;
  std::string_view exceptionType() const noexcept override {
    return "dromedary.PredicateValidationException";
  }
};

class ValidateStep final : public Step {
 public:
  ValidateStep(std::unique_ptr<Predicate> predicate, std::string text)
      : predicate_(std::move(predicate)), text_(std::move(text)) {}

  Status run(Exchange& ex) noexcept override {
    if (predicate_->matches(ex)) return Status::Continue;
    if (ex.failed()) return Status::Fail;  // the predicate itself failed: that is the error
    try {
      ex.setException(std::make_exception_ptr(
          PredicateValidationError(fmt::format("Validation failed for Predicate[{}]", text_))));
    } catch (...) {
      ex.setException(std::current_exception());
    }
    return Status::Fail;
  }

  bool mayBlock() const noexcept override { return predicate_->mayBlock(); }

 private:
  std::unique_ptr<Predicate> predicate_;
  std::string text_;
};

}  // namespace

Result<std::unique_ptr<Step>> ValidateModel::compile(RouteCompiler& compiler) const {
  auto p = predicate.compile(compiler.context());
  if (!p) return compiler.error(*this, p.error());
  return std::unique_ptr<Step>(new ValidateStep(std::move(*p), predicate.describe()));
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
extern const EipSchema kValidateSchema{
    .key = "validate",
    .description = "Fails the exchange with a PredicateValidationException unless the predicate "
                   "accepts it",
    .expression = ExpressionUse::Predicate,
};

}  // namespace dromedary::eip
