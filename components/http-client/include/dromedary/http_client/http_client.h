// SPDX-License-Identifier: Apache-2.0
#pragma once

/// The http and https components: routes that call HTTP servers, as Camel's camel-http
/// (`to("https://api.example.com/orders?httpMethod=POST")`). The endpoint URI is the target;
/// options the component does not know are sent to the server as the request's query, as
/// Camel's are. docs/http.md lists the options, the headers read and set, and the threads.
///
/// A reply outside `okStatusCodeRange` (200-299) fails the exchange with an
/// HttpOperationFailedException, which routes name by Camel's class name in `onException`
/// and `doCatch` and read through `${exception.statusCode}`, `${exception.responseBody}` ...
///
/// Registered with every built-in component (registerBuiltinComponents), or alone:
///   registerHttpclientComponent(context);   // both "http" and "https"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include <dromedary/core/exception_fields.h>
#include <dromedary/core/value.h>

namespace dromedary {

class Context;

/// A reply whose status is not in the endpoint's okStatusCodeRange (with
/// throwExceptionOnFailure, the default): Camel's
/// org.apache.camel.http.base.HttpOperationFailedException, with the same fields.
class HttpOperationFailedException : public std::runtime_error, public ExceptionWithFields {
 public:
  HttpOperationFailedException(std::string uri, int status_code, std::string status_text,
                               std::string redirect_location,
                               std::map<std::string, std::string> response_headers,
                               std::string response_body);

  const std::string& uri() const noexcept { return uri_.getString(); }
  int statusCode() const noexcept { return static_cast<int>(status_code_.getInt()); }
  const std::string& statusText() const noexcept { return status_text_.getString(); }
  /// The Location of a 3xx reply, else empty.
  const std::string& redirectLocation() const noexcept { return redirect_.getString(); }
  bool isRedirectError() const noexcept { return statusCode() >= 300 && statusCode() < 400; }
  /// The reply's headers (the last of each name).
  const ValueMap& responseHeaders() const noexcept { return headers_.getMap(); }
  const std::string& responseBody() const noexcept { return body_.getString(); }

  // ExceptionWithFields: uri, statusCode, statusText, redirectLocation, redirectError,
  // responseHeaders, responseBody.
  const Value* field(std::string_view name) const noexcept override;
  std::string_view fieldNames() const noexcept override;

 private:
  Value uri_, status_code_, status_text_, redirect_, redirect_error_, headers_, body_;
};

/// Registers the "http" and "https" components and the exception types their failures have
/// (HttpOperationFailedException, and java.net's for connection failures and timeouts).
void registerHttpclientComponent(Context& context);

}  // namespace dromedary
