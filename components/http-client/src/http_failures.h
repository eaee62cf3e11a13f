// SPDX-License-Identifier: Apache-2.0
#pragma once

// How a request that got no reply fails: an exception of the kind Camel's HTTP client would
// throw (java.net.ConnectException, java.net.SocketTimeoutException ...), each registered
// under java.io.IOException, so that routes written for Camel catch them as they did.

#include <curl/curl.h>

#include <stdexcept>
#include <string>

#include <dromedary/engine/exception_types.h>

namespace dromedary {
class Context;
}

namespace dromedary::component::httpclient {

enum class IoFailureKind {
  Connect,
  ConnectTimeout,
  ConnectionRequestTimeout,  // no pooled connection free in time
  ResponseTimeout,
  UnknownHost,
  Tls,
  Other
};

class HttpIoFailure final : public std::runtime_error, public NamedTypeException {
 public:
  HttpIoFailure(IoFailureKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  IoFailureKind kind() const noexcept { return kind_; }
  /// java.net.ConnectException, java.net.SocketTimeoutException ... (all IOExceptions).
  std::string_view exceptionType() const noexcept override;

 private:
  IoFailureKind kind_;
};

/// The kind of a curl failure; `connect_phase` when no connection was made (a timeout then
/// is a connect timeout); `error` is curl's text (a TLS alert after the handshake is a read
/// error that names SSL).
IoFailureKind failureKind(CURLcode result, bool connect_phase, std::string_view error) noexcept;

/// Registers HttpOperationFailedException and the HttpIoFailure kinds under Camel's names.
void registerHttpExceptionTypes(Context& context);

}  // namespace dromedary::component::httpclient
