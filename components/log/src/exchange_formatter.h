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
  bool show_all = false;
  bool show_exchange_id = false;
  bool show_route_id = false;
  bool show_exchange_pattern = true;
  bool show_properties = false;
  bool show_headers = false;
  bool show_body_type = true;
  bool show_body = true;
  bool show_exception = false;
  bool show_stack_trace = false;
  bool multiline = false;
  bool skip_body_line_separator = true;
  bool plain = false;
  int64_t max_chars = 10000;
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

}  // namespace dromedary::component::log
