// SPDX-License-Identifier: Apache-2.0
#include "engine/exception_registry.h"

#include <fmt/format.h>

#include <stdexcept>
#include <system_error>

#include <dromedary/core/value.h>

namespace dromedary::detail {

ExceptionRegistry::ExceptionRegistry() {
  root_ = addType("Exception", nullptr, nullptr);
  for (const char* a : {"java.lang.Exception", "java.lang.Throwable", "Throwable",
                        "java.lang.RuntimeException", "RuntimeException"}) {
    by_name_.emplace(a, root_);
  }
  ExceptionType* std_exception = addType("std::exception", root_, &exceptionIs<std::exception>);
  ExceptionType* runtime =
      addType("std::runtime_error", std_exception, &exceptionIs<std::runtime_error>);
  ExceptionType* logic = addType("std::logic_error", std_exception, &exceptionIs<std::logic_error>);
  addType("std::invalid_argument", logic, &exceptionIs<std::invalid_argument>);
  addType("std::out_of_range", logic, &exceptionIs<std::out_of_range>);
  addType("std::system_error", runtime, &exceptionIs<std::system_error>);
  addType("std::bad_alloc", std_exception, &exceptionIs<std::bad_alloc>);
  (void)alias("java.lang.IllegalArgumentException", "std::invalid_argument");
  (void)alias("java.lang.IndexOutOfBoundsException", "std::out_of_range");
  (void)alias("java.lang.IllegalStateException", "std::logic_error");

  // The engine's errors. DromedaryException is what Result::value() throws; each error code
  // has a type named for what Camel would throw in the same situation.
  addType("dromedary.DromedaryException", runtime, &exceptionIs<DromedaryException>);
  // Errors a step records as a code (no C++ exception) are not std::exceptions: they sit
  // under their own node, as Camel's CamelExchangeException sits under Exception.
  ExceptionType* engine = addType("dromedary.EngineError", root_, nullptr);
  (void)alias("org.apache.camel.CamelExchangeException", "dromedary.EngineError");
  by_code_[ErrorCode::Internal] = engine;
  struct CodeType {
    ErrorCode code;
    const char* name;
    std::vector<const char*> aliases;
  };
  const CodeType code_types[] = {
      {ErrorCode::Timeout, "dromedary.ExchangeTimedOutException",
       {"org.apache.camel.ExchangeTimedOutException"}},
      {ErrorCode::NoConsumers, "dromedary.NoConsumersException",
       {"org.apache.camel.component.direct.DirectConsumerNotAvailableException",
        "org.apache.camel.component.seda.SedaConsumerNotAvailableException"}},
      {ErrorCode::EvaluationFailed, "dromedary.ExpressionEvaluationException",
       {"org.apache.camel.ExpressionEvaluationException"}},
      {ErrorCode::Io, "dromedary.IOException", {"java.io.IOException"}},
      {ErrorCode::LimitExceeded, "dromedary.RejectedExecutionException",
       {"java.util.concurrent.RejectedExecutionException",
        "org.apache.camel.processor.ThrottlerRejectedExecutionException"}},
      {ErrorCode::ProcessorFailed, "dromedary.ProcessorFailedException", {}},
      {ErrorCode::RouteNotStarted, "dromedary.RouteNotStartedException", {}},
      {ErrorCode::NotFound, "dromedary.NotFoundException", {}},
  };
  for (const CodeType& c : code_types) {
    ExceptionType* t = addType(c.name, engine, nullptr);
    by_code_[c.code] = t;
    for (const char* a : c.aliases) by_name_.emplace(a, t);
  }
  // A failed conversion is either an error code (built-in steps) or the TypeConversionError
  // Value::as throws in user code: one type for both.
  ExceptionType* conversion =
      addType("dromedary.TypeConversionException", runtime, &exceptionIs<TypeConversionError>);
  by_code_[ErrorCode::TypeConversion] = conversion;
  (void)alias("org.apache.camel.TypeConversionException", "dromedary.TypeConversionException");
  // validate's failure (eip/validate.cc names it): Camel's ValidationException, a
  // CamelExchangeException.
  if (ExceptionType* validation = addType("dromedary.ValidationException", engine, nullptr)) {
    by_name_.emplace("org.apache.camel.ValidationException", validation);
    ExceptionType* predicate =
        addType("dromedary.PredicateValidationException", validation, nullptr);
    for (const char* a : {"org.apache.camel.support.processor.validation.PredicateValidationException",
                          "org.apache.camel.processor.validation.PredicateValidationException"}) {
      by_name_.emplace(a, predicate);
    }
  }
  (void)alias("org.apache.camel.NoTypeConversionAvailableException",
              "dromedary.TypeConversionException");
  // The circuit breaker's failures (eip/circuit_breaker.cc names them), under Resilience4j's,
  // MicroProfile Fault Tolerance's and Java's names.
  const CodeType breaker_types[] = {
      {ErrorCode::Internal, "dromedary.CallNotPermittedException",
       {"io.github.resilience4j.circuitbreaker.CallNotPermittedException",
        "org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException"}},
      {ErrorCode::Internal, "dromedary.BulkheadFullException",
       {"io.github.resilience4j.bulkhead.BulkheadFullException",
        "org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException"}},
      {ErrorCode::Internal, "dromedary.TimeoutException",
       {"java.util.concurrent.TimeoutException",
        "org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException"}},
  };
  for (const CodeType& c : breaker_types) {
    ExceptionType* t = addType(c.name, runtime, nullptr);
    for (const char* a : c.aliases) by_name_.emplace(a, t);
  }
}

ExceptionType* ExceptionRegistry::addType(std::string name, ExceptionType* parent,
                                          ExceptionMatcher matcher) {
  ExceptionType& t = types_.emplace_back();
  t.name = std::move(name);
  t.parent = parent;
  t.matcher = matcher;
  if (parent) parent->children.push_back(&t);
  by_name_.emplace(t.name, &t);
  return &t;
}

Result<void> ExceptionRegistry::add(std::string name, std::string_view parent,
                                    ExceptionMatcher matcher) {
  if (find(name)) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("exception type '{}' is already registered", name));
  }
  auto it = by_name_.find(parent);
  if (it == by_name_.end()) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("cannot register exception type '{}': its parent '{}' is not "
                                 "a registered exception type",
                                 name, parent));
  }
  addType(std::move(name), it->second, matcher);
  return {};
}

Result<void> ExceptionRegistry::alias(std::string alias, std::string_view name) {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("cannot alias '{}': '{}' is not a registered exception type",
                                 alias, name));
  }
  if (!by_name_.emplace(std::move(alias), it->second).second) {
    return makeError(ErrorCode::InvalidOption, "the exception alias is already in use");
  }
  return {};
}

const ExceptionType* ExceptionRegistry::find(std::string_view name) const noexcept {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::vector<std::string> ExceptionRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, type] : by_name_) out.push_back(name);
  return out;
}

const ExceptionType* ExceptionRegistry::typeOf(const ExchangeError& error) const noexcept {
  if (!error.exception) {
    auto it = by_code_.find(error.code);
    return it == by_code_.end() ? root_ : it->second;
  }
  try {
    std::rethrow_exception(error.exception);
  } catch (const ThrownException& thrown) {
    return &thrown.type();  // throwException's: the type it names
  } catch (const NamedTypeException& named) {
    if (const ExceptionType* type = find(named.exceptionType())) return type;
  } catch (...) {
  }
  // Walk down from the root while a child matches: the deepest match is the closest type.
  const ExceptionType* current = root_;
  for (bool descended = true; descended;) {
    descended = false;
    for (const ExceptionType* child : current->children) {
      if (child->matcher && child->matcher(error.exception)) {
        current = child;
        descended = true;
        break;
      }
    }
  }
  return current;
}

int ExceptionRegistry::distance(const ExceptionType* type,
                                const ExceptionType* ancestor) noexcept {
  int d = 0;
  for (const ExceptionType* t = type; t; t = t->parent, ++d) {
    if (t == ancestor) return d;
  }
  return -1;
}

}  // namespace dromedary::detail
