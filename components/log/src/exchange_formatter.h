// SPDX-License-Identifier: Apache-2.0
#pragma once

// ExchangeFormatter: renders an exchange as Camel's DefaultExchangeFormatter does, e.g.
//   Exchange[ExchangePattern: InOnly, BodyType: String, Body: hello]
// Fields come in Camel's order (Id, RouteId, ExchangePattern, Properties, Headers,
// BodyType, Body, Exception); headers and properties sorted case-insensitively.

#include <string>

#include <dromedary/core/exchange.h>

namespace dromedary::component::log {

struct FormatOptions {
  bool showAll = false;
  bool showExchangeId = false;
  bool showRouteId = false;
  bool showExchangePattern = true;
  bool showProperties = false;
  bool showHeaders = false;
  bool showBodyType = true;
  bool showBody = true;
  bool showException = false;
  bool showStackTrace = false;
  bool multiline = false;
  bool skipBodyLineSeparator = true;
  bool plain = false;
  int64_t maxChars = 10000;
  enum class Style { Default, Tab, Fixed } style = Style::Default;
};

class ExchangeFormatter {
 public:
  explicit ExchangeFormatter(FormatOptions options) : options_(options) {}
  /// Appends the rendering of `exchange` to `out` (which keeps its capacity between calls).
  void format(const Exchange& exchange, std::string& out) const;

 private:
  FormatOptions options_;
};

/// Replaces the values of secrets in `line` with "xxxxxx", as Camel's logMask does: a value
/// after `password=`, `passphrase=`, `secretKey=` ... (up to `&`, `,`, `;`, a space or a
/// bracket) and the quoted value after `"password": ` in JSON; key names in any case.
void maskSecrets(std::string& line);

}  // namespace dromedary::component::log
