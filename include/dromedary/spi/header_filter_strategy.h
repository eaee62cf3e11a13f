// SPDX-License-Identifier: Apache-2.0
#pragma once

/// HeaderFilterStrategy: which headers cross a transport's boundary, as Camel's. A component
/// asks it for every header it maps, inbound (a request's headers, query parameters and form
/// fields; a broker message's properties) and outbound (a message's headers into a response
/// or a sent message). The default keeps Camel's own headers (Camel*, org.apache.camel.*,
/// matched ignoring case) inside the engine in both directions: a client cannot set the
/// headers the engine acts on (CamelHttpResponseCode, CamelHttpMethod ...), and the engine's
/// do not leak out. See Camel's advisories CVE-2025-27636 and CVE-2025-29891 for why.
///
/// An endpoint takes another one bound to a name: `headerFilterStrategy=#name`, with
/// Context::bindHeaderFilterStrategy("name", ...) in C++.
///
/// Example:
///   auto strategy = std::make_shared<DefaultHeaderFilterStrategy>();
///   strategy->setInFilter({"Authorization", "Cookie"});  // Camel's prefixes and these two
///   context.bindHeaderFilterStrategy("noCredentials", strategy);
///   b.from("platform-http:/orders?headerFilterStrategy=#noCredentials")...
///
/// Thread-safety: called from any thread at once, after the routes using it have started;
/// configure a strategy before binding it.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/core/value.h>

namespace dromedary {

class Context;

class HeaderFilterStrategy {
 public:
  virtual ~HeaderFilterStrategy() = default;
  /// Outbound: true when the message's header `name` must not be sent.
  virtual bool applyFilterToCamelHeaders(std::string_view name, const Value& value) const
      noexcept = 0;
  /// Inbound: true when the transport's header `name` must not become a message header.
  virtual bool applyFilterToExternalHeaders(std::string_view name, const Value& value) const
      noexcept = 0;
};

/// Camel's DefaultHeaderFilterStrategy, with Camel's prefixes set in both directions and every
/// name and prefix matched ignoring case (Camel compares prefixes by case, which is how its
/// advisories' "CAmelExecCommandExecutable" got through).
class DefaultHeaderFilterStrategy : public HeaderFilterStrategy {
 public:
  /// The prefixes of the engine's own headers.
  static std::vector<std::string> camelPrefixes() { return {"Camel", "org.apache.camel."}; }

  DefaultHeaderFilterStrategy();

  /// Names filtered inbound / outbound (whole names, ignoring case).
  void setInFilter(std::vector<std::string> names) { in_.names = std::move(names); }
  void setOutFilter(std::vector<std::string> names) { out_.names = std::move(names); }
  /// Prefixes filtered inbound / outbound (ignoring case); camelPrefixes() by default.
  void setInFilterStartsWith(std::vector<std::string> p) { in_.prefixes = std::move(p); }
  void setOutFilterStartsWith(std::vector<std::string> p) { out_.prefixes = std::move(p); }
  /// true (the default): a header matched by a name or prefix is filtered out. false: only
  /// the matched headers pass, every other one is filtered out.
  void setFilterOnMatch(bool filter_on_match) noexcept { filterOnMatch_ = filter_on_match; }
  /// false (the default): a header whose value is null is filtered out.
  void setAllowNullValues(bool allow) noexcept { allowNullValues_ = allow; }

  const std::vector<std::string>& inFilter() const noexcept { return in_.names; }
  const std::vector<std::string>& outFilter() const noexcept { return out_.names; }
  const std::vector<std::string>& inFilterStartsWith() const noexcept { return in_.prefixes; }
  const std::vector<std::string>& outFilterStartsWith() const noexcept { return out_.prefixes; }

  // HeaderFilterStrategy
  bool applyFilterToCamelHeaders(std::string_view name, const Value& value) const
      noexcept override;
  bool applyFilterToExternalHeaders(std::string_view name, const Value& value) const
      noexcept override;

 private:
  struct Rules {
    std::vector<std::string> names;
    std::vector<std::string> prefixes;
    bool matches(std::string_view name) const noexcept;
  };
  bool filtered(const Rules& rules, std::string_view name, const Value& value) const noexcept;

  Rules in_;
  Rules out_;
  bool filterOnMatch_ = true;
  bool allowNullValues_ = false;
};

/// What an endpoint's `headerFilterStrategy` option (`#name` or `name`) names in `context`, or
/// `fallback` when `option` is empty. Fails, naming `endpoint_uri` and the name, when no
/// strategy is bound to it.
Result<std::shared_ptr<const HeaderFilterStrategy>> headerFilterStrategyOption(
    const Context& context, std::string_view option, std::string_view endpoint_uri,
    std::shared_ptr<const HeaderFilterStrategy> fallback);

}  // namespace dromedary
