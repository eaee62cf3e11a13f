// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded HTTP/1.1 server of the platform-http component (Boost.Beast): one I/O thread
// accepts connections, reads requests (bounded in size), finds the route bound to the path and
// method, and writes the response the route's handler gives back, from whichever thread
// finishes it. Keep-alive connections, an idle deadline, 404/405/413 answered here.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <dromedary/core/result.h>
#include <dromedary/http/platform_http.h>

#include "path_template.h"

namespace dromedary::component::http {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;
using PathParameters = std::vector<std::pair<std::string, std::string>>;

// Boost 1.74's Beast has its own string_view: these cross over.
inline std::string_view sv(boost::beast::string_view s) noexcept { return {s.data(), s.size()}; }
inline boost::beast::string_view bsv(std::string_view s) noexcept { return {s.data(), s.size()}; }

/// A text/plain response of `status` whose body is `text` and a newline: how the server and
/// the binding answer by themselves (404, 405, 413, 500 ...).
Response textResponse(unsigned status, unsigned version, std::string_view text);

/// One request waiting for its response.
class HttpCall {
 public:
  virtual ~HttpCall() = default;
  virtual const Request& request() const noexcept = 0;
  virtual const PathParameters& pathParameters() const noexcept = 0;
  /// Sends the response; from any thread, once per call.
  virtual void respond(Response response) noexcept = 0;
};

/// What serves the requests of one binding (a platform-http consumer).
class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  /// On the server's I/O thread: must not block. `call` stays valid until respond().
  virtual void handle(HttpCall& call) noexcept = 0;
};

/// A path and methods served by a handler.
struct HttpBinding {
  PathTemplate path;
  bool prefix = false;               ///< matchOnUriPrefix
  std::vector<std::string> methods;  ///< upper case; empty: every method
  std::string owner;                 ///< the endpoint URI, for messages
  std::shared_ptr<HttpHandler> handler;

  bool allows(std::string_view method) const noexcept;
};

class HttpServer {
 public:
  explicit HttpServer(PlatformHttpConfig config);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds `binding`, starting to listen on the first call. Fails when the port cannot be
  /// bound, or another binding already serves the same path for one of the same methods.
  Result<void> add(std::shared_ptr<HttpBinding> binding);
  /// Unbinds it: its requests get 404 from now on; calls already handed to it complete.
  void remove(const HttpBinding* binding) noexcept;
  /// The port listened on; 0 before the first add.
  uint16_t port() const noexcept;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace dromedary::component::http
