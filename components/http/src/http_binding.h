// SPDX-License-Identifier: Apache-2.0
#pragma once

// How an HTTP request becomes a message and an exchange's result becomes the response:
// Camel's HTTP binding (header names, filtering, status rules), without sockets, so that it
// is tested on its own.

#include <string>
#include <string_view>

#include <dromedary/core/exchange.h>

#include "http_server.h"

namespace dromedary::component::http {

/// Fills `message` from `request`: its headers (a repeated one as a list), CamelHttpMethod,
/// CamelHttpUri, CamelHttpPath, CamelHttpQuery/CamelHttpRawQuery, the query's and the path's
/// parameters (and a form body's fields) as headers, and the body as text (null when empty).
void requestToMessage(const Request& request, const PathParameters& pathParameters,
                      Message& message);

struct ResponseOptions {
  std::string_view produces;  ///< the Content-Type when the message sets none
  bool muteException = false;
  /// The headers as the request brought them in: those the route left as they were are not
  /// sent back (Camel echoes them; a client's Authorization or Cookie should not come back).
  const Headers* request = nullptr;
};

/// The response for a completed exchange: a failure is 500 with the error's text (none when
/// muted); else the status of CamelHttpResponseCode, or 200 (204 without a body); the body's
/// text; Content-Type from the message, else `produces`, else JSON for a map or list; the
/// message's other headers but Camel's own, HTTP's framing ones and those the request brought
/// that the route left unchanged.
Response exchangeToResponse(const Exchange& exchange, unsigned version,
                            const ResponseOptions& options);

/// Does the media type `type` (a Content-Type, parameters ignored) match one of the
/// comma-separated `accepted` ("application/json, text/*", "*/*")?
bool mediaTypeMatches(std::string_view type, std::string_view accepted) noexcept;

/// Does a client's `accept` (an Accept header) take one of the comma-separated `produced`?
bool acceptsOneOf(std::string_view accept, std::string_view produced) noexcept;

}  // namespace dromedary::component::http
