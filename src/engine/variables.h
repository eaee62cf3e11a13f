// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel 4's variables: an exchange's own (no prefix, or `header:`/`exchange:` names), the
// context's global ones (`global:name`) and each route's (`route:name` for the route the
// exchange is in, `route:ROUTEID:name` for another). Names are parsed once, when a route
// compiles; reading and writing then go straight to the right store.

#include <dromedary/core/exchange.h>
#include <dromedary/core/result.h>
#include <dromedary/core/value.h>

#include <memory>
#include <string>
#include <string_view>

#include "engine/step.h"

namespace dromedary {
class Context;
}

namespace dromedary::detail {

struct VariableName {
  enum class Scope : uint8_t { Exchange, Global, Route };
  Scope scope = Scope::Exchange;
  std::string name;     ///< without the prefix; "*" (remove only): all of that scope
  std::string routeId;  ///< Route scope: the route named, or empty for the exchange's own
  std::string text;     ///< as written, for errors
};

/// Parses a variable's name as Camel's ExchangeHelper does: `global:` and `route:` pick a
/// repository; `header:` and `exchange:` are the exchange's own; any other prefix is an error.
Result<VariableName> parseVariableName(std::string_view text);

/// Reads a variable into `out`; false when it is not set.
bool readVariable(const Exchange& exchange, const VariableName& name, Value& out);
/// Sets a variable (a Route variable without a route id uses the exchange's current route).
void writeVariable(Exchange& exchange, const VariableName& name, Value value);
/// Removes a variable, or every variable of its scope when its name is "*".
void eraseVariable(Exchange& exchange, const VariableName& name);

/// Camel's setVariableFromMessageBodyAndHeaders (variableReceive): the body into `name` and
/// each header H into `header:NAME.H`, on the exchange itself.
void setVariableFromMessage(Exchange& exchange, const VariableName& name, const Message& message);

/// The step a route whose from has variableReceive starts with: the incoming body into the
/// variable (headers to header:NAME.KEY), the body then null, as Camel's VariableAdvice.
Result<std::unique_ptr<Step>> makeFromVariableReceive(Context& context, std::string_view name);

/// The `camel.variable.*` properties, as Camel's main reads them: `camel.variable.NAME` is a
/// global variable and `camel.variable.route.ROUTEID.NAME` a route's; digits become integers
/// and true/false booleans, as Camel 4.8 does.
Result<void> applyVariableProperties(Context& context);

}  // namespace dromedary::detail
