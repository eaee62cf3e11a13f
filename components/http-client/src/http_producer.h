// SPDX-License-Identifier: Apache-2.0
#pragma once

// The http/https producer: what an endpoint's options decided (EndpointConfig, fixed when the
// endpoint is created) and the two halves of a request: building it from the exchange on the
// caller's thread, and mapping the reply onto the exchange on the loop thread.

#include <memory>
#include <mutex>
#include <string>

#include <dromedary/spi/component.h>
#include <dromedary/spi/header_filter_strategy.h>

#include "curl_loop.h"
#include "http_target.h"

namespace dromedary::component::httpclient {

struct EndpointConfig {
  std::string uri;  // the endpoint's, for errors
  Target target;
  std::string method;  // httpMethod, upper case; empty: Camel's rules
  StatusRanges okRanges;
  bool throwOnFailure = true;
  bool bridge = false;
  bool followRedirects = false;
  bool skipRequestHeaders = false;
  bool skipResponseHeaders = false;
  bool copyHeaders = true;
  bool ignoreResponseBody = false;
  bool disableStreamCache = false;  // the reply is never spooled to a file
  bool getWithBody = false;
  bool deleteWithBody = false;
  bool connectionClose = false;
  bool preserveHostHeader = false;
  long connectTimeoutMs = 0;   // 0: none
  long soTimeoutSeconds = 0;   // no byte for this long fails the request; 0: none
  long responseTimeoutMs = 0;  // the whole request; 0: none
  long connectionRequestTimeoutMs = 0;  // waiting for a connection from the pool; 0: none
  long authMask = 0;           // CURLAUTH_*; 0: no authentication
  std::string userPassword;    // "user:password" for authMask
  std::string bearerToken;
  std::string userAgent;
  std::string customHostHeader;
  std::string caFile, certFile, keyFile, keyPassword;
  bool verifyHost = true;
  std::string proxy, proxyUserPassword;
  std::shared_ptr<const HeaderFilterStrategy> filter;
  // Its requests made on a server I/O thread go out through that loop's DirectLane, not curl:
  // plain http asking nothing only curl does (no TLS, redirects, authentication, cookies or
  // proxy), unless dromedary.http.directClient=false.
  bool direct = false;
  // The endpoint's cookie store (Camel's in-memory BasicCookieStore per endpoint): a curl
  // share of cookies, used by the loops that run the endpoint's requests (the pool's thread
  // and the server I/O threads that send), under cookieMutex. Null with bridgeEndpoint (a
  // proxy keeps none, as Camel's NoopCookieStore).
  std::unique_ptr<std::mutex> cookieMutex;
  std::unique_ptr<CURLSH, void (*)(CURLSH*)> cookies{nullptr, [](CURLSH* s) {
                                                       curl_share_cleanup(s);
                                                     }};
  Context* context = nullptr;
  CurlPool* pool = nullptr;
};

class HttpProducer final : public Producer {
 public:
  explicit HttpProducer(const EndpointConfig& config) : config_(config) {}
  Status process(Exchange& exchange) noexcept override;
  /// Requests still in flight when the context stops (past its shutdown timeout) fail.
  void stop() noexcept override;
  // It hands the request to the loop thread and parks the exchange. It waits for the reply
  // only on a thread that waits for the exchange anyway (callerWaits), never on one that
  // resumed it (an I/O thread), so it never blocks a thread that would otherwise go on.
  bool mayBlock() const noexcept override { return false; }

 private:
  const EndpointConfig& config_;
};

/// Fills `transfer` with the request for `exchange`. False (the exchange failed, saying why)
/// when the message cannot be sent: a header that would split the request, a method the
/// CamelHttpMethod header does not name. Exposed for tests.
bool buildRequest(const EndpointConfig& config, Exchange& exchange, Transfer& transfer);

}  // namespace dromedary::component::httpclient
