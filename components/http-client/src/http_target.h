// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a request goes and how: the endpoint's target URL split from its options, the URL of
// one exchange's request (Camel's CamelHttpUri, CamelHttpPath and CamelHttpQuery headers),
// the method (Camel's HttpMethodHelper rules) and the ok status ranges. Pure functions over
// text, computed once at endpoint creation or per message without allocating once warm.

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dromedary/core/message.h>
#include <dromedary/core/result.h>
#include <dromedary/spi/option_table.h>

namespace dromedary::component::httpclient {

/// The endpoint's target: `scheme://authority/path` and the raw query the server gets.
struct Target {
  std::string base;   ///< "http://host:8080/orders" (no query, no fragment)
  std::string query;  ///< raw, without '?': the URI's options the component does not take
};

/// Splits an endpoint URI ("http://host/a?x=1&httpMethod=GET", as written: the Uri sorts its
/// options, the server gets them in the order written) into the target; options `specs` names
/// are left out. Characters a URL may not hold (spaces, quotes ...) are percent-encoded; a
/// RAW(...) value is sent encoded. Errors: no host.
Result<Target> targetOf(std::string_view scheme, std::string_view uri_text,
                        std::span<const OptionSpec> specs);

/// ASCII case-insensitive equality (header and option names).
bool equalsIgnoreCaseAscii(std::string_view a, std::string_view b) noexcept;

/// Percent-encodes what a URL may not hold as written (space, ", <, >, \, ^, `, {, |, },
/// control and non-ASCII bytes), leaving '%' escapes and reserved characters as they are.
void appendUrlSafe(std::string& out, std::string_view text);

/// toD's split of a URI computed per exchange (Camel's HttpSendDynamicAware): the endpoint
/// "scheme://authority?options" (the component's options only, as written), the path and the
/// query the server gets; buffers reused. False (nothing split) for a URI with userinfo, a
/// fragment or a RAW(...) value, which is sent as it is.
bool splitDynamicUri(std::string_view uri, std::span<const OptionSpec> specs,
                     std::string& endpoint, std::string& path, std::string& query) noexcept;

/// The URL for one request, into `out`: the CamelHttpUri header instead of the endpoint's
/// base unless `bridge`, then the CamelHttpPath header appended with one '/', then the query:
/// CamelHttpRawQuery, else CamelHttpQuery, else the endpoint's (or CamelHttpUri's own).
void requestUrl(const Target& target, const Message& message, bool bridge, std::string& out);

/// The pool's route of a request URL, into `out` (its capacity kept): "scheme://host:port",
/// without userinfo, path, query or fragment; a URL without a port gets its scheme's (443 for
/// https, else 80), so that http://h and http://h:80 share their leases.
void poolKeyOf(std::string_view url, std::string& out);

/// Whether the request has a query (which makes Camel's default method GET).
bool hasQuery(const Target& target, const Message& message, bool bridge) noexcept;

/// The method: the endpoint's httpMethod, else the CamelHttpMethod header, else GET when
/// there is a query, else POST with a body and GET without. Empty when the header names no
/// method.
std::string_view requestMethod(std::string_view configured, const Message& message,
                               bool has_query) noexcept;

/// Camel's okStatusCodeRange: "200-299", "200-299,304", "200,201".
using StatusRanges = std::vector<std::pair<int, int>>;
Result<StatusRanges> parseStatusRanges(std::string_view text);
bool statusIsOk(const StatusRanges& ranges, int status) noexcept;

}  // namespace dromedary::component::httpclient
