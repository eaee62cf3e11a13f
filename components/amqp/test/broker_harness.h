// SPDX-License-Identifier: Apache-2.0
#pragma once

// A RouteHarness whose `amqp` component talks to the test RabbitMQ (scripts/amqp-brokers.sh,
// started by CTest's amqp_brokers fixture) and whose `amqpp` component talks to Qpid Proton's
// example broker (temporary reply queues). Queue names are unique per test and process.

#include <unistd.h>

#include <cstdlib>
#include <string>

#include <dromedary/amqp/amqp_component.h>

#include "support/route_harness.h"

namespace dromedary::testing {

inline std::string envOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

inline std::string rabbitUrl() {
  return "amqp://127.0.0.1:" + envOr("DROMEDARY_RABBITMQ_PORT", "25680");
}
inline std::string protonBrokerUrl() {
  return "amqp://127.0.0.1:" + envOr("DROMEDARY_PROTON_BROKER_PORT", "25682");
}

/// A queue name no other test or process uses.
inline std::string uniqueQueue(std::string_view base) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(base) + "." + (info ? info->name() : "x") + "." + std::to_string(::getpid());
}

class BrokerHarness : public RouteHarness {
 public:
  BrokerHarness() {
    context.properties().set("camel.component.amqp.remoteURI", rabbitUrl());
    context.properties().set("camel.component.amqp.queuePrefix", "/queue/");
    context.properties().set("camel.component.amqp.topicPrefix", "/topic/");
    AmqpConfig proton;
    proton.remoteUri = protonBrokerUrl();
    registerAmqpComponent(context, "amqpp", proton);
  }
};

}  // namespace dromedary::testing
