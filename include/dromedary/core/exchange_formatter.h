// SPDX-License-Identifier: Apache-2.0
#pragma once

// ExchangeFormatter: renders an exchange as Camel's DefaultExchangeFormatter does, e.g.
//   Exchange[ExchangePattern: InOnly, BodyType: String, Body: hello]
// Fields come in Camel's order (Id, RouteId, ExchangePattern, Properties, Headers,
// BodyType, Body, Exception); headers and properties sorted case-insensitively. Used by the
// log component and EIP, and by the tracer.

#include <dromedary/core/exchange.h>

#include <cstdint>
#include <string>

namespace dromedary {

struct ExchangeFormatOptions {
  bool showAll = false;
  bool showExchangeId = false;
  bool showRouteId = false;
  bool showExchangePattern = true;
  bool showProperties = false;
  bool showHeaders = false;
  bool showBodyType = true;
  bool showBody = true;
  bool showFiles = false;  ///< a file body's content (else "[Body is file based: ...]")
  bool showException = false;
  bool showStackTrace = false;
  bool multiline = false;
  bool skipBodyLineSeparator = true;
  bool plain = false;
  int64_t maxChars = 10000;  ///< each field cut to this many characters, then "..."
  enum class Style { Default, Tab, Fixed } style = Style::Default;
};

class ExchangeFormatter {
 public:
  explicit ExchangeFormatter(ExchangeFormatOptions options) : options_(options) {}
  /// Appends the rendering of `exchange` to `out` (which keeps its capacity between calls).
  void format(const Exchange& exchange, std::string& out) const;

 private:
  ExchangeFormatOptions options_;
};

}  // namespace dromedary
