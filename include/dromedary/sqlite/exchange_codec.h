// SPDX-License-Identifier: Apache-2.0
#pragma once

/// A compact binary form of an exchange's pattern, headers, properties and body, for
/// repositories that store exchanges (library dromedary::sqlite; the sql component's
/// repositories use it too). Values keep their types (int stays int, bytes stay bytes); a user
/// object cannot be stored and fails the encoding, naming its type.

#include <string>
#include <string_view>

#include <dromedary/core/exchange.h>

namespace dromedary::sqlite {

/// Throws DromedaryException for a value that cannot be stored (a user object).
std::string encodeExchange(const Exchange& exchange);
/// Fills `exchange` (headers, properties, body, pattern); false when `data` is not an encoding.
bool decodeExchange(std::string_view data, Exchange& exchange);

}  // namespace dromedary::sqlite
