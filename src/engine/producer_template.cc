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

// A URI this thread has not sent to yet: resolve it, then send. Out of line, as is the
// failure's Result, so that a send to a known URI keeps a small frame.
[[gnu::noinline]] Result<void> sendResolving(Context& context, std::string_view uri,
                                             Exchange& exchange) {
  auto resolved = cachedProducer(context, uri);
  if (!resolved) return resolved.error();
  detail::runAndWait(exchange, **resolved);
  if (exchange.failed()) return failureOf(exchange);
  return {};
}

[[gnu::noinline]] Result<void> failureResult(const Exchange& exchange) {
  return failureOf(exchange);
}

}  // namespace

Result<void> ProducerTemplate::send(std::string_view uri, Exchange& exchange) {
  Producer* producer = knownProducer(context_, uri);
  if (!producer) [[unlikely]] return sendResolving(context_, uri, exchange);
  detail::runAndWait(exchange, *producer);
  if (exchange.failed()) [[unlikely]] return failureResult(exchange);
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

Result<void> ProducerTemplate::sendBodyAndHeaders(std::string_view uri, std::string_view body,
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
