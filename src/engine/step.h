// SPDX-License-Identifier: Apache-2.0
#pragma once

// Step: one compiled node of a route. Built-in steps never throw and never allocate in
// steady state; they return a Status and record failures on the exchange.

#include <string>

#include <dromedary/core/exchange.h>

namespace dromedary {

class Step {
 public:
  virtual ~Step() = default;
  virtual Status run(Exchange& exchange) noexcept = 0;

  std::string id;  // the node id: user-given, or <kind><n>
};

}  // namespace dromedary
