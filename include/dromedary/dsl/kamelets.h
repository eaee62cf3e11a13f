// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Kamelets: Camel's route snippets with a typed parameter schema (`kind: Kamelet` files),
/// used from routes as `kamelet:NAME?property=value` and bound by Pipes. Route files load them
/// (see route_loader.h); this lists what can be found, for `dromedary kamelets`.
///
/// Kamelets are found, first match wins, among the route files loaded, in each folder of the
/// context's properties `dromedary.kamelets` (what `dromedary run --kamelets DIR` sets) and
/// `camel.component.kamelet.location` (comma lists, as Camel's), then among the Kamelets
/// Dromedary ships.

#include <string>
#include <string_view>

#include <dromedary/core/result.h>

namespace dromedary {

class Context;

/// Every Kamelet that can be found: a Markdown table of name, type, title and where it is.
Result<std::string> kameletList(Context& context);

/// One Kamelet's reference in Markdown: its title, type, where it was found, and its
/// properties (name, type, default, required, description); an error naming the closest name
/// when there is none.
Result<std::string> kameletReference(Context& context, std::string_view name);

}  // namespace dromedary
