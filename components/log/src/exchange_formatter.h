// SPDX-License-Identifier: Apache-2.0
#pragma once

// The log component's names for the exchange formatter (now in the core, shared with the
// tracer), and Camel's logMask.

#include <string>

#include <dromedary/core/exchange_formatter.h>

namespace dromedary::component::log {

using FormatOptions = ExchangeFormatOptions;
using dromedary::ExchangeFormatter;

/// Replaces the values of secrets in `line` with "xxxxxx", as Camel's logMask does: a value
/// after `password=`, `passphrase=`, `secretKey=` ... (up to `&`, `,`, `;`, a space or a
/// bracket) and the quoted value after `"password": ` in JSON; key names in any case.
void maskSecrets(std::string& line);

}  // namespace dromedary::component::log
