// SPDX-License-Identifier: Apache-2.0
#pragma once

// Camel's message history: the steps an exchange went through (kept in its FailureState when
// the context asks for it), shown on the error handler's exhausted log line.

#include <string>

#include <dromedary/core/exchange.h>

namespace dromedary {
class Step;
}

namespace dromedary::detail {

/// Before a step marked kStepHistory: records it in the message history.
void recordHistory(Exchange& exchange, const Step& step) noexcept;

/// The message history block of a failure log (Camel's "Message History").
std::string messageHistory(Exchange& exchange, const Step* failing);

}  // namespace dromedary::detail
