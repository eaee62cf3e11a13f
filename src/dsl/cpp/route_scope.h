// SPDX-License-Identifier: Apache-2.0
#pragma once

// An open block in RouteDefinition's fluent chain (route_builder.cc, error_handler_dsl.cc).

#include <dromedary/engine/route_builder.h>

#include "eip/models.h"
#include "engine/error_handler_model.h"
#include "engine/intercept.h"

namespace dromedary {

struct RouteDefinition::Scope {
  enum Kind {
    Root, Filter, Choice, When, Otherwise, OnException, Try, Catch, Finally, OnCompletion,
    CircuitBreaker, Fallback, Intercept,
    Block  // split, multicast, loop, pipeline: end() closes it
  } kind;
  detail::BlockModel* block;  // where steps go (null for Choice)
  eip::ChoiceModel* choice = nullptr;
  detail::OnExceptionModel* onException = nullptr;
  eip::TryModel* doTry = nullptr;  // for Try, Catch and Finally
  eip::TryModel::CatchModel* doCatch = nullptr;
  detail::OnCompletionModel* onCompletion = nullptr;
  eip::CircuitBreakerModel* circuitBreaker = nullptr;  // for CircuitBreaker and Fallback
  detail::InterceptModel* intercept = nullptr;
};

}  // namespace dromedary
