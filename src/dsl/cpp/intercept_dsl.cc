// SPDX-License-Identifier: Apache-2.0
// The C++ DSL's interceptors: intercept(), interceptFrom(), interceptSendToEndpoint() and
// their options, on a route or (for all its routes) a RouteBuilder.
#include "dsl/cpp/route_scope.h"

namespace dromedary {

namespace {

std::shared_ptr<detail::InterceptModel> interceptOf(detail::InterceptKind kind, std::string uri,
                                                    const SourceRef& where) {
  auto m = std::make_shared<detail::InterceptModel>();
  m->kind = kind;
  m->uri = std::move(uri);
  m->where = where;
  return m;
}

}  // namespace

RouteDefinition& RouteDefinition::intercept() {
  // A new interceptor closes one left open, as Camel's builder-level interceptors do:
  // interceptFrom("a*").to("x"); interceptFrom("b*").to("y"); are two clauses.
  if (scopes_.size() == 2 && scopes_.back().kind == Scope::Intercept) scopes_.pop_back();
  if (scopes_.back().kind != Scope::Root) {
    misuse("intercept() must be given at the top of a route, not inside a block");
    return *this;
  }
  auto m = interceptOf(detail::InterceptKind::Intercept, {}, model_->where);
  model_->more().intercepts.push_back(m);
  scopes_.push_back({Scope::Intercept, &m->body});
  scopes_.back().intercept = m.get();
  return *this;
}

RouteDefinition& RouteDefinition::interceptFrom(std::string uri_pattern) {
  intercept();
  if (scopes_.back().kind == Scope::Intercept) {
    scopes_.back().intercept->kind = detail::InterceptKind::InterceptFrom;
    scopes_.back().intercept->uri = std::move(uri_pattern);
  }
  return *this;
}

RouteDefinition& RouteDefinition::interceptSendToEndpoint(std::string uri_pattern) {
  if (uri_pattern.empty()) {
    misuse("interceptSendToEndpoint() needs the endpoint URI (or a pattern such as 'kafka*')");
    return *this;
  }
  intercept();
  if (scopes_.back().kind == Scope::Intercept) {
    scopes_.back().intercept->kind = detail::InterceptKind::InterceptSendToEndpoint;
    scopes_.back().intercept->uri = std::move(uri_pattern);
  }
  return *this;
}

RouteDefinition& RouteDefinition::skipSendToOriginalEndpoint(bool skip) {
  Scope& top = scopes_.back();
  if (top.kind != Scope::Intercept ||
      top.intercept->kind != detail::InterceptKind::InterceptSendToEndpoint) {
    misuse("skipSendToOriginalEndpoint() outside interceptSendToEndpoint()");
  } else {
    top.intercept->skipSendToOriginalEndpoint = skip;
  }
  return *this;
}

RouteDefinition& RouteDefinition::afterUri(std::string uri) {
  Scope& top = scopes_.back();
  if (top.kind != Scope::Intercept ||
      top.intercept->kind != detail::InterceptKind::InterceptSendToEndpoint) {
    misuse("afterUri() outside interceptSendToEndpoint()");
  } else {
    top.intercept->afterUri = std::move(uri);
  }
  return *this;
}

RouteDefinition& RouteBuilder::intercept() {
  if (!configuration_) configuration_ = std::make_unique<RouteDefinition>(std::string());
  return configuration_->intercept();
}

RouteDefinition& RouteBuilder::interceptFrom(std::string uri_pattern) {
  if (!configuration_) configuration_ = std::make_unique<RouteDefinition>(std::string());
  return configuration_->interceptFrom(std::move(uri_pattern));
}

RouteDefinition& RouteBuilder::interceptSendToEndpoint(std::string uri_pattern) {
  if (!configuration_) configuration_ = std::make_unique<RouteDefinition>(std::string());
  return configuration_->interceptSendToEndpoint(std::move(uri_pattern));
}

}  // namespace dromedary
