// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Data formats: what Camel's `marshal` and `unmarshal` steps turn a body into and back
/// (`marshal: {json: {prettyPrint: true}}`). A DataFormatFactory is registered with the
/// context under the format's names (json, and Camel's library names jackson, gson ...);
/// when a route starts, each marshal/unmarshal step makes its DataFormat from the step's
/// options, so options are checked once, and a bad one fails the start naming it.
///
/// Example (a data format in a component's folder):
///   class Upper final : public DataFormat {
///     bool marshal(Exchange& ex) noexcept override { ... ex.message().setBody(...); ... }
///     bool unmarshal(Exchange& ex) noexcept override { ... }
///   };
///   context.addDataFormat("upper", std::make_shared<UpperFactory>());

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/spi/option_table.h>

namespace dromedary {

class Context;
class Exchange;

/// One marshal or unmarshal step's format, shared by every exchange through the step (both
/// functions must be thread-safe).
class DataFormat {
 public:
  virtual ~DataFormat() = default;
  /// Replaces the message's body with its marshalled form (text or bytes). On failure, fails
  /// the exchange (Exchange::failWithDetail) and returns false: the error handler decides.
  virtual bool marshal(Exchange& exchange) noexcept = 0;
  /// Replaces the message's body (text or bytes) with what it holds; as marshal on failure.
  virtual bool unmarshal(Exchange& exchange) noexcept = 0;
};

/// Data format options as a step gives them: name -> value, as written.
using DataFormatOptions = std::map<std::string, std::string, std::less<>>;

class DataFormatFactory {
 public:
  virtual ~DataFormatFactory() = default;
  /// The options the format takes (name, type, default, description), for docs and errors.
  virtual std::span<const OptionSpec> options() const = 0;
  /// A format configured by `options` (names checked against options()); `context` for
  /// logging a warning about an option accepted but without effect.
  virtual Result<std::unique_ptr<DataFormat>> create(Context& context,
                                                     const DataFormatOptions& options) const = 0;
};

}  // namespace dromedary
