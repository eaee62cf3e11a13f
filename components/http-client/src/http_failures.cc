// SPDX-License-Identifier: Apache-2.0
#include "http_failures.h"

#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/http_client/http_client.h>

namespace dromedary {

HttpOperationFailedException::HttpOperationFailedException(
    std::string uri, int status_code, std::string status_text, std::string redirect_location,
    std::map<std::string, std::string> response_headers, std::string response_body)
    : std::runtime_error(
          redirect_location.empty()
              ? fmt::format("HTTP operation failed invoking {} with statusCode: {}", uri,
                            status_code)
              : fmt::format("HTTP operation failed invoking {} with statusCode: {}, "
                            "redirectLocation: {}",
                            uri, status_code, redirect_location)),
      uri_(std::move(uri)),
      status_code_(int64_t{status_code}),
      status_text_(std::move(status_text)),
      redirect_(std::move(redirect_location)),
      redirect_error_(status_code >= 300 && status_code < 400),
      body_(std::move(response_body)) {
  ValueMap headers;
  for (auto& [name, value] : response_headers) headers.emplace_back(name, Value(std::move(value)));
  headers_ = Value(std::move(headers));
}

const Value* HttpOperationFailedException::field(std::string_view name) const noexcept {
  if (name == "statusCode") return &status_code_;
  if (name == "statusText") return &status_text_;
  if (name == "uri") return &uri_;
  if (name == "redirectLocation") return &redirect_;
  if (name == "redirectError") return &redirect_error_;
  if (name == "responseHeaders") return &headers_;
  if (name == "responseBody") return &body_;
  return nullptr;
}

std::string_view HttpOperationFailedException::fieldNames() const noexcept {
  return "statusCode, statusText, uri, redirectLocation, redirectError, responseHeaders, "
         "responseBody";
}

namespace component::httpclient {

std::string_view HttpIoFailure::exceptionType() const noexcept {
  switch (kind_) {
    case IoFailureKind::Connect: return "java.net.ConnectException";
    case IoFailureKind::ConnectTimeout:
      return "org.apache.hc.client5.http.ConnectTimeoutException";
    case IoFailureKind::ConnectionRequestTimeout:
      return "org.apache.hc.core5.http.ConnectionRequestTimeoutException";
    case IoFailureKind::ResponseTimeout: return "java.net.SocketTimeoutException";
    case IoFailureKind::UnknownHost: return "java.net.UnknownHostException";
    case IoFailureKind::Tls: return "javax.net.ssl.SSLException";
    case IoFailureKind::Other: break;
  }
  return "dromedary.HttpIOException";
}

IoFailureKind failureKind(CURLcode result, bool connect_phase, std::string_view error) noexcept {
  switch (result) {
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      return error.find("SSL") != std::string_view::npos ? IoFailureKind::Tls
                                                          : IoFailureKind::Other;
    case CURLE_COULDNT_CONNECT: return IoFailureKind::Connect;
    case CURLE_COULDNT_RESOLVE_HOST: return IoFailureKind::UnknownHost;
    case CURLE_OPERATION_TIMEDOUT:
      return connect_phase ? IoFailureKind::ConnectTimeout : IoFailureKind::ResponseTimeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      return IoFailureKind::Tls;
    default: return IoFailureKind::Other;
  }
}

void registerHttpExceptionTypes(Context& context) {
  // Registered once per context (http and https share them); a second call finds them.
  if (context.registerExceptionType<HttpOperationFailedException>(
          "org.apache.camel.http.base.HttpOperationFailedException", "std::runtime_error")) {
    (void)context.aliasExceptionType("org.apache.camel.http.common.HttpOperationFailedException",
                                     "org.apache.camel.http.base.HttpOperationFailedException");
    (void)context.aliasExceptionType("HttpOperationFailedException",
                                     "org.apache.camel.http.base.HttpOperationFailedException");
  }
  // HttpIoFailure names its type (NamedTypeException): these need no matcher.
  for (const char* name : {"java.net.ConnectException",
                           "org.apache.hc.client5.http.ConnectTimeoutException",
                           "org.apache.hc.core5.http.ConnectionRequestTimeoutException",
                           "java.net.SocketTimeoutException", "java.net.UnknownHostException",
                           "javax.net.ssl.SSLException", "dromedary.HttpIOException"}) {
    (void)context.registerExceptionType(name, "java.io.IOException", nullptr);
  }
  (void)context.aliasExceptionType("org.apache.hc.client5.http.HttpHostConnectException",
                                   "java.net.ConnectException");
  (void)context.aliasExceptionType("javax.net.ssl.SSLHandshakeException",
                                   "javax.net.ssl.SSLException");
}

}  // namespace component::httpclient
}  // namespace dromedary
