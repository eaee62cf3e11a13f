// SPDX-License-Identifier: Apache-2.0
#include <dromedary/engine/producer_template.h>

#include <dromedary/engine/context.h>

#include "engine/executor.h"
#include "engine/producer_cache.h"

namespace dromedary {

namespace {

Error failureOf(const Exchange& ex) {
  return makeError(ex.error().code, ex.error().message());
}

}  // namespace

Result<void> ProducerTemplate::send(std::string_view uri, Exchange& exchange) {
  Producer* producer = knownProducer(context_, uri);
  if (!producer) [[unlikely]] {
    auto resolved = cachedProducer(context_, uri);
    if (!resolved) return resolved.error();
    producer = *resolved;
  }
  detail::runAndWait(exchange, *producer);
  if (exchange.failed()) [[unlikely]] return failureOf(exchange);
  return {};
}

Result<void> ProducerTemplate::sendBody(std::string_view uri, const Value& body) {
  ExchangePtr ex = acquireExchange(&context_);
  ex->message().setBody(body);
  return send(uri, *ex);
}

Result<void> ProducerTemplate::sendBody(std::string_view uri, std::string_view body) {
  ExchangePtr ex = acquireExchange(&context_);
  ex->message().setBody(body);
  return send(uri, *ex);
}

Result<void> ProducerTemplate::sendBodyAndHeader(std::string_view uri, const Value& body,
                                                 std::string_view name, const Value& value) {
  ExchangePtr ex = acquireExchange(&context_);
  ex->message().setBody(body);
  ex->message().setHeader(name, value);
  return send(uri, *ex);
}

Result<void> ProducerTemplate::sendBodyAndHeaders(std::string_view uri, const Value& body,
                                                  const Headers& headers) {
  ExchangePtr ex = acquireExchange(&context_);
  ex->message().setBody(body);
  ex->message().headers() = headers;
  return send(uri, *ex);
}

Result<Value> ProducerTemplate::requestBody(std::string_view uri, const Value& body) {
  ExchangePtr ex = acquireExchange(&context_);
  ex->setPattern(Pattern::InOut);
  ex->message().setBody(body);
  auto sent = send(uri, *ex);
  if (!sent) return std::move(sent).error();
  return ex->message().body();
}

Result<Value> ProducerTemplate::requestBodyAndHeader(std::string_view uri, const Value& body,
                                                     std::string_view name,
                                                     const Value& value) {
  ExchangePtr ex = acquireExchange(&context_);
  ex->setPattern(Pattern::InOut);
  ex->message().setBody(body);
  ex->message().setHeader(name, value);
  auto sent = send(uri, *ex);
  if (!sent) return std::move(sent).error();
  return ex->message().body();
}

}  // namespace dromedary
