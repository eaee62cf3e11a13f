// SPDX-License-Identifier: Apache-2.0
#pragma once

// The models of error handlers, onException clauses and onCompletion, as the DSLs build
// them; compiled per route by compile_error_handler.cc.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dromedary/core/logging.h>
#include <dromedary/engine/error_handler.h>
#include <dromedary/engine/expression_builder.h>
#include <dromedary/spi/processor.h>

#include "engine/route_model.h"

namespace dromedary::detail {

/// Options left unset take the enclosing error handler's value (then Camel's default).
struct RedeliveryPolicyModel {
  std::optional<int> maximumRedeliveries;
  std::optional<int64_t> redeliveryDelayMs;
  std::optional<double> backOffMultiplier;
  std::optional<bool> useExponentialBackOff;
  std::optional<int64_t> maximumRedeliveryDelayMs;
  std::optional<bool> useCollisionAvoidance;
  std::optional<double> collisionAvoidanceFactor;
  std::optional<std::string> delayPattern;
  std::optional<LoggingLevel> retryAttemptedLogLevel;
  std::optional<LoggingLevel> retriesExhaustedLogLevel;
  std::optional<bool> logStackTrace;
  std::optional<bool> logRetryAttempted;
  std::optional<bool> logExhausted;
  std::optional<bool> logHandled;
  std::optional<bool> logContinued;
  std::optional<bool> logExhaustedMessageHistory;
  std::optional<bool> asyncDelayedRedelivery;
};

struct ErrorHandlerModel {
  ErrorHandlerDefinition::Kind kind = ErrorHandlerDefinition::Kind::Default;
  std::string deadLetterUri;
  RedeliveryPolicyModel policy;
  std::optional<PredicateDefinition> retryWhile;
  std::shared_ptr<Processor> onRedelivery;
  std::string onRedeliveryRef;  // a processor bound in the context (route files)
  bool useOriginalMessage = false;
  bool useOriginalBody = false;
  bool deadLetterHandleNewException = true;
  SourceRef where;
};

struct OnExceptionModel {
  std::vector<std::string> exceptions;  // type names; empty = every failure
  std::optional<PredicateDefinition> onWhen;
  std::optional<PredicateDefinition> handled;
  std::optional<PredicateDefinition> continued;
  std::optional<PredicateDefinition> retryWhile;
  RedeliveryPolicyModel policy;
  std::shared_ptr<Processor> onRedelivery;
  std::string onRedeliveryRef;
  bool useOriginalMessage = false;
  bool useOriginalBody = false;
  BlockModel body;
  SourceRef where;
};

struct OnCompletionModel {
  bool onCompleteOnly = false;
  bool onFailureOnly = false;
  std::optional<PredicateDefinition> onWhen;
  BlockModel body;
  SourceRef where;
};

/// What a route takes from its RouteBuilder (or route file's routeConfiguration): shared by
/// every route of the builder.
struct RouteConfigurationModel {
  std::shared_ptr<const ErrorHandlerModel> errorHandler;
  std::vector<std::shared_ptr<OnExceptionModel>> onExceptions;
  std::vector<std::shared_ptr<OnCompletionModel>> onCompletions;
};

}  // namespace dromedary::detail
