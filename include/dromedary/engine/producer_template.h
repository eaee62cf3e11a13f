// SPDX-License-Identifier: Apache-2.0
#pragma once

/// ProducerTemplate: send to, or request from, any endpoint from user code.
///
/// Endpoint URIs given as strings are resolved once and cached (per thread, without a lock),
/// never re-parsed per call. Sends are synchronous: if the route suspends (waits on a
/// broker or a delay), the calling thread waits for the exchange to complete. The exchange
/// comes from the thread's pool, so `sendBody` to a route of built-in steps allocates
/// nothing once warm.
///
/// Example:
///   ProducerTemplate producer(context);
///   producer.sendBody("direct:orders", "order-1").value();
///   Result<Value> reply = producer.requestBody("direct:quote", "EURUSD");
///
/// Failures (no consumer, a failed exchange) come back as an Error: nothing is thrown.
/// Thread-safety: one template may be used from many threads.

#include <initializer_list>
#include <string_view>
#include <utility>

#include <dromedary/core/exchange.h>
#include <dromedary/core/result.h>
#include <dromedary/core/value.h>

namespace dromedary {

class Context;

class ProducerTemplate {
 public:
  explicit ProducerTemplate(Context& context) noexcept : context_(context) {}

  /// Sends `body` InOnly.
  Result<void> sendBody(std::string_view uri, const Value& body);
  Result<void> sendBody(std::string_view uri, std::string_view body);
  Result<void> sendBody(std::string_view uri, const char* body) {
    return sendBody(uri, std::string_view(body));
  }
  Result<void> sendBody(std::string_view uri, const std::string& body) {
    return sendBody(uri, std::string_view(body));
  }
  Result<void> sendBodyAndHeader(std::string_view uri, const Value& body,
                                 std::string_view name, const Value& value);
  Result<void> sendBodyAndHeaders(std::string_view uri, const Value& body,
                                  const Headers& headers);
  /// A text body is copied into the exchange's own buffer, without a Value made for it.
  Result<void> sendBodyAndHeaders(std::string_view uri, std::string_view body,
                                  const Headers& headers);
  Result<void> sendBodyAndHeaders(std::string_view uri, const char* body,
                                  const Headers& headers) {
    return sendBodyAndHeaders(uri, std::string_view(body), headers);
  }
  Result<void> sendBodyAndHeaders(std::string_view uri, const std::string& body,
                                  const Headers& headers) {
    return sendBodyAndHeaders(uri, std::string_view(body), headers);
  }
  /// Sends `body` InOut and returns the reply body.
  Result<Value> requestBody(std::string_view uri, const Value& body);
  Result<Value> requestBodyAndHeader(std::string_view uri, const Value& body,
                                     std::string_view name, const Value& value);
  /// Sends an exchange the caller prepared (its pattern is kept); on return it holds the
  /// result. A failure is both returned and left in the exchange's error slot.
  Result<void> send(std::string_view uri, Exchange& exchange);

  Context& context() const noexcept { return context_; }

 private:
  Context& context_;
};

}  // namespace dromedary
