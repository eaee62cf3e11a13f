// SPDX-License-Identifier: Apache-2.0
#pragma once

// How an HTTP request becomes a message and an exchange's result becomes the response:
// Camel's HTTP binding (header names, filtering, status rules), without sockets, so that it
// is tested on its own.

#include <string>
#include <string_view>

#include <memory>

#include <dromedary/core/exchange.h>
#include <dromedary/spi/header_filter_strategy.h>

#include "http_router.h"

namespace dromedary::component::http {

/// Camel's HttpHeaderFilterStrategy: Camel's own headers kept in both ways (ignoring case),
/// and HTTP's framing and hop-by-hop headers not sent (the server sets those). Shared.
std::shared_ptr<const HeaderFilterStrategy> httpHeaderFilterStrategy();

/// Fills `message` from `request`: its headers (a repeated one as a list), the query's
/// parameters and a form body's fields as headers, each unless `filter` keeps it out; then
/// the engine's own, which win over anything the client sent: CamelHttpMethod, CamelHttpUri,
/// CamelHttpPath, CamelHttpQuery/CamelHttpRawQuery and the path's parameters; and the body as
/// text (null when empty).
void requestToMessage(const Request& request, const PathParameters& pathParameters,
                      const HeaderFilterStrategy& filter, Message& message);

struct ResponseOptions {
  std::string_view produces;  ///< the Content-Type when the message sets none
  bool muteException = false;
  /// The headers as the request brought them in: those the route left as they were are not
  /// sent back (Camel echoes them; a client's Authorization or Cookie should not come back).
  const Headers* request = nullptr;
  /// Which of the message's headers are not sent; httpHeaderFilterStrategy() when null.
  const HeaderFilterStrategy* filter = nullptr;
};

/// The response for a completed exchange: a failure is 500 with the error's text (none when
/// muted); else the status of CamelHttpResponseCode, or 200 (204 without a body); the body's
/// text; Content-Type from the message, else `produces`, else JSON for a map or list; the
/// message's other headers but those the filter keeps in and those the request brought that
/// the route left unchanged.
Response exchangeToResponse(const Exchange& exchange, unsigned version,
                            const ResponseOptions& options);

/// Does the media type `type` (a Content-Type, parameters ignored) match one of the
/// comma-separated `accepted` ("application/json, text/*", "*/*")?
bool mediaTypeMatches(std::string_view type, std::string_view accepted) noexcept;

/// Does a client's `accept` (an Accept header) take one of the comma-separated `produced`?
bool acceptsOneOf(std::string_view accept, std::string_view produced) noexcept;

}  // namespace dromedary::component::http
